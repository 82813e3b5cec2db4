// The CLI's promises about failures and its plainer outputs, over the built binary in real
// processes: a command refused on its arguments leaves nothing behind; the parser's own errors
// are one `tminus:` line; `migrate`, `accounts list`, `users create` and `render --out` say and
// do what docs/cli.md says.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MIGRATIONS } from "@tminus/store/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBin } from "./_bin";

let dir = "";
const folders: string[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-cli-leftovers-"));
});
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh empty folder to run one command in. */
function emptyFolder(): string {
  const f = mkdtempSync(join(dir, "run-"));
  folders.push(f);
  return f;
}

/** Exit 1, nothing on stdout, exactly one `tminus:` line on stderr matching `message`. */
function expectOneLine(res: { code: number; stdout: string; stderr: string }, message: RegExp) {
  expect(res.code, res.stderr).toBe(1);
  expect(res.stdout).toBe("");
  expect(res.stderr).toMatch(/^tminus: [^\n]+\n$/);
  expect(res.stderr).toMatch(message);
}

const versions = MIGRATIONS.map((m) => m.version);

describe("a command that fails on its arguments creates nothing", () => {
  let busy: Server;
  let busyPort = 0;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(() => busy?.close());

  const db = ["--db", "data/nested/tminus.db"];
  const refusals: Array<[string, () => string[], RegExp]> = [
    ["keys create --env staging", () => ["keys", "create", "--env", "staging", ...db], /--env/],
    [
      "keys create with an unknown --plan",
      () => ["keys", "create", "--env", "sandbox", "--plan", "platinum", ...db],
      /unknown plan "platinum"/,
    ],
    [
      "keys create with an unknown --scope",
      () => ["keys", "create", "--env", "sandbox", "--scope", "timers:everything", ...db],
      /unknown scope "timers:everything"/,
    ],
    [
      "serve on a busy port",
      () => ["serve", "--port", String(busyPort), ...db],
      /cannot listen on 127\.0\.0\.1:\d+/,
    ],
    [
      "render --batch of a missing file",
      () => ["render", "--batch", "missing.csv", "--out-dir", "images/out"],
      /cannot read --batch missing\.csv: ENOENT/,
    ],
  ];

  it.each(refusals)("%s: one line, and the folder stays empty", async (_, args, message) => {
    const cwd = emptyFolder();
    expectOneLine(await runBin(args(), cwd), message);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("the same commands with good arguments do make their database", async () => {
    const cwd = emptyFolder();
    const ok = await runBin(["keys", "create", "--env", "sandbox", ...db, "--json"], cwd);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readdirSync(join(cwd, "data", "nested"))).toContain("tminus.db");
    // A failure on an existing database keeps it: only what the failed run made goes.
    expectOneLine(
      await runBin(["keys", "create", "--env", "staging", ...db], cwd),
      /--env must be/,
    );
    expect(readdirSync(join(cwd, "data", "nested"))).toContain("tminus.db");
  });
});

describe("the parser's errors are one tminus: line, with the suggestion", () => {
  const cases: Array<[string[], RegExp]> = [
    [
      ["keys", "list", "--dbb", "x.db"],
      /^tminus: unknown option '--dbb' \(did you mean --db\?\)\n$/,
    ],
    [["serve", "--prot", "1"], /^tminus: unknown option '--prot' \(did you mean --port\?\)\n$/],
    [["kyes", "list"], /^tminus: unknown command 'kyes' \(did you mean keys\?\)\n$/],
    [["keys", "create"], /^tminus: required option '--env <environment>' not specified\n$/],
    [["keys", "list", "--db"], /^tminus: option '--db <file-or-url>' argument missing\n$/],
  ];
  it.each(cases)("tminus %j", async (args, line) => {
    const cwd = emptyFolder();
    const res = await runBin(args, cwd);
    expectOneLine(res, line);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it("--help and --version still print and exit 0", async () => {
    const cwd = emptyFolder();
    const version = await runBin(["--version"], cwd);
    expect(version).toMatchObject({ code: 0, stderr: "" });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = await runBin(["keys", "--help"], cwd);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: tminus keys");
  });
});

describe("plainer outputs", () => {
  it("migrate on a new database reports every version it applied, then none", async () => {
    const cwd = emptyFolder();
    const first = await runBin(["migrate", "--db", "m.db"], cwd);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toBe(
      `Database ${join(cwd, "m.db")}: schema at version ${versions.at(-1)} (applied ${versions.join(", ")}).\n`,
    );
    const again = await runBin(["migrate", "--db", "m.db", "--json"], cwd);
    expect(JSON.parse(again.stdout)).toMatchObject({
      kind: "sqlite",
      from: versions.at(-1),
      to: versions.at(-1),
      applied: [],
    });
    const fresh = JSON.parse((await runBin(["migrate", "--db", "n.db", "--json"], cwd)).stdout);
    expect(fresh).toMatchObject({ from: null, applied: versions });
  });

  it("accounts list prints a table like keys list, and JSON with --json", async () => {
    const cwd = emptyFolder();
    for (const [account, plan] of [
      ["acme", "growth"],
      ["initech", "starter"],
    ]) {
      const made = await runBin(
        [
          "keys",
          "create",
          "--env",
          "production",
          "--account",
          account!,
          "--plan",
          plan!,
          "--db",
          "a.db",
        ],
        cwd,
      );
      expect(made.code, made.stderr).toBe(0);
    }
    await runBin(["accounts", "suspend", "initech", "--db", "a.db"], cwd);
    const json = JSON.parse(
      (await runBin(["accounts", "list", "--db", "a.db", "--json"], cwd)).stdout,
    );
    expect(json.map((a: { name: string }) => a.name).sort()).toEqual(["acme", "initech"]);

    const table = await runBin(["accounts", "list", "--db", "a.db"], cwd);
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    for (const account of json as Array<{
      id: string;
      name: string;
      plan: string;
      status: string;
      created_at: number;
    }>) {
      const line = lines.find((l) => l.startsWith(account.id));
      expect(line?.split(/\s{2,}/)).toEqual([
        account.id,
        account.name,
        account.plan,
        account.status,
        new Date(account.created_at).toISOString(),
      ]);
    }
    expect(lines.find((l) => l.includes("initech"))).toContain("suspended");
    // Columns line up: the plan starts at the same offset on every line.
    const planAt = lines.map((l) => l.search(/ (growth|starter) /));
    expect(new Set(planAt).size).toBe(1);
  });

  it("users create prints an absolute link when the base URL is known, else the real default port", async () => {
    const cwd = emptyFolder();
    expect((await runBin(["keys", "create", "--env", "sandbox", "--db", "u.db"], cwd)).code).toBe(
      0,
    );
    const user = (email: string, ...more: string[]) =>
      runBin(
        ["users", "create", "--account", "default", "--email", email, "--db", "u.db", ...more],
        cwd,
      );

    const flag = await user("a@example.test", "--base-url", "https://timers.example.test");
    expect(flag.stdout).toMatch(
      /\n {2}https:\/\/timers\.example\.test\/dashboard\/set-password\?token=\S+\n$/,
    );
    writeFileSync(
      join(cwd, "config.json"),
      JSON.stringify({ base_url: "https://cfg.example.test" }),
    );
    const config = await user("b@example.test", "--config", "config.json");
    expect(config.stdout).toMatch(
      /\n {2}https:\/\/cfg\.example\.test\/dashboard\/set-password\?token=\S+\n$/,
    );

    // Without one: the path, and where `tminus serve` answers by default (from its own help).
    const help = (await runBin(["serve", "--help"], cwd)).stdout.replace(/\s+/g, " ");
    const port = /--port <n> .*?\(default: "(\d+)"\)/.exec(help)?.[1];
    const host = /--host <host> .*?\(default: "([^"]+)"\)/.exec(help)?.[1];
    expect(port).toBeDefined();
    const relative = await user("c@example.test");
    expect(relative.stdout).toMatch(/\n {2}\/dashboard\/set-password\?token=\S+\n/);
    expect(relative.stdout).toContain(`http://${host}:${port}/dashboard/set-password?...`);
  });

  it("render --out makes the folders of its file", async () => {
    const cwd = emptyFolder();
    const out = join("emails", "2026", "launch.gif");
    const res = await runBin(
      ["render", "--deadline", "2030-01-01T00:00:00Z", "--frames", "2", "--out", out],
      cwd,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(readFileSync(join(cwd, out)).subarray(0, 6).toString("latin1")).toBe("GIF89a");
  });
});
