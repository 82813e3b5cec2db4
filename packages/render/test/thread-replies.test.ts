// The render thread's side of the pool (dist/worker.js), spoken to directly: how finished images
// travel back. Each message wakes the caller's thread (and on a busy core costs the render
// thread its core twice), so images of one look come back two to a message while more wait;
// none is held while nothing waits behind it or the next job is of another look.
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { createImageRenderer } from "../dist/index.js";

type Reply = { type: string; id?: number; bytes?: Uint8Array };

const WORKER = new URL("../dist/worker.js", import.meta.url);
const started: Worker[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((w) => w.terminate()));
});

/** A render thread (warm), and every message it sends, as it sent them. */
async function thread(
  batch: number,
): Promise<{ worker: Worker; messages: Array<Reply | Reply[]> }> {
  const messages: Array<Reply | Reply[]> = [];
  const w = new Worker(WORKER, { workerData: { cache: {}, warm: true, niceness: 0, batch } });
  started.push(w);
  await new Promise<void>((resolve, reject) => {
    w.on("message", (m: Reply | Reply[]) => {
      if (!Array.isArray(m) && m.type === "ready") resolve();
      else if (Array.isArray(m) || (m.type !== "started" && m.type !== "ready")) messages.push(m);
    });
    w.once("error", reject);
  });
  return { worker: w, messages };
}

/** Replies for `count` jobs, in the messages they came in. */
async function replies(messages: Array<Reply | Reply[]>, count: number): Promise<Reply[][]> {
  for (let i = 0; i < 400; i++) {
    if (messages.flat().length >= count) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return messages.map((m) => (Array.isArray(m) ? m : [m]));
}

const gif = (id: number, input: object) => ({ id, kind: "gif", input, slot: 0 });

describe("a render thread's answers", () => {
  it("come two to a message while jobs of the same look wait, with the same bytes", async () => {
    const { worker, messages } = await thread(2);
    const inputs = Array.from({ length: 8 }, (_, i) => ({ remainingSeconds: 90_061 + i * 3_661 }));
    // A look it has not drawn first: while its atlas is built, the other eight arrive together.
    worker.postMessage(gif(100, { remainingSeconds: 61, width: 320 }));
    for (const [i, input] of inputs.entries()) worker.postMessage(gif(i + 1, input));
    const got = await replies(messages, 9);
    expect(got.flat().map((r) => r.id)).toEqual([100, 1, 2, 3, 4, 5, 6, 7, 8]);
    // The first alone (the next is of another look); then two at a time while another job
    // waits behind the next; 7 and 8 alone, nothing behind them.
    expect(got.map((m) => m.length)).toEqual([1, 2, 2, 2, 1, 1]);
    const local = createImageRenderer();
    for (const r of got.flat().slice(1)) {
      expect(r.type).toBe("done");
      const own = Buffer.from(await local.gif(inputs[r.id! - 1]!));
      expect(Buffer.from(r.bytes!).equals(own)).toBe(true);
    }
  });

  it("come one to a message when the next job is of another look, or with batch 1", async () => {
    const { worker, messages } = await thread(2);
    const looks = [{}, { theme: "dark" }, {}, { theme: "dark" }];
    for (const [i, look] of looks.entries())
      worker.postMessage(gif(i + 1, { remainingSeconds: 600, look }));
    const got = await replies(messages, 4);
    expect(got.map((m) => m.length)).toEqual([1, 1, 1, 1]);

    const single = await thread(1);
    for (let i = 1; i <= 4; i++) single.worker.postMessage(gif(i, { remainingSeconds: 600 + i }));
    expect((await replies(single.messages, 4)).map((m) => m.length)).toEqual([1, 1, 1, 1]);
  });

  it("answer a failed job in its place in the batch, the rest rendered", async () => {
    const { worker, messages } = await thread(2);
    worker.postMessage(gif(1, { remainingSeconds: 61 }));
    worker.postMessage(gif(2, { remainingSeconds: -1 }));
    worker.postMessage(gif(3, { remainingSeconds: 63 }));
    worker.postMessage(gif(4, { remainingSeconds: 64 }));
    const got = (await replies(messages, 4)).flat();
    expect(got.map((r) => [r.id, r.type])).toEqual([
      [1, "done"],
      [2, "failed"],
      [3, "done"],
      [4, "done"],
    ]);
  });
});
