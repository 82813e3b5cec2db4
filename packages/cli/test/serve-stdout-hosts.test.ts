// Real `tminus serve` processes: with JSON logs stdout holds JSON lines only and never a
// secret (the first start's secrets go to a 0600 file whose path is logged); without
// --base-url only the allowed hosts are answered (loopback and the listen address by default,
// --allowed-hosts, the config's allowed_hosts), X-Forwarded-Host only with --trust-proxy. Bad
// flags get one line and create nothing.
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstStartSecrets, type Started, serve, stop, stopAll, tminus } from "./_processes";

let dir = "";
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-stdout-"));
});
afterAll(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field.
  json: any;
}

/** One request to a started server with exactly these headers (Host included). */
function send(
  started: Started,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const url = new URL(started.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () =>
        resolve({
          status: res.statusCode!,
          headers: res.headers,
          json: text ? JSON.parse(text) : null,
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

const createTimer = (started: Started, secret: string, headers: Record<string, string>) =>
  send(
    started,
    "POST",
    "/api/v1/timers",
    {
      authorization: `Bearer ${secret}`,
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID(),
      ...headers,
    },
    JSON.stringify({ type: "fixed", name: "Hosts", deadline_at: "2031-01-01T00:00:00Z" }),
  );

/** The lines a process printed so far. */
const linesOf = (started: Started) =>
  started
    .output()
    .split("\n")
    .filter((l) => l !== "");

describe("serve --log-format json", () => {
  it("prints only JSON lines, puts the first start's secrets in a 0600 file and logs its path", async () => {
    const folder = mkdtempSync(join(dir, "first-"));
    const db = join(folder, "tminus.db");
    // The default's path, named (the helper would name one of its own); the next test starts
    // without the flag.
    const defaultFile = join(folder, "tminus-first-start-keys.txt");
    const server = await serve([
      "--db",
      db,
      "--log-format",
      "json",
      "--keys-file",
      defaultFile,
      "--metrics-port",
      "0",
    ]);
    // The listening event is written by now; let the buffered destination flush it out.
    await new Promise((r) => setTimeout(r, 400));
    await stop(server.child);
    const lines = linesOf(server);
    expect(lines.length).toBeGreaterThan(3);
    const events = lines.map((line) => {
      expect(() => JSON.parse(line), line).not.toThrow();
      return JSON.parse(line);
    });
    expect(server.output()).not.toMatch(/svc_(test|live)_\w{20,}/);
    const first = events.find((e) => e.event === "first_start_keys");
    expect(first).toMatchObject({ account: "default", keys_file: defaultFile });
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining([
        "database_ready",
        "first_start_keys",
        "listening",
        "metrics_listening",
      ]),
    );
    expect(statSync(defaultFile).mode & 0o777).toBe(0o600);
    const secrets = firstStartSecrets(defaultFile);
    expect(secrets.sandbox.startsWith(first.prefixes.sandbox)).toBe(true);
    expect(secrets.production.startsWith(first.prefixes.production)).toBe(true);

    // The secrets are the real ones; a restart writes nothing and logs no first start.
    const again = await serve(["--db", db, "--log-format", "json", "--keys-file", defaultFile]);
    const usage = await send(again, "GET", "/api/v1/usage", {
      authorization: `Bearer ${secrets.sandbox}`,
    });
    expect(usage.status).toBe(200);
    await stop(again.child);
    expect(again.output()).not.toContain("first_start_keys");
    expect(readdirSync(folder).filter((f) => f.includes("keys"))).toEqual([
      "tminus-first-start-keys.txt",
    ]);
  });

  it("without --keys-file the file is beside the SQLite database", async () => {
    const folder = mkdtempSync(join(dir, "beside-"));
    // Started by hand: the helper would name a keys file.
    const { spawn } = await import("node:child_process");
    const { cli } = await import("./_processes");
    const child = spawn(
      process.execPath,
      [cli, "serve", "--port", "0", "--log-format", "json", "--db", join(folder, "t.db")],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (c) => {
        out += c;
        if (out.includes('"event":"listening"')) resolve();
      });
      child.once("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
    expect(out).toContain(
      `"keys_file":${JSON.stringify(join(folder, "tminus-first-start-keys.txt"))}`,
    );
    expect(statSync(join(folder, "tminus-first-start-keys.txt")).mode & 0o777).toBe(0o600);
  });

  it("pretty logs into a pipe: the secrets go to the file too, never to stdout", async () => {
    const folder = mkdtempSync(join(dir, "pretty-"));
    const server = await serve(["--db", join(folder, "t.db"), "--log-format", "pretty"]);
    await stop(server.child);
    expect(server.output()).not.toMatch(/svc_(test|live)_\w{20,}/);
    expect(server.output()).toContain("tminus listening on http://");
    expect(firstStartSecrets(server.keysFile).sandbox).toMatch(/^svc_test_/);
  });
});

describe("serve without --base-url: the allowed hosts", () => {
  let server: Started;
  let secret = "";
  beforeAll(async () => {
    const folder = mkdtempSync(join(dir, "hosts-"));
    server = await serve(["--db", join(folder, "t.db")]);
    secret = firstStartSecrets((server as Started & { keysFile: string }).keysFile).production;
  });

  it("answers loopback names and the listen address; refuses another Host with the envelope", async () => {
    const port = new URL(server.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const created = await createTimer(server, secret, { host });
      expect(created.status, host).toBe(201);
      expect(created.headers.location).toMatch(new RegExp(`^http://${host}/api/v1/timers/`));
    }
    const refused = await createTimer(server, secret, { host: "attacker.example" });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({
      code: "validation_error",
      details: { field: "Host" },
    });
    expect(refused.headers.location).toBeUndefined();
    // X-Forwarded-Host is no way around it without --trust-proxy, nor a way in.
    const forwarded = await createTimer(server, secret, {
      host: `127.0.0.1:${port}`,
      "x-forwarded-host": "attacker.example",
    });
    expect(forwarded.status).toBe(201);
    expect(forwarded.headers.location).toMatch(/^http:\/\/127\.0\.0\.1:/);
    expect((await send(server, "GET", "/readyz", { host: "attacker.example" })).status).toBe(200);
  });

  it("--allowed-hosts, the config's allowed_hosts and --trust-proxy", async () => {
    const folder = mkdtempSync(join(dir, "listed-"));
    const listed = await serve([
      "--db",
      join(folder, "t.db"),
      "--allowed-hosts",
      "timers.example.test, .shop.test",
      "--trust-proxy",
    ]);
    const key = firstStartSecrets(listed.keysFile).production;
    expect((await createTimer(listed, key, { host: "timers.example.test" })).status).toBe(201);
    expect((await createTimer(listed, key, { host: "eu.shop.test" })).status).toBe(201);
    // The list replaces the defaults.
    expect((await createTimer(listed, key, { host: "127.0.0.1" })).status).toBe(400);
    const proxied = await createTimer(listed, key, {
      host: "10.1.2.3:8787",
      "x-forwarded-host": "timers.example.test",
      "x-forwarded-proto": "https",
    });
    expect(proxied.status).toBe(201);
    expect(proxied.headers.location).toMatch(/^https:\/\/timers\.example\.test\//);
    expect(
      (
        await createTimer(listed, key, {
          host: "timers.example.test",
          "x-forwarded-host": "evil.test",
        })
      ).status,
    ).toBe(400);
    await stop(listed.child);

    const config = join(folder, "config.json");
    writeFileSync(config, JSON.stringify({ allowed_hosts: ["cfg.example.test"] }));
    const fromConfig = await serve(["--db", join(folder, "t.db"), "--config", config]);
    expect((await createTimer(fromConfig, key, { host: "cfg.example.test" })).status).toBe(201);
    expect((await createTimer(fromConfig, key, { host: "attacker.example" })).status).toBe(400);
    await stop(fromConfig.child);

    // A base URL: URLs never come from Host, so any Host is answered.
    const fixed = await serve([
      "--db",
      join(folder, "t.db"),
      "--base-url",
      "https://timers.example.com",
    ]);
    const any = await createTimer(fixed, key, { host: "attacker.example" });
    expect(any.status).toBe(201);
    expect(any.headers.location).toMatch(/^https:\/\/timers\.example\.com\//);
    await stop(fixed.child);
  });

  it("bad --allowed-hosts, --keys-file or config: one line, nothing created", async () => {
    const folder = mkdtempSync(join(dir, "bad-"));
    const db = join(folder, "never.db");
    const badConfig = join(folder, "bad.json");
    writeFileSync(badConfig, JSON.stringify({ allowed_hosts: ["http://x.test"] }));
    for (const [args, message] of [
      [
        ["--allowed-hosts", "http://x.test"],
        /^tminus: --allowed-hosts: allowed host "http:\/\/x\.test" is not/,
      ],
      [["--allowed-hosts", " , "], /^tminus: --allowed-hosts needs at least one host name$/],
      [
        ["--keys-file", join(folder, "missing", "k.txt")],
        /^tminus: --keys-file: the folder .*missing does not exist$/,
      ],
      [["--config", badConfig], /config\.allowed_hosts: allowed host "http:\/\/x\.test"/],
    ] as const) {
      const res = await tminus(["serve", "--port", "0", "--db", db, ...args]);
      expect(res.code, res.stderr).toBe(1);
      expect(res.stdout).toBe("");
      expect(res.stderr.trim().split("\n"), res.stderr).toHaveLength(1);
      expect(res.stderr.trim()).toMatch(message);
    }
    expect(readdirSync(folder)).toEqual(["bad.json"]);
  });
});
