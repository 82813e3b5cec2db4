// Black-box: `tminus serve` (the built binary) delivers webhooks to a receiver on loopback,
// survives SIGKILL without losing or repeating an event, and two processes on one SQLite
// store never send the same attempt twice.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstStartSecrets } from "./_processes";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
let dir = "";
let config = "";
const children: ChildProcess[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-webhooks-"));
  config = join(dir, "config.json");
  // Loopback receivers need http and private destinations; short retries keep the test fast.
  writeFileSync(
    config,
    JSON.stringify({
      plans: { starter: { requests_per_minute: 100_000 } },
      webhooks: {
        allow_http: true,
        allow_private_destinations: true,
        timeout_ms: 2000,
        // The first retry comes after the SIGKILL below, so no successful attempt can be in
        // flight when the process dies (that one would be re-sent: delivery is at least once).
        retry_delays_seconds: [3, 1, 1, 1],
      },
    }),
  );
});
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `tminus serve` on a database; resolves with its URL and anything it printed. */
function serve(db: string): Promise<{ child: ChildProcess; url: string; output: string }> {
  const child = spawn(
    process.execPath,
    [cli, "serve", "--port", "0", "--db", db, "--config", config],
    {
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk;
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) resolve({ child, url: m[1]!, output });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk) => {
      output += chunk;
    });
    child.once("exit", (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

/**
 * A first start keeps its secrets off a piped stdout: they are in a file beside the database
 * (never overwritten, so each test's database has a folder of its own).
 */
function productionKey(db: string): string {
  return firstStartSecrets(join(dirname(db), "tminus-first-start-keys.txt")).production;
}

function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  child.kill("SIGKILL");
  return exited;
}

/** A receiver that counts requests and 2xx answers per webhook-id. */
async function receiver(fail: (nth: number) => boolean) {
  const requests = new Map<string, number>();
  const successes = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]);
      const nth = (requests.get(id) ?? 0) + 1;
      requests.set(id, nth);
      if (fail(nth)) {
        res.writeHead(500).end("not yet");
        return;
      }
      successes.set(id, (successes.get(id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/hook`;
  return {
    url,
    requests,
    successes,
    async until(check: () => boolean, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > deadline) throw new Error("receiver: timed out");
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function api(
  base: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      "idempotency-key": `k-${Math.random()}`,
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: Record<string, unknown> & { id: string } };
  if (res.status >= 300)
    throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

const TIMER = { name: "Launch", type: "fixed", deadline_at: "2031-01-01T00:00:00Z" };
const EVENTS = ["timer.created", "timer.updated"];

describe("tminus serve delivers webhooks", () => {
  it("a killed and restarted server delivers every event it owed, each once", async () => {
    const db = join(mkdtempSync(join(dir, "restart-")), "tminus.db");
    // Every first attempt fails: each event is owed a retry when the server is killed.
    const hook = await receiver((nth) => nth === 1);
    const first = await serve(db);
    const key = productionKey(db);
    await api(first.url, key, "POST", "/webhook-destinations", { url: hook.url, events: EVENTS });
    for (let i = 0; i < 8; i++) await api(first.url, key, "POST", "/timers", TIMER);
    await hook.until(() => hook.requests.size === 8, 15_000);
    await new Promise((r) => setTimeout(r, 300)); // let the failed attempts be recorded
    // More events the worker has not looked at yet, then the crash.
    const timer = await api(first.url, key, "POST", "/timers", TIMER);
    await api(
      first.url,
      key,
      "PATCH",
      `/timers/${timer.id}`,
      { name: "Renamed" },
      { "if-match": String(timer.revision) },
    );
    await kill(first.child);

    const second = await serve(db);
    // 9 creates and one update: every event committed before the kill.
    await hook.until(() => hook.successes.size === 10, 45_000);
    await new Promise((r) => setTimeout(r, 2500)); // nothing more may come
    const deliveries = await fetchAll(second.url, key);
    expect(deliveries.length).toBe(hook.successes.size);
    expect(deliveries.every((d) => d.status === "succeeded")).toBe(true);
    expect([...hook.successes.values()].every((n) => n === 1)).toBe(true);
    for (const d of deliveries) {
      expect(hook.successes.get(d.event.id)).toBe(1);
    }
    await stop(second.child);
    await hook.close();
  }, 90_000);

  it("two worker processes on one SQLite store never send the same attempt twice", async () => {
    const db = join(mkdtempSync(join(dir, "shared-")), "tminus.db");
    const hook = await receiver(() => false);
    const a = await serve(db);
    const key = productionKey(db);
    const b = await serve(db);
    await api(a.url, key, "POST", "/webhook-destinations", { url: hook.url, events: EVENTS });
    const total = 60;
    // Bursts through both processes, so both workers find due deliveries at once.
    for (let i = 0; i < total; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          api(j % 2 ? a.url : b.url, key, "POST", "/timers", TIMER),
        ),
      );
    }
    await hook.until(() => hook.requests.size === total, 30_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(hook.requests.size).toBe(total);
    expect([...hook.requests.values()].every((n) => n === 1)).toBe(true);
    const deliveries = await fetchAll(b.url, key);
    expect(deliveries).toHaveLength(total);
    expect(deliveries.every((d) => d.status === "succeeded" && d.attempt_count === 1)).toBe(true);
    await stop(a.child);
    await stop(b.child);
    await hook.close();
  }, 90_000);
});

type Delivery = { status: string; attempt_count: number; event: { id: string } };

async function fetchAll(base: string, key: string): Promise<Delivery[]> {
  const out: Delivery[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const res = await fetch(`${base}/api/v1/webhook-deliveries?limit=100${query}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const json = (await res.json()) as {
      data: Delivery[];
      page: { next_cursor: string | null };
    };
    out.push(...json.data);
    cursor = json.page.next_cursor;
  } while (cursor);
  return out;
}

async function stop(child: ChildProcess) {
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}
