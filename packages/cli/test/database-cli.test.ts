// `--db` as a PostgreSQL URL or a SQLite path, `tminus migrate`, and every start-up failure a
// user can cause as one line and exit 1: the built binary against the real server.
import { execFile } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parseDatabaseTarget } from "../src/database";
import {
  cli,
  createTestDatabase,
  describeWithPostgres,
  PG_URL,
  serve,
  stop,
  stopAll,
  tminus,
} from "./_processes";

const describePg = await describeWithPostgres();

/** Exactly one line on stderr, starting with `tminus:`, and no stack trace. */
function expectOneLine(res: { code: number; stderr: string }, pattern: RegExp) {
  expect(res.code).toBe(1);
  const lines = res.stderr.trim().split("\n");
  expect(lines, res.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^tminus: /);
  expect(lines[0]).toMatch(pattern);
  expect(res.stderr).not.toContain("    at ");
}

describePg("tminus on PostgreSQL: --db URLs, migrate, refusals", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dir = "";
  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), "tminus-dbcli-"));
  });
  afterAll(async () => {
    await stopAll();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh schema of the file's database, as a URL whose search_path points at it. */
  async function freshSchema(): Promise<string> {
    const schema = `s_${Math.random().toString(36).slice(2)}`;
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.end();
    const url = new URL(database.url);
    url.searchParams.set("options", `-c search_path=${schema}`);
    return url.toString();
  }

  async function setVersion(url: string, version: number) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      "INSERT INTO tminus_schema_migrations (version, name) VALUES ($1, 'from the future')",
      [version],
    );
    await client.end();
  }

  it("migrate applies every migration once; serve --no-migrate refuses an unmigrated database", async () => {
    const url = await freshSchema();
    const refused = await tminus(["serve", "--port", "0", "--no-migrate", "--db", url]);
    expectOneLine(refused, /schema is at version 0, this code needs \d+; run `tminus migrate`$/);
    const first = await tminus(["migrate", "--db", url, "--json"]);
    expect(first.code, first.stderr).toBe(0);
    const applied = JSON.parse(first.stdout);
    expect(applied).toMatchObject({ kind: "postgres", from: 0 });
    expect(applied.applied.length).toBeGreaterThan(0);
    expect(applied.applied.at(-1)).toBe(applied.to);
    const again = JSON.parse((await tminus(["migrate", "--db", url, "--json"])).stdout);
    expect(again).toMatchObject({ from: applied.to, to: applied.to, applied: [] });
    const text = await tminus(["migrate", "--db", url]);
    expect(text.stdout).toMatch(/schema at version \d+ \(nothing to apply\)/);
    // Now current: serve starts without migrating.
    const running = await serve(["--no-migrate", "--no-worker", "--pool-size", "2", "--db", url]);
    // JSON logs (stdout is a pipe): the secrets are in the keys file, the log says where.
    expect(running.output()).toContain(`"event":"first_start_keys"`);
    // Key prefixes are logged; a whole secret never is.
    expect(running.output()).not.toMatch(/svc_(test|live)_\w{20,}/);
    await stop(running.child);
  });

  it("serve, worker, migrate and keys refuse a database with a newer schema, in one line", async () => {
    const url = await freshSchema();
    expect((await tminus(["migrate", "--db", url])).code).toBe(0);
    await setVersion(url, 9999);
    for (const args of [
      ["serve", "--port", "0"],
      ["worker"],
      ["migrate"],
      ["keys", "list"],
      ["serve", "--port", "0", "--no-migrate"],
    ]) {
      const res = await tminus([...args, "--db", url]);
      expectOneLine(
        res,
        /schema is at version 9999, newer than this code knows \(\d+\); upgrade tminus$/,
      );
    }
  });

  it("a server that refuses, a missing database, a wrong scheme or URL: one line each", async () => {
    const refused = new URL(PG_URL);
    refused.port = "1";
    refused.pathname = "/tminus";
    expectOneLine(
      await tminus(["serve", "--port", "0", "--db", refused.toString()]),
      /cannot connect to PostgreSQL at .+:1: connection refused/,
    );
    const missing = new URL(database.url);
    missing.pathname = "/tminus_no_such_database";
    expectOneLine(
      await tminus(["worker", "--db", missing.toString()]),
      /no database "tminus_no_such_database"/,
    );
    expectOneLine(
      await tminus(["keys", "list", "--db", "mysql://x/y"]),
      /unsupported database URL scheme/,
    );
    const bare = new URL(database.url);
    bare.pathname = "/";
    expectOneLine(await tminus(["accounts", "list", "--db", bare.toString()]), /names no database/);
    // The password never appears in a message.
    const secret = new URL(missing);
    secret.password = "hunter2";
    const res = await tminus(["migrate", "--db", secret.toString()]);
    expect(res.code).toBe(1);
    expect(res.stderr).not.toContain("hunter2");
    expectOneLine(await tminus(["serve", "--pool-size", "0", "--db", database.url]), /--pool-size/);
  });

  it("prepared_statements=off|on in the URL is taken out before the driver sees it; another value is one line", async () => {
    const url = new URL(await freshSchema());
    url.searchParams.set("prepared_statements", "off");
    const made = await tminus([
      "keys",
      "create",
      "--env",
      "production",
      "--account",
      "unnamed",
      "--json",
      "--db",
      url.toString(),
    ]);
    expect(made.code, made.stderr).toBe(0);
    url.searchParams.set("prepared_statements", "on");
    const listed = await tminus(["accounts", "list", "--json", "--db", url.toString()]);
    expect(JSON.parse(listed.stdout).map((a: { name: string }) => a.name)).toEqual(["unnamed"]);
    url.searchParams.set("prepared_statements", "sometimes");
    expectOneLine(
      await tminus(["accounts", "list", "--db", url.toString()]),
      /--db: prepared_statements must be given once, as on or off, got "sometimes"$/,
    );
  });

  it("TMINUS_DATABASE_URL selects PostgreSQL for keys and accounts; --db overrides it; TMINUS_DB keeps meaning a file", async () => {
    const url = await freshSchema();
    const env = { TMINUS_DATABASE_URL: url };
    const made = await tminus(
      ["keys", "create", "--env", "production", "--account", "env", "--json"],
      env,
    );
    expect(made.code, made.stderr).toBe(0);
    const listed = await tminus(["accounts", "list", "--json"], env);
    expect(JSON.parse(listed.stdout).map((a: { name: string }) => a.name)).toEqual(["env"]);
    // --db wins over the environment.
    const file = join(dir, "local.db");
    // (A read-only command refuses a file that does not exist rather than creating it.)
    const local = await tminus(["accounts", "list", "--json", "--db", file], env);
    expectOneLine(local, /local\.db/);
    // A path in TMINUS_DB is SQLite, as before.
    const viaFile = await tminus(
      ["keys", "create", "--env", "sandbox", "--account", "file", "--json"],
      { TMINUS_DB: file, TMINUS_DATABASE_URL: "" },
    );
    expect(viaFile.code, viaFile.stderr).toBe(0);
    const again = await tminus(["accounts", "list", "--json", "--db", file]);
    expect(JSON.parse(again.stdout).map((a: { name: string }) => a.name)).toEqual(["file"]);
  });
});

it("parses prepared_statements out of a PostgreSQL URL, the rest of the URL byte for byte", () => {
  const base = "postgres://u:pw@db:5432/tminus";
  const on = parseDatabaseTarget(`${base}?options=-c%20search_path%3Dtminus`);
  expect(on).toMatchObject({ kind: "postgres", preparedStatements: true });
  expect((on as { url: string }).url).toBe(`${base}?options=-c%20search_path%3Dtminus`);
  const off = parseDatabaseTarget(
    `${base}?options=-c%20search_path%3Dtminus&prepared_statements=off&sslmode=disable`,
  );
  expect(off).toMatchObject({
    kind: "postgres",
    preparedStatements: false,
    // What pg_dump and psql get: libpq reads %20, not +, as a space.
    url: `${base}?options=-c%20search_path%3Dtminus&sslmode=disable`,
  });
  expect((off as { label: string }).label).not.toContain("prepared_statements");
  for (const [value, expected] of [
    ["0", false],
    ["FALSE", false],
    ["1", true],
    ["true", true],
    ["on", true],
  ] as const) {
    const target = parseDatabaseTarget(`${base}?prepared_statements=${value}`, {});
    expect(target).toMatchObject({ preparedStatements: expected, url: base });
  }
  expect(() =>
    parseDatabaseTarget(`${base}?prepared_statements=off&prepared_statements=on`, {}),
  ).toThrow(/--db: prepared_statements must be given once/);
  expect(() =>
    parseDatabaseTarget(undefined, { TMINUS_DATABASE_URL: `${base}?prepared_statements=` }),
  ).toThrow(/^TMINUS_DATABASE_URL: prepared_statements must be given once, as on or off, got ""$/);
});

it("SQLite: migrate reports the version; a newer schema is refused in one line", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tminus-sqlite-migrate-"));
  try {
    const file = join(dir, "t.db");
    const res = await tminus(["migrate", "--db", file, "--json"]);
    expect(res.code, res.stderr).toBe(0);
    const { to } = JSON.parse(res.stdout);
    expect(to).toBeGreaterThan(0);
    // better-sqlite3 is @tminus/store's dependency: write the future version with it.
    const Database = createRequire(new URL("../../store/package.json", import.meta.url))(
      "better-sqlite3",
    );
    const db = new Database(file);
    db.prepare("INSERT INTO schema_migrations (version, name) VALUES (?, ?)").run(to + 1, "future");
    db.close();
    for (const args of [["serve", "--port", "0"], ["worker"], ["keys", "list"], ["migrate"]]) {
      expectOneLine(
        await tminus([...args, "--db", file]),
        new RegExp(
          `schema is at version ${to + 1}, newer than this code knows \\(${to}\\); upgrade tminus$`,
        ),
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it("without the pg driver installed, a postgres:// URL says how to install it, in one line", async () => {
  // The built CLI copied next to a node_modules that has everything but pg.
  const dir = mkdtempSync(join(tmpdir(), "tminus-nopg-"));
  try {
    const pkg = dirname(dirname(cli));
    cpSync(join(pkg, "dist"), join(dir, "dist"), { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
    mkdirSync(join(dir, "node_modules", "@tminus"), { recursive: true });
    // Every @tminus package the CLI depends on, read from its package.json.
    const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    const ours = Object.keys(manifest.dependencies).filter((d) => d.startsWith("@tminus/"));
    for (const name of ours.map((d) => d.slice("@tminus/".length))) {
      symlinkSync(
        join(pkg, "node_modules", "@tminus", name),
        join(dir, "node_modules", "@tminus", name),
      );
    }
    symlinkSync(join(pkg, "node_modules", "commander"), join(dir, "node_modules", "commander"));
    const res = await promisify(execFile)(process.execPath, [
      join(dir, "dist", "cli.js"),
      "keys",
      "list",
      "--db",
      "postgres://postgres@127.0.0.1:5432/tminus",
    ]).then(
      () => ({ code: 0, stderr: "" }),
      (err: { code: number; stderr: string }) => err,
    );
    expectOneLine(res, /PostgreSQL driver is not installed; run `npm install pg`/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
