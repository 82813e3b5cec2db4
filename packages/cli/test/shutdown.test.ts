// Graceful shutdown of `tminus serve` (the built CLI, a real process): idle keep-alive
// connections are closed at once, busy ones after their answer, and everything answered is
// in the request log and the usage counters once the process has exited.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sqliteStore } from "@tminus/store/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let dir = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-shutdown-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function serve(db: string, config: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [cli, "serve", "--port", "0", "--db", db, "--config", config],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on("data", (c) => {
      out += c;
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

/** A GET over a keep-alive agent; resolves with the status. */
function get(agent: Agent, url: string, secret: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { authorization: `Bearer ${secret}` } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("tminus serve: graceful shutdown", () => {
  it("exits at once with idle keep-alive connections, under load within 5 s, losing no log row", async () => {
    const db = join(dir, "shutdown.db");
    const config = join(dir, "config.json");
    writeFileSync(
      config,
      JSON.stringify({ plans: { starter: { requests_per_minute: 1_000_000 } } }),
    );
    const key = JSON.parse(
      execFileSync(process.execPath, [
        cli,
        "keys",
        "create",
        "--env",
        "production",
        "--account",
        "down",
        "--db",
        db,
        "--json",
      ]).toString(),
    );
    const { child, url } = await serve(db, config);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const target = `${url}/api/v1/usage`;

    // Load on 8 keep-alive connections until the process is gone.
    let answered = 0;
    let running = true;
    const loops = Array.from({ length: 8 }, async () => {
      while (running) {
        try {
          const status = await get(agent, target, key.secret);
          if (status === 200) answered++;
        } catch {
          // Refused after the server stopped accepting: never answered, so never counted.
          if (child.exitCode !== null) return;
          await new Promise((r) => setTimeout(r, 5));
        }
      }
    });
    await new Promise((r) => setTimeout(r, 1500));
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
    const stopAt = performance.now();
    child.kill("SIGTERM");
    const code = await exited;
    const tookMs = performance.now() - stopAt;
    running = false;
    await Promise.all(loops);
    agent.destroy();

    expect(code).toBe(0);
    expect(tookMs).toBeLessThan(5000);
    expect(answered).toBeGreaterThan(50);
    // Every answered request is logged and counted: the batches were flushed before exit.
    const store = sqliteStore({ path: db });
    const account = (await store.findAccountByName("down"))!;
    let logged = 0;
    let after: { value: number; id: string } | undefined;
    for (;;) {
      const page = await store.listRequestLog({
        account_id: account.id,
        environment: "production",
        after,
        limit: 100,
      });
      logged += page.length;
      if (page.length < 100) break;
      const last = page[page.length - 1]!;
      after = { value: last.created_at, id: last.id };
    }
    const cycle = new Date().toISOString().slice(0, 7);
    const counted = (await store.getUsage(account.id, "production", cycle)).api_requests;
    await store.close();
    expect(logged).toBe(answered);
    expect(counted).toBe(answered);
  });

  it("with only idle keep-alive connections it stops in well under a second", async () => {
    const db = join(dir, "idle.db");
    const config = join(dir, "config.json");
    const key = JSON.parse(
      execFileSync(process.execPath, [
        cli,
        "keys",
        "create",
        "--env",
        "production",
        "--account",
        "idle",
        "--db",
        db,
        "--json",
      ]).toString(),
    );
    const { child, url } = await serve(db, config);
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    await Promise.all(
      Array.from({ length: 4 }, () => get(agent, `${url}/api/v1/usage`, key.secret)),
    );
    const exited = new Promise((r) => child.once("exit", r));
    const stopAt = performance.now();
    child.kill("SIGTERM");
    await exited;
    expect(performance.now() - stopAt).toBeLessThan(1000);
    agent.destroy();
  });
});
