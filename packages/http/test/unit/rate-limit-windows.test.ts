// The rate limiter at its edges, on a real SQLite store: window boundaries, several keys of one
// account in one process and across processes, reservation chunks that cross a window, and
// what pruning forgets. Every reservation the limiter asks the store for is recorded, so the
// tests see not only what is admitted but which windows are asked for how many units.
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { PlanLimits } from "../../src/config";
import { ApiError } from "../../src/errors";
import type { AuthContext } from "../../src/guards/auth";
import { createRateLimiter, type RateLimitState } from "../../src/guards/rate-limit";
import { type UnitStore, unitStore } from "./_store";

const limits = (requests_per_minute: number): PlanLimits => ({
  requests_per_minute,
  new_timers_per_cycle: 10,
  max_keys: 3,
});
const W = Date.UTC(2026, 10, 23, 12, 0); // a window start: whole minutes
const MINUTE = 60_000;

let u: UnitStore;
beforeEach(() => {
  u = unitStore();
});
afterEach(() => u.close());

/** One reservation as the store saw it: the window, and `bucket want>granted` per bucket. */
type Asked = string;

/** The real store, with every reservation written down (window offset in minutes from W). */
function recording(store: UnitStore["store"], names: Map<string, string>) {
  const asked: Asked[] = [];
  const wrapped = new Proxy(store, {
    get(target, name, receiver) {
      if (name !== "reserveRequests") return Reflect.get(target, name, receiver);
      return async (input: Parameters<typeof target.reserveRequests>[0]) => {
        const grants = await target.reserveRequests(input);
        const parts = input.buckets.map(
          (b, i) => `${names.get(b.bucket) ?? b.bucket} ${b.want}>${grants[i]!.granted}`,
        );
        asked.push(`+${(input.window_start - W) / MINUTE}: ${parts.join(", ")}`);
        return grants;
      };
    },
  });
  return { store: wrapped, asked };
}

/** Keys of one account ("acme", production) named A, B, C, and their bucket names. */
async function keysOfOneAccount(count: number) {
  const keys: AuthContext[] = [];
  const names = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const { auth } = await u.key("acme");
    keys.push(auth);
    names.set(`key:${auth.key.id}`, "ABCDEFGH"[i]!);
  }
  names.set(`account:${keys[0]!.account.id}:production`, "acct");
  return { keys, names };
}

async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).code).toBe("rate_limited");
  return error as ApiError;
}

/** The store's count of a window (a reservation of nothing reads it). */
async function storeCount(bucket: string, window: number, limit: number) {
  const [grant] = await u.store.reserveRequests({
    window_start: window,
    buckets: [{ bucket, limit, want: 0 }],
  });
  return grant!.count;
}

describe("window edges", () => {
  it("the last millisecond of a window and the first of the next are counted apart", async () => {
    const limiter = createRateLimiter(u.store);
    const { keys } = await keysOfOneAccount(1);
    const [a] = keys as [AuthContext];
    expect(await limiter.take(a, limits(1), W - 1)).toEqual({
      limit: 1,
      remaining: 0,
      reset: W / 1000,
    });
    const early = await refusal(limiter.take(a, limits(1), W - 1));
    expect(early.headers?.["retry-after"]).toBe("1");
    expect(await limiter.take(a, limits(1), W)).toEqual({
      limit: 1,
      remaining: 0,
      reset: W / 1000 + 60,
    });
    // Retry-After rounds the wait up to whole seconds: 59.001 s is 60, 1.001 s is 2, 1 s is 1.
    for (const [at, wait] of [
      [W + 999, "60"],
      [W + 58_999, "2"],
      [W + 59_000, "1"],
      [W + 59_999, "1"],
    ] as const) {
      const error = await refusal(limiter.take(a, limits(1), at));
      expect(error.headers?.["retry-after"], String(at - W)).toBe(wait);
      expect(error.headers?.["ratelimit-reset"]).toBe(String(W / 1000 + 60));
      expect(error.message).toBe(
        `rate limit of 1 requests per minute exceeded; retry in ${wait} seconds`,
      );
    }
    expect((await limiter.take(a, limits(1), W + MINUTE)).reset).toBe(W / 1000 + 120);
  });

  it("a window that is not at a whole minute of the epoch does not exist: W + 30 s is in W's window", async () => {
    const limiter = createRateLimiter(u.store);
    const { keys, names } = await keysOfOneAccount(1);
    const rec = recording(u.store, names);
    const counted = createRateLimiter(rec.store);
    await counted.take(keys[0]!, limits(5), W + 30_000);
    await counted.take(keys[0]!, limits(5), W + 59_999);
    expect(rec.asked).toEqual(["+0: A 1>1, acct 1>1", "+0: A 1>1, acct 1>1"]);
    // Another limiter at W + 45 s shares the same store window.
    expect((await limiter.take(keys[0]!, limits(5), W + 45_000)).remaining).toBe(2);
  });
});

describe("several keys of one account, one process", () => {
  it("asks only for the windows it holds no units of, in chunks of an eighth of the room", async () => {
    const { keys, names } = await keysOfOneAccount(3);
    const [a, b, c] = keys as [AuthContext, AuthContext, AuthContext];
    const rec = recording(u.store, names);
    const limiter = createRateLimiter(rec.store);
    const seen: string[] = [];
    const take = async (auth: AuthContext, label: string) => {
      const state = await limiter.take(auth, limits(80), W);
      seen.push(`${label}${state.remaining}`);
    };
    await take(a, "A"); // one unit of each: light traffic is counted exactly
    await take(a, "A"); // a chunk of each: (80 - 1) / 8 = 9
    await take(b, "B"); // B's first unit; the account still holds 7 of its chunk
    await take(b, "B"); // B's chunk: (80 - 1) / 8 = 9; the account still holds 6
    for (let i = 0; i < 6; i++) await take(c, "C"); // C: 1, then 9; the account runs dry
    await take(c, "C"); // the account alone: (80 - 10) / 8 = 8
    expect(rec.asked).toEqual([
      "+0: A 1>1, acct 1>1",
      "+0: A 9>9, acct 9>9",
      "+0: B 1>1",
      "+0: B 9>9",
      "+0: C 1>1",
      "+0: C 9>9",
      "+0: acct 8>8",
    ]);
    // Remaining is the account's (every key counts there): 80 less the 11 used.
    expect(seen).toEqual([
      "A79",
      "A78",
      "B77",
      "B76",
      "C75",
      "C74",
      "C73",
      "C72",
      "C71",
      "C70",
      "C69",
    ]);
    expect(await storeCount(`account:${a.account.id}:production`, W, 80)).toBe(18);
  });

  it("admits exactly the limit over all keys together, then refuses every key", async () => {
    const { keys } = await keysOfOneAccount(3);
    const limiter = createRateLimiter(u.store);
    let admitted = 0;
    for (let i = 0; i < 40; i++) {
      const auth = keys[i % 3]!;
      await limiter.take(auth, limits(31), W + i * 100).then(
        () => admitted++,
        (e: ApiError) => expect(e.code).toBe("rate_limited"),
      );
    }
    expect(admitted).toBe(31);
    for (const auth of keys) await refusal(limiter.take(auth, limits(31), W + 30_000));
  });
});

describe("several keys of one account, several processes", () => {
  it("a key's own window fills when other processes hold its units: that key is refused, the others are not", async () => {
    const { keys, names } = await keysOfOneAccount(2);
    const [a, b] = keys as [AuthContext, AuthContext];
    const others = Array.from({ length: 8 }, () => createRateLimiter(u.store));
    // Each other process first serves key B (and holds some of the account's window), then
    // key A twice: one unit of A, then a chunk of A reserved on its own, the account's units
    // being held already. Eight chunks of an eighth fill A's window; few of them are used.
    for (const p of others) {
      await p.take(b, limits(80), W);
      await p.take(b, limits(80), W);
    }
    for (const p of others) await p.take(a, limits(80), W);
    for (const p of others) await p.take(a, limits(80), W);
    const keyA = `key:${a.key.id}`;
    const account = `account:${a.account.id}:production`;
    expect(await storeCount(keyA, W, 80)).toBe(80);
    expect(await storeCount(account, W, 80)).toBe(54);

    const rec = recording(u.store, names);
    const fresh = createRateLimiter(rec.store);
    const error = await refusal(fresh.take(a, limits(80), W + 20_000));
    expect(error.headers).toEqual({
      "retry-after": "40",
      "ratelimit-limit": "80",
      "ratelimit-remaining": "0",
      "ratelimit-reset": String(W / 1000 + 60),
    });
    // Refused at once the next time: A's window is known to be full.
    await refusal(fresh.take(a, limits(80), W + 20_000));
    // The account unit it got stays with this process, for key B.
    expect(await fresh.take(b, limits(80), W + 20_000)).toMatchObject({ remaining: 25 });
    expect(rec.asked).toEqual(["+0: A 1>0, acct 1>1", "+0: B 1>1"]);
    // The processes that hold A's units still admit A's requests. This one knows A's window
    // as 17 handed out when it took its chunk, 7 of them still held here after this request.
    expect((await others[0]!.take(a, limits(80), W + 20_000)).remaining).toBe(80 - (17 - 7));
  });

  it("answers with the key's window when this process knows it to be the tighter", async () => {
    const { keys } = await keysOfOneAccount(2);
    const [a, b] = keys as [AuthContext, AuthContext];
    const p1 = createRateLimiter(u.store);
    const p2 = createRateLimiter(u.store);
    await p1.take(b, limits(80), W);
    await p1.take(b, limits(80), W); // p1 holds 8 units of the account's window (count 10)
    await p2.take(a, limits(80), W);
    await p2.take(a, limits(80), W); // key A's window: 10 handed out; the account's: 19
    // p1 asks for key A's first unit only (it holds account units) and learns A's count, 11,
    // fresher than what it knows of the account's (10, 7 of them still held here).
    const state = await p1.take(a, limits(80), W);
    expect(state.remaining).toBe(80 - 11);
    // Key B's window as p1 knows it (10 handed out, 7 held) is looser than the account's
    // (10 handed out, 6 held): the account's answers.
    expect((await p1.take(b, limits(80), W)).remaining).toBe(80 - (10 - 6));
  });

  it("never admits more than the limit per key and per account, whatever the interleaving", async () => {
    const { keys } = await keysOfOneAccount(2);
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(2), fc.nat(1), fc.integer({ min: 1, max: 6 })), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer({ min: 1, max: 40 }),
        async (steps, limit) => {
          // A fresh window for every run: runs share one store.
          const window = W + ++run * MINUTE;
          const processes = [0, 1, 2].map(() => createRateLimiter(u.store));
          const admitted = [0, 0];
          for (const [p, k, n] of steps) {
            const batch = Array.from({ length: n }, () =>
              processes[p]!.take(keys[k]!, limits(limit), window).then(
                () => admitted[k]!++,
                (e: ApiError) => expect(e.code).toBe("rate_limited"),
              ),
            );
            await Promise.all(batch);
          }
          expect(admitted[0]! + admitted[1]!).toBeLessThanOrEqual(limit);
          const requests = steps.reduce((sum, [, , n]) => sum + n, 0);
          // Units held by other processes are lost to one, never more than all.
          expect(admitted[0]! + admitted[1]!).toBeGreaterThanOrEqual(Math.min(1, requests));
        },
      ),
    );
  });
});

describe("one process, exactly the limit (a model of fixed windows)", () => {
  it("admits, counts down and resets exactly as one counter per key and per account would", async () => {
    const { keys } = await keysOfOneAccount(3);
    const other = (await u.key("globex")).auth;
    const sandbox = (await u.key("acme", "sandbox")).auth;
    const all = [...keys, other, sandbox];
    const accountOf = ["acme", "acme", "acme", "globex", "acme-sandbox"];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(4), fc.integer({ min: 0, max: 25_000 })), {
          minLength: 1,
          maxLength: 60,
        }),
        fc.integer({ min: 1, max: 12 }),
        async (steps, limit) => {
          // Windows no other run uses (runs share one store): 60 steps of 25 s fit in 26 minutes.
          let now = W + ++run * 30 * MINUTE;
          const limiter = createRateLimiter(u.store);
          const used = new Map<string, number>();
          for (const [i, gap] of steps) {
            now += gap;
            const window = now - (now % MINUTE);
            const keyCount = `${window} key ${i}`;
            const accountCount = `${window} ${accountOf[i]}`;
            const key = used.get(keyCount) ?? 0;
            const account = used.get(accountCount) ?? 0;
            const taking = limiter.take(all[i]!, limits(limit), now);
            if (account < limit) {
              const state: RateLimitState = await taking;
              used.set(keyCount, key + 1);
              used.set(accountCount, account + 1);
              expect(state).toEqual({
                limit,
                remaining: Math.min(limit - key - 1, limit - account - 1),
                reset: (window + MINUTE) / 1000,
              });
            } else {
              const error = await refusal(taking);
              expect(error.headers?.["retry-after"]).toBe(
                String(Math.max(1, Math.ceil((window + MINUTE - now) / 1000))),
              );
            }
            if (gap % 7 === 0) limiter.prune(now);
          }
        },
      ),
    );
  });
});

describe("reservation chunks that cross a window", () => {
  it("units held at a window's end are not carried into the next: it starts again at one unit", async () => {
    const { keys, names } = await keysOfOneAccount(1);
    const rec = recording(u.store, names);
    const limiter = createRateLimiter(rec.store);
    const a = keys[0]!;
    await limiter.take(a, limits(80), W + 59_000);
    const held = await limiter.take(a, limits(80), W + 59_500); // holds 8 of a chunk of 9
    expect(held.remaining).toBe(78);
    const next = await limiter.take(a, limits(80), W + MINUTE);
    expect(next).toEqual({ limit: 80, remaining: 79, reset: W / 1000 + 120 });
    // The new window is kept like the old one was: its second request takes a chunk.
    expect((await limiter.take(a, limits(80), W + MINUTE + 1)).remaining).toBe(78);
    expect((await limiter.take(a, limits(80), W + MINUTE + 2)).remaining).toBe(77);
    expect(rec.asked).toEqual([
      "+0: A 1>1, acct 1>1",
      "+0: A 9>9, acct 9>9",
      "+1: A 1>1, acct 1>1",
      "+1: A 9>9, acct 9>9",
    ]);
  });

  it("a reservation under way when the window ends serves its own window; the next asks anew", async () => {
    const { keys, names } = await keysOfOneAccount(1);
    const rec = recording(u.store, names);
    const limiter = createRateLimiter(rec.store);
    const a = keys[0]!;
    await limiter.take(a, limits(80), W + 59_000);
    const late = limiter.take(a, limits(80), W + 59_999); // asks for a chunk in window 0
    const first = limiter.take(a, limits(80), W + MINUTE); // window 1: must not wait for it
    expect(await late).toEqual({ limit: 80, remaining: 78, reset: W / 1000 + 60 });
    expect(await first).toEqual({ limit: 80, remaining: 79, reset: W / 1000 + 120 });
    expect(rec.asked).toEqual([
      "+0: A 1>1, acct 1>1",
      "+0: A 9>9, acct 9>9",
      "+1: A 1>1, acct 1>1",
    ]);
  });

  it("a late request (its clock still in the window before) leaves the newer window's units alone", async () => {
    const { keys, names } = await keysOfOneAccount(1);
    const rec = recording(u.store, names);
    const limiter = createRateLimiter(rec.store);
    const a = keys[0]!;
    await limiter.take(a, limits(80), W + MINUTE);
    await limiter.take(a, limits(80), W + MINUTE); // holds 8 units of window 1
    const late = await limiter.take(a, limits(80), W + 59_999);
    expect(late).toEqual({ limit: 80, remaining: 79, reset: W / 1000 + 60 });
    for (let i = 0; i < 8; i++) await limiter.take(a, limits(80), W + MINUTE + 1);
    expect((await limiter.take(a, limits(80), W + MINUTE + 2)).remaining).toBe(69);
    expect(rec.asked).toEqual([
      "+1: A 1>1, acct 1>1",
      "+1: A 9>9, acct 9>9",
      "+0: A 1>1, acct 1>1",
      "+1: A 8>8, acct 8>8",
    ]);
  });

  it("a window filled by chunks refuses until its end, and the next admits again", async () => {
    const { keys } = await keysOfOneAccount(2);
    const limiter = createRateLimiter(u.store);
    let admitted = 0;
    for (let i = 0; i < 50; i++) {
      await limiter.take(keys[i % 2]!, limits(40), W + 50_000 + i * 100).then(
        () => admitted++,
        () => undefined,
      );
    }
    expect(admitted).toBe(40);
    await refusal(limiter.take(keys[0]!, limits(40), W + 59_999));
    expect((await limiter.take(keys[1]!, limits(40), W + MINUTE)).remaining).toBe(39);
  });
});

describe("pruning", () => {
  it("a new window drops the ended ones by itself: two buckets per key of the minute, not per key ever seen", async () => {
    const keys: AuthContext[] = [];
    for (let i = 0; i < 8; i++) keys.push((await u.key(`minute-${i}`)).auth);
    const limiter = createRateLimiter(u.store);
    let most = 0;
    for (let minute = 0; minute < 8; minute++) {
      // One key per minute: its account's bucket and its own.
      await limiter.take(keys[minute]!, limits(80), W + minute * MINUTE + 1_000);
      most = Math.max(most, limiter.size);
    }
    expect(most).toBe(2);
    // Three keys in the same minute: three keys' buckets and three accounts'.
    for (const k of keys.slice(0, 3)) await limiter.take(k, limits(80), W + 9 * MINUTE);
    expect(limiter.size).toBe(6);
  });

  it("keeps the current window: the units held are still used, nothing is asked again", async () => {
    const { keys, names } = await keysOfOneAccount(1);
    const rec = recording(u.store, names);
    const limiter = createRateLimiter(rec.store);
    const a = keys[0]!;
    await limiter.take(a, limits(80), W + 30_000);
    await limiter.take(a, limits(80), W + 30_000);
    limiter.prune(W + 30_001);
    limiter.prune(W + 59_999);
    expect((await limiter.take(a, limits(80), W + 59_999)).remaining).toBe(77);
    expect(rec.asked).toHaveLength(2);
  });

  it("keeps an ended window whose reservation is under way, so its request is served from it", async () => {
    const { keys, names } = await keysOfOneAccount(1);
    const rec = recording(u.store, names);
    const limiter = createRateLimiter(rec.store);
    const a = keys[0]!;
    await limiter.take(a, limits(80), W + 59_000);
    const late = limiter.take(a, limits(80), W + 59_999);
    limiter.prune(W + MINUTE);
    expect((await late).remaining).toBe(78);
    expect(rec.asked).toEqual(["+0: A 1>1, acct 1>1", "+0: A 9>9, acct 9>9"]);
  });

  it("forgets ended windows: a late request for one (a clock stepped back) asks the store again", async () => {
    const { keys, names } = await keysOfOneAccount(1);
    const rec = recording(u.store, names);
    const limiter = createRateLimiter(rec.store);
    const a = keys[0]!;
    await limiter.take(a, limits(80), W + 10_000);
    await limiter.take(a, limits(80), W + 10_000); // holds 8 units of window 0
    limiter.prune(W + MINUTE + 5_000);
    // The 8 held units are gone; the store's window has 10 handed out, 1 more now.
    expect((await limiter.take(a, limits(80), W + 50_000)).remaining).toBe(80 - 11);
    expect(rec.asked).toEqual([
      "+0: A 1>1, acct 1>1",
      "+0: A 9>9, acct 9>9",
      "+0: A 1>1, acct 1>1",
    ]);
  });
});
