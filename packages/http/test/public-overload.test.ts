// Never a broken image (issue 24), over real HTTP with a render pool made small (one thread, a
// queue of one): email images refused by the pool are answered 200 with a still of the exact
// time (one frame, `X-Tminus-Degraded: still`), identical requests share one render, and when
// the event loop is overloaded the hosted page gives way (503 overloaded), the API and the
// images do not.

import { spawn } from "node:child_process";
import omggif from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodePng, samePixels } from "../../render/test/helpers";
import { createMetrics } from "../src/index";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

let s: TestServer;
const metrics = createMetrics({ processMetrics: false });
beforeAll(async () => {
  s = await startTestServer(
    {
      plans: { starter: { requests_per_minute: 100_000 } },
      // No time limit here: a full queue alone decides (max_wait_ms has a test of its own).
      render: { threads: 1, max_queue: 1, max_wait_ms: 0 },
    },
    { handler: { metrics } },
  );
});
afterAll(() => s.close());

/** The metric samples now, by name and labels as exposed. */
async function samples(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const line of (await metrics.metrics()).split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}
/** Resolves once no render thread is busy and nothing waits (work left by an earlier test). */
async function poolIdle(): Promise<void> {
  for (;;) {
    const now = await samples();
    if (!now.get("tminus_render_threads_busy") && !now.get("tminus_render_queue_depth")) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
const GIFS_DRAWN = 'tminus_render_images_total{kind="gif"}';
const STILLS = (result: string) => `tminus_image_stills_total{result="${result}"}`;

async function publishedPersonalized(): Promise<string> {
  const key = await s.key("production");
  const created = await s.call("POST", "/api/v1/timers", {
    key,
    body: { name: "Trial", type: "personalized", personalization: { source: "deadline" } },
    headers: { "idempotency-key": newKey() },
  });
  expect(created.status, created.text).toBe(201);
  const pub = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
    key,
    headers: { "if-match": created.json.data.revision },
  });
  expect(pub.status, pub.text).toBe(200);
  return `${s.url}/t/${created.json.data.id}`;
}

interface Answer {
  status: number;
  type: string | null;
  degraded: string | null;
  etag: string | null;
  bytes: Uint8Array;
}
async function get(url: string): Promise<Answer> {
  const res = await fetch(url);
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    degraded: res.headers.get("x-tminus-degraded"),
    etag: res.headers.get("etag"),
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

/** Frame 0 of a GIF, blitted alone onto an empty screen (what Outlook shows), and the count. */
function firstFrame(bytes: Uint8Array) {
  const reader = new omggif.GifReader(Buffer.from(bytes));
  const rgba = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, rgba);
  return {
    frames: reader.numFrames(),
    picture: { width: reader.width, height: reader.height, rgba },
  };
}

/** A recipient's deadline: `seconds` after T0, as Unix seconds. */
const deadline = (seconds: number) => String(T0 / 1000 + seconds);

describe("email images when the render pool is full", () => {
  it("answer 200 GIF every time; refused ones are a one-frame still of the exact time", async () => {
    const base = await publishedPersonalized();
    s.setNow(T0);
    // 16 recipients, each with their own deadline: 16 distinct images at once.
    const urls = Array.from(
      { length: 16 },
      (_, i) => `${base}/countdown.gif?deadline=${deadline(3600 + i * 61)}`,
    );
    const answers = await Promise.all(urls.map(get));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.type).toBe("image/gif");
    }
    const stills = answers.flatMap((a, i) => (a.degraded === "still" ? [i] : []));
    expect(stills.length).toBeGreaterThan(0);
    // Those the pool drew are animations (60 frames).
    const full = answers.findIndex((a) => a.degraded === null);
    expect(full).toBeGreaterThanOrEqual(0);
    expect(firstFrame(answers[full]!.bytes).frames).toBe(60);
    // Each still is one frame: the first frame of the full animation of the same second,
    // drawn now that the pool is idle again (same clock, so the same instant).
    for (const i of stills.slice(0, 3)) {
      const still = firstFrame(answers[i]!.bytes);
      expect(still.frames).toBe(1);
      // No ETag: the tag names the animation of that second, which this is not.
      expect(answers[i]!.etag).toBeNull();
      const again = await get(urls[i]!);
      expect(again.degraded).toBeNull();
      expect(again.etag).not.toBeNull();
      const animation = firstFrame(again.bytes);
      expect(animation.frames).toBe(60);
      expect(samePixels(still.picture, animation.picture), `recipient ${i}`).toBe(true);
    }
    // Not the picture of some other second: recipients a minute apart differ.
    const [a, b] = stills;
    if (b !== undefined) {
      expect(
        samePixels(firstFrame(answers[a!]!.bytes).picture, firstFrame(answers[b]!.bytes).picture),
      ).toBe(false);
    }
    s.setNow(null);
  }, 120_000);

  it("answer a PNG the same way: 200, marked, the very picture of that second", async () => {
    const base = await publishedPersonalized();
    s.setNow(T0 + 7_000);
    const urls = Array.from(
      { length: 12 },
      (_, i) => `${base}/countdown.png?deadline=${deadline(7200 + i * 3607)}`,
    );
    const answers = await Promise.all(urls.map(get));
    expect(answers.map((a) => `${a.status} ${a.type}`)).toEqual(urls.map(() => "200 image/png"));
    const still = answers.findIndex((a) => a.degraded === "still");
    expect(still).toBeGreaterThanOrEqual(0);
    const again = await get(urls[still]!);
    expect(again.degraded).toBeNull();
    expect(samePixels(decodePng(answers[still]!.bytes), decodePng(again.bytes))).toBe(true);
    s.setNow(null);
  }, 120_000);
});

describe("stills without a thread of their own (render.still_thread: false)", () => {
  it("are drawn ahead of the waiting images on the pool's thread, and are the same stills", async () => {
    const own = createMetrics({ processMetrics: false });
    const small = await startTestServer(
      {
        plans: { starter: { requests_per_minute: 100_000 } },
        render: { threads: 1, max_queue: 1, max_wait_ms: 0, still_thread: false },
      },
      { handler: { metrics: own } },
    );
    try {
      const key = await small.key("production");
      const created = await small.call("POST", "/api/v1/timers", {
        key,
        body: { name: "Trial", type: "personalized", personalization: { source: "deadline" } },
        headers: { "idempotency-key": newKey() },
      });
      const pub = await small.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
        key,
        headers: { "if-match": created.json.data.revision },
      });
      expect(pub.status, pub.text).toBe(200);
      small.setNow(T0);
      const urls = Array.from(
        { length: 12 },
        (_, i) =>
          `${small.url}/t/${created.json.data.id}/countdown.gif?deadline=${deadline(7200 + i * 61)}`,
      );
      const answers = await Promise.all(urls.map(get));
      expect(answers.map((a) => a.status)).toEqual(urls.map(() => 200));
      const stills = answers.filter((a) => a.degraded === "still");
      const full = answers.filter((a) => a.degraded === null);
      expect(stills.length).toBeGreaterThan(0);
      for (const a of stills) expect(firstFrame(a.bytes).frames).toBe(1);
      for (const a of full) expect(firstFrame(a.bytes).frames).toBe(60);
      // Every still was drawn by the pool (counted with its images), none by a lane of its own.
      const text = await own.metrics();
      const drawn = (name: string) => Number(new RegExp(`^${name} (\\d+)`, "m").exec(text)?.[1]);
      expect(drawn('tminus_render_images_total\\{kind="gif"\\}')).toBe(
        full.length + drawn('tminus_image_stills_total\\{result="drawn"\\}'),
      );
      // The same picture a still lane draws: the first frame of that second's animation.
      const again = await get(urls[answers.indexOf(stills[0]!)]!);
      expect(again.degraded).toBeNull();
      expect(
        samePixels(firstFrame(stills[0]!.bytes).picture, firstFrame(again.bytes).picture),
      ).toBe(true);
    } finally {
      await small.close();
    }
  }, 120_000);
});

describe("email images that wait too long in the queue", () => {
  it("are answered with the still after render.max_wait_ms, the work nobody waits for withdrawn", async () => {
    const slow = await startTestServer(
      {
        plans: { starter: { requests_per_minute: 100_000 } },
        // Room for every image in the queue: only the wait decides.
        render: { threads: 1, max_queue: 100, max_wait_ms: 5 },
      },
      { handler: { metrics } },
    );
    try {
      const key = await slow.key("production");
      const created = await slow.call("POST", "/api/v1/timers", {
        key,
        body: fixedTimer(),
        headers: { "idempotency-key": newKey() },
      });
      const id = created.json.data.id as string;
      await slow.call("POST", `/api/v1/timers/${id}/publish`, {
        key,
        headers: { "if-match": created.json.data.revision },
      });
      slow.setNow(T0);
      await get(`${slow.url}/t/${id}/countdown.gif`); // the pool started and warm
      const before = await samples();
      const lateBefore = before.get("tminus_image_stills_late_total") ?? 0;
      // Eight new sizes at once: each an atlas to build, far longer than 5 ms behind the first.
      const urls = [220, 260, 300, 340, 380, 420, 460, 500].map(
        (w) => `${slow.url}/t/${id}/countdown.gif?width=${w}`,
      );
      const answers = await Promise.all(urls.map(get));
      expect(answers.map((a) => `${a.status} ${a.type}`)).toEqual(
        answers.map(() => "200 image/gif"),
      );
      const late = answers.filter((a) => a.degraded === "still");
      expect(late.length).toBeGreaterThan(0);
      for (const a of late) expect(firstFrame(a.bytes).frames).toBe(1);
      expect((await samples()).get("tminus_image_stills_late_total")! - lateBefore).toBe(
        late.length,
      );
      // Each late image was wanted by its own request only: those no thread had started were
      // withdrawn (a thread draws the rest into the cache), so fewer than eight were drawn.
      await poolIdle();
      const drawn = (await samples()).get(GIFS_DRAWN)! - before.get(GIFS_DRAWN)!;
      expect(drawn).toBeGreaterThanOrEqual(answers.length - late.length);
      expect(drawn).toBeLessThan(answers.length);
      // A withdrawn image is drawn afresh for the next request, the pool idle: the image itself.
      const again = await get(urls[answers.findLastIndex((a) => a.degraded === "still")]!);
      expect(`${again.status} ${again.type} ${again.degraded}`).toBe("200 image/gif null");
      expect(again.etag).not.toBeNull();
    } finally {
      await slow.close();
    }
  }, 120_000);
});

describe("identical requests in flight share one render", () => {
  it("N identical requests at once: one animation drawn, the rest joined it", async () => {
    const base = await publishedPersonalized();
    s.setNow(T0 + 20_000);
    const url = `${base}/countdown.gif?deadline=${deadline(86_400)}&width=640`;
    await poolIdle();
    const before = await samples();
    const answers = await Promise.all(Array.from({ length: 16 }, () => get(url)));
    const after = await samples();
    expect(answers.every((a) => a.status === 200 && a.degraded === null)).toBe(true);
    expect(new Set(answers.map((a) => Buffer.from(a.bytes).toString("base64"))).size).toBe(1);
    expect(after.get(GIFS_DRAWN)! - before.get(GIFS_DRAWN)!).toBe(1);
    s.setNow(null);
  }, 120_000);

  it("N identical requests while the pool is full: one still drawn, the rest shared or kept", async () => {
    const base = await publishedPersonalized();
    await poolIdle();
    s.setNow(T0 + 40_000);
    // Two new sizes at 2x take the thread and the queue's one place for a while (new atlases).
    const blockers = [1180, 1160].map((w) =>
      get(`${base}/countdown.gif?deadline=${deadline(999)}&width=${w}&scale=2`),
    );
    await new Promise((r) => setTimeout(r, 30));
    const before = await samples();
    const url = `${base}/countdown.gif?deadline=${deadline(4242)}`;
    const answers = await Promise.all(Array.from({ length: 12 }, () => get(url)));
    const after = await samples();
    await Promise.all(blockers);
    expect(answers.every((a) => a.status === 200 && a.degraded === "still")).toBe(true);
    expect(new Set(answers.map((a) => Buffer.from(a.bytes).toString("base64"))).size).toBe(1);
    const delta = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    expect(delta(STILLS("drawn"))).toBe(1);
    expect(delta(STILLS("shared")) + delta(STILLS("kept"))).toBe(11);
    s.setNow(null);
  }, 120_000);
});

/** Keeps this process's event loop (the server's too) busy in 80 ms turns for `ms`. */
async function saturate(ms: number, until?: Promise<unknown>): Promise<void> {
  const end = Date.now() + ms;
  let settled = false;
  void until?.finally(() => {
    settled = true;
  });
  // With `until`: at least `ms`, and on until it settles, so the requests it waits for are
  // answered while the loop is still slow (not after a calm half second ended the window).
  while (Date.now() < end || (until !== undefined && !settled)) {
    const turn = Date.now() + 80;
    while (Date.now() < turn) {
      // busy: one long turn of the loop
    }
    await new Promise((r) => setImmediate(r));
  }
}

// Image requests from 64 connections of a child process, as fast as they are answered, until
// stopped: then it reports how many were answered and how many were not a 200 GIF.
const TRAFFIC = `
const http = require("node:http");
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
let total = 0, notOk = 0, stopping = false, running = 0;
const next = () => { running--; if (!stopping) one(); else if (running === 0) done(); };
function one() {
  running++;
  http.get(process.argv[1], { agent }, (res) => {
    if (res.statusCode !== 200 || res.headers["content-type"] !== "image/gif") notOk++;
    res.resume();
    res.on("end", () => { total++; next(); });
  }).on("error", () => { notOk++; next(); });
}
function done() { process.send({ total, notOk }, () => process.exit(0)); }
process.on("message", () => { stopping = true; });
// A test that failed (or a runner that was killed) never says stop: go with the parent.
process.on("disconnect", () => process.exit(0));
for (let i = 0; i < 64; i++) one();
process.send("started");
`;
async function imageTraffic(url: string) {
  const child = spawn(process.execPath, ["-e", TRAFFIC, url], {
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await new Promise((r) => child.once("message", r));
  return {
    stop: () =>
      new Promise<{ total: number; notOk: number }>((resolve) => {
        child.once("message", (m) => resolve(m as { total: number; notOk: number }));
        child.send("stop");
      }),
  };
}

describe("load shedding when the event loop is overloaded", () => {
  it("sheds hosted pages and embeds (503 overloaded, Retry-After), never the API or images", async () => {
    const shedding = await startTestServer(
      { plans: { starter: { requests_per_minute: 100_000 } }, render: { page_shed_delay_ms: 50 } },
      { handler: { metrics } },
    );
    try {
      const key = await shedding.key("production");
      const created = await shedding.call("POST", "/api/v1/timers", {
        key,
        body: fixedTimer(),
        headers: { "idempotency-key": newKey() },
      });
      const id = created.json.data.id as string;
      await shedding.call("POST", `/api/v1/timers/${id}/publish`, {
        key,
        headers: { "if-match": created.json.data.revision },
      });
      await get(`${shedding.url}/t/${id}/countdown.gif`); // the renderer loaded and warm
      await new Promise((r) => setTimeout(r, 1100)); // the start's busy windows behind us
      expect((await fetch(`${shedding.url}/t/${id}`)).status).toBe(200);
      const shedBefore = (await samples()).get("tminus_public_pages_shed_total") ?? 0;

      // A slow loop busy with traffic: images asked by 64 clients in another process.
      const traffic = await imageTraffic(`${shedding.url}/t/${id}/countdown.gif`);
      await saturate(1500);
      const answers = Promise.all([
        fetch(`${shedding.url}/t/${id}`),
        fetch(`${shedding.url}/t/${id}/embed`),
        shedding.call("GET", `/api/v1/timers/${id}/status`, { key }),
        get(`${shedding.url}/t/${id}/countdown.gif`),
      ]);
      await saturate(0, answers);
      const [page, embed, status, gif] = await answers;
      // Outside /api/v1 (not in the OpenAPI document, like render_unavailable): the envelope.
      for (const shed of [page, embed]) {
        expect(shed.status).toBe(503);
        expect(shed.headers.get("retry-after")).toBe("2");
        const body = await shed.json();
        expect(body.error.code).toBe("overloaded");
        expect(body.error.message).toMatch(/overloaded .* try again in 2 s/);
        expect(body.request_id).toBe(shed.headers.get("x-request-id"));
      }
      expect(status.status).toBe(200);
      expect([gif.status, gif.type]).toEqual([200, "image/gif"]);
      expect((await samples()).get("tminus_public_pages_shed_total")! - shedBefore).toBe(2);
      const sent = await traffic.stop();
      expect(sent.total).toBeGreaterThan(50);
      expect(sent.notOk).toBe(0);

      // The loop calm again for a whole window: pages are served.
      await new Promise((r) => setTimeout(r, 1100));
      expect((await fetch(`${shedding.url}/t/${id}`)).status).toBe(200);
    } finally {
      await shedding.close();
    }
  }, 120_000);

  it("a slow loop without traffic sheds nothing; 0 never sheds", async () => {
    for (const [threshold, busy] of [
      [50, false],
      [0, true],
    ] as const) {
      const other = await startTestServer({
        plans: { starter: { requests_per_minute: 100_000 } },
        render: { page_shed_delay_ms: threshold },
      });
      try {
        const key = await other.key("production");
        const created = await other.call("POST", "/api/v1/timers", {
          key,
          body: fixedTimer(),
          headers: { "idempotency-key": newKey() },
        });
        const id = created.json.data.id as string;
        await other.call("POST", `/api/v1/timers/${id}/publish`, {
          key,
          headers: { "if-match": created.json.data.revision },
        });
        const traffic = busy ? await imageTraffic(`${other.url}/t/${id}/countdown.gif`) : null;
        await saturate(1500);
        const page = await fetch(`${other.url}/t/${id}`);
        expect(page.status, `threshold ${threshold}, traffic ${busy}`).toBe(200);
        if (traffic) expect((await traffic.stop()).total).toBeGreaterThan(0);
      } finally {
        await other.close();
      }
    }
  }, 120_000);
});
