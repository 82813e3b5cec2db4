// Images are drawn on a bounded pool of threads: HEAD answers, a full queue answers a still
// (public-overload.test.ts proves it frame by frame), and widths snap.
import omggif from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    plans: { starter: { requests_per_minute: 100_000 } },
    // One thread and no waiting room: a second image while one is drawn is refused.
    render: { threads: 1, max_queue: 0 },
  });
});
afterAll(() => s.close());

async function publishedGif(): Promise<string> {
  const key = await s.key("production");
  const created = await s.call("POST", "/api/v1/timers", {
    key,
    body: fixedTimer(),
    headers: { "idempotency-key": newKey() },
  });
  const res = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
    key,
    headers: { "if-match": created.json.data.revision },
  });
  return `${s.url}${new URL(res.json.data.urls.gif).pathname}`;
}

describe("public images on a render pool", () => {
  it("HEAD answers like GET without the body, with Content-Length", async () => {
    const gif = await publishedGif();
    s.setNow(Date.UTC(2026, 0, 1, 11)); // one second for both: the same picture
    const got = await fetch(`${gif}?frames=1`);
    const body = new Uint8Array(await got.arrayBuffer());
    const head = await fetch(`${gif}?frames=1`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("image/gif");
    expect(Number(head.headers.get("content-length"))).toBe(body.byteLength);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    for (const path of [
      "/embed.js",
      "/openapi.json",
      new URL(gif).pathname.replace("/countdown.gif", ""),
    ]) {
      const r = await fetch(`${s.url}${path}`, { method: "HEAD" });
      expect(r.status, path).toBe(200);
      expect(Number(r.headers.get("content-length")), path).toBeGreaterThan(0);
    }
    s.setNow(null);
  });

  it("widths that snap alike are one image (drawn at the nearest 20 px)", async () => {
    const gif = await publishedGif();
    s.setNow(Date.UTC(2026, 0, 1, 12));
    const [a, b] = await Promise.all(
      [591, 609].map(
        async (w) =>
          new Uint8Array(await (await fetch(`${gif}?width=${w}&frames=1`)).arrayBuffer()),
      ),
    );
    expect(Buffer.from(a!).equals(Buffer.from(b!))).toBe(true);
    expect(Buffer.from(a!).readUInt16LE(6)).toBe(600); // GIF logical screen width
    s.setNow(null);
  });

  it("a full queue never answers 503: a refused image is a one-frame still of the same time", async () => {
    const gif = await publishedGif();
    s.setNow(Date.UTC(2026, 0, 1, 13));
    // Distinct images at once: the thread takes one, the rest are refused by the pool.
    const answers = await Promise.all(
      [200, 240, 280, 320, 360, 600].map(async (w) => {
        const r = await fetch(`${gif}?width=${w}&frames=2`);
        return { r, bytes: Buffer.from(await r.arrayBuffer()) };
      }),
    );
    expect(answers.map(({ r }) => r.status)).toEqual(answers.map(() => 200));
    const stills = answers.filter(({ r }) => r.headers.get("x-tminus-degraded") === "still");
    expect(stills.length).toBeGreaterThan(0);
    // A still is one frame, where the animation asked for has two.
    for (const { bytes } of stills) expect(new omggif.GifReader(bytes).numFrames()).toBe(1);
    s.setNow(null);
  });
});
