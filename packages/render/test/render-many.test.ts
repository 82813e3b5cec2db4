import { afterAll, describe, expect, it } from "vitest";
import {
  createImageRenderer,
  createRenderPool,
  type RenderJob,
  type RenderManyResult,
  renderMany,
} from "../src/index";
import { decodeGif, decodePng } from "./helpers";
import { STARVED_THREAD } from "./starved-thread";

const now = Date.parse("2026-11-25T10:00:00Z");
const local = createImageRenderer();

async function collect<J extends RenderJob>(
  results: AsyncIterable<RenderManyResult<J>>,
): Promise<RenderManyResult<J>[]> {
  const out: RenderManyResult<J>[] = [];
  for await (const result of results) out.push(result);
  return out;
}

function done<J extends RenderJob>(result: RenderManyResult<J> | undefined) {
  if (!result?.ok) throw new Error(`expected an image, got ${JSON.stringify(result)}`);
  return result;
}

describe("renderMany", () => {
  it("renders one GIF per recipient deadline, in input order, the bytes the renderer makes", async () => {
    // Each recipient 1 h 1 min 1 s apart: a different frame 0 and different digits after.
    const jobs = Array.from({ length: 24 }, (_, i) => ({
      id: `r${i}`,
      deadline: new Date(now + (i + 1) * 3_661_000).toISOString(),
    }));
    const results = await collect(renderMany(jobs, { now, threads: 2, concurrency: 5 }));
    expect(results.map((r) => r.index)).toEqual(jobs.map((_, i) => i));
    for (const [i, result] of results.entries()) {
      const image = done(result);
      expect(image.job.id).toBe(`r${i}`);
      expect(image.format).toBe("gif");
      expect(image.remainingSeconds).toBe((i + 1) * 3661);
      expect(image.state).toBe("running");
      const gif = decodeGif(image.bytes);
      expect([gif.width, gif.height, gif.frames.length, gif.loopCount]).toEqual([600, 160, 60, 0]);
      const expected = await local.gif({ remainingSeconds: (i + 1) * 3661 });
      expect(Buffer.from(image.bytes).equals(Buffer.from(expected))).toBe(true);
    }
  });

  it("lays job looks over the options' look, and writes PNGs and sizes per job", async () => {
    const jobs: RenderJob[] = [
      { deadline: now + 90_000, look: { text_color: "#FF0000" } },
      { deadline: now + 90_000, format: "png", width: 400, scale: 2 },
      { deadline: now + 90_000, frames: 3, variant: "dark" },
    ];
    const look = { theme: "dark" as const, show_labels: false };
    const [a, b, c] = (await collect(renderMany(jobs, { now, look, threads: 1 }))).map(done);
    const input = { remainingSeconds: 90 };
    expect(
      Buffer.from(a!.bytes).equals(
        Buffer.from(await local.gif({ ...input, look: { ...look, text_color: "#FF0000" } })),
      ),
    ).toBe(true);
    expect(b!.format).toBe("png");
    const png = decodePng(b!.bytes);
    // No labels: 2.5 times the 48 px font high, 120 px, at 2x.
    expect([png.width, png.height]).toEqual([800, 240]);
    expect(decodeGif(c!.bytes).frames).toHaveLength(3);
    expect(
      Buffer.from(c!.bytes).equals(
        Buffer.from(await local.gif({ ...input, look, frames: 3, variant: "dark" })),
      ),
    ).toBe(true);
  });

  it("counts each timer type from the recipient's own deadline or start", async () => {
    const duration = { type: "duration", name: "Offer", duration_seconds: 3600 } as const;
    const personalized = {
      type: "personalized",
      name: "Trial",
      personalization: { source: "deadline", max_seconds: 86_400 * 30 },
    } as const;
    const fixed = { type: "fixed", name: "Sale", deadline_at: "2026-12-01T00:00:00Z" } as const;
    const jobs: RenderJob[] = [
      { timer: duration, start: now - 600_000 }, // 50 min left
      { timer: duration }, // starts at now: the full hour
      { timer: personalized, deadline: "2026-11-25T12:00:00+01:00" }, // 1 h
      { timer: fixed }, // its own deadline
      { timer: fixed, deadline: now + 5_000 }, // replaced per recipient
      { timer: duration, start: now - 7_200_000 }, // over: the ended image
    ];
    const results = (await collect(renderMany(jobs, { now, frames: 2 }))).map(done);
    expect(results.map((r) => r.remainingSeconds)).toEqual([3000, 3600, 3600, 482_400, 5, 0]);
    expect(results.map((r) => r.state)).toEqual([
      "running",
      "running",
      "running",
      "running",
      "running",
      "ended",
    ]);
    const ended = decodeGif(results[5]!.bytes);
    expect(ended.frames).toHaveLength(1);
  });

  it("reports bad jobs as failed results naming the field, and renders the rest", async () => {
    const jobs: RenderJob[] = [
      { deadline: "tomorrow" },
      { deadline: now + 1000, width: 5000 },
      {},
      { deadline: now + 1000, look: { text_color: "red" } },
      { timer: { type: "duration", name: "x", duration_seconds: 60 }, deadline: now },
      { timer: { type: "fixed", name: "x" } as never },
      { deadline: now + 1000, format: "jpg" as never },
      { deadline: now + 1000 },
    ];
    const results = await collect(renderMany(jobs, { now, threads: 1 }));
    const failures = results.map((r) => (r.ok ? "ok" : `${r.error.code} ${r.error.field}`));
    expect(failures).toEqual([
      "validation_error deadline",
      "validation_error width",
      "validation_error deadline",
      "validation_error look.text_color",
      "validation_error deadline",
      "validation_error timer.deadline_at",
      "validation_error format",
      "ok",
    ]);
    expect(results[4]!.ok || results[4]!.error.message).toBe(
      "deadline does not apply to a duration timer",
    );
  });

  it("never has more than `concurrency` jobs in flight, however slow the consumer", async () => {
    let pulled = 0;
    let taken = 0;
    let most = 0;
    function* jobs() {
      for (let i = 0; i < 40; i++) {
        pulled++;
        most = Math.max(most, pulled - taken);
        yield { deadline: now + (i + 1) * 61_000, frames: 2 };
      }
    }
    const pool = createRenderPool({ threads: 2, maxQueue: 64, warm: false });
    let busiest = 0;
    try {
      for await (const result of renderMany(jobs(), { now, pool, concurrency: 4 })) {
        expect(result.ok).toBe(true);
        const stats = pool.stats();
        busiest = Math.max(busiest, stats.busy + stats.queued);
        await new Promise((resolve) => setTimeout(resolve, 5));
        taken++;
      }
      // A pool passed in stays open for its owner.
      expect(
        done((await collect(renderMany([{ deadline: now + 1 }], { pool, now })))[0]),
      ).toBeTruthy();
    } finally {
      await pool.close();
    }
    expect(taken).toBe(40);
    // Pulled ahead by at most the jobs in flight (plus the one being pulled).
    expect(most).toBeLessThanOrEqual(5);
    expect(busiest).toBeLessThanOrEqual(4);
  });

  it("in completion order, still yields every index once", async () => {
    const jobs = Array.from({ length: 20 }, (_, i) => ({
      deadline: now + (i + 1) * 61_000,
      // Big and small images mixed, so they finish out of order.
      width: i % 2 ? 1200 : 100,
      frames: i % 2 ? 60 : 1,
    }));
    const results = await collect(renderMany(jobs, { now, ordered: false, threads: 2 }));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.map((r) => r.index).sort((a, b) => a - b)).toEqual(jobs.map((_, i) => i));
    for (const r of results) expect(r.job).toBe(jobs[r.index]);
  });

  it("waits out a shared pool's full queue instead of failing", async () => {
    const pool = createRenderPool({ threads: 1, maxQueue: 0, warm: false });
    try {
      const jobs = Array.from({ length: 6 }, (_, i) => ({ deadline: now + (i + 1) * 1000 }));
      const results = await collect(renderMany(jobs, { now, pool, concurrency: 6, frames: 2 }));
      expect(results.map((r) => r.ok)).toEqual([true, true, true, true, true, true]);
      expect(pool.stats().refused).toBeGreaterThan(0);
    } finally {
      await pool.close();
    }
  });

  it("stops reading the input and closes its pool when the caller stops early", async () => {
    let closed = false;
    let pulled = 0;
    async function* jobs() {
      try {
        for (let i = 0; ; i++) {
          pulled++;
          yield { deadline: now + (i + 1) * 1000, frames: 1 };
        }
      } finally {
        closed = true;
      }
    }
    let seen = 0;
    for await (const result of renderMany(jobs(), { now, concurrency: 3, threads: 1 })) {
      expect(result.ok).toBe(true);
      if (++seen === 5) break;
    }
    expect(closed).toBe(true);
    expect(pulled).toBeLessThanOrEqual(8);
  });

  it("renders on the caller's thread beside the pool, or alone with threads: 0, the same bytes", async () => {
    const jobs = Array.from({ length: 30 }, (_, i) => ({ deadline: now + (i + 1) * 3_661_000 }));
    const expected = await Promise.all(
      jobs.map((_, i) => local.gif({ remainingSeconds: (i + 1) * 3661 })),
    );
    const pool = createRenderPool({ threads: 1, maxQueue: 64 });
    await pool.ready;
    try {
      for (const options of [
        { threads: 0 },
        { callerThread: true, threads: 1 },
        { callerThread: true, pool },
      ]) {
        const results = (await collect(renderMany(jobs, { now, ...options }))).map(done);
        expect(results.map((r) => r.index)).toEqual(jobs.map((_, i) => i));
        for (const [i, r] of results.entries())
          expect(Buffer.from(r.bytes).equals(Buffer.from(expected[i]!))).toBe(true);
      }
      // Beside a warm pool, both took work: the pool's share, and the rest on this thread.
      const rendered = pool.stats().rendered;
      expect(rendered).toBeGreaterThan(0);
      expect(rendered).toBeLessThan(30);
      // The defaults: a pool given (a server's) takes every job, the caller's thread none;
      // without one, threads from the idle cores and the caller's thread, the same bytes.
      for (const options of [{ pool }, {}]) {
        const results = (await collect(renderMany(jobs, { now, ...options }))).map(done);
        for (const [i, r] of results.entries())
          expect(Buffer.from(r.bytes).equals(Buffer.from(expected[i]!))).toBe(true);
      }
      expect(pool.stats().rendered).toBe(rendered + 30);
    } finally {
      await pool.close();
    }
    await expect(collect(renderMany([], { threads: -1 }))).rejects.toMatchObject({
      field: "threads",
    });
  });

  it("completes through the caller's thread when the pool's threads are starved", async () => {
    // The threads started and then never got a core (a busy machine, nice 10): every job the
    // pool was handed and did not start is taken back and drawn here; the same bytes.
    const pool = createRenderPool({ threads: 2, maxQueue: 64, workerScript: STARVED_THREAD });
    try {
      await pool.ready;
      const jobs = Array.from({ length: 20 }, (_, i) => ({ deadline: now + (i + 1) * 3_661_000 }));
      for (const ordered of [true, false]) {
        const results = (
          await collect(renderMany(jobs, { now, pool, callerThread: true, ordered }))
        )
          .map(done)
          .sort((a, b) => a.index - b.index);
        expect(results.map((r) => r.index)).toEqual(jobs.map((_, i) => i));
        for (const [i, r] of results.entries())
          expect(
            Buffer.from(r.bytes).equals(
              Buffer.from(await local.gif({ remainingSeconds: (i + 1) * 3661 })),
            ),
          ).toBe(true);
      }
      expect(pool.stats()).toMatchObject({ rendered: 0, busy: 0, queued: 0 });
    } finally {
      await pool.close();
    }
  });

  it("ends with the input's own error, and refuses options that cannot work", async () => {
    function* broken() {
      yield { deadline: now + 1000, frames: 1 };
      throw new Error("the CSV ended mid-row");
    }
    await expect(collect(renderMany(broken(), { now, threads: 1 }))).rejects.toThrow(
      "the CSV ended mid-row",
    );
    await expect(collect(renderMany([], { concurrency: 0 }))).rejects.toMatchObject({
      field: "concurrency",
    });
    await expect(collect(renderMany([], { now: "soon" }))).rejects.toMatchObject({
      field: "now",
    });
  });
});

afterAll(() => local.clear());
