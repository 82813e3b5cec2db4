// Who purges: a handler made with `housekeeping: false` never does; `createHousekeepingJob`
// (what `tminus worker` runs) does, on a real SQLite file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteStore } from "@tminus/store/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { createAdmin, createHandler, createHousekeepingJob, resolveConfig } from "../src/index";

const DAY = 86_400_000;
const T0 = Date.UTC(2030, 0, 1, 12);
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function scenario(housekeeping: boolean | undefined) {
  const dir = mkdtempSync(join(tmpdir(), "tminus-hk-"));
  dirs.push(dir);
  const store = sqliteStore({ path: join(dir, "db.sqlite") });
  const config = resolveConfig({ request_log_retention_days: 7 });
  let now = T0;
  const handler = createHandler({ store, config, now: () => now, housekeeping });
  const key = await createAdmin({ store, config }).issueKey({
    account: "hk",
    environment: "production",
  });
  const account = (await store.findAccountByName("hk"))!;
  const call = async () => {
    const res = await handler(
      new Request("http://x/api/v1/usage", { headers: { authorization: `Bearer ${key.secret}` } }),
    );
    expect(res.status).toBe(200);
    return res.headers.get("x-request-id")!;
  };
  const stored = async () =>
    (
      await store.listRequestLog({
        account_id: account.id,
        environment: "production",
        key_id: key.id,
        limit: 100,
      })
    ).map((e) => e.request_id);
  const old = await call();
  now = T0 + 8 * DAY; // `old` is past the 7-day window: the next response may purge it
  const recent = await call();
  return {
    store,
    config,
    old,
    recent,
    stored,
    setNow: (ms: number) => {
      now = ms;
    },
    async settle() {
      // Let a purge scheduled after the response (setImmediate) run, then flush the log.
      await new Promise((r) => setTimeout(r, 50));
      await handler.close();
    },
    async close() {
      await handler.close();
      await store.close();
    },
  };
}

describe("housekeeping ownership", () => {
  it("a handler with housekeeping: false never purges; the job does, once per run", async () => {
    const s = await scenario(false);
    await s.settle();
    expect(await s.stored()).toEqual(expect.arrayContaining([s.old, s.recent]));
    const errors: unknown[] = [];
    const job = createHousekeepingJob({
      store: s.store,
      config: s.config,
      now: () => T0 + 8 * DAY,
      onError: (e) => errors.push(e),
    });
    await job.runOnce();
    expect(errors).toEqual([]);
    const after = await s.stored();
    expect(after).toContain(s.recent);
    expect(after).not.toContain(s.old);
    await s.close();
  });

  it("the default handler purges after a response, as before", async () => {
    const s = await scenario(undefined);
    await s.settle();
    const after = await s.stored();
    expect(after).toContain(s.recent);
    expect(after).not.toContain(s.old);
    await s.close();
  });

  it("start() purges at once and stop() waits for it", async () => {
    const s = await scenario(false);
    await s.settle();
    const job = createHousekeepingJob({
      store: s.store,
      config: s.config,
      now: () => T0 + 8 * DAY,
    });
    job.start();
    job.start(); // idempotent
    await job.stop();
    expect(await s.stored()).not.toContain(s.old);
    await s.close();
  });

  it("the job deletes expired dashboard sessions and links, and day-old sign-in counts", async () => {
    const s = await scenario(false);
    await s.settle();
    const account = (await s.store.findAccountByName("hk"))!;
    const user = await s.store.createUser({
      id: crypto.randomUUID(),
      account_id: account.id,
      email: "hk@example.com",
      role: "owner",
      now: T0,
    });
    await s.store.createSession({
      id_hash: "a".repeat(64),
      user_id: user.id,
      expires_at: T0 + DAY,
      now: T0,
    });
    await s.store.createPasswordLink({
      token_hash: "b".repeat(64),
      user_id: user.id,
      expires_at: T0 + DAY,
      now: T0,
    });
    const attempt = () =>
      s.store.countSignInAttempt({
        key: "email:hk@example.com",
        window_ms: 900_000,
        max: 1,
        now: T0,
      });
    await attempt();
    await createHousekeepingJob({
      store: s.store,
      config: s.config,
      now: () => T0 + 2 * DAY,
    }).runOnce();
    // Asked at T0, when both were alive: only deleted rows are missing.
    expect(await s.store.findSession({ id_hash: "a".repeat(64), now: T0 })).toBeNull();
    expect(await s.store.findPasswordLink({ token_hash: "b".repeat(64), now: T0 })).toBeNull();
    expect((await attempt()).allowed).toBe(true);
    await s.close();
  });
});
