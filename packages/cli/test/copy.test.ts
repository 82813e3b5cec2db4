// `tminus copy` between a SQLite file filled through the API of a real `tminus serve` and the
// real PostgreSQL server, both ways, while serve keeps answering on the source; the copies
// answer the same with the same keys. Then an interrupted copy resumes, and a target that
// holds data is refused unless --force.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Filled, fillThroughApi, signedReceiver, targetAt } from "./_fill";
import {
  api,
  cli,
  createTestDatabase,
  describeWithPostgres,
  listAll,
  type Started,
  serve,
  stop,
  stopAll,
  tminus,
  until,
} from "./_processes";

const describePg = await describeWithPostgres();

const TIMERS = 2400;

type Database = Awaited<ReturnType<typeof createTestDatabase>>;

/** What the source answers, to compare a copy's answers with. */
interface Reference {
  timers: Map<string, { revision: number; name: string; status: string }>;
  /** Whole answers of some timers, their server's origin replaced by BASE. */
  samples: Map<string, string>;
  sandboxCount: number;
}

/** Rows per table from the verification table a copy prints. */
function rowsByTable(stdout: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of stdout.matchAll(/^ {2}(\w+)\s+(\d+)\s+(\d+)\s+[0-9a-f]{32}\s+ok$/gm)) {
    expect(m[2]).toBe(m[3]);
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

describePg("tminus copy: SQLite filled through the API <-> PostgreSQL", () => {
  let dir = "";
  let config = "";
  let source = "";
  let a: Started;
  let filled: Filled;
  let hook: Awaited<ReturnType<typeof signedReceiver>>;
  const databases: Database[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tminus-copy-"));
    config = join(dir, "config.json");
    source = join(dir, "source.db");
    writeFileSync(
      config,
      JSON.stringify({
        plans: { starter: { requests_per_minute: 1_000_000, new_timers_per_cycle: 1_000_000 } },
        sandbox: { requests_per_minute: 1_000_000, new_timers_per_cycle: 1_000_000 },
        webhooks: { allow_http: true, allow_private_destinations: true },
      }),
    );
    hook = await signedReceiver();
    a = await serve(["--db", source, "--config", config]);
    filled = await fillThroughApi(a.url, source, config, hook.url, TIMERS);
  }, 240_000);
  afterAll(async () => {
    await stopAll();
    await hook?.close();
    for (const d of databases) await d.drop().catch(() => {});
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function newDatabase(): Promise<Database> {
    const d = await createTestDatabase();
    databases.push(d);
    return d;
  }

  async function reference(base: string): Promise<Reference> {
    const list = await listAll(base, filled.acme, "/timers");
    const timers = new Map(
      list.map((t) => [t.id as string, { revision: t.revision, name: t.name, status: t.status }]),
    );
    const samples = new Map();
    for (const t of list.filter((_, n) => n % 97 === 0)) {
      samples.set(
        t.id,
        (await api(base, filled.acme, "GET", `/timers/${t.id}`)).text.replaceAll(base, "BASE"),
      );
    }
    const sandboxCount = (await listAll(base, filled.sandbox, "/timers")).length;
    return { timers, samples, sandboxCount };
  }

  /** The API checks every copy passes against its own `serve`, with the source's keys. */
  async function expectSameAnswers(base: string, ref: Reference, db: string) {
    const wrong = await api(base, `${filled.acme.secret.slice(0, -4)}AAAA`, "GET", "/timers");
    expect(wrong.status).toBe(401);
    const list = await listAll(base, filled.acme, "/timers");
    expect(
      new Map(list.map((t) => [t.id, { revision: t.revision, name: t.name, status: t.status }])),
    ).toEqual(ref.timers);
    for (const [id, data] of ref.samples) {
      const got = await api(base, filled.acme, "GET", `/timers/${id}`);
      // The same timer, its public URLs on this server.
      expect(JSON.parse(got.text.replaceAll(base, "BASE")).data).toEqual(JSON.parse(data).data);
      const status = await api(base, filled.acme, "GET", `/timers/${id}/status`);
      expect(status.status, status.text).toBe(200);
    }
    expect((await listAll(base, filled.sandbox, "/timers")).length).toBe(ref.sandboxCount);
    // Evergreen viewers keep their start: the same browser, the same end.
    for (const browser of filled.evergreen.browsers.slice(0, 5)) {
      const page = await fetch(`${base}/t/${filled.evergreen.id}`, {
        headers: { cookie: browser.cookie },
      });
      expect(page.headers.get("set-cookie")).toBeNull();
      expect(targetAt(await page.text())).toBe(browser.targetAt);
    }
    // The request log came along.
    for (const id of filled.requestIds.slice(0, 3)) {
      const log = await api(base, filled.acme, "GET", `/usage/requests?request_id=${id}`);
      expect(log.json.data.map((e: { request_id: string }) => e.request_id)).toEqual([id]);
    }
    const usage = await api(base, filled.acme, "GET", "/usage");
    expect(usage.status).toBe(200);
    // The dashboard user came along.
    const users = await tminus(["users", "list", "--account", "acme", "--db", db]);
    expect(users.stdout).toContain("owner@acme.test  owner");
    // The destination still signs with the secret its receiver was given at creation.
    const made = await api(base, filled.acme, "POST", "/timers", {
      body: { name: "After the move", type: "fixed", deadline_at: "2032-01-01T00:00:00Z" },
      headers: { "idempotency-key": `after-${base}` },
    });
    expect(made.status, made.text).toBe(201);
    await until(
      () => hook.received.some((r) => r.body.includes(made.json.data.id)),
      20_000,
      "the delivery of the new timer",
    );
    const delivery = hook.received.find((r) => r.body.includes(made.json.data.id))!;
    expect(delivery.signedWith(filled.destination.secret)).toBe(true);
    expect(delivery.signedWith("whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")).toBe(false);
  }

  /** Reads from `base` until `stop` is called; every answer must be a 200. */
  function keepReading(base: string) {
    let reading = true;
    const statuses: number[] = [];
    const ids = [...filled.evergreen.browsers.keys()];
    const loop = (async () => {
      while (reading) {
        const list = await api(base, filled.acme, "GET", "/timers?limit=50");
        statuses.push(list.status);
        const status = await api(base, filled.acme, "GET", `/timers/${filled.evergreen.id}/status`);
        statuses.push(status.status);
      }
    })();
    return {
      async stop() {
        reading = false;
        await loop;
        expect(ids.length).toBeGreaterThan(0);
        return statuses;
      },
    };
  }

  it("to PostgreSQL while serve answers on the source, and back while serve answers on PostgreSQL", async () => {
    const target = await newDatabase();
    const ref = await reference(a.url);
    expect(ref.timers.size).toBeGreaterThan(2000);

    const readers = keepReading(a.url);
    const copied = await tminus(["copy", "--from", source, "--to", target.url]);
    const statuses = await readers.stop();
    expect(copied.code, copied.stderr).toBe(0);
    expect(copied.stdout).toMatch(/verified: 28 tables, equal counts and checksums/);
    expect(statuses.length).toBeGreaterThan(4);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const rows = rowsByTable(copied.stdout);
    expect(Object.keys(rows)).toHaveLength(28);
    expect(rows.timers).toBeGreaterThan(TIMERS);
    expect(rows.request_log).toBeGreaterThan(TIMERS);
    for (const table of [
      "accounts",
      "api_keys",
      "timer_activity",
      "idempotency_keys",
      "usage_counters",
      "rate_windows",
      "secrets",
      "webhook_destinations",
      "webhook_rules",
      "webhook_events",
      "webhook_deliveries",
      "timer_viewers",
      "users",
      "user_password_links",
      "render_views",
      "render_viewers",
      "analytics_salts",
    ]) {
      expect(rows[table], table).toBeGreaterThan(0);
    }
    // Off a terminal the progress is plain lines, one per table copied.
    expect(copied.stderr).toMatch(/^copy: timers \d+\/\d+ rows/m);
    expect(copied.stderr).not.toContain("\u001b[");

    const b = await serve(["--db", target.url, "--config", config, "--pool-size", "3"]);
    await expectSameAnswers(b.url, ref, target.url);

    // Back into a new SQLite file while serve answers on PostgreSQL.
    const back = join(dir, "back.db");
    const ref2 = await reference(b.url);
    const readers2 = keepReading(b.url);
    const returned = await tminus(["copy", "--from", target.url, "--to", back, "--json"]);
    const statuses2 = await readers2.stop();
    expect(returned.code, returned.stderr).toBe(0);
    const report = JSON.parse(returned.stdout);
    expect(report).toMatchObject({ ok: true, resumed: false, to: back });
    expect(report.tables).toHaveLength(28);
    expect(statuses2.every((s) => s === 200)).toBe(true);
    await stop(b.child);
    const c = await serve(["--db", back, "--config", config]);
    await expectSameAnswers(c.url, ref2, back);
    await stop(c.child);
  }, 300_000);

  it("an interrupted copy resumes where it stopped; a target with data is refused unless --force", async () => {
    // The source at rest from here on: a resumed copy reads it again.
    await stop(a.child);
    const target = await newDatabase();
    const args = ["copy", "--from", source, "--to", target.url];
    const first = spawn(process.execPath, [cli, ...args, "--batch-size", "20"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const client = new pg.Client({ connectionString: target.url });
    client.on("error", () => {});
    await client.connect();
    const copiedTimers = async () => {
      const r = await client
        .query("SELECT rows FROM tminus_copy_progress WHERE table_name = 'timers'")
        .catch(() => ({ rows: [] }));
      return Number(r.rows[0]?.rows ?? 0);
    };
    await until(async () => (await copiedTimers()) >= 200, 60_000, "a part of the timers copied");
    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    const partial = await copiedTimers();
    const committed = Number(
      (
        await client.query(
          "SELECT sum(rows) AS n FROM tminus_copy_progress WHERE table_name NOT LIKE 'source:%'",
        )
      ).rows[0].n,
    );
    const inTable = Number((await client.query("SELECT count(*) AS n FROM timers")).rows[0].n);
    // What the record says is exactly what committed.
    expect(inTable).toBe(partial);
    expect(partial).toBeLessThan(TIMERS);

    const resumed = await tminus([...args, "--json"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const report = JSON.parse(resumed.stdout);
    expect(report.ok).toBe(true);
    expect(report.resumed).toBe(true);
    const total = report.tables.reduce(
      (n: number, t: { source: { rows: number } }) => n + t.source.rows,
      0,
    );
    expect(report.copiedRows).toBe(total - committed);
    // The record is gone once verified.
    expect(
      (await client.query("SELECT to_regclass('tminus_copy_progress') AS t")).rows[0].t,
    ).toBeNull();
    await client.end();

    // Now it holds data: refused in one line, unless --force.
    const refused = await tminus(args);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(
      /^tminus: target .+ is not empty \(accounts: \d+.*\); pass --force/,
    );
    const forced = await tminus([...args, "--force", "--json"]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({
      ok: true,
      resumed: false,
      copiedRows: total,
    });

    // A SQLite target with data is refused the same way; a missing source is not created.
    const used = join(dir, "used.db");
    const key = await tminus([
      "keys",
      "create",
      "--env",
      "production",
      "--account",
      "someone",
      "--db",
      used,
    ]);
    expect(key.code, key.stderr).toBe(0);
    const intoUsed = await tminus(["copy", "--from", target.url, "--to", used]);
    expect(intoUsed.stderr).toMatch(
      /^tminus: target .+used\.db is not empty \(accounts: 1, api_keys: 1\)/,
    );
    // A table the copy does not know fails it loudly, and the refused target file is not left.
    const extra = new pg.Client({ connectionString: target.url });
    await extra.connect();
    await extra.query("CREATE TABLE plugin_notes (id text)");
    await extra.end();
    const unknown = await tminus(["copy", "--from", target.url, "--to", join(dir, "never.db")]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /^tminus: postgres:.+ has a table this tminus does not know how to copy: plugin_notes\n$/,
    );
    expect(existsSync(join(dir, "never.db"))).toBe(false);
    const missing = await tminus([
      "copy",
      "--from",
      join(dir, "nope.db"),
      "--to",
      join(dir, "x.db"),
    ]);
    expect(missing.stderr).toMatch(/^tminus: SQLite database .+nope\.db: no SQLite database at/);
  }, 240_000);
});
