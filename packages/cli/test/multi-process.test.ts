// Every promise of the API across processes: two real `tminus serve` processes (the built
// binary) on ONE PostgreSQL database, requests spread over both. A is a default `serve`
// (API + worker + purge), B is `serve --no-worker` (HTTP only).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type Answer,
  api,
  createTestDatabase,
  describeWithPostgres,
  firstStartSecrets,
  type IssuedKey,
  issueKey,
  listAll,
  type Started,
  serve,
  sleep,
  stopAll,
  TIMER,
  tally,
  tminus,
  until,
} from "./_processes";

const describePg = await describeWithPostgres();

/** One metric of a `GET /usage` answer. */
function metric(usage: Answer, name: string): { total: number; remaining: number | string } {
  return usage.json.data.metrics.find((m: { metric: string }) => m.metric === name);
}

describePg("two tminus serve processes on one PostgreSQL database", () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dir = "";
  let config = "";
  let a: Started & { keysFile: string };
  let b: Started & { keysFile: string };
  /** Alternates between the two processes. */
  const via = (i: number) => (i % 2 === 0 ? a.url : b.url);

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), "tminus-multi-"));
    config = join(dir, "config.json");
    writeFileSync(
      config,
      JSON.stringify({
        plans: {
          starter: { requests_per_minute: 100_000, new_timers_per_cycle: 500, max_keys: 10 },
          tight: { requests_per_minute: 30, new_timers_per_cycle: 500, max_keys: 10 },
        },
      }),
    );
    // Both start at once on an empty database: they migrate it together (advisory lock) and
    // bootstrap it together (one of them issues the default keys).
    const common = ["--db", database.url, "--config", config, "--pool-size", "6"];
    [a, b] = await Promise.all([serve(common), serve([...common, "--no-worker"])]);
  });
  afterAll(async () => {
    await stopAll();
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("two processes started together on an empty database both run; exactly one bootstraps it", async () => {
    // JSON logs: the one that bootstrapped wrote the secrets to its keys file and said so.
    const printed = [a, b].filter((p) => p.output().includes(`"event":"first_start_keys"`));
    expect(printed).toHaveLength(1);
    expect(existsSync(a.keysFile) !== existsSync(b.keysFile)).toBe(true);
    const { sandbox } = firstStartSecrets(printed[0]!.keysFile);
    for (const base of [a.url, b.url]) {
      expect((await api(base, sandbox, "GET", "/usage")).status).toBe(200);
    }
    expect(b.output()).toContain("HTTP only");
  });

  it("allowance: 1,000 concurrent creates against 500 make exactly 500 timers; the rest get quota_exhausted", async () => {
    const key = await issueKey(database.url, config, "allowance");
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        api(via(i), key, "POST", "/timers", {
          body: TIMER,
          headers: { "idempotency-key": `allowance-${i}` },
        }),
      ),
    );
    expect(tally(answers)).toEqual({ "201": 500, "429 quota_exhausted": 500 });
    const refused = answers.find((x) => x.status === 429)!;
    expect(refused.json.error.details).toMatchObject({
      metric: "new_timers",
      limit: 500,
      used: 500,
    });
    expect(refused.headers.get("retry-after")).toBeNull();
    // Both processes answered both kinds.
    for (const [status, parity] of [
      [201, 0],
      [201, 1],
      [429, 0],
      [429, 1],
    ]) {
      expect(answers.some((x, i) => x.status === status && i % 2 === parity)).toBe(true);
    }
    const timers = await listAll(b.url, key, "/timers");
    expect(new Set(timers.map((t) => t.id)).size).toBe(500);
    const usage = await api(a.url, key, "GET", "/usage");
    expect(metric(usage, "new_timers")).toMatchObject({ total: 500, remaining: 0 });
  }, 60_000);

  it("idempotency: one key and body sent 50 times to both processes make one timer; the rest replay it", async () => {
    const key = await issueKey(database.url, config, "idempotency");
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api(via(i), key, "POST", "/timers", {
          body: { ...TIMER, name: "Once" },
          headers: { "idempotency-key": "one-key" },
        }),
      ),
    );
    expect(tally(answers)).toEqual({ "201": 50 });
    const fresh = answers.filter((x) => x.headers.get("idempotent-replayed") !== "true");
    expect(fresh).toHaveLength(1);
    // Every replay is the first response byte for byte (its original request_id included).
    for (const x of answers) {
      expect(x.text).toBe(fresh[0]!.text);
      expect(x.headers.get("etag")).toBe(fresh[0]!.headers.get("etag"));
      expect(x.headers.get("location")).toBe(fresh[0]!.headers.get("location"));
    }
    expect(new Set(answers.map((x) => x.headers.get("x-request-id"))).size).toBe(50);
    const timers = await listAll(a.url, key, "/timers");
    expect(timers.map((t) => t.id)).toEqual([fresh[0]!.json.data.id]);
    const usage = await api(b.url, key, "GET", "/usage");
    expect(metric(usage, "new_timers").total).toBe(1);
  });

  it("revisions: 20 concurrent PATCHes with one If-Match across both processes have exactly one winner", async () => {
    const key = await issueKey(database.url, config, "revisions");
    const created = await api(a.url, key, "POST", "/timers", {
      body: TIMER,
      headers: { "idempotency-key": "rev" },
    });
    const { id, revision } = created.json.data;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api(via(i), key, "PATCH", `/timers/${id}`, {
          body: { name: `Writer ${i}` },
          headers: { "if-match": revision },
        }),
      ),
    );
    expect(tally(answers)).toEqual({ "200": 1, "409 revision_conflict": 19 });
    const winner = answers.findIndex((x) => x.status === 200);
    const now = await api(b.url, key, "GET", `/timers/${id}`);
    expect(now.json.data).toMatchObject({ name: `Writer ${winner}` });
    expect(now.json.data.revision).not.toBe(revision);
    const conflict = answers.find((x) => x.status === 409)!;
    expect(conflict.json.error.details.current_revision).toBe(now.json.data.revision);
  });

  it("rate limits: never above the limit across processes, per key and per account", async () => {
    // Fixed one-minute windows: start well inside one, so the burst cannot straddle two.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await sleep(60_000 - intoMinute + 250);
    const oneKey = await issueKey(database.url, config, "rate-key", "tight");
    const first = await issueKey(database.url, config, "rate-account", "tight");
    const second = await issueKey(database.url, config, "rate-account");
    const burst = (keys: IssuedKey[]) =>
      Promise.all(
        Array.from({ length: 100 }, (_, i) => api(via(i), keys[i % keys.length]!, "GET", "/usage")),
      );
    const started = Date.now();
    const [perKey, perAccount] = await Promise.all([burst([oneKey]), burst([first, second])]);
    // Still one window (the burst takes a second or two): the counts are exact.
    expect(Math.floor(Date.now() / 60_000)).toBe(Math.floor(started / 60_000));
    expect(tally(perKey)).toEqual({ "200": 30, "429 rate_limited": 70 });
    // Two keys of one account share the account's 30.
    expect(tally(perAccount)).toEqual({ "200": 30, "429 rate_limited": 70 });
    for (const answers of [perKey, perAccount]) {
      const refused = answers.filter((x) => x.status === 429);
      expect(refused.every((x) => Number(x.headers.get("retry-after")) >= 1)).toBe(true);
      expect(refused.every((x) => x.headers.get("ratelimit-remaining") === "0")).toBe(true);
    }
  }, 90_000);

  it("revocation and suspension through the CLI take effect on both processes at their next request", async () => {
    const key = await issueKey(database.url, config, "revoke");
    const both = async () =>
      Promise.all([a.url, b.url].map((base) => api(base, key, "GET", "/usage")));
    expect((await both()).map((x) => x.status)).toEqual([200, 200]);

    const suspend = await tminus(["accounts", "suspend", "revoke", "--db", database.url]);
    expect(suspend.code, suspend.stderr).toBe(0);
    const suspended = await both();
    expect(suspended.map((x) => `${x.status} ${x.json.error?.code}`)).toEqual([
      "403 suspended",
      "403 suspended",
    ]);
    expect((await tminus(["accounts", "activate", "revoke", "--db", database.url])).code).toBe(0);
    expect((await both()).map((x) => x.status)).toEqual([200, 200]);

    const revoked = await tminus(["keys", "revoke", key.prefix, "--db", database.url]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = await both();
    expect(after.map((x) => `${x.status} ${x.json.error?.code}`)).toEqual([
      "401 invalid_api_key",
      "401 invalid_api_key",
    ]);
  });

  it("cursors, usage and the request log are the same whichever process answers", async () => {
    const key = await issueKey(database.url, config, "pages");
    const made: Answer[] = [];
    for (let i = 0; i < 7; i++) {
      made.push(
        await api(via(i), key, "POST", "/timers", {
          body: { ...TIMER, name: `T${i}` },
          headers: { "idempotency-key": `p${i}` },
        }),
      );
    }
    expect(made.every((x) => x.status === 201)).toBe(true);
    // Page with A, continue with B, then A again.
    const seen: string[] = [];
    let cursor = "";
    const pages: Answer[] = [];
    for (const base of [a.url, b.url, a.url]) {
      const page = await api(
        base,
        key,
        "GET",
        `/timers?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      expect(page.status, page.text).toBe(200);
      pages.push(page);
      seen.push(...page.json.data.map((t: { id: string }) => t.id));
      cursor = page.json.page.next_cursor;
    }
    expect(pages.at(-1)!.json.page.has_more).toBe(false);
    expect(seen).toEqual(made.map((x) => x.json.data.id).reverse()); // newest first, each once

    // Usage counts the requests of both processes: 7 creates, 3 pages and this one. Counts
    // are written in batches (every 100 ms): wait past a batch so the other process's are in.
    await new Promise((r) => setTimeout(r, 300));
    const usage = [await api(a.url, key, "GET", "/usage"), await api(b.url, key, "GET", "/usage")];
    expect(metric(usage[0]!, "api_requests").total).toBe(11);
    expect(metric(usage[1]!, "api_requests").total).toBe(12);
    expect(metric(usage[1]!, "new_timers").total).toBe(7);

    // The request log read through B holds the requests A answered, and the reverse.
    const ids = [...made, ...pages, ...usage].map((x) => x.headers.get("x-request-id"));
    for (const base of [a.url, b.url]) {
      await until(
        async () => {
          const logged = await listAll(base, key, "/usage/requests");
          const have = new Set(logged.map((e) => e.request_id));
          return ids.every((id) => have.has(id));
        },
        5000,
        "every request in the log",
      );
    }
  });

  it("evergreen viewers and the public routes: a recipient's start is theirs on both processes", async () => {
    const key = await issueKey(database.url, config, "public");
    const created = await api(a.url, key, "POST", "/timers", {
      body: { name: "Evergreen", type: "duration", duration_seconds: 3600 },
      headers: { "idempotency-key": "evergreen" },
    });
    const { id, revision } = created.json.data;
    // Not published yet: neither process shows it.
    for (const base of [a.url, b.url]) expect((await fetch(`${base}/t/${id}`)).status).toBe(404);
    const published = await api(b.url, key, "POST", `/timers/${id}/publish`, {
      headers: { "if-match": revision },
    });
    expect(published.status, published.text).toBe(200);

    const target = (html: string) => Number(/"targetAt":(\d+)/.exec(html)?.[1]);
    const first = await fetch(`${a.url}/t/${id}`);
    expect(first.status).toBe(200);
    const cookie = first.headers.get("set-cookie")!.split(";")[0]!;
    const startedAt = target(await first.text());
    expect(startedAt).toBeGreaterThan(Date.now() + 3590_000);
    await sleep(1100);
    // The same browser on the other process: the same start, not a new one.
    const again = await fetch(`${b.url}/t/${id}`, { headers: { cookie } });
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(target(await again.text())).toBe(startedAt);
    // A new browser on B starts its own countdown, later.
    const other = await fetch(`${b.url}/t/${id}`);
    expect(target(await other.text())).toBeGreaterThanOrEqual(startedAt + 1000);
    // Email images of one recipient through both processes.
    for (const base of [a.url, b.url]) {
      const gif = await fetch(`${base}/t/${id}/countdown.gif?r=alice&frames=1`);
      expect(gif.status).toBe(200);
      expect(gif.headers.get("content-type")).toBe("image/gif");
      await gif.arrayBuffer();
    }
  });
});
