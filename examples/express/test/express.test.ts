import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const cli = join(root, "packages/cli/dist/cli.js");
const server = fileURLToPath(new URL("../server.js", import.meta.url));

let child: ChildProcess;
let base = "";
let secret = "";
let dir = "";

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tminus-express-"));
  const db = join(dir, "example.db");
  const key = JSON.parse(
    execFileSync(
      process.execPath,
      [cli, "keys", "create", "--env", "sandbox", "--db", db, "--json"],
      {
        encoding: "utf8",
      },
    ),
  );
  secret = key.secret;
  child = spawn(process.execPath, [server], {
    env: { ...process.env, TMINUS_DB: db, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  base = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`example exited with ${code}`)));
  });
});

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("examples/express: tminus mounted in an existing Express app", () => {
  it("the app's own routes still work, JSON body parser included", async () => {
    expect(await (await fetch(`${base}/health`)).json()).toEqual({ ok: true });
    const res = await fetch(`${base}/orders`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sku: "A1" }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ received: { sku: "A1" } });
  });

  it("the API answers under the mount point with a key from `tminus keys create`", async () => {
    const auth = { authorization: `Bearer ${secret}` };
    const usage = await fetch(`${base}/countdown/api/v1/usage`, { headers: auth });
    expect(usage.status).toBe(200);
    expect((await usage.json()).data.environment).toBe("sandbox");
    const created = await fetch(`${base}/countdown/api/v1/timers`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": "express-1" },
      body: JSON.stringify({ name: "Sale", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" }),
    });
    expect(created.status).toBe(201);
    const { data } = await created.json();
    const status = await fetch(`${base}/countdown/api/v1/timers/${data.id}/status`, {
      headers: auth,
    });
    expect((await status.json()).data.ended).toBe(false);
    const unauth = await fetch(`${base}/countdown/api/v1/usage`);
    expect(unauth.status).toBe(401);
  });

  it("paths outside /api/v1 fall through to the app (Express's own 404)", async () => {
    const res = await fetch(`${base}/countdown/elsewhere`);
    expect(res.status).toBe(404);
    expect(res.headers.get("x-request-id")).toBeNull();
  });
});
