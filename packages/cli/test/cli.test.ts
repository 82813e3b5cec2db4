import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built binary, exactly what `pnpm tminus` and `npx tminus` run.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const run = promisify(execFile);

let dir = "";
const servers: ChildProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-cli-"));
});
afterAll(async () => {
  for (const child of servers) {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

async function tminus(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args]);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Starts `tminus serve` and resolves with everything it printed up to "listening". */
function serve(args: string[]): Promise<{ child: ChildProcess; output: string; url: string }> {
  const child = spawn(process.execPath, [cli, "serve", "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  servers.push(child);
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) resolve({ child, output, url: m[1]! });
    });
    child.stderr!.on("data", (chunk) => {
      output += chunk;
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

describe("tminus serve", () => {
  it("first start creates a default account, writes both secrets once and a curl line that works", async () => {
    const db = join(dir, "first.db");
    const first = await serve(["--db", db]);
    // stdout is a pipe (not a terminal): the secrets are in the 0600 file beside the database,
    // never on stdout; the file holds what a terminal would show.
    expect(first.output).not.toMatch(/svc_(test|live)_[0-9A-Za-z]{38}/);
    const shown = readFileSync(join(dir, "tminus-first-start-keys.txt"), "utf8");
    const sandbox = /sandbox\s+(svc_test_\w+)/.exec(shown)?.[1];
    const production = /production\s+(svc_live_\w+)/.exec(shown)?.[1];
    // Each secret in the documented format: prefix, 32 base62 characters, a 6-character checksum.
    expect(sandbox).toMatch(/^svc_test_[0-9A-Za-z]{38}$/);
    expect(production).toMatch(/^svc_live_[0-9A-Za-z]{38}$/);
    // Shown once each, plus the sandbox key in the curl line; nowhere else.
    expect(shown.match(/svc_(test|live)_[0-9A-Za-z]{38}/g)).toEqual([sandbox, production, sandbox]);
    const curl = /^\s*(curl .+)$/m.exec(shown)?.[1];
    expect(curl).toContain(first.url);
    // Run the printed line as a user would paste it.
    const { stdout } = await promisify(execFile)("sh", [
      "-c",
      `${curl} -s -o /dev/null -w '%{http_code}'`,
    ]);
    expect(stdout).toBe("200");
    const res = await fetch(`${first.url}/api/v1/usage`, {
      headers: { authorization: `Bearer ${production}` },
    });
    expect((await res.json()).data.environment).toBe("production");
    // The dashboard (@tminus/dashboard) is mounted beside the API, where the file says.
    expect(shown).toContain(`Dashboard: ${first.url}/dashboard`);
    const signIn = await fetch(`${first.url}/dashboard/sign-in`);
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain("Sign in");
    await stop(first.child);

    // Second start on the same file: no new keys, no secrets printed, old keys still valid.
    const second = await serve(["--db", db]);
    expect(second.output).not.toContain("svc_test_");
    const again = await fetch(`${second.url}/api/v1/usage`, {
      headers: { authorization: `Bearer ${sandbox}` },
    });
    expect(again.status).toBe(200);
    await stop(second.child);
  });

  it("rejects a bad --port and a bad config with one clear line", async () => {
    const bad = await tminus(["serve", "--port", "99999", "--db", join(dir, "x.db")]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^tminus: --port/);
    const cfg = join(dir, "bad.json");
    writeFileSync(cfg, JSON.stringify({ plans: { starter: { requests_per_hour: 5 } } }));
    const badCfg = await tminus(["keys", "list", "--config", cfg, "--db", join(dir, "x.db")]);
    expect(badCfg.code).toBe(1);
    expect(badCfg.stderr).toContain("requests_per_hour");
    expect(badCfg.stderr).not.toContain("    at ");
  });

  it("binds first: a busy port creates no keys, so a later start still shows them once", async () => {
    const db = join(dir, "busy.db");
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(0, "127.0.0.1", r));
    const port = (blocker.address() as { port: number }).port;
    const busy = await tminus(["serve", "--port", String(port), "--db", db]);
    blocker.close();
    expect(busy.code).toBe(1);
    expect(busy.stderr.trim().split("\n")).toHaveLength(1);
    expect(busy.stderr).toMatch(/^tminus: cannot listen on 127\.0\.0\.1:\d+/);
    expect(busy.stdout).not.toContain("svc_");
    // A failed command creates nothing: the database it opened is gone again.
    expect(existsSync(db)).toBe(false);
    const keysFile = join(dir, "busy-keys.txt");
    const first = await serve(["--db", db, "--host", "0.0.0.0", "--keys-file", keysFile]);
    expect(readFileSync(keysFile, "utf8")).toMatch(/sandbox\s+svc_test_/);
    // A wildcard bind prints an address a client can use.
    expect(first.url).toMatch(/^http:\/\/localhost:\d+$/);
    expect((await fetch(`${first.url}/openapi.json`)).status).toBe(200);
    await stop(first.child);
  });

  it("read-only commands never create a database; bad --db paths are one line", async () => {
    const missing = join(dir, "never", "made.db");
    for (const args of [
      ["keys", "list"],
      ["keys", "revoke", "svc_test_abc"],
      ["keys", "roll", "svc_test_abc"],
      ["accounts", "list"],
    ]) {
      const res = await tminus([...args, "--db", missing]);
      expect(res.code, args.join(" ")).toBe(1);
      expect(res.stderr, args.join(" ")).toMatch(/^tminus: no database at /);
    }
    expect(existsSync(join(dir, "never"))).toBe(false);
    const folder = join(dir, "a-folder");
    mkdirSync(folder);
    const isDir = await tminus(["keys", "create", "--env", "sandbox", "--db", folder]);
    expect(isDir.stderr).toMatch(/is a directory/);
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    const underFile = await tminus([
      "keys",
      "create",
      "--env",
      "sandbox",
      "--db",
      join(file, "x.db"),
    ]);
    expect(underFile.stderr).toMatch(/cannot make its folder, .*a-file is a file/);
    for (const res of [isDir, underFile]) {
      expect(res.code).toBe(1);
      expect(res.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});

describe("tminus keys and accounts", () => {
  it("keys create --json prints id, prefix, environment, account and secret; list never shows secrets", async () => {
    const db = join(dir, "keys.db");
    const made = await tminus([
      "keys",
      "create",
      "--env",
      "production",
      "--account",
      "acme",
      "--db",
      db,
      "--json",
    ]);
    expect(made.code, made.stderr).toBe(0);
    const key = JSON.parse(made.stdout);
    expect(key).toMatchObject({ environment: "production", account: "acme" });
    expect(key.secret).toMatch(/^svc_live_/);
    expect(key.secret.startsWith(key.prefix)).toBe(true);
    expect(typeof key.id).toBe("string");
    const list = await tminus(["keys", "list", "--db", db, "--json"]);
    expect(list.stdout).not.toContain(key.secret);
    expect(JSON.parse(list.stdout)[0]).toMatchObject({ id: key.id, prefix: key.prefix });
    const table = await tminus(["keys", "list", "--db", db]);
    expect(table.stdout).toContain(key.prefix);
  });

  it("honours the plan's key limits (sandbox 1; starter 3; growth 10) and the config overrides", async () => {
    const db = join(dir, "limits.db");
    expect(
      (await tminus(["keys", "create", "--env", "sandbox", "--account", "a", "--db", db])).code,
    ).toBe(0);
    const second = await tminus([
      "keys",
      "create",
      "--env",
      "sandbox",
      "--account",
      "a",
      "--db",
      db,
    ]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/limit/);
    for (let i = 0; i < 3; i++) {
      expect(
        (await tminus(["keys", "create", "--env", "production", "--account", "a", "--db", db]))
          .code,
      ).toBe(0);
    }
    expect(
      (await tminus(["keys", "create", "--env", "production", "--account", "a", "--db", db])).code,
    ).toBe(1);
    // Moving to growth raises the limit to 10.
    expect(
      (
        await tminus([
          "keys",
          "create",
          "--env",
          "production",
          "--account",
          "a",
          "--plan",
          "growth",
          "--db",
          db,
        ])
      ).code,
    ).toBe(0);
    const cfg = join(dir, "two-sandbox.json");
    writeFileSync(cfg, JSON.stringify({ sandbox: { max_keys: 2 } }));
    expect(
      (
        await tminus([
          "keys",
          "create",
          "--env",
          "sandbox",
          "--account",
          "a",
          "--db",
          db,
          "--config",
          cfg,
        ])
      ).code,
    ).toBe(0);
  });

  it("revoke by prefix stops the key on its next request; suspend answers 403 suspended", async () => {
    const db = join(dir, "revoke.db");
    const { child, url } = await serve(["--db", db]);
    const key = JSON.parse(
      (
        await tminus([
          "keys",
          "create",
          "--env",
          "production",
          "--account",
          "shop",
          "--db",
          db,
          "--json",
        ])
      ).stdout,
    );
    const call = () =>
      fetch(`${url}/api/v1/usage`, { headers: { authorization: `Bearer ${key.secret}` } });
    expect((await call()).status).toBe(200);
    expect((await tminus(["accounts", "suspend", "shop", "--db", db])).code).toBe(0);
    const suspended = await call();
    expect(suspended.status).toBe(403);
    expect((await suspended.json()).error.code).toBe("suspended");
    expect((await tminus(["accounts", "activate", "shop", "--db", db])).code).toBe(0);
    expect((await call()).status).toBe(200);
    const revoked = await tminus(["keys", "revoke", key.prefix, "--db", db]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = await call();
    expect(after.status).toBe(401);
    expect((await after.json()).error.code).toBe("invalid_api_key");
    const unknown = await tminus(["keys", "revoke", "svc_live_nothing", "--db", db]);
    expect(unknown.code).toBe(1);
    await stop(child);
  });

  it("keys roll rotates a sandbox key without a gap: both work until the old one's end", async () => {
    const db = join(dir, "roll.db");
    const created = await tminus([
      "keys",
      "create",
      "--env",
      "sandbox",
      "--account",
      "solo",
      "--db",
      db,
      "--json",
    ]);
    const old = JSON.parse(created.stdout);
    const { child, url } = await serve(["--db", db]);
    const call = (secret: string) =>
      fetch(`${url}/api/v1/usage`, { headers: { authorization: `Bearer ${secret}` } });
    // A sandbox account may hold one key: a plain second key is refused...
    const second = await tminus([
      "keys",
      "create",
      "--env",
      "sandbox",
      "--account",
      "solo",
      "--db",
      db,
    ]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("revoke one first");
    // ...but a roll issues the replacement and schedules the old key's end (8 s: the checks
    // below start three CLI processes, which take seconds on a busy machine).
    const rolled = await tminus([
      "keys",
      "roll",
      old.prefix,
      "--expires-in",
      "8s",
      "--db",
      db,
      "--json",
    ]);
    expect(rolled.code, rolled.stderr).toBe(0);
    const { replacement, rolled: view } = JSON.parse(rolled.stdout);
    expect(replacement.secret).toMatch(/^svc_test_/);
    expect(view).toMatchObject({ id: old.id, status: "expiring" });
    const oldAnswer = await call(old.secret);
    expect(oldAnswer.status).toBe(200);
    expect(oldAnswer.headers.get("tminus-key-expires-at")).toBe(view.expires_at);
    const newAnswer = await call(replacement.secret);
    expect(newAnswer.status).toBe(200);
    expect(newAnswer.headers.get("tminus-key-expires-at")).toBeNull();
    const listed = await tminus(["keys", "list", "--account", "solo", "--db", db]);
    expect(listed.stdout).toContain(`live until ${view.expires_at}`);
    await new Promise((r) => setTimeout(r, Date.parse(view.expires_at) - Date.now() + 50));
    const after = await call(old.secret);
    expect(after.status).toBe(401);
    expect((await after.json()).error.code).toBe("invalid_api_key");
    expect((await call(replacement.secret)).status).toBe(200);
    const bad = await tminus([
      "keys",
      "roll",
      replacement.prefix,
      "--expires-in",
      "soon",
      "--db",
      db,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    await stop(child);
  });

  it("a scoped key gets 403 forbidden outside its scopes", async () => {
    const db = join(dir, "scopes.db");
    const { child, url } = await serve(["--db", db]);
    const key = JSON.parse(
      (
        await tminus([
          "keys",
          "create",
          "--env",
          "production",
          "--account",
          "ro",
          "--scope",
          "usage:read",
          "--db",
          db,
          "--json",
        ])
      ).stdout,
    );
    expect(key.scopes).toEqual(["usage:read"]);
    const headers = { authorization: `Bearer ${key.secret}` };
    expect((await fetch(`${url}/api/v1/usage`, { headers })).status).toBe(200);
    const res = await fetch(`${url}/api/v1/timers`, { headers });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("forbidden");
    const bad = await tminus([
      "keys",
      "create",
      "--env",
      "production",
      "--account",
      "ro",
      "--scope",
      "everything",
      "--db",
      db,
    ]);
    expect(bad.code).toBe(1);
    await stop(child);
  });
});

describe("tminus users", () => {
  it("creates a dashboard user and prints a one-time link; errors are one line", async () => {
    const db = join(dir, "users.db");
    expect(
      (await tminus(["keys", "create", "--env", "sandbox", "--account", "acme", "--db", db])).code,
    ).toBe(0);
    const made = await tminus([
      "users",
      "create",
      "--account",
      "acme",
      "--email",
      "Owner@Example.com",
      "--role",
      "owner",
      "--db",
      db,
    ]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('Created owner owner@example.com in account "acme".');
    expect(made.stdout).toMatch(/^ {2}\/dashboard\/set-password\?token=[A-Za-z0-9_-]{43}$/m);

    // With a base URL the link is absolute, under the configured dashboard path.
    const config = join(dir, "users.json");
    writeFileSync(config, JSON.stringify({ dashboard: { path: "/admin" } }));
    const link = await tminus([
      "users",
      "link",
      "--email",
      "owner@example.com",
      "--base-url",
      "https://timers.example.com/countdown",
      "--config",
      config,
      "--db",
      db,
      "--json",
    ]);
    expect(link.code, link.stderr).toBe(0);
    expect(JSON.parse(link.stdout).link.url).toMatch(
      /^https:\/\/timers\.example\.com\/countdown\/admin\/set-password\?token=/,
    );

    for (const [args, message] of [
      [
        ["--account", "acme", "--email", "owner@example.com"],
        "a user with the email owner@example.com already exists",
      ],
      [["--account", "nobody", "--email", "x@example.com"], 'no account named "nobody"'],
      [["--account", "acme", "--email", "not-an-email"], '"not-an-email" is not an email address'],
      [
        ["--account", "acme", "--email", "y@example.com", "--role", "boss"],
        "--role must be owner or member",
      ],
    ] as const) {
      const failed = await tminus(["users", "create", ...args, "--db", db]);
      expect(failed.code).not.toBe(0);
      expect(failed.stderr).toContain(message);
      expect(failed.stderr.trim().split("\n")).toHaveLength(1);
    }
    const list = await tminus(["users", "list", "--account", "acme", "--db", db]);
    expect(list.stdout).toBe("owner@example.com  owner  link not used yet\n");
  });
});
