import { TZDB_VERSION, timeZoneNames } from "@tminus/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    sandbox: { requests_per_minute: 100_000, new_timers_per_cycle: 100_000 },
  });
});
afterAll(() => s.close());

type Key = Awaited<ReturnType<TestServer["key"]>>;
interface Zone {
  object: string;
  id: string;
  utc_offset: string;
  utc_offset_minutes: number;
  observes_dst: boolean;
}

async function all(key: Key, query = ""): Promise<Zone[]> {
  const zones: Zone[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 50; pages++) {
    const q = `${query}${query ? "&" : ""}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await s.call("GET", `/api/v1/timezones?${q}`, { key });
    expect(res.status, res.text).toBe(200);
    zones.push(...res.json.data);
    cursor = res.json.page.next_cursor;
    if (!cursor) return zones;
  }
  throw new Error("did not finish");
}

describe("GET /timezones (spec: the authoritative list of accepted identifiers)", () => {
  it("pages through exactly the canonical tz database list, sorted, each zone once", async () => {
    const key = await s.key();
    const ids = (await all(key)).map((z) => z.id);
    expect(ids).toEqual([...timeZoneNames]);
    expect(ids.length).toBeGreaterThan(400);
    const first = await s.call("GET", "/api/v1/timezones", { key });
    expect(first.json.data).toHaveLength(25); // default limit
    expect(first.json.page.has_more).toBe(true);
  });

  it("does not follow the JS engine's preferred names: Asia/Kolkata yes, Asia/Calcutta no", async () => {
    const key = await s.key();
    const ids = new Set((await all(key)).map((z) => z.id));
    for (const canonical of ["Asia/Kolkata", "Europe/Kyiv", "America/Nuuk", "Etc/UTC"]) {
      expect(ids.has(canonical), canonical).toBe(true);
    }
    for (const alias of ["Asia/Calcutta", "Europe/Kiev", "US/Eastern", "UTC", "EST", "GMT"]) {
      expect(ids.has(alias), alias).toBe(false);
    }
    // Node's own list is the reason for the test: it names the alias, not the canonical zone.
    const engine = new Set(Intl.supportedValuesOf("timeZone"));
    if (engine.has("Asia/Calcutta")) expect(engine.has("Asia/Kolkata")).toBe(false);
  });

  it("describes each zone at the request's time: offset, minutes, DST", async () => {
    const key = await s.key();
    const find = async (at: number, id: string) => {
      s.setNow(at);
      const res = await s.call("GET", `/api/v1/timezones?search=${encodeURIComponent(id)}`, {
        key,
      });
      return (res.json.data as Zone[]).find((z) => z.id === id);
    };
    const january = Date.UTC(2026, 0, 15, 12);
    const july = Date.UTC(2026, 6, 15, 12);
    expect(await find(january, "Asia/Kolkata")).toEqual({
      object: "timezone",
      id: "Asia/Kolkata",
      utc_offset: "+05:30",
      utc_offset_minutes: 330,
      observes_dst: false,
    });
    expect(await find(january, "America/New_York")).toMatchObject({
      utc_offset: "-05:00",
      utc_offset_minutes: -300,
      observes_dst: true,
    });
    expect(await find(july, "America/New_York")).toMatchObject({ utc_offset: "-04:00" });
    expect(await find(january, "Asia/Kathmandu")).toMatchObject({ utc_offset: "+05:45" });
    expect(await find(january, "America/St_Johns")).toMatchObject({ utc_offset: "-03:30" });
    expect(await find(july, "Etc/UTC")).toMatchObject({
      utc_offset: "+00:00",
      utc_offset_minutes: 0,
      observes_dst: false,
    });
    s.setNow(null);
  });

  it("search is a case-insensitive substring of the id; spaces match underscores", async () => {
    const key = await s.key();
    const ids = async (search: string) =>
      (await all(key, `search=${encodeURIComponent(search)}`)).map((z) => z.id);
    expect(await ids("new york")).toEqual(["America/New_York"]);
    expect(await ids("NEW_YORK")).toEqual(["America/New_York"]);
    expect(await ids("kolkata")).toEqual(["Asia/Kolkata"]);
    expect(await ids("calcutta")).toEqual([]);
    const europe = await ids("europe/");
    expect(europe.length).toBeGreaterThan(30);
    expect(europe.every((id) => id.startsWith("Europe/"))).toBe(true);
    expect(await ids("  berlin  ")).toEqual(["Europe/Berlin"]);
  });

  it("pages through a search; the cursor is bound to it", async () => {
    const key = await s.key();
    const america = await all(key, "search=america");
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = `search=america&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await s.call("GET", `/api/v1/timezones?${q}`, { key });
      walked.push(...res.json.data.map((z: Zone) => z.id));
      cursor = res.json.page.next_cursor;
      if (cursor) {
        const other = await s.call(
          "GET",
          `/api/v1/timezones?search=europe&cursor=${encodeURIComponent(cursor)}`,
          { key },
        );
        expect(expectError(other, 400, "validation_error").details?.field).toBe("cursor");
      }
    } while (cursor);
    expect(walked).toEqual(america.map((z) => z.id));
  });

  it("names the tz data: the list's release and the runtime's ICU release", async () => {
    const key = await s.key();
    const res = await s.call("GET", "/api/v1/timezones?limit=1", { key });
    expect(res.headers.get("tminus-tzdb-version")).toBe(TZDB_VERSION);
    expect(res.headers.get("tminus-icu-tz-version")).toBe(process.versions.tz ?? null);
  });

  it("rejects bad parameters with validation_error naming them", async () => {
    const key = await s.key();
    const field = async (query: string) =>
      expectError(
        await s.call("GET", `/api/v1/timezones?${query}`, { key }),
        400,
        "validation_error",
      ).details?.field;
    expect(await field("search=")).toBe("search");
    expect(await field(`search=${"x".repeat(65)}`)).toBe("search");
    expect(await field("q=berlin")).toBe("q");
    expect(await field("limit=0")).toBe("limit");
    expect(await field("cursor=not-a-cursor")).toBe("cursor");
  });

  it("needs the timers:read scope", async () => {
    const usageOnly = await s.key("sandbox", undefined, ["usage:read"]);
    expectError(await s.call("GET", "/api/v1/timezones", { key: usageOnly }), 403, "forbidden");
    const reader = await s.key("sandbox", undefined, ["timers:read"]);
    expect((await s.call("GET", "/api/v1/timezones", { key: reader })).status).toBe(200);
    expectError(await s.call("GET", "/api/v1/timezones"), 401, "unauthorized");
  });
});

describe("the list is what timers accept (spec: invalid_timezone)", () => {
  // Every 23rd zone plus the awkward ones: three-part names, Etc/UTC, half-hour offsets.
  const sample = [
    ...timeZoneNames.filter((_, i) => i % 23 === 0),
    "America/Argentina/Buenos_Aires",
    "America/Indiana/Knox",
    "Asia/Kolkata",
    "Australia/Lord_Howe",
    "Etc/UTC",
  ];

  it("creating a timer with listed zones succeeds (fixed and recurring)", async () => {
    const key = await s.key();
    for (const timezone of sample) {
      const fixed = await s.call("POST", "/api/v1/timers", {
        key,
        headers: { "idempotency-key": newKey() },
        body: { name: timezone, type: "fixed", deadline_at: "2030-01-01T00:00:00Z", timezone },
      });
      expect(fixed.status, fixed.text).toBe(201);
      expect(fixed.json.data.timezone).toBe(timezone);
      const recurring = await s.call("POST", "/api/v1/timers", {
        key,
        headers: { "idempotency-key": newKey() },
        body: {
          name: timezone,
          type: "recurring",
          timezone,
          recurrence: { rrule: "FREQ=DAILY;BYHOUR=9;BYMINUTE=0", dtstart: "2026-01-01T09:00" },
        },
      });
      expect(recurring.status, recurring.text).toBe(201);
    }
  });

  it("an unlisted zone is 400 invalid_timezone on create and on update", async () => {
    const key = await s.key();
    // Each with the canonical zone it probably meant, in details.suggestions.
    const unlisted: Record<string, string[]> = {
      "Asia/Calcutta": ["Asia/Kolkata"],
      "Europe/Kiev": ["Europe/Kyiv"],
      "US/Eastern": ["America/New_York"],
      UTC: ["Etc/UTC"],
      EST: ["America/New_York"],
      "New York": ["America/New_York"],
      "europe/berlin": ["Europe/Berlin"],
      "Mars/Olympus_Mons": [],
    };
    for (const [timezone, suggestions] of Object.entries(unlisted)) {
      const err = expectError(
        await s.call("POST", "/api/v1/timers", {
          key,
          headers: { "idempotency-key": newKey() },
          body: { name: "x", type: "fixed", deadline_at: "2030-01-01T00:00:00Z", timezone },
        }),
        400,
        "invalid_timezone",
      );
      expect(err.details).toEqual({ field: "timezone", suggestions });
      if (timezone === "EST")
        expect(err.message).toContain("EST (Eastern Standard Time) is an abbreviation, not a zone");
    }
    const created = await s.call("POST", "/api/v1/timers", {
      key,
      headers: { "idempotency-key": newKey() },
      body: { name: "x", type: "fixed", deadline_at: "2030-01-01T00:00:00Z" },
    });
    const patched = await s.call("PATCH", `/api/v1/timers/${created.json.data.id}`, {
      key,
      headers: { "if-match": created.headers.get("etag")! },
      body: { timezone: "Asia/Calcutta" },
    });
    expect(expectError(patched, 400, "invalid_timezone").details).toEqual({
      field: "timezone",
      suggestions: ["Asia/Kolkata"],
    });
  });
});
