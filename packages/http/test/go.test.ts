import { signPersonalizedParams } from "@tminus/core";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  expectError,
  fixedTimer,
  newKey,
  startTestServer,
  type TestResponse,
  type TestServer,
} from "./_harness";

// docs/email.md "Links that follow the timer": GET /t/{id}/go and the ended image's redirect.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 100 } },
  });
});
afterAll(() => s.close());
afterEach(() => s.setNow(null));

type Key = Awaited<ReturnType<TestServer["key"]>>;
interface Timer {
  id: string;
  revision: string;
  urls: { page: string; gif: string; png: string; go: string };
  signing_secret?: string;
}

const RUNNING = "https://shop.example.com/sale";
const ENDED = "https://shop.example.com/offer-ended";
const SOON = "https://shop.example.com/coming-soon";
const ENDED_IMAGE = "https://cdn.example.com/offer-ended.png";
const clicks = {
  look: { click_url: RUNNING, not_started_click_url: SOON },
  ended: { click_url: ENDED },
};

async function create(key: Key, body: Record<string, unknown>): Promise<TestResponse> {
  return s.call("POST", "/api/v1/timers", { key, body, headers: { "idempotency-key": newKey() } });
}

async function published(key: Key, body: Record<string, unknown>): Promise<Timer> {
  const created = await create(key, body);
  expect(created.status, created.text).toBe(201);
  const res = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
    key,
    headers: { "if-match": created.json.data.revision },
  });
  expect(res.status, res.text).toBe(200);
  return res.json.data as Timer;
}

/** Follows nothing: the redirect itself is what is tested. */
async function go(url: string) {
  const res = await fetch(url, { redirect: "manual" });
  await res.arrayBuffer();
  return res;
}

/** The `/go` target, after checking the redirect's status and headers. */
async function target(url: string): Promise<string> {
  const res = await go(url);
  expect(res.status, url).toBe(302);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  return res.headers.get("location")!;
}

describe("GET /t/{id}/go", () => {
  it("fixed timer: the click URL while it runs, the ended one from the deadline on", async () => {
    const key = await s.key("production");
    const deadline = Date.UTC(2030, 0, 1);
    s.setNow(deadline - 3_600_000);
    const t = await published(key, fixedTimer({ ...clicks }));
    expect(t.urls.go).toBe(`${s.url}/t/${t.id}/go`);
    expect(await target(t.urls.go)).toBe(RUNNING);
    s.setNow(deadline - 1000);
    expect(await target(t.urls.go)).toBe(RUNNING);
    s.setNow(deadline);
    expect(await target(t.urls.go)).toBe(ENDED);
    s.setNow(deadline + 86_400_000);
    expect(await target(t.urls.go)).toBe(ENDED);
    // HEAD is answered like GET.
    const head = await fetch(t.urls.go, { method: "HEAD", redirect: "manual" });
    expect(head.status).toBe(302);
    expect(head.headers.get("location")).toBe(ENDED);
  });

  it("fixed timer: follows owner actions (a pause keeps the click URL, an extension revives it)", async () => {
    const key = await s.key("production");
    const deadline = Date.UTC(2030, 0, 1);
    s.setNow(deadline + 60_000);
    const t = await published(key, fixedTimer({ ...clicks }));
    expect(await target(t.urls.go)).toBe(ENDED);
    const extended = await s.call("POST", `/api/v1/timers/${t.id}/extend`, {
      key,
      body: { seconds: 3600 },
      headers: { "if-match": t.revision },
    });
    expect(extended.status, extended.text).toBe(200);
    expect(await target(t.urls.go)).toBe(RUNNING);
    const paused = await s.call("POST", `/api/v1/timers/${t.id}/pause`, {
      key,
      headers: { "if-match": extended.json.data.revision },
    });
    expect(paused.status, paused.text).toBe(200);
    s.setNow(deadline + 7 * 86_400_000);
    expect(await target(t.urls.go)).toBe(RUNNING);
  });

  it("without click URLs every state leads to the hosted page, with the recipient's and campaign's query only", async () => {
    const key = await s.key("production");
    const deadline = Date.UTC(2030, 0, 1);
    s.setNow(deadline - 1000);
    const t = await published(key, { name: "Evergreen", type: "duration", duration_seconds: 60 });
    expect(await target(`${t.urls.go}?r=ann%2Bshop%40example.com&utm_source=mail`)).toBe(
      `${t.urls.page}?r=ann%2Bshop%40example.com`,
    );
    expect(await target(t.urls.go)).toBe(t.urls.page);
    // The send's label goes along, so the page's view is counted in the click's campaign.
    expect(await target(`${t.urls.go}?c=black%20friday&utm_source=mail`)).toBe(
      `${t.urls.page}?c=black+friday`,
    );
    expect(await target(`${t.urls.go}?utm_campaign=spring&r=x&next=https://evil.example/`)).toBe(
      `${t.urls.page}?r=x&utm_campaign=spring`,
    );
    s.setNow(deadline + 120_000);
    expect(await target(`${t.urls.go}?r=ann%2Bshop%40example.com`)).toBe(
      `${t.urls.page}?r=ann%2Bshop%40example.com`,
    );
    const stored = await s.call("GET", `/api/v1/timers/${t.id}`, { key });
    expect(stored.json.data.look.click_url).toBeNull();
    expect(stored.json.data.look.not_started_click_url).toBeNull();
    expect(stored.json.data.ended).toEqual({ text: "Ended" });
  });

  it("evergreen timer: each recipient by their own clock, the click can be their first view", async () => {
    const key = await s.key("production");
    const t0 = Date.UTC(2030, 2, 1);
    s.setNow(t0);
    const t = await published(key, {
      name: "Evergreen",
      type: "duration",
      duration_seconds: 3600,
      ...clicks,
    });
    // Alice opens the image at t0; Bob never loads images and first clicks at t0 + 50 min.
    const image = await fetch(`${t.urls.gif}?r=alice&frames=1`);
    expect(image.status).toBe(200);
    await image.arrayBuffer();
    s.setNow(t0 + 50 * 60_000);
    expect(await target(`${t.urls.go}?r=alice`)).toBe(RUNNING);
    expect(await target(`${t.urls.go}?r=bob`)).toBe(RUNNING);
    s.setNow(t0 + 3600_000);
    expect(await target(`${t.urls.go}?r=alice`)).toBe(ENDED);
    expect(await target(`${t.urls.go}?r=bob`)).toBe(RUNNING);
    s.setNow(t0 + 50 * 60_000 + 3600_000);
    expect(await target(`${t.urls.go}?r=bob`)).toBe(ENDED);
    // Bob's click stored his start, so his image agrees with his link.
    expect(
      await s.store.recordFirstView({ timer_id: t.id, viewer: "r:bob", now: t0 + 999_999_999 }),
    ).toBe(t0 + 50 * 60_000);
    // Without r: counted from publication, like the image without r.
    expect(await target(t.urls.go)).toBe(ENDED);
  });

  it("personalized timer: not started before the recipient's start, then running, then ended", async () => {
    const key = await s.key("production");
    const t0 = Date.UTC(2030, 3, 1);
    s.setNow(t0);
    const t = await published(key, {
      name: "Trial",
      type: "personalized",
      personalization: { source: "start", offset_seconds: 600, require_signature: true },
      ...clicks,
    });
    const start = String(t0 / 1000 + 3600);
    const sig = signPersonalizedParams(t.signing_secret!, { start });
    const url = `${t.urls.go}?start=${start}&sig=${sig}`;
    expect(await target(url)).toBe(SOON);
    s.setNow(t0 + 3600_000 + 1000);
    expect(await target(url)).toBe(RUNNING);
    s.setNow(t0 + 3600_000 + 600_000);
    expect(await target(url)).toBe(ENDED);
    // A forged start is refused like on the image: no fallback, so the ended state.
    s.setNow(t0);
    expect(await target(`${t.urls.go}?start=${start}&sig=${"A".repeat(43)}`)).toBe(ENDED);
  });

  it("is no open redirect: unknown, draft and archived timers get a 404 page, queries are ignored", async () => {
    const key = await s.key("production");
    const draft = await create(key, fixedTimer({ ...clicks }));
    const archivedTimer = await published(key, fixedTimer({ ...clicks }));
    const archived = await s.call("POST", `/api/v1/timers/${archivedTimer.id}/archive`, {
      key,
      headers: { "if-match": archivedTimer.revision },
    });
    expect(archived.status, archived.text).toBe(200);
    for (const id of [
      draft.json.data.id,
      archivedTimer.id,
      "00000000-0000-4000-8000-000000000000",
      "not-a-uuid",
      "%2F%2Fevil.example",
    ]) {
      const res = await fetch(`${s.url}/t/${id}/go?url=https://evil.example/`, {
        redirect: "manual",
      });
      expect(res.status, id).toBe(404);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain("not available");
    }
    const post = await fetch(`${s.url}/t/${archivedTimer.id}/go`, {
      method: "POST",
      redirect: "manual",
    });
    expect(post.status).toBe(404);
    await post.arrayBuffer();

    // Whatever the query holds, the target is one the owner stored or our hosted page.
    const live = await published(key, {
      name: "Evergreen",
      type: "duration",
      duration_seconds: 60,
    });
    const allowed = (location: string) => {
      const url = new URL(location);
      return url.origin === s.url && url.pathname === `/t/${live.id}`;
    };
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.constantFrom(
            "r",
            "deadline",
            "start",
            "sig",
            "c",
            "utm_campaign",
            "url",
            "next",
            "redirect",
            "go",
          ),
          fc.oneof(fc.webUrl(), fc.string(), fc.constant("//evil.example")),
        ),
        async (query) => {
          const location = await target(`${live.urls.go}?${new URLSearchParams(query)}`);
          expect(allowed(location), location).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe("ended image redirect", () => {
  it("after the end the GIF and PNG answer 302 to ended.image_url; before it, the countdown", async () => {
    const key = await s.key("production");
    const deadline = Date.UTC(2030, 0, 1);
    s.setNow(deadline - 5000);
    const t = await published(key, fixedTimer({ ended: { image_url: ENDED_IMAGE } }));
    for (const url of [`${t.urls.gif}?frames=1`, t.urls.png]) {
      const res = await go(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get("location")).toBeNull();
    }
    s.setNow(deadline);
    for (const url of [`${t.urls.gif}?frames=1`, t.urls.png, `${t.urls.gif}?r=x&width=300`]) {
      expect(await target(url)).toBe(ENDED_IMAGE);
    }
    // Stored as the URL parser writes it, so the timer object's value is a valid `uri`.
    const raw = await published(
      key,
      fixedTimer({ ended: { image_url: "https://cdn.example.com/ended ä.png" } }),
    );
    expect(await target(raw.urls.png)).toBe("https://cdn.example.com/ended%20%C3%A4.png");
    // Invalid image options still answer 400 with the neutral image, never a redirect.
    expect((await go(`${t.urls.gif}?width=5`)).status).toBe(400);
  });

  it("without ended.image_url an ended timer's image is drawn as before", async () => {
    const key = await s.key("production");
    s.setNow(Date.UTC(2031, 0, 1));
    const t = await published(key, fixedTimer({ ended: { text: "Over" } }));
    const res = await go(`${t.urls.gif}?frames=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/gif");
  });

  it("an evergreen recipient whose countdown ended gets the picture; a new one the countdown", async () => {
    const key = await s.key("production");
    const t0 = Date.UTC(2030, 5, 1);
    s.setNow(t0);
    const t = await published(key, {
      name: "Evergreen",
      type: "duration",
      duration_seconds: 60,
      ended: { image_url: ENDED_IMAGE },
    });
    expect((await go(`${t.urls.gif}?r=alice&frames=1`)).status).toBe(200);
    s.setNow(t0 + 61_000);
    expect(await target(`${t.urls.gif}?r=alice&frames=1`)).toBe(ENDED_IMAGE);
    expect((await go(`${t.urls.gif}?r=carol&frames=1`)).status).toBe(200);
    // The picture is what alice's email showed: a view. A click on /go is not.
    expect(await target(`${t.urls.go}?r=alice`)).toBe(t.urls.page + "?r=alice");
    const days = await s.call("GET", `/api/v1/timers/${t.id}/analytics`, { key });
    expect(days.status, days.text).toBe(200);
    expect(days.json.data.map((d: { views: number }) => d.views)).toEqual([3]);
    expect(days.json.data[0].by_kind).toEqual({ gif: 3, png: 0, page: 0, embed: 0 });
  });
});

describe("click URL fields", () => {
  it("are stored and returned, and replaced by PATCH", async () => {
    const key = await s.key("production");
    const created = await create(key, fixedTimer({ ...clicks }));
    expect(created.status, created.text).toBe(201);
    expect(created.json.data.look.click_url).toBe(RUNNING);
    expect(created.json.data.look.not_started_click_url).toBe(SOON);
    expect(created.json.data.ended.click_url).toBe(ENDED);
    const patched = await s.call("PATCH", `/api/v1/timers/${created.json.data.id}`, {
      key,
      body: { ended: { click_url: `${ENDED}?v=2` } },
      headers: { "if-match": created.json.data.revision },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.data.ended.click_url).toBe(`${ENDED}?v=2`);
    const read = await s.call("GET", `/api/v1/timers/${created.json.data.id}`, { key });
    expect(read.json.data.ended.click_url).toBe(`${ENDED}?v=2`);
    expect(read.json.data.look.click_url).toBe(RUNNING);
  });

  it("are stored and sent as the URL parser writes them: spaces, non-ASCII and line breaks never reach a header raw", async () => {
    const key = await s.key("production");
    s.setNow(Date.UTC(2029, 0, 1));
    const t = await published(
      key,
      fixedTimer({
        look: { click_url: "https://bücher.example/ä b?x=ü" },
        ended: { click_url: "https://shop.example.com/a\r\nSet-Cookie: x=1" },
      }),
    );
    // Stored normalized, so the timer object's URLs are valid `uri`s (the response validator).
    const read = await s.call("GET", `/api/v1/timers/${t.id}`, { key });
    expect(read.json.data.look.click_url).toBe("https://xn--bcher-kva.example/%C3%A4%20b?x=%C3%BC");
    expect(await target(t.urls.go)).toBe("https://xn--bcher-kva.example/%C3%A4%20b?x=%C3%BC");
    s.setNow(Date.UTC(2031, 0, 1));
    const res = await go(t.urls.go);
    expect(res.status).toBe(302);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.headers.get("location")).toBe("https://shop.example.com/aSet-Cookie:%20x=1");
  });

  it("must be absolute https URLs without credentials: validation_error naming the field", async () => {
    const key = await s.key("production");
    const bad = [
      "http://shop.example.com/sale",
      "javascript:alert(1)",
      "/sale",
      "//evil.example/",
      "https://user:pass@shop.example.com/",
      `https://shop.example.com/${"x".repeat(2048)}`,
    ];
    for (const url of bad) {
      for (const [body, field] of [
        [{ look: { click_url: url } }, "look.click_url"],
        [{ look: { not_started_click_url: url } }, "look.not_started_click_url"],
        [{ ended: { click_url: url } }, "ended.click_url"],
        [{ ended: { image_url: url } }, "ended.image_url"],
      ] as const) {
        const err = expectError(await create(key, fixedTimer(body)), 400, "validation_error");
        expect(err.message, url).toContain(field);
      }
    }
    const t = await create(key, fixedTimer());
    const err = expectError(
      await s.call("PATCH", `/api/v1/timers/${t.json.data.id}`, {
        key,
        body: { look: { click_url: "ftp://shop.example.com/" } },
        headers: { "if-match": t.json.data.revision },
      }),
      400,
      "validation_error",
    );
    expect(err.message).toContain("look.click_url");
  });
});
