// The usage meter on a real SQLite store: counts kept in memory, written in batches, and
// exactly what was counted, per account, environment and cycle, in any order of arrival.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createUsageMeter } from "../../src/guards/usage-meter";
import { unitStore } from "./_store";

const ENVIRONMENTS = ["production", "sandbox"] as const;
const CYCLES = ["2026-11", "2026-12"];

describe("usage meter", () => {
  it("adds up every count, however accounts, environments and cycles interleave", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            account: fc.nat({ max: 2 }),
            environment: fc.constantFrom(...ENVIRONMENTS),
            cycle: fc.constantFrom(...CYCLES),
            // A flush between counts: the entry counted last belongs to the batch written.
            flush: fc.boolean(),
          }),
          { maxLength: 60 },
        ),
        async (counts) => {
          const u = unitStore();
          try {
            const accounts = await Promise.all(
              [0, 1, 2].map(async (i) => (await u.key(`acct-${i}`)).auth.account.id),
            );
            const meter = createUsageMeter(u.store, (error) => {
              throw error;
            });
            const expected = new Map<string, number>();
            for (const c of counts) {
              const id = accounts[c.account]!;
              meter.count(id, c.environment, c.cycle);
              const k = `${id}|${c.environment}|${c.cycle}`;
              expected.set(k, (expected.get(k) ?? 0) + 1);
              if (c.flush) await meter.flush();
            }
            await meter.flush();
            for (const id of accounts) {
              for (const environment of ENVIRONMENTS) {
                for (const cycle of CYCLES) {
                  const usage = await u.store.getUsage(id, environment, cycle);
                  expect(usage.api_requests).toBe(
                    expected.get(`${id}|${environment}|${cycle}`) ?? 0,
                  );
                }
              }
            }
          } finally {
            await u.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
