import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, pgServerReason } from "./_postgres";

// The built package, loaded as an application that installed it loads it, in both module
// formats: `pg` is found lazily from dist/ when installed, and its absence is one clear error.
const root = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);

/** Creates, reads and counts through whichever store `make` returns, then prints JSON. */
const exercise = (make: string) => `
const store = ${make};
const account = await store.createAccount({ id: crypto.randomUUID(), name: "dist-" + crypto.randomUUID(), plan: "starter", now: 1 });
const found = await store.findAccountByName(account.name);
await store.close();
process.stdout.write(JSON.stringify({ kind: store.kind, same: found.id === account.id }));
`;

/** Runs `body` as an ES module (`esm`) or inside an async CommonJS function (`cjs`). */
async function node(format: "esm" | "cjs", load: string, body: string, cwd = root) {
  const args =
    format === "esm"
      ? ["--input-type=module", "-e", `${load}\n${body}`]
      : [
          "-e",
          `(async () => { ${load}\n${body} })().catch((e) => { console.error(e); process.exit(1); })`,
        ];
  // Without NODE_PATH: package managers set it to their store, where pg would be found.
  const { NODE_PATH: _, ...env } = process.env;
  const { stdout } = await run(process.execPath, args, { cwd, env });
  return JSON.parse(stdout) as Record<string, unknown>;
}

const LOAD = {
  esm: 'import { postgresStore } from "./dist/postgres.js";',
  cjs: 'const { postgresStore } = require("./dist/postgres.cjs");',
};

/** The adapters and the contract's error class, each from its own entry of the package. */
const FROM_PACKAGE = {
  esm: `import { StoreError } from "@tminus/store";
import { sqliteStore } from "@tminus/store/sqlite";
import { postgresStore } from "@tminus/store/postgres";`,
  cjs: `const { StoreError } = require("@tminus/store");
const { sqliteStore } = require("@tminus/store/sqlite");
const { postgresStore } = require("@tminus/store/postgres");`,
};

const missing = await pgServerReason();
if (missing && process.env.CI === "true") throw new Error(`CI needs PostgreSQL: ${missing}`);

describe("the built package", () => {
  describe.skipIf(missing !== null)("with pg installed", () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    beforeAll(async () => {
      database = await createTestDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });

    for (const format of ["esm", "cjs"] as const) {
      it(`loads pg lazily and works on PostgreSQL from the ${format} build`, async () => {
        const make = `postgresStore({ connectionString: ${JSON.stringify(database.url)} })`;
        expect(await node(format, LOAD[format], exercise(make))).toEqual({
          kind: "postgres",
          same: true,
        });
      });
    }
  });

  /** An application with @tminus/store installed and, of its optional peers, only `peers`. */
  async function appWith(peers: string[]): Promise<string> {
    const app = await mkdtemp(join(tmpdir(), "tminus-store-app-"));
    const pkg = join(app, "node_modules", "@tminus", "store");
    await mkdir(pkg, { recursive: true });
    await cp(join(root, "dist"), join(pkg, "dist"), { recursive: true });
    await cp(join(root, "package.json"), join(pkg, "package.json"));
    for (const peer of peers) {
      await symlink(
        await realpath(join(root, "node_modules", peer)),
        join(app, "node_modules", peer),
      );
    }
    await writeFile(join(app, "package.json"), '{ "name": "app", "private": true }');
    return app;
  }

  describe("without pg installed", () => {
    // An application that installed @tminus/store and better-sqlite3 but not pg.
    let app: string;
    beforeAll(async () => {
      app = await appWith(["better-sqlite3"]);
    });
    afterAll(async () => {
      await rm(app, { recursive: true, force: true });
    });

    const tryPostgres = `
let error;
try { postgresStore({ connectionString: "postgres://127.0.0.1:1/none" }); } catch (e) { error = e; }
const sqlite = await (async () => { ${exercise('sqliteStore({ path: ":memory:" })').replace("process.stdout.write", "return ")} })();
// The adapter entries share the contract's classes with the main entry (one StoreError).
const twice = sqliteStore({ path: ":memory:" });
const again = () => twice.createAccount({ id: crypto.randomUUID(), name: "same", plan: "starter", now: 1 });
await again();
const conflict = await again().catch((e) => e);
const sameClass = conflict instanceof StoreError && conflict.code === "conflict";
process.stdout.write(JSON.stringify({ name: error?.name, code: error?.code, message: error?.message, sqlite, sameClass }));
`;

    for (const format of ["esm", "cjs"] as const) {
      it(`SQLite works and postgresStore says how to install pg (${format})`, async () => {
        const out = await node(format, FROM_PACKAGE[format], tryPostgres, app);
        expect(out).toMatchObject({
          name: "PostgresStoreError",
          code: "driver_missing",
          sqlite: JSON.stringify({ kind: "sqlite", same: true }),
          sameClass: true,
        });
        expect(out.message).toContain("npm install pg");
        expect(out.message).not.toContain("\n");
      });
    }
  });

  describe("without better-sqlite3 installed", () => {
    // An application on PostgreSQL: no native module. Loading the package and its postgres
    // entry needs none; only opening a SQLite file asks for the driver, in one line.
    let app: string;
    beforeAll(async () => {
      app = await appWith(["pg"]);
    });
    afterAll(async () => {
      await rm(app, { recursive: true, force: true });
    });

    const trySqlite = `
let error;
try { sqliteStore({ path: ":memory:" }); } catch (e) { error = e; }
const store = postgresStore({ connectionString: "postgres://127.0.0.1:1/none" });
await store.close();
process.stdout.write(JSON.stringify({ message: error?.message, kind: store.kind, contract: typeof StoreError }));
`;

    for (const format of ["esm", "cjs"] as const) {
      it(`the postgres entry loads and sqliteStore says how to install better-sqlite3 (${format})`, async () => {
        const out = await node(format, FROM_PACKAGE[format], trySqlite, app);
        expect(out).toEqual({
          message: expect.stringContaining("npm install better-sqlite3"),
          kind: "postgres",
          contract: "function",
        });
        expect(out.message).not.toContain("\n");
      });
    }
  });
});
