// The timing shared by the request log, the usage meter and the view counter: a full batch
// leaves at once, the rest within the interval, and a flush waits for batches on their way.
import { describe, expect, it } from "vitest";
import { createBatchWriter } from "../../src/batch-writer";

/** A store stand-in that only holds each write until the test lets it finish. */
function slowWrites() {
  let pending: string[] = [];
  const stored: string[][] = [];
  const gates: (() => void)[] = [];
  const writer = (intervalMs: number) =>
    createBatchWriter(() => {
      if (pending.length === 0) return null;
      const batch = pending;
      pending = [];
      return new Promise<void>((resolve) => {
        gates.push(() => {
          stored.push(batch);
          resolve();
        });
      });
    }, intervalMs);
  return {
    writer,
    add: (item: string) => pending.push(item),
    stored,
    release: () => {
      for (const open of gates.splice(0)) open();
    },
    writes: () => gates.length,
  };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("batch writer", () => {
  it("writes a full batch at once and the rest after the interval, one write each", async () => {
    const s = slowWrites();
    const batches = s.writer(30);
    s.add("a");
    batches.added(false);
    s.add("b");
    batches.added(true);
    expect(s.writes()).toBe(1);
    s.release();
    s.add("c");
    batches.added(false);
    batches.added(false);
    await tick(5);
    expect(s.writes()).toBe(0);
    await tick(60);
    expect(s.writes()).toBe(1);
    s.release();
    await batches.flush();
    expect(s.stored).toEqual([["a", "b"], ["c"]]);
  });

  it("a flush waits for a batch already on its way, and writes nothing when nothing is pending", async () => {
    const s = slowWrites();
    const batches = s.writer(10_000);
    s.add("x");
    batches.added(true);
    let flushed = false;
    const flushing = batches.flush().then(() => {
      flushed = true;
    });
    await tick(10);
    expect(flushed).toBe(false);
    expect(s.writes()).toBe(1);
    s.release();
    await flushing;
    expect(flushed).toBe(true);
    expect(s.stored).toEqual([["x"]]);
    await batches.flush();
    expect(s.writes()).toBe(0);
  });

  it("keeps at most two batches in flight; what comes meanwhile leaves as one batch when one returns", async () => {
    const s = slowWrites();
    const batches = s.writer(5);
    for (const item of ["a", "b", "c", "d", "e"]) {
      s.add(item);
      batches.added(true);
    }
    await tick(30);
    // "a" and "b" on their way; "c", "d", "e" wait, neither written nor timed.
    expect(s.writes()).toBe(2);
    s.release();
    await tick(5);
    expect(s.writes()).toBe(1);
    s.release();
    await batches.flush();
    expect(s.stored).toEqual([["a"], ["b"], ["c", "d", "e"]]);
  });
});
