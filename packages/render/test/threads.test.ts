import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chooseThreads } from "../src/threads";

// How many render threads a batch starts, from the CPUs and the load average.
describe("chooseThreads", () => {
  it("takes the idle cores, less the caller's thread when it renders too", () => {
    // A quiet 2-core machine: one thread beside the caller's, or two alone.
    expect(chooseThreads({ cores: 2, load: 0, callerThread: true })).toBe(1);
    expect(chooseThreads({ cores: 2, load: 0.3, callerThread: false })).toBe(2);
    // One core already busy elsewhere: the caller's thread alone, no pool to start.
    expect(chooseThreads({ cores: 2, load: 1, callerThread: true })).toBe(0);
    expect(chooseThreads({ cores: 2, load: 1.6, callerThread: true })).toBe(0);
    // A shared machine at load 20: nothing is idle; without the caller's thread, one renders.
    expect(chooseThreads({ cores: 2, load: 20, callerThread: true })).toBe(0);
    expect(chooseThreads({ cores: 2, load: 20, callerThread: false })).toBe(1);
    // Many idle cores: at most 4 by default, or the caller's `max`.
    expect(chooseThreads({ cores: 16, load: 0.5, callerThread: true })).toBe(4);
    expect(chooseThreads({ cores: 16, load: 0.5, callerThread: true, max: 8 })).toBe(8);
    expect(chooseThreads({ cores: 8, load: 3.4, callerThread: true })).toBe(4);
    expect(chooseThreads({ cores: 8, load: 5.6, callerThread: true })).toBe(1);
    // What a platform cannot tell (load 0 on Windows, NaN) counts as idle, never as more cores.
    expect(chooseThreads({ cores: Number.NaN, load: Number.NaN, callerThread: true })).toBe(0);
    expect(chooseThreads({ cores: 1, load: 0, callerThread: false })).toBe(1);
  });

  const choice = fc.record({
    cores: fc.integer({ min: 1, max: 256 }),
    load: fc.double({ min: 0, max: 512, noNaN: true }),
    callerThread: fc.boolean(),
    max: fc.option(fc.integer({ min: 0, max: 64 }), { nil: undefined }),
  });

  it("never starts more threads than idle cores (bar the one that must render), nor than max", () => {
    fc.assert(
      fc.property(choice, (c) => {
        const n = chooseThreads(c);
        expect(Number.isInteger(n)).toBe(true);
        const idle = Math.max(0, Math.round(c.cores - c.load));
        const floor = c.callerThread ? 0 : 1;
        expect(n).toBeGreaterThanOrEqual(floor);
        expect(n).toBeLessThanOrEqual(Math.max(floor, Math.min(c.max ?? 4, idle)));
        // With the caller's thread rendering, it and the threads fit the idle cores.
        if (c.callerThread && n > 0) expect(n + 1).toBeLessThanOrEqual(idle);
      }),
    );
  });

  it("starts fewer threads as the load rises, and more as cores are added", () => {
    fc.assert(
      fc.property(choice, fc.double({ min: 0, max: 64, noNaN: true }), (c, more) => {
        expect(chooseThreads({ ...c, load: c.load + more })).toBeLessThanOrEqual(chooseThreads(c));
        expect(chooseThreads({ ...c, cores: c.cores + Math.floor(more) })).toBeGreaterThanOrEqual(
          chooseThreads(c),
        );
        expect(chooseThreads({ ...c, callerThread: true })).toBeLessThanOrEqual(
          chooseThreads({ ...c, callerThread: false }),
        );
      }),
    );
  });
});
