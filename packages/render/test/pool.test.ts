import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { getPriority } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
// The built package, as an app loads it: the pool must find its worker script in dist/
// from the ESM build and from the CommonJS one (.ci/run builds before testing).
import * as esm from "../dist/index.js";
import { decodeGif, dhms, samePixels } from "./helpers";
import { STARVED_THREAD } from "./starved-thread";

const cjs = createRequire(import.meta.url)("../dist/index.cjs") as typeof esm;
const remaining = dhms(2, 3, 4, 5);

describe.each([
  ["ESM", esm],
  ["CommonJS", cjs],
])("a render pool from the %s build", (_name, render) => {
  const pool = render.createRenderPool({ threads: 2, maxQueue: 8 });
  afterAll(() => pool.close());

  it("renders on its threads exactly what the renderer renders in-process", async () => {
    await pool.ready;
    const input = { remainingSeconds: remaining, look: { theme: "dark" as const }, frames: 12 };
    const [gif, png] = await Promise.all([pool.renderGif(input), pool.renderPng(input)]);
    const local = render.createImageRenderer();
    expect(Buffer.from(gif).equals(Buffer.from(await local.gif(input)))).toBe(true);
    expect(Buffer.from(png).equals(Buffer.from(await local.png(input)))).toBe(true);
    const decoded = decodeGif(gif);
    expect(decoded.frames).toHaveLength(12);
    expect(samePixels(decoded.frames[5]!, await local.rgba({ ...input, frame: 5 }))).toBe(true);
    expect(pool.stats()).toMatchObject({ threads: 2, busy: 0, queued: 0, refused: 0 });
  });

  it("refuses bad input on the caller's thread, naming the field", async () => {
    await expect(pool.renderGif({ remainingSeconds: 5, width: 5000 })).rejects.toMatchObject({
      name: "RenderError",
      code: "validation_error",
      field: "width",
    });
    await expect(
      pool.renderGif({ remainingSeconds: 5, look: { text_color: "red" } }),
    ).rejects.toBeInstanceOf(render.RenderError);
  });
});

describe("a full render queue", () => {
  it("refuses at once with queue_full and a Retry-After hint, and serves the rest", async () => {
    const pool = esm.createRenderPool({
      threads: 1,
      maxQueue: 2,
      warm: false,
      retryAfterSeconds: 3,
    });
    try {
      // One renders, two wait, the other three are refused without waiting for anything.
      const results = await Promise.allSettled(
        [1, 2, 3, 4, 5, 6].map((s) => pool.renderGif({ remainingSeconds: s * 61, frames: 3 })),
      );
      const refused = results.filter((r) => r.status === "rejected");
      expect(results.slice(0, 3).every((r) => r.status === "fulfilled")).toBe(true);
      expect(refused).toHaveLength(3);
      for (const r of refused)
        expect((r as PromiseRejectedResult).reason).toMatchObject({
          code: "queue_full",
          retryAfterSeconds: 3,
        });
      for (const r of results.slice(0, 3))
        expect(decodeGif((r as PromiseFulfilledResult<Uint8Array>).value).frames).toHaveLength(3);
      expect(pool.stats()).toMatchObject({ rendered: 3, refused: 3, queued: 0, busy: 0 });
      // The queue drained: the pool takes work again.
      const again = await pool.renderGif({ remainingSeconds: 9, frames: 2 });
      expect(decodeGif(again).frames).toHaveLength(2);
    } finally {
      await pool.close();
    }
  });
});

describe("urgent jobs", () => {
  it("go ahead of every waiting job, and are taken when the queue is full", async () => {
    const pool = esm.createRenderPool({ threads: 1, maxQueue: 5, warm: false });
    try {
      const done: string[] = [];
      const job = (name: string, seconds: number, urgent = false) =>
        pool.renderGif({ remainingSeconds: seconds, frames: 2 }, { urgent }).then((bytes) => {
          done.push(name);
          return bytes;
        });
      // a renders, b to d wait in the thread's port, e and f in the queue: 5 waiting, full.
      const plain = ["a", "b", "c", "d", "e", "f"].map((name, i) => job(name, 61 + i));
      await expect(job("refused", 99)).rejects.toMatchObject({ code: "queue_full" });
      const urgent = [job("u1", 120, true), job("u2", 121, true)];
      expect(pool.stats()).toMatchObject({ queued: 7, refused: 1 });
      const gifs = await Promise.all([...plain, ...urgent]);
      // The thread's port keeps its order; the urgent ones pass e and f, in their own order.
      expect(done).toEqual(["a", "b", "c", "d", "u1", "u2", "e", "f"]);
      for (const gif of gifs) expect(decodeGif(gif).frames).toHaveLength(2);
      expect(esm.URGENT_MAX_QUEUE).toBe(1024);
    } finally {
      await pool.close();
    }
  });
});

describe("a pool told to collect after new atlases", () => {
  it("collects in full once per new look or size, and not for a look it has", async () => {
    const collecting = esm.createRenderPool({ threads: 1, warm: false, collectAfterAtlases: 1 });
    const leaving = esm.createRenderPool({ threads: 1, warm: false });
    try {
      const draw = (pool: typeof collecting, width: number) =>
        pool.renderPng({ remainingSeconds: 5, width, look: { show_labels: false } });
      for (const pool of [collecting, leaving])
        for (const w of [200, 300, 400]) await draw(pool, w);
      const [built] = await collecting.cacheStats();
      expect(built!.atlasBuilds).toBeGreaterThanOrEqual(3);
      // One per image that needed new atlases (a PNG of a new size may build more than one).
      expect(built!.collections).toBe(3);
      expect(built!.youngCollections).toBe(0);
      expect((await leaving.cacheStats())[0]).toMatchObject({
        atlasBuilds: built!.atlasBuilds,
        collections: 0,
      });
      // A look and size it has: no new atlas, no collection.
      await draw(collecting, 400);
      await draw(collecting, 400);
      expect((await collecting.cacheStats())[0]).toMatchObject({
        atlasBuilds: built!.atlasBuilds,
        collections: built!.collections,
      });
    } finally {
      await Promise.all([collecting.close(), leaving.close()]);
    }
  });

  it("collects the young generation in between, and in full once the count comes round", async () => {
    const pool = esm.createRenderPool({ threads: 1, warm: false, collectAfterAtlases: 1000 });
    try {
      for (const width of [200, 300, 400])
        await pool.renderPng({ remainingSeconds: 5, width, look: { show_labels: false } });
      await pool.renderPng({ remainingSeconds: 6, width: 300, look: { show_labels: false } });
      const [stats] = await pool.cacheStats();
      // Three images with new atlases, each followed by one young collection; none in full
      // before 1,000 atlases; the fourth image, of a size it has, none.
      expect(stats).toMatchObject({ collections: 0, youngCollections: 3 });
    } finally {
      await pool.close();
    }
  });
});

describe("a thread that built many atlases", () => {
  it("is replaced by a fresh one once idle, and the pool renders on", async () => {
    const pool = esm.createRenderPool({
      threads: 1,
      warm: false,
      recycle: { afterAtlases: 3, idleMs: 100 },
    });
    try {
      for (const width of [200, 300, 400])
        await pool.renderPng({ remainingSeconds: 5, width, look: { show_labels: false } });
      const [before] = await pool.cacheStats();
      expect(before!.atlasBuilds).toBeGreaterThanOrEqual(3);
      await new Promise((r) => setTimeout(r, 400));
      expect(pool.stats().recycled).toBe(1);
      // A fresh thread: empty caches, and it renders.
      const [after] = await pool.cacheStats();
      expect(after).toMatchObject({ atlases: 0, atlasBuilds: 0 });
      expect(
        decodeGif(await pool.renderGif({ remainingSeconds: 9, frames: 2 })).frames,
      ).toHaveLength(2);
    } finally {
      await pool.close();
    }
  });
});

describe("jobs in a thread's hands", () => {
  it("are sent ahead, and counted as waiting behind the one that renders", async () => {
    const pool = esm.createRenderPool({ threads: 1, maxQueue: 1, workerScript: STARVED_THREAD });
    try {
      await pool.ready;
      const first = pool.renderGif({ remainingSeconds: 61 });
      const second = pool.renderGif({ remainingSeconds: 62 });
      // One held, one behind it in the thread's port: the queue (1) is full.
      expect(pool.stats()).toMatchObject({ busy: 1, queued: 1 });
      await expect(pool.renderGif({ remainingSeconds: 63 })).rejects.toMatchObject({
        code: "queue_full",
      });
      void first.catch(() => undefined);
      void second.catch(() => undefined);
    } finally {
      await pool.close();
    }
  });

  it("are taken back by their signal while no thread has started them", async () => {
    const starved = esm.createRenderPool({ threads: 1, maxQueue: 4, workerScript: STARVED_THREAD });
    const pool = esm.createRenderPool({ threads: 1, maxQueue: 4, warm: false });
    try {
      await starved.ready;
      // In a thread's port (sent, never started) and in the queue: both come back.
      const controllers = [0, 1, 2].map(() => new AbortController());
      const jobs = controllers.map((c, i) =>
        starved.renderGif({ remainingSeconds: 60 + i }, { signal: c.signal }),
      );
      expect(starved.stats().queued).toBe(2);
      for (const c of controllers) c.abort();
      for (const job of jobs) await expect(job).rejects.toMatchObject({ code: "cancelled" });
      expect(starved.stats()).toMatchObject({ busy: 0, queued: 0 });
      // Already aborted: refused at once. A job a thread has finished ignores a late abort.
      const aborted = new AbortController();
      aborted.abort();
      await expect(
        pool.renderGif({ remainingSeconds: 5 }, { signal: aborted.signal }),
      ).rejects.toMatchObject({ code: "cancelled" });
      const late = new AbortController();
      const gif = await pool.renderGif({ remainingSeconds: 5, frames: 2 }, { signal: late.signal });
      late.abort();
      expect(decodeGif(gif).frames).toHaveLength(2);
    } finally {
      await Promise.all([starved.close(), pool.close()]);
    }
  });

  it("renders every job once with many threads, even when some are taken back", async () => {
    const pool = esm.createRenderPool({ threads: 2, maxQueue: 64, warm: false });
    try {
      const controllers = Array.from({ length: 40 }, () => new AbortController());
      const jobs = controllers.map((c, i) =>
        pool.renderGif({ remainingSeconds: 100 + i, frames: 2 }, { signal: c.signal }),
      );
      for (let i = 0; i < 40; i += 3) controllers[i]!.abort();
      const settled = await Promise.allSettled(jobs);
      const rendered = settled.filter((s) => s.status === "fulfilled");
      const cancelled = settled.filter(
        (s) => s.status === "rejected" && (s.reason as { code: string }).code === "cancelled",
      );
      expect(rendered.length + cancelled.length).toBe(40);
      expect(cancelled.length).toBeGreaterThan(0);
      expect(pool.stats()).toMatchObject({ rendered: rendered.length, busy: 0, queued: 0 });
      for (const s of rendered) expect(decodeGif(s.value).frames).toHaveLength(2);
    } finally {
      await pool.close();
    }
  });
});

describe("closing a pool", () => {
  it("terminates its threads and rejects waiting, running and later jobs", async () => {
    const pool = esm.createRenderPool({ threads: 1, maxQueue: 4, warm: false });
    const jobs = Promise.allSettled([
      pool.renderGif({ remainingSeconds: 100 }), // running
      pool.renderGif({ remainingSeconds: 200 }), // waiting
    ]);
    await pool.close();
    for (const outcome of await jobs)
      expect(outcome).toMatchObject({ status: "rejected", reason: { code: "pool_closed" } });
    await expect(pool.renderPng({ remainingSeconds: 1 })).rejects.toMatchObject({
      code: "pool_closed",
    });
    expect(pool.stats().threads).toBe(0);
  });

  it("reports a thread that cannot start instead of waiting for it", async () => {
    const pool = esm.createRenderPool({
      threads: 1,
      workerScript: new URL("data:text/javascript,process.exit(3)"),
    });
    try {
      await expect(pool.ready).rejects.toMatchObject({ code: "render_failed" });
      await expect(pool.renderGif({ remainingSeconds: 5 })).rejects.toMatchObject({
        code: "render_failed",
      });
    } finally {
      await pool.close();
    }
  });
});

/** The nice value of each thread of this process, by thread id (Linux: /proc). */
function threadNiceness(): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync("/proc/self/task")) {
    // Fields after the command's closing parenthesis; nice is the 19th field of stat.
    const fields = readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
    out.set(tid, Number(fields[16]));
  }
  return out;
}

describe.runIf(process.platform === "linux")("render threads' priority", () => {
  it("runs its threads `niceness` below the caller's and leaves the caller's thread alone", async () => {
    const before = threadNiceness();
    const own = getPriority();
    const pool = esm.createRenderPool({ threads: 2, niceness: 7, warm: false });
    try {
      await pool.ready;
      const added = [...threadNiceness()].filter(([tid]) => !before.has(tid));
      // Each worker brings its own helper threads at the caller's priority; the renderers
      // themselves (one per pool thread) are the ones lowered.
      expect(added.filter(([, nice]) => nice === Math.min(19, own + 7))).toHaveLength(2);
      expect(getPriority()).toBe(own);
    } finally {
      await pool.close();
    }
  });

  it("refuses a niceness outside 0..19 before starting anything", () => {
    for (const niceness of [-1, 20, 1.5]) {
      expect(() => esm.createRenderPool({ niceness })).toThrow(/niceness/);
    }
  });
});
