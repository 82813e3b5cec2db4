// The fixed-memory table behind `caches.viewer_events` and `caches.analytics_viewers`: it must
// answer like the Map it replaced (same bound, same start-over when a new key finds it full),
// and filling it must move neither its bytes nor the heap.

import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createFingerprintTable } from "../../src/fingerprint-table";

/** The Map the table stands for: a new key when `max` are held empties it first. */
function modelSet(map: Map<string, number>, max: number, key: string, value: number) {
  if (!map.has(key) && map.size >= max) map.clear();
  map.set(key, value);
}

type Op =
  | { op: "set"; key: string; value: number }
  | { op: "delete"; key: string }
  | { op: "clear" };

// Few distinct keys, so sets, repeats and deletes meet; arbitrary strings (any code unit) too.
const keyArb = fc.oneof(
  fc.constantFrom("a", "b", "c", "r:1", "r:2", "", "t_1|r:1", "t_1|r:2", "é", "\u{1F600}"),
  fc.string({ maxLength: 8, unit: "binary" }),
);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ op: fc.constant("set" as const), key: keyArb, value: fc.nat(2 ** 48) }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("delete" as const), key: keyArb }) },
  { weight: 1, arbitrary: fc.constant({ op: "clear" as const }) },
);

describe("fingerprint table", () => {
  it("answers has, get and size like a Map with the same bound and start-over", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }),
        fc.boolean(),
        fc.array(opArb, { maxLength: 300 }),
        fc.array(keyArb, { maxLength: 20 }),
        (max, withValues, ops, probes) => {
          const table = createFingerprintTable(max, { withValues });
          const model = new Map<string, number>();
          const bytes = table.bytes;
          for (const step of ops) {
            if (step.op === "set") {
              table.set(step.key, step.value);
              modelSet(model, max, step.key, withValues ? step.value : 0);
            } else if (step.op === "delete") {
              expect(table.delete(step.key)).toBe(model.delete(step.key));
            } else {
              table.clear();
              model.clear();
            }
            expect(table.size).toBe(model.size);
            expect(table.size).toBeLessThanOrEqual(max);
            expect(table.bytes).toBe(bytes);
            // Every key the model holds is found (deletes must not cut a probe run short).
            for (const [key, value] of model) expect(table.get(key)).toBe(value);
          }
          for (const key of [...probes, ...ops.flatMap((o) => ("key" in o ? [o.key] : []))]) {
            expect(table.has(key)).toBe(model.has(key));
            expect(table.get(key)).toBe(model.get(key));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it("holds maxEntries keys, and starts over on the next new one (not on a repeat)", () => {
    const table = createFingerprintTable(1000);
    for (let i = 0; i < 1000; i++) table.set(`t_1|r:${i}`);
    expect(table.size).toBe(1000);
    for (let i = 0; i < 1000; i++) expect(table.has(`t_1|r:${i}`)).toBe(true);
    expect(table.has("t_1|r:1000")).toBe(false);
    table.set("t_1|r:999");
    expect(table.size).toBe(1000);
    table.set("t_1|r:1000");
    expect(table.size).toBe(1);
    expect(table.has("t_1|r:1000")).toBe(true);
    expect(table.has("t_1|r:0")).toBe(false);
  });

  it("tells 100,000 distinct keys apart from 100,000 others", () => {
    const table = createFingerprintTable(100_000);
    for (let i = 0; i < 100_000; i++) table.set(`tmr_${i % 7}|${i}|r:${i}`);
    let wrong = 0;
    for (let i = 0; i < 100_000; i++) {
      if (!table.has(`tmr_${i % 7}|${i}|r:${i}`)) wrong++;
      if (table.has(`tmr_${i % 7}|${i}|r:${i + 100_000}`)) wrong++;
    }
    expect(wrong).toBe(0);
  });

  it("has the same bytes empty and full: 8 per slot, 16 with values", () => {
    const set = createFingerprintTable(50_000);
    const map = createFingerprintTable(100_000, { withValues: true });
    const before = [set.bytes, map.bytes];
    // The default bounds take 131,072 and 262,144 slots (at most three quarters full).
    expect(before).toEqual([131_072 * 8, 262_144 * 16]);
    for (let i = 0; i < 150_000; i++) {
      set.set(`r:${i}`);
      map.set(`r:${i}`, i);
    }
    expect([set.bytes, map.bytes]).toEqual(before);
    expect(() => createFingerprintTable(0)).toThrow(RangeError);
  });

  it("fills to its bound without growing the heap (a Map of the same keys does)", () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const heap = () => {
      gc();
      gc();
      return getHeapStatistics().used_heap_size;
    };
    const keyOf = (i: number) =>
      `tmr_0123456789abcdef|1795737600000|${i.toString(36).padStart(22, "_")}`;

    const table = createFingerprintTable(100_000, { withValues: true });
    const tableBefore = heap();
    for (let i = 0; i < 100_000; i++) table.set(keyOf(i), i);
    const tableGrowth = heap() - tableBefore;

    const map = new Map<string, number>();
    const mapBefore = heap();
    for (let i = 0; i < 100_000; i++) map.set(keyOf(i), i);
    const mapGrowth = heap() - mapBefore;

    // The control: were the keys kept, the heap would show it.
    expect(mapGrowth).toBeGreaterThan(5 * 1024 * 1024);
    expect(tableGrowth).toBeLessThan(512 * 1024);
    expect(table.size + map.size).toBe(200_000);
  });
});
