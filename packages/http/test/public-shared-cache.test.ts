// A shared cache in front (`render.shared_cache_seconds`, docs/deploy.md "A CDN in front"), over
// real HTTP: an image whose URL names no recipient may be kept by a CDN for that many seconds
// from when it was answered; a recipient's own image, a test send, the ended
// image's redirect, pages and the JSON are never shared; and with the option off (the default)
// every image is answered exactly as before.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTimer, fixedTimer, startTestServer, type TestServer } from "./_harness";

// 23:00:00.750 on the last day of 2029, the servers' clock: the frame shows this second, and
// nginx may keep it to the end of this second (the fixed clock does not move while it draws).
const NOW = Date.UTC(2029, 11, 31, 23, 0, 0, 750);
const SECOND = Math.floor(NOW / 1000);
const SHARED = "public, max-age=0, s-maxage=1";
const PRIVATE = "private, no-cache, max-age=0";
const DEFAULT = "no-cache, max-age=0";

let shared: TestServer;
let plain: TestServer;
let five: TestServer;
beforeAll(async () => {
  const render = { threads: 0 };
  [shared, plain, five] = await Promise.all([
    startTestServer({ render: { ...render, shared_cache_seconds: 1 } }),
    startTestServer({ render }),
    startTestServer({ render: { ...render, shared_cache_seconds: 5 } }),
  ]);
  for (const s of [shared, plain, five]) s.setNow(NOW);
  // The first image of a handler builds the look's atlas: slow on a busy machine, done here.
  await Promise.all(
    [shared, plain, five].map(async (s) => open(`${(await publishedOn(s)).urls.png}`)),
  );
}, 180_000);
afterAll(() => Promise.all([shared, plain, five].map((s) => s.close())));

async function publishedOn(s: TestServer, body: Record<string, unknown> = fixedTimer()) {
  // biome-ignore lint/suspicious/noExplicitAny: the API's timer object.
  return (await createTimer(s, await s.key("production"), body)) as any;
}

async function open(url: string, init: RequestInit = {}) {
  const res = await fetch(url, { redirect: "manual", ...init });
  await res.arrayBuffer();
  return res;
}

describe("render.shared_cache_seconds: 1", () => {
  it("a GIF and a PNG without a recipient are public for a second, to nginx until that second's end", async () => {
    const t = await publishedOn(shared);
    for (const url of [
      `${t.urls.gif}?frames=2`,
      t.urls.png,
      `${t.urls.gif}?frames=1&width=300&variant=dark&scale=2`,
      // Campaign tracking and the viewer's zone are in the URL a cache keys on: still shared.
      `${t.urls.gif}?frames=1&utm_source=mail&tz=Europe/Paris`,
    ]) {
      const res = await open(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("cache-control"), url).toBe(SHARED);
      expect(res.headers.get("x-accel-expires"), url).toBe(`@${SECOND}`);
      // The Date is Node's own, of the sending: a cache ages the copy from when it was sent.
      expect(Math.abs(Date.parse(res.headers.get("date")!) - Date.now()), url).toBeLessThan(60_000);
      expect(res.headers.get("etag"), url).toMatch(/^"[\w-]{27}"$/);
    }
  });

  it("a revalidation (304) and a HEAD carry the same sharing as the 200", async () => {
    const t = await publishedOn(shared);
    const first = await open(`${t.urls.gif}?frames=1`);
    const etag = first.headers.get("etag")!;
    const again = await open(`${t.urls.gif}?frames=1`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get("cache-control")).toBe(SHARED);
    expect(again.headers.get("x-accel-expires")).toBe(`@${SECOND}`);
    const head = await open(`${t.urls.png}`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("cache-control")).toBe(SHARED);
  });

  it("a recipient's own image is never shared: r, a personal deadline, a signature, a test send", async () => {
    const fixed = await publishedOn(shared);
    const evergreen = await publishedOn(shared, {
      name: "Evergreen",
      type: "duration",
      duration_seconds: 3600,
    });
    const personal = await publishedOn(shared, {
      name: "Trial",
      type: "personalized",
      personalization: { source: "deadline", fallback_deadline_at: "2030-01-02T12:00:00Z" },
    });
    const cases = [
      `${evergreen.urls.gif}?frames=1&r=ann`,
      `${evergreen.urls.png}?r=bob`,
      `${personal.urls.gif}?frames=1&deadline=2030-01-01T13:00:00Z`,
      `${personal.urls.gif}?frames=1&start=2029-12-31T22:00:00Z`,
      `${fixed.urls.gif}?frames=1&sig=abc`,
      // A test send (an unfilled merge tag) is a preview: private too.
      `${evergreen.urls.gif}?frames=1&r=${encodeURIComponent("*|UNIQID|*")}`,
    ];
    for (const url of cases) {
      const res = await open(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("cache-control"), url).toBe(PRIVATE);
      expect(res.headers.get("x-accel-expires"), url).toBeNull();
    }
    // Without a recipient, the same timers' images are everyone's.
    for (const url of [`${evergreen.urls.gif}?frames=1`, `${personal.urls.png}`]) {
      expect((await open(url)).headers.get("cache-control"), url).toBe(SHARED);
    }
  });

  it("the ended image's redirect, pages, the embed, the JSON and the link are never shared", async () => {
    const t = await publishedOn(
      shared,
      fixedTimer({
        deadline_at: "2029-12-31T22:00:00Z",
        ended: { image_url: "https://cdn.example.com/ended.png" },
      }),
    );
    const redirect = await open(`${t.urls.gif}?frames=1`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("cache-control")).toBe("no-store");
    const live = await publishedOn(shared);
    for (const url of [
      live.urls.page,
      live.urls.embed,
      `${shared.url}/t/${live.id}/countdown.json`,
      `${shared.url}/t/${live.id}/go`,
    ]) {
      const res = await open(url);
      expect(res.headers.get("cache-control"), url).toBe("no-store");
      expect(res.headers.get("x-accel-expires"), url).toBeNull();
    }
    // The neutral image of a timer that is not shown stays as it was.
    const gone = await open(`${shared.url}/t/00000000-0000-7000-8000-000000000000/countdown.gif`);
    expect(gone.status).toBe(404);
    expect(gone.headers.get("cache-control")).toBe(DEFAULT);
  });

  it("any query: public exactly when no recipient parameter is present", async () => {
    const t = await publishedOn(shared);
    const param = fc.constantFrom<[string, string]>(
      ["r", "ann"],
      ["deadline", "2030-01-01T13:00:00Z"],
      ["start", "2029-12-31T22:00:00Z"],
      ["sig", "x"],
      ["r", ""],
      ["tz", "America/New_York"],
      ["utm_campaign", "launch"],
      ["width", "320"],
      ["variant", "dark"],
      ["frames", "1"],
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(param, { selector: ([k]) => k, maxLength: 5 }),
        async (ps) => {
          const query = new URLSearchParams([["frames", "1"], ...ps] as string[][]).toString();
          const res = await open(`${t.urls.gif}?${query}`);
          expect(res.status, query).toBe(200);
          const personal = ps.some(([k]) => ["r", "deadline", "start", "sig"].includes(k!));
          expect(res.headers.get("cache-control"), query).toBe(personal ? PRIVATE : SHARED);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("render.shared_cache_seconds: 5", () => {
  it("lets a cache keep the image five seconds from its frame's second", async () => {
    const t = await publishedOn(five);
    const res = await open(`${t.urls.gif}?frames=1`);
    expect(res.headers.get("cache-control")).toBe("public, max-age=0, s-maxage=5");
    expect(res.headers.get("x-accel-expires")).toBe(`@${SECOND + 4}`);
  });
});

describe("the default (0): nothing shared, headers as before", () => {
  it("every image is no-cache, and nothing tells nginx to keep it", async () => {
    const t = await publishedOn(plain);
    const evergreen = await publishedOn(plain, {
      name: "Evergreen",
      type: "duration",
      duration_seconds: 60,
    });
    for (const url of [`${t.urls.gif}?frames=1`, t.urls.png, `${evergreen.urls.gif}?r=ann`]) {
      const res = await open(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("cache-control"), url).toBe(DEFAULT);
      expect(res.headers.get("x-accel-expires"), url).toBeNull();
    }
  });
});
