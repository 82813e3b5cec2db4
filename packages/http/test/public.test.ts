import omggif from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createImageCache } from "../src/public/image-cache";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 4 } },
  });
});
afterAll(() => s.close());

type Key = Awaited<ReturnType<TestServer["key"]>>;

async function published(key: Key, body: Record<string, unknown> = fixedTimer()) {
  const created = await s.call("POST", "/api/v1/timers", {
    key,
    body,
    headers: { "idempotency-key": newKey() },
  });
  expect(created.status, created.text).toBe(201);
  const res = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
    key,
    headers: { "if-match": created.json.data.revision },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.data as { id: string; revision: string; urls: Record<string, string> };
}

async function get(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function decode(bytes: Uint8Array) {
  const reader = new omggif.GifReader(Buffer.from(bytes));
  const frames = Array.from({ length: reader.numFrames() }, (_, i) => reader.frameInfo(i));
  return { width: reader.width, height: reader.height, frames };
}

describe("public render routes (no key, outside /api/v1)", () => {
  it("a published timer exposes its URLs; a draft does not", async () => {
    const key = await s.key("production");
    const draft = await s.call("POST", "/api/v1/timers", {
      key,
      body: fixedTimer(),
      headers: { "idempotency-key": newKey() },
    });
    expect(draft.json.data.urls).toBeNull();
    const t = await published(key);
    // No base_url configured: the URLs are the request's own origin.
    expect(t.urls).toEqual({
      page: `${s.url}/t/${t.id}`,
      embed: `${s.url}/t/${t.id}/embed`,
      gif: `${s.url}/t/${t.id}/countdown.gif`,
      png: `${s.url}/t/${t.id}/countdown.png`,
      go: `${s.url}/t/${t.id}/go`,
      embed_script: `${s.url}/embed.js`,
    });
  });

  it("serves the hosted page and the embed: escaped, self-contained, with a CSP", async () => {
    const key = await s.key("production");
    const t = await published(key, fixedTimer({ name: `<img src=x onerror=alert(1)> "quoted"` }));
    for (const path of [`/t/${t.id}`, `/t/${t.id}/embed`]) {
      const res = await fetch(s.url + path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
      const html = await res.text();
      expect(html).not.toContain("<img src=x");
      expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
      expect(html).toContain('role="timer"');
      expect(html).not.toMatch(/<script[^>]+src=/);
      // The only files a page links to are its font's, served here.
      const linked = [...html.matchAll(/https?:\/\/[^"'\s)]+\.(js|css|woff2?)\b/g)].map(
        (m) => m[0],
      );
      expect(linked.length).toBeGreaterThan(0);
      expect(linked.every((u) => u.startsWith(`${s.url}/t/assets/fonts/`))).toBe(true);
      expect(res.headers.get("content-security-policy")).toContain(`font-src ${s.url};`);
    }
    const script = await fetch(`${s.url}/embed.js`);
    expect(script.headers.get("content-type")).toContain("javascript");
  });

  it("serves the pages' font files with a year's cache, and nothing else under /t/assets/", async () => {
    const key = await s.key("production");
    const t = await published(key, fixedTimer({ look: { font: "serif" } }));
    const html = await (await fetch(`${s.url}/t/${t.id}`)).text();
    const woff2 = /url\("([^"]+-latin-700\.woff2)"\)/.exec(html)![1]!;
    expect(woff2).toMatch(
      new RegExp(`^${s.url}/t/assets/fonts/lora-\\d+\\.\\d+\\.\\d+-latin-700\\.woff2$`),
    );
    for (const url of [woff2, woff2.replace(/\.woff2$/, ".woff")]) {
      const { res, bytes } = await get(url);
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(Buffer.from(bytes.subarray(0, 4)).toString("latin1")).toBe(
        url.endsWith("2") ? "wOF2" : "wOFF",
      );
      expect((await fetch(url, { method: "HEAD" })).headers.get("content-length")).toBe(
        String(bytes.byteLength),
      );
    }
    for (const path of [
      "/t/assets/fonts/lora-latin-700.woff2",
      "/t/assets/fonts/..%2F..%2Fpackage.json",
      "/t/assets/fonts/",
      "/t/assets/favicon.ico",
    ]) {
      const res = await fetch(s.url + path);
      expect(res.status, path).toBe(404);
      await res.arrayBuffer();
    }
  });

  it("gives the hosted page share tags with the absolute PNG URL, and the call to action", async () => {
    const key = await s.key("production");
    const t = await published(
      key,
      fixedTimer({
        name: 'Sale "now"',
        look: { brand_color: "#ff5a1f", cta: { url: "https://shop.example.com/", label: "Shop" } },
      }),
    );
    const html = await (await fetch(t.urls.page!)).text();
    expect(html).toContain(`<meta property="og:image" content="${t.urls.png}?width=1200">`);
    expect(html).toContain(`<meta property="og:url" content="${t.urls.page}">`);
    expect(html).toContain('<meta property="og:title" content="Sale &quot;now&quot;">');
    expect(html).toContain('<a class="tm-cta" href="https://shop.example.com/"');
    const got = await s.call("GET", `/api/v1/timers/${t.id}`, { key });
    expect(got.json.data.look).toMatchObject({
      brand_color: "#FF5A1F",
      cta: { url: "https://shop.example.com/", label: "Shop" },
    });
    // The embed is a guest on someone else's page: no button, no share tags.
    const embed = await (await fetch(t.urls.embed!)).text();
    expect(embed).not.toContain('tm-cta"');
    expect(embed).not.toContain("og:");
  });

  it("serves an animated GIF and a PNG, never cached by proxies", async () => {
    const key = await s.key("production");
    const t = await published(key);
    const { res, bytes } = await get(`${s.url}/t/${t.id}/countdown.gif?frames=5`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/gif");
    expect(res.headers.get("cache-control")).toBe("no-cache, max-age=0");
    const gif = decode(bytes);
    expect(gif.width).toBe(600);
    expect(gif.frames).toHaveLength(5);
    expect(gif.frames.every((f) => f.delay === 100)).toBe(true);
    const retina = decode((await get(`${s.url}/t/${t.id}/countdown.gif?frames=2&scale=2`)).bytes);
    expect(retina.width).toBe(1200);
    const png = await get(`${s.url}/t/${t.id}/countdown.png`);
    expect(png.res.headers.get("content-type")).toBe("image/png");
    expect([...png.bytes.slice(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    // Tracking parameters are ignored; out-of-range options are a 400 with a neutral image.
    expect(
      (await get(`${s.url}/t/${t.id}/countdown.gif?frames=1&utm_source=mail`)).res.status,
    ).toBe(200);
    const bad = await get(`${s.url}/t/${t.id}/countdown.gif?frames=99`);
    expect(bad.res.status).toBe(400);
    expect(bad.res.headers.get("content-type")).toBe("image/gif");
  });

  it("drafts, archived, deleted and unknown timers are never shown", async () => {
    const key = await s.key("production");
    const draft = (
      await s.call("POST", "/api/v1/timers", {
        key,
        body: fixedTimer(),
        headers: { "idempotency-key": newKey() },
      })
    ).json.data;
    const t = await published(key);
    const archived = await s.call("POST", `/api/v1/timers/${t.id}/archive`, {
      key,
      headers: { "if-match": t.revision },
    });
    expect(archived.status).toBe(200);
    for (const id of [draft.id, t.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const page = await fetch(`${s.url}/t/${id}`);
      expect(page.status).toBe(404);
      expect(await page.text()).toContain("not available");
      const img = await get(`${s.url}/t/${id}/countdown.gif`);
      expect(img.res.status).toBe(404);
      expect(decode(img.bytes).frames.length).toBeGreaterThan(0); // a real, neutral image
    }
  });

  it("duration timers: a recipient's first view is stored and is their start", async () => {
    const key = await s.key("production");
    const t0 = Date.UTC(2029, 4, 1);
    s.setNow(t0);
    const t = await published(key, { name: "Evergreen", type: "duration", duration_seconds: 3600 });
    await get(`${s.url}/t/${t.id}/countdown.png?r=alice`);
    expect(
      await s.store.recordFirstView({ timer_id: t.id, viewer: "r:alice", now: t0 + 999_999 }),
    ).toBe(t0);
    // The hosted page sets a cookie on the first visit and counts from that visit after.
    const first = await fetch(`${s.url}/t/${t.id}`);
    const cookie = first.headers.get("set-cookie")!;
    expect(cookie).toMatch(
      /^tminus_v=[\w-]+; Path=\/t\/[\w-]+; Max-Age=31536000; HttpOnly; SameSite=Lax$/,
    );
    s.setNow(t0 + 60_000);
    const again = await fetch(`${s.url}/t/${t.id}`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(again.headers.get("set-cookie")).toBeNull();
    s.setNow(null);
  });

  it("duration timers: an email's link with the image's `r` opens the same countdown", async () => {
    const key = await s.key("production");
    const t0 = Date.UTC(2029, 5, 1);
    s.setNow(t0);
    const t = await published(key, { name: "Evergreen", type: "duration", duration_seconds: 3600 });
    // docs/email.md: an address in `r` needs its "+" encoded, or it arrives as a space.
    await get(`${s.url}/t/${t.id}/countdown.gif?frames=1&r=ann%2Bshop%40example.com`);
    s.setNow(t0 + 60_000);
    const page = await fetch(`${s.url}/t/${t.id}?r=ann%2Bshop%40example.com`);
    expect(page.headers.get("set-cookie")).toBeNull();
    expect(await page.text()).toContain(`"targetAt":${t0 + 3_600_000}`);
    // Unencoded, "+" is a space: not a valid recipient id, so no first view of its own.
    await get(`${s.url}/t/${t.id}/countdown.gif?frames=1&r=ann+shop@example.com`);
    expect(
      await s.store.recordFirstView({ timer_id: t.id, viewer: "r:ann shop@example.com", now: 1 }),
    ).toBe(1);
    s.setNow(null);
  });

  it("keeps working when the new-timer allowance is spent", async () => {
    const key = await s.key("production");
    const timers = [
      await published(key),
      await published(key),
      await published(key),
      await published(key),
    ];
    const refused = await s.call("POST", "/api/v1/timers", {
      key,
      body: fixedTimer(),
      headers: { "idempotency-key": newKey() },
    });
    expect(refused.json.error.code).toBe("quota_exhausted");
    for (const t of timers.slice(0, 2)) {
      expect((await fetch(`${s.url}/t/${t.id}`)).status).toBe(200);
      expect((await get(`${s.url}/t/${t.id}/countdown.gif?frames=1`)).res.status).toBe(200);
    }
  });
});

describe("viewer cookie behind https", () => {
  it("is Secure when the public base URL is https", async () => {
    const secure = await startTestServer({ base_url: "https://timers.example.test" });
    try {
      const key = await secure.key("production");
      const created = await secure.call("POST", "/api/v1/timers", {
        key,
        body: { name: "Evergreen", type: "duration", duration_seconds: 60 },
        headers: { "idempotency-key": newKey() },
      });
      await secure.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
        key,
        headers: { "if-match": created.json.data.revision },
      });
      const res = await fetch(`${secure.url}/t/${created.json.data.id}`);
      expect(res.headers.get("set-cookie")).toMatch(/; Secure$/);
    } finally {
      await secure.close();
    }
  });
});

describe("image cache: each distinct image rendered at most once", () => {
  it("coalesces concurrent requests and keeps a byte-bounded LRU", async () => {
    const cache = createImageCache(2 * 100); // room for two 100-byte images
    let renders = 0;
    const render = async () => {
      renders++;
      await new Promise((r) => setTimeout(r, 20));
      return new Uint8Array(100).fill(renders);
    };
    const results = await Promise.all(Array.from({ length: 50 }, () => cache.get("a", render)));
    expect(renders).toBe(1);
    expect(new Set(results).size).toBe(1);
    await cache.get("b", render);
    await cache.get("c", render);
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBe(200);
    await cache.get("c", render); // kept: not rendered again
    expect(renders).toBe(3);
    await cache.get("a", render); // evicted: rendered again
    expect(renders).toBe(4);
  });

  it("aborts a render once every request waiting for it has left, and only then", async () => {
    const cache = createImageCache(1000);
    const signals: AbortSignal[] = [];
    // A render that ends only when told: drawn, or withdrawn by its signal.
    const finish: Array<(bytes: Uint8Array) => void> = [];
    const render = (signal?: AbortSignal) =>
      new Promise<Uint8Array>((resolve, reject) => {
        if (!signal) throw new Error("no signal");
        signals.push(signal);
        finish.push(resolve);
        signal.addEventListener("abort", () => reject(new Error("withdrawn")));
      });
    const one = cache.share("x", render);
    const two = cache.share("x", render);
    expect(signals).toHaveLength(1);
    one.leave();
    one.leave(); // twice is once
    expect(signals[0]!.aborted).toBe(false);
    two.leave();
    expect(signals[0]!.aborted).toBe(true);
    await expect(two.image).rejects.toThrow("withdrawn");
    // The next request starts afresh; a render left after it finished stays kept.
    const three = cache.share("x", render);
    expect(signals).toHaveLength(2);
    finish[1]!(new Uint8Array(10));
    expect((await three.image).length).toBe(10);
    three.leave();
    expect(signals[1]!.aborted).toBe(false);
    expect(cache.size).toBe(1);
    const kept = cache.share("x", render);
    expect(signals).toHaveLength(2);
    expect((await kept.image).length).toBe(10);
    // Left by everyone but started on a thread (the abort does nothing): kept when it ends,
    // its bytes counted once even though a fresh render of the same key finished first.
    const started = (signal?: AbortSignal) =>
      new Promise<Uint8Array>((resolve) => {
        if (!signal) throw new Error("no signal");
        signals.push(signal);
        finish.push(resolve);
      });
    const y1 = cache.share("y", started);
    y1.leave();
    expect(signals[2]!.aborted).toBe(true);
    // Not abortable (no request was expected to leave): no signal is made, leaving aborts nothing.
    const z = cache.share(
      "z",
      async (signal) => {
        expect(signal).toBeUndefined();
        return new Uint8Array(5);
      },
      false,
    );
    z.leave();
    expect((await z.image).length).toBe(5);
    const y2 = cache.share("y", started);
    expect(signals).toHaveLength(4);
    finish[3]!(new Uint8Array(20));
    await y2.image;
    finish[2]!(new Uint8Array(20));
    await y1.image;
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBe(35);
  });

  it("every response says nosniff, whatever answered it; the 404 page has a CSP", async () => {
    const key = await s.key("production");
    const t = await published(key);
    const missing = `${s.url}/t/00000000-0000-4000-8000-000000000000`;
    const here = (url: string) => `${s.url}${new URL(url).pathname}`;
    const answers = [
      await fetch(`${s.url}/api/v1/usage`, { headers: { authorization: `Bearer ${key.secret}` } }),
      await fetch(`${s.url}/api/v1/usage`),
      await fetch(`${s.url}/api/v1/nowhere`, {
        headers: { authorization: `Bearer ${key.secret}` },
      }),
      await fetch(`${s.url}/openapi.json`),
      await fetch(`${s.url}/embed.js`),
      await fetch(here(t.urls.page!)),
      await fetch(here(t.urls.gif!)),
      await fetch(here(t.urls.png!)),
      await fetch(missing),
      await fetch(`${missing}/countdown.gif`),
    ];
    for (const res of answers) {
      await res.arrayBuffer();
      expect(res.headers.get("x-content-type-options"), res.url).toBe("nosniff");
      expect(res.headers.get("x-request-id"), res.url).toMatch(/^[0-9a-f-]{36}$/);
    }
    const notFound = answers[8]!;
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});
