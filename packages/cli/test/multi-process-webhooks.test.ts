// Roles and webhooks across processes on ONE PostgreSQL database: an HTTP-only `serve
// --no-worker`, and `tminus worker` processes that own deliveries and the retention purge.
// A receiver on loopback counts every request per webhook-id.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  api,
  createTestDatabase,
  describeWithPostgres,
  type IssuedKey,
  issueKey,
  listAll,
  type Started,
  serve,
  sleep,
  stop,
  stopAll,
  TIMER,
  until,
  worker,
} from "./_processes";

const describePg = await describeWithPostgres();

// A short lease (timeout + margin = 3 s) so that a killed worker's deliveries are taken over
// within the test; retries within a second.
const TIMEOUT_MS = 2000;
const LEASE_MARGIN_MS = 1000;

/** A webhook receiver on loopback: every request is counted and timed per webhook-id. */
async function receiver(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const arrivals = new Map<string, number[]>();
  const succeeded = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server: Server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const id = String(req.headers["webhook-id"]);
    arrivals.set(id, [...(arrivals.get(id) ?? []), Date.now()]);
    res.once("close", () => {
      inFlight--;
      if (res.writableFinished && res.statusCode < 300) {
        succeeded.set(id, (succeeded.get(id) ?? 0) + 1);
      }
    });
    req.resume();
    req.once("end", () => answer(req, res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    succeeded,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

type Delivery = { status: string; attempt_count: number; event: { id: string } };

describePg("tminus worker processes beside serve --no-worker, on one PostgreSQL database", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let pool: pg.Pool;
  let dir = "";
  let config = "";
  let http: Started;
  const receivers: Awaited<ReturnType<typeof receiver>>[] = [];
  const workerArgs = () => ["--db", database.url, "--config", config, "--pool-size", "3"];

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    dir = mkdtempSync(join(tmpdir(), "tminus-multi-wh-"));
    config = join(dir, "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 100_000 } },
        webhooks: {
          allow_http: true,
          allow_private_destinations: true,
          timeout_ms: TIMEOUT_MS,
          lease_margin_ms: LEASE_MARGIN_MS,
          retry_delays_seconds: [1, 1, 1],
        },
      }),
    );
    http = await serve([
      "--db",
      database.url,
      "--config",
      config,
      "--no-worker",
      "--pool-size",
      "4",
    ]);
  });
  afterAll(async () => {
    await stopAll();
    for (const r of receivers) await r.close();
    await pool?.end();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** An account with one destination for `timer.created`, pointing at `url`. */
  async function account(name: string, url: string): Promise<IssuedKey> {
    const key = await issueKey(database.url, config, name);
    const made = await api(http.url, key, "POST", "/webhook-destinations", {
      body: { url, events: ["timer.created"] },
    });
    expect(made.status, made.text).toBe(201);
    return key;
  }

  async function createTimers(key: IssuedKey, count: number, inFlight = 16): Promise<void> {
    let next = 0;
    const lane = async () => {
      while (next < count) {
        const i = next++;
        const res = await api(http.url, key, "POST", "/timers", {
          body: TIMER,
          headers: { "idempotency-key": `${key.account}-${i}` },
        });
        if (res.status !== 201) throw new Error(`create ${i}: ${res.status} ${res.text}`);
      }
    };
    await Promise.all(Array.from({ length: inFlight }, lane));
  }

  it("serve --no-worker neither delivers nor purges; tminus worker does both", async () => {
    const hook = await receiver((_req, res) => res.writeHead(204).end());
    receivers.push(hook);
    const key = await account("roles", hook.url);
    const { rows } = await pool.query("SELECT id FROM accounts WHERE name = 'roles'");
    const accountId = rows[0].id as string;
    // Data long past its retention: a request-log entry and an idempotency record.
    await pool.query(
      `INSERT INTO request_log (id, account_id, environment, key_id, key_prefix, request_id,
         method, route, status, error_code, duration_ms, created_at)
       VALUES ('old-entry', $1, 'production', $2, $3, 'old-request', 'GET', '/api/v1/usage',
         200, NULL, 1, 1000)`,
      [accountId, key.id, key.prefix],
    );
    await pool.query(
      `INSERT INTO idempotency_keys (account_id, environment, key, fingerprint, response_status,
         response_headers, response_body, created_at, expires_at)
       VALUES ($1, 'production', 'old-key', 'f', 201, '{}', '{}', 1000, 2000)`,
      [accountId],
    );
    const expired = async () => {
      const r = await pool.query(
        `SELECT (SELECT count(*)::int FROM request_log WHERE id = 'old-entry') +
                (SELECT count(*)::int FROM idempotency_keys WHERE key = 'old-key') AS n`,
      );
      return r.rows[0].n as number;
    };
    await createTimers(key, 3);
    await sleep(1500);
    expect(hook.arrivals.size).toBe(0);
    expect(await expired()).toBe(2); // a default serve would have purged after its first answer

    const w = await worker(workerArgs());
    await until(() => hook.succeeded.size === 3, 10_000, "3 deliveries by the worker");
    await until(async () => (await expired()) === 0, 10_000, "the worker's purge");
    await stop(w.child);
  });

  it("3 workers and 600 events: none lost, none sent twice", async () => {
    // A short wait before each answer, so that many attempts are in flight at once.
    const hook = await receiver((_req, res) => {
      setTimeout(() => res.writeHead(204).end(), 15);
    });
    receivers.push(hook);
    const key = await account("fanout", hook.url);
    const workers = await Promise.all([1, 2, 3].map(() => worker(workerArgs())));
    await createTimers(key, 600);
    await until(() => hook.succeeded.size === 600, 45_000, "600 deliveries");
    await sleep(1000); // nothing more may come
    expect(hook.arrivals.size).toBe(600);
    const repeated = [...hook.arrivals].filter(([, times]) => times.length !== 1);
    expect(repeated).toEqual([]);
    // More in flight than one worker allows (8): several workers sent at the same time.
    expect(hook.maxInFlight()).toBeGreaterThan(8);
    const deliveries: Delivery[] = await listAll(http.url, key, "/webhook-deliveries");
    expect(deliveries).toHaveLength(600);
    expect(deliveries.every((d) => d.status === "succeeded" && d.attempt_count === 1)).toBe(true);
    await Promise.all(workers.map((w) => stop(w.child)));
  }, 90_000);

  it("a worker killed with SIGKILL mid-delivery loses nothing: another delivers after the lease", async () => {
    let hold = true;
    const held: ServerResponse[] = [];
    const hook = await receiver((_req, res) => {
      if (hold)
        held.push(res); // never answered: the attempt is in flight when the worker dies
      else res.writeHead(204).end();
    });
    receivers.push(hook);
    const key = await account("killed", hook.url);
    await createTimers(key, 5); // no worker runs now: all five wait in the outbox
    const doomed = await worker(workerArgs());
    await until(() => held.length === 5, 10_000, "5 attempts in flight");
    await stop(doomed.child, "SIGKILL");
    hold = false;
    const heir = await worker(workerArgs());
    await until(() => hook.succeeded.size === 5, 20_000, "5 deliveries by the second worker");
    await sleep(500);
    for (const [, times] of hook.arrivals) {
      // Sent once by the killed worker, once more by the heir, and not before the lease ran out.
      expect(times).toHaveLength(2);
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(TIMEOUT_MS + LEASE_MARGIN_MS - 250);
    }
    expect([...hook.succeeded.values()]).toEqual([1, 1, 1, 1, 1]);
    const deliveries: Delivery[] = await listAll(http.url, key, "/webhook-deliveries");
    expect(deliveries.map((d) => d.status)).toEqual(Array(5).fill("succeeded"));
    await stop(heir.child);
  }, 60_000);
});
