// The memory budget (issue 40): one figure turned into threads, heap limits, caches and the
// queue. The plan is pure, so its promises are properties over every budget and CPU count; the
// config tests check that `render.memory_mb` applies it and that settings given next to it win.
import { availableParallelism } from "node:os";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_CONFIG, resolveConfig } from "../src/index";
import {
  MAX_MEMORY_MB,
  MIN_MEMORY_MB,
  memoryPlan,
  PROCESS_SHARE_MB,
  serverThreads,
  THREAD_SHARE_MB,
} from "../src/memory-budget";

const budgets = fc.integer({ min: MIN_MEMORY_MB, max: MAX_MEMORY_MB });
const cpus = fc.integer({ min: 1, max: 4 });
const sum = (shares: Record<string, number>) => Object.values(shares).reduce((a, b) => a + b, 0);

describe("memoryPlan", () => {
  it("shares out exactly the budget, with one render thread at least and never more than automatic", () => {
    fc.assert(
      fc.property(budgets, cpus, (mb, auto) => {
        const plan = memoryPlan(mb, auto);
        expect(sum(plan.shares)).toBe(mb);
        expect(plan.threads).toBeGreaterThanOrEqual(1);
        expect(plan.threads).toBeLessThanOrEqual(auto);
        expect(plan.shares.render_threads).toBe(plan.threads * THREAD_SHARE_MB);
        expect(plan.shares.process).toBe(PROCESS_SHARE_MB);
        expect(plan.shares.image_cache).toBe(plan.image_cache_mb);
        expect(plan.shares.still_cache).toBe(plan.still_cache_mb);
        // A still thread only when one more thread than the pool's fits.
        expect(plan.shares.still_thread).toBe(plan.still_thread ? THREAD_SHARE_MB : 0);
        if (plan.still_thread) expect(plan.shares.headroom).toBeGreaterThanOrEqual(0);
        else if (plan.threads < auto) expect(plan.shares.headroom).toBeLessThan(THREAD_SHARE_MB);
      }),
    );
  });

  it("gives a larger budget at least as much of everything, up to the defaults", () => {
    fc.assert(
      fc.property(budgets, budgets, cpus, (a, b, auto) => {
        const [small, large] = [memoryPlan(Math.min(a, b), auto), memoryPlan(Math.max(a, b), auto)];
        for (const k of [
          "threads",
          "atlas_cache_mb",
          "frame_cache_mb",
          "image_cache_mb",
          "still_cache_mb",
          "max_queue",
        ] as const) {
          expect(large[k]).toBeGreaterThanOrEqual(small[k]);
          if (k !== "threads") expect(large[k]).toBeLessThanOrEqual(DEFAULT_CONFIG.render[k]);
        }
        if (small.still_thread) expect(large.still_thread).toBe(true);
      }),
    );
  });

  it("matches the defaults' caches and queue from about 1,100 MB", () => {
    const plan = memoryPlan(1100, 2);
    expect(plan).toMatchObject({
      atlas_cache_mb: DEFAULT_CONFIG.render.atlas_cache_mb,
      frame_cache_mb: DEFAULT_CONFIG.render.frame_cache_mb,
      image_cache_mb: DEFAULT_CONFIG.render.image_cache_mb,
      still_cache_mb: DEFAULT_CONFIG.render.still_cache_mb,
      max_queue: DEFAULT_CONFIG.render.max_queue,
      threads: 2,
      still_thread: true,
    });
  });

  it("keeps a 300 MB container to one render thread that also draws the stills", () => {
    expect(memoryPlan(300, 2)).toMatchObject({
      threads: 1,
      still_thread: false,
      thread_heap_mb: 64,
      thread_young_mb: 8,
      atlas_cache_mb: 9,
      frame_cache_mb: 3,
      image_cache_mb: 12,
      still_cache_mb: 3,
      max_queue: 38,
    });
  });
});

describe("render.memory_mb in the config", () => {
  const auto = serverThreads(availableParallelism());

  it("applies the plan, and a setting given next to it wins", () => {
    const render = resolveConfig({ render: { memory_mb: 300 } }).render;
    const plan = memoryPlan(300, auto);
    expect(render).toMatchObject({
      memory_mb: 300,
      threads: plan.threads,
      still_thread: plan.still_thread,
      thread_heap_mb: plan.thread_heap_mb,
      atlas_cache_mb: plan.atlas_cache_mb,
      max_queue: plan.max_queue,
      // Not the budget's: left as they are.
      max_wait_ms: DEFAULT_CONFIG.render.max_wait_ms,
      shared_cache_seconds: 0,
    });
    const mixed = resolveConfig({
      render: { max_queue: 5, memory_mb: 300, still_thread: true, thread_heap_mb: 0 },
    }).render;
    expect(mixed).toMatchObject({ max_queue: 5, still_thread: true, thread_heap_mb: 0 });
    expect(mixed.atlas_cache_mb).toBe(plan.atlas_cache_mb);
  });

  it("leaves the defaults alone without a budget (absent or null)", () => {
    for (const render of [{}, { memory_mb: null }]) {
      expect(resolveConfig({ render } as never).render).toEqual(DEFAULT_CONFIG.render);
    }
    expect(DEFAULT_CONFIG.render).toMatchObject({
      memory_mb: null,
      thread_heap_mb: 0,
      still_thread: true,
    });
  });

  it("refuses a budget that cannot hold the process and one thread, naming the field", () => {
    for (const bad of [MIN_MEMORY_MB - 1, MAX_MEMORY_MB + 1, 300.5, "300", -1]) {
      expect(() => resolveConfig({ render: { memory_mb: bad } } as never)).toThrow(ConfigError);
      expect(() => resolveConfig({ render: { memory_mb: bad } } as never)).toThrow(
        /config\.render\.memory_mb/,
      );
    }
    expect(() => resolveConfig({ render: { still_thread: "no" } } as never)).toThrow(
      /config\.render\.still_thread/,
    );
  });
});
