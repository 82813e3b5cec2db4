import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { threadsThatPay } from "../src/render-many";
import {
  busyCores,
  type CpuSample,
  chooseThreads,
  measureThreads,
  sampleCpu,
} from "../src/threads";

// How many render threads a batch starts, from the CPUs, the cores busy on the machine and this
// process's own share of them.
describe("chooseThreads", () => {
  it("does not count this process's own work as the machine's", () => {
    // Last session's fault: on a quiet 2-core machine the caller's thread, rendering through the
    // window, made the machine look one core busy and no thread was started. Its own core is free.
    expect(chooseThreads({ cores: 2, busy: 1, own: 1, callerThread: true })).toBe(1);
    // Its own earlier pool still running (2 cores of its own) on 4 cores: 3 threads may run.
    expect(chooseThreads({ cores: 4, busy: 2.1, own: 2, callerThread: true })).toBe(3);
    // Someone else holds a core besides: the caller's thread alone.
    expect(chooseThreads({ cores: 2, busy: 1.9, own: 1, callerThread: true })).toBe(0);
    // Own use above the machine's (counters read a tick apart) is no idle core beyond the CPUs.
    expect(chooseThreads({ cores: 2, busy: 0.5, own: 1.5, callerThread: true })).toBe(1);
  });

  it("takes the idle cores, less the caller's thread when it renders too", () => {
    // A quiet 2-core machine: one thread beside the caller's, or two alone.
    expect(chooseThreads({ cores: 2, busy: 0, callerThread: true })).toBe(1);
    expect(chooseThreads({ cores: 2, busy: 0.3, callerThread: false })).toBe(2);
    // One core already busy elsewhere: the caller's thread alone, no pool to start.
    expect(chooseThreads({ cores: 2, busy: 1, callerThread: true })).toBe(0);
    expect(chooseThreads({ cores: 2, busy: 1.6, callerThread: true })).toBe(0);
    // A shared machine at load 20: nothing is idle; without the caller's thread, one renders.
    expect(chooseThreads({ cores: 2, busy: 20, callerThread: true })).toBe(0);
    expect(chooseThreads({ cores: 2, busy: 20, callerThread: false })).toBe(1);
    // Many idle cores: at most 4 by default, or the caller's `max`.
    expect(chooseThreads({ cores: 16, busy: 0.5, callerThread: true })).toBe(4);
    expect(chooseThreads({ cores: 16, busy: 0.5, callerThread: true, max: 8 })).toBe(8);
    expect(chooseThreads({ cores: 8, busy: 3.4, callerThread: true })).toBe(4);
    expect(chooseThreads({ cores: 8, busy: 5.6, callerThread: true })).toBe(1);
    // What a platform cannot tell (load 0 on Windows, NaN) counts as idle, never as more cores.
    expect(chooseThreads({ cores: Number.NaN, busy: Number.NaN, callerThread: true })).toBe(0);
    expect(chooseThreads({ cores: 1, busy: 0, callerThread: false })).toBe(1);
  });

  const choice = fc.record({
    cores: fc.integer({ min: 1, max: 256 }),
    busy: fc.double({ min: 0, max: 512, noNaN: true }),
    own: fc.option(fc.double({ min: 0, max: 64, noNaN: true }), { nil: undefined }),
    callerThread: fc.boolean(),
    max: fc.option(fc.integer({ min: 0, max: 64 }), { nil: undefined }),
  });

  it("never starts more threads than idle cores (bar the one that must render), nor than max", () => {
    fc.assert(
      fc.property(choice, (c) => {
        const n = chooseThreads(c);
        expect(Number.isInteger(n)).toBe(true);
        const idle = Math.max(0, Math.round(c.cores - Math.max(0, c.busy - (c.own ?? 0))));
        const floor = c.callerThread ? 0 : 1;
        expect(n).toBeGreaterThanOrEqual(floor);
        expect(n).toBeLessThanOrEqual(Math.max(floor, Math.min(c.max ?? 4, idle)));
        // With the caller's thread rendering, it and the threads fit the idle cores.
        if (c.callerThread && n > 0) expect(n + 1).toBeLessThanOrEqual(idle);
      }),
    );
  });

  it("starts fewer threads as the machine gets busier, and more as cores are added", () => {
    fc.assert(
      fc.property(choice, fc.double({ min: 0, max: 64, noNaN: true }), (c, more) => {
        expect(chooseThreads({ ...c, busy: c.busy + more })).toBeLessThanOrEqual(chooseThreads(c));
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

describe("busyCores", () => {
  const at = (atMs: number, machineMs: number | null, ownMs: number, load = 7): CpuSample => ({
    atMs,
    machineMs,
    ownMs,
    load,
  });

  it("turns two samples into cores busy on the machine and by this process", () => {
    // 200 ms: the machine's CPUs ran 300 ms between them (1.5 cores), this process 190 ms.
    expect(busyCores(at(1000, 50_000, 4000), at(1200, 50_300, 4190))).toEqual({
      busy: 1.5,
      own: 0.95,
    });
    // No per-CPU times (a platform without them): the load average, with nothing subtracted.
    expect(busyCores(at(0, null, 0), at(100, null, 80, 3.5))).toEqual({ busy: 3.5, own: 0 });
    // No time between the samples: nothing to divide by.
    expect(busyCores(at(5, 10, 0), at(5, 20, 1, 2))).toEqual({ busy: 2, own: 0 });
  });

  it("reads real counters: a thread spinning through the window counts as this process's", async () => {
    const before = sampleCpu();
    const until = performance.now() + 120;
    while (performance.now() < until) {
      // spin: this process's own work during the window
    }
    const after = sampleCpu();
    const { busy, own } = busyCores(before, after);
    expect(after.ownMs).toBeGreaterThan(before.ownMs);
    expect(own).toBeGreaterThan(0);
    expect(own).toBeLessThanOrEqual(1.2);
    // The machine's counters tick every 10 ms per CPU: own work shows in them too.
    if (after.machineMs !== null) expect(busy).toBeGreaterThan(own - 0.35);
    const n = await measureThreads(true, 30);
    expect(Number.isInteger(n) && n >= 0 && n <= 4).toBe(true);
  });
});

// A `threads` number given to renderMany is an upper bound (issue 40: `threads: 2` beside the
// caller's thread on two cores was slower than one thread).
describe("threadsThatPay", () => {
  it("on two cores: one thread beside the caller's, two without it, never none", () => {
    expect(threadsThatPay(2, 2, true)).toBe(1);
    expect(threadsThatPay(2, 2, false)).toBe(2);
    expect(threadsThatPay(1, 1, true)).toBe(1);
    expect(threadsThatPay(8, 4, true)).toBe(3);
    expect(threadsThatPay(3, 8, true)).toBe(3);
  });

  it("at most what was asked and the cores (less the caller's), at least one", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 0, max: 256 }),
        fc.boolean(),
        (asked, cores, caller) => {
          const n = threadsThatPay(asked, cores, caller);
          expect(Number.isInteger(n) && n >= 1 && n <= asked).toBe(true);
          const usable = Math.max(1, cores) - (caller ? 1 : 0);
          // Past one, the threads and the caller's thread fit the cores.
          if (n > 1) expect(n).toBeLessThanOrEqual(usable);
          // Nothing asked for is withheld while a core is free for it.
          if (n < asked) expect(n).toBe(Math.max(1, usable));
        },
      ),
    );
  });
});
