// Per-recipient time zones over real HTTP: `?tz=` reads a wall-clock deadline in the viewer's
// zone when the timer allows it (`allow_viewer_timezone`), across New York's spring-forward
// change; anything else falls back to the timer's own zone and says so, never a broken image.
// The images are compared, decoded, with those of fixed timers whose instant is known.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeGif, samePixels } from "../../render/test/helpers";
import { expectError, newKey, startTestServer, type TestServer } from "./_harness";

// Saturday 2030-03-09 12:00 UTC; New York springs forward on Sunday 2030-03-10 at 07:00 UTC.
const CREATED = Date.UTC(2030, 2, 9, 12, 0, 0);
// Sunday 2030-03-10 01:30 EST in New York: the change is between now and the next midnight.
const NOW = Date.UTC(2030, 2, 10, 6, 30, 0);
const MIDNIGHT = "2030-03-11T00:00:00";
// That midnight in each zone, as an instant.
const AT = {
  london: "2030-03-11T00:00:00Z", // GMT, +00:00 until 31 March
  newYork: "2030-03-11T04:00:00Z", // EDT, -04:00 after the change
  newYorkBeforeChange: "2030-03-11T05:00:00Z", // what an EST (-05:00) reading would give
  tokyo: "2030-03-10T15:00:00Z", // JST, +09:00
};

type Key = Awaited<ReturnType<TestServer["key"]>>;

async function create(s: TestServer, key: Key, body: Record<string, unknown>) {
  const created = await s.call("POST", "/api/v1/timers", {
    key,
    body,
    headers: { "idempotency-key": newKey() },
  });
  expect(created.status, created.text).toBe(201);
  return created.json.data as Record<string, unknown> & { id: string; revision: string };
}

async function published(s: TestServer, key: Key, body: Record<string, unknown>) {
  const timer = await create(s, key, body);
  const pub = await s.call("POST", `/api/v1/timers/${timer.id}/publish`, {
    key,
    headers: { "if-match": timer.revision },
  });
  expect(pub.status, pub.text).toBe(200);
  return timer.id;
}

const wallTimer = (allow: boolean) => ({
  name: "Midnight",
  type: "fixed",
  deadline_local: MIDNIGHT,
  timezone: "Europe/London",
  allow_viewer_timezone: allow,
});

describe("per-recipient time zone (tz)", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 50 } },
    });
  });
  afterAll(() => s.close());

  async function image(id: string, query: string, kind: "gif" | "png" = "gif") {
    const res = await fetch(`${s.url}/t/${id}/countdown.${kind}?frames=2&${query}`);
    expect(res.status, `${id} ${query}`).toBe(200);
    expect(res.headers.get("content-type")).toBe(`image/${kind}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    return { ignored: res.headers.get("x-tminus-timezone-ignored"), bytes };
  }

  it("reads the wall-clock deadline in the viewer's zone, across a DST change", async () => {
    s.setNow(CREATED);
    const key = await s.key("production");
    const allowed = await published(s, key, wallTimer(true));
    const recurring = await published(s, key, {
      name: "Daily midnight",
      type: "recurring",
      timezone: "Europe/London",
      recurrence: { rrule: "FREQ=DAILY;BYHOUR=0;BYMINUTE=0", dtstart: "2030-03-01T00:00" },
      allow_viewer_timezone: true,
    });
    const control: Record<keyof typeof AT, string> = {} as never;
    for (const [zone, at] of Object.entries(AT)) {
      control[zone as keyof typeof AT] = await published(s, key, {
        name: zone,
        type: "fixed",
        deadline_at: at,
      });
    }
    s.setNow(NOW);
    const picture = async (id: string, query = "") =>
      decodeGif((await image(id, query)).bytes).frames[0]!;
    const expected: Record<keyof typeof AT, Awaited<ReturnType<typeof picture>>> = {} as never;
    for (const zone of Object.keys(AT) as (keyof typeof AT)[])
      expected[zone] = await picture(control[zone]);
    // The controls differ from one another: the comparisons below can fail.
    expect(samePixels(expected.newYork, expected.newYorkBeforeChange)).toBe(false);
    expect(samePixels(expected.newYork, expected.london)).toBe(false);

    for (const id of [allowed, recurring]) {
      const own = await image(id, "");
      expect(own.ignored).toBeNull();
      expect(samePixels(decodeGif(own.bytes).frames[0]!, expected.london)).toBe(true);
      for (const [tz, zone] of [
        ["America/New_York", "newYork"],
        ["Asia/Tokyo", "tokyo"],
        ["Europe/London", "london"],
      ] as const) {
        const shown = await image(id, `tz=${encodeURIComponent(tz)}`);
        expect(shown.ignored, tz).toBeNull();
        expect(samePixels(decodeGif(shown.bytes).frames[0]!, expected[zone]), tz).toBe(true);
      }
      // 21 h 30 min to midnight in New York, not the 22 h 30 min an EST reading gives.
      expect(
        samePixels(await picture(id, "tz=America/New_York"), expected.newYorkBeforeChange),
      ).toBe(false);
    }
  });

  it("a zone that cannot apply falls back to the timer's own, and says why", async () => {
    s.setNow(CREATED);
    const key = await s.key("production");
    const allowed = await published(s, key, wallTimer(true));
    const notAllowed = await published(s, key, wallTimer(false));
    const instant = await published(s, key, {
      name: "Instant",
      type: "fixed",
      deadline_at: AT.london,
      allow_viewer_timezone: true,
    });
    s.setNow(NOW);
    const own = await image(allowed, "");
    for (const [id, tz, reason] of [
      [allowed, "Not/AZone", "invalid"],
      [allowed, "america/new_york", "invalid"],
      [allowed, "", "invalid"],
      [allowed, "{{ person.timezone }}", "invalid"],
      [notAllowed, "America/New_York", "not_allowed"],
      [instant, "America/New_York", "not_allowed"],
    ] as const) {
      for (const kind of ["gif", "png"] as const) {
        const shown = await image(id, `tz=${encodeURIComponent(tz)}`, kind);
        expect(shown.ignored, `${tz} ${kind}`).toBe(reason);
        if (kind === "gif")
          expect(
            samePixels(decodeGif(shown.bytes).frames[0]!, decodeGif(own.bytes).frames[0]!),
          ).toBe(true);
      }
    }
    // The hosted page and the embed fall back the same way.
    for (const path of [
      `/t/${allowed}?tz=Mars%2FOlympus`,
      `/t/${allowed}/embed?tz=Mars%2FOlympus`,
    ]) {
      const res = await fetch(s.url + path);
      await res.text();
      expect(res.status, path).toBe(200);
      expect(res.headers.get("x-tminus-timezone-ignored"), path).toBe("invalid");
    }
    const page = await fetch(`${s.url}/t/${allowed}?tz=America%2FNew_York`);
    await page.text();
    expect(page.headers.get("x-tminus-timezone-ignored")).toBeNull();
  });
});

for (const backend of ["sqlite", "postgres"] as const) {
  describe(`allow_viewer_timezone (${backend})`, () => {
    let s: TestServer;
    beforeAll(async () => {
      s = await startTestServer(
        { plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 50 } } },
        { postgres: backend === "postgres" },
      );
    });
    afterAll(() => s.close());

    it("is stored, read back, patched and reset; false by default; fixed and recurring only", async () => {
      const key = await s.key("production");
      const timer = await create(s, key, wallTimer(true));
      expect(timer["allow_viewer_timezone"]).toBe(true);
      const read = await s.call("GET", `/api/v1/timers/${timer.id}`, { key });
      expect(read.json.data.allow_viewer_timezone).toBe(true);
      const reset = await s.call("PATCH", `/api/v1/timers/${timer.id}`, {
        key,
        body: { allow_viewer_timezone: null },
        headers: { "if-match": read.json.data.revision },
      });
      expect(reset.status, reset.text).toBe(200);
      expect(reset.json.data.allow_viewer_timezone).toBe(false);
      const set = await s.call("PATCH", `/api/v1/timers/${timer.id}`, {
        key,
        body: { allow_viewer_timezone: true },
        headers: { "if-match": reset.json.data.revision },
      });
      expect(set.json.data.allow_viewer_timezone).toBe(true);
      expect((await s.call("GET", `/api/v1/timers/${timer.id}`, { key })).json.data).toMatchObject({
        allow_viewer_timezone: true,
        deadline_local: MIDNIGHT,
        timezone: "Europe/London",
      });

      const plain = await create(s, key, { name: "x", type: "fixed", deadline_at: AT.london });
      expect(plain["allow_viewer_timezone"]).toBe(false);
      const duration = await create(s, key, { name: "x", type: "duration", duration_seconds: 60 });
      expect(duration).not.toHaveProperty("allow_viewer_timezone");

      const refused = await s.call("POST", "/api/v1/timers", {
        key,
        body: { name: "x", type: "duration", duration_seconds: 60, allow_viewer_timezone: true },
        headers: { "idempotency-key": newKey() },
      });
      expectError(refused, 400, "validation_error");
      const wrongType = await s.call("POST", "/api/v1/timers", {
        key,
        body: { ...wallTimer(true), allow_viewer_timezone: "yes" },
        headers: { "idempotency-key": newKey() },
      });
      expect(expectError(wrongType, 400, "validation_error").details?.["field"]).toBe(
        "allow_viewer_timezone",
      );
    });
  });
}
