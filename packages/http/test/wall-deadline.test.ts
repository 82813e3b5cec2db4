// A fixed timer given as a wall-clock deadline in a zone: the API shows both forms,
// and the status reply, the hosted page and the GIF's first frame all count down to
// the same resolved instant, including a deadline inside a DST gap.
import { createImageRenderer } from "@tminus/render";
import omggif from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

type Key = Awaited<ReturnType<TestServer["key"]>>;

async function create(key: Key, body: Record<string, unknown>) {
  return s.call("POST", "/api/v1/timers", {
    key,
    body: { name: "Sale", type: "fixed", ...body },
    headers: { "idempotency-key": newKey() },
  });
}

/** RGBA of a GIF's first frame. */
function firstFrame(bytes: Uint8Array) {
  const reader = new omggif.GifReader(Buffer.from(bytes));
  const rgba = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, rgba);
  return { width: reader.width, height: reader.height, rgba };
}

const sameImage = (a: { rgba: Uint8Array }, b: { rgba: Uint8Array }) =>
  a.rgba.length === b.rgba.length && a.rgba.every((v, i) => v === b.rgba[i]);

describe("deadline_local + timezone", () => {
  it("status, the timer object, the hosted page and the GIF agree on a gap deadline", async () => {
    const key = await s.key("production");
    // 00:00 EST on the night New York springs forward; 02:30 does not exist that night
    // and moves forward by the gap to 03:30 EDT = 07:30Z: 2 h 30 min from now.
    const now = Date.parse("2026-03-08T05:00:00Z");
    s.setNow(now);
    try {
      const look = {
        units: ["hours", "minutes", "seconds"] as ("hours" | "minutes" | "seconds")[],
      };
      const created = await create(key, {
        deadline_local: "2026-03-08T02:30",
        timezone: "America/New_York",
        look,
      });
      expect(created.status, created.text).toBe(201);
      const timer = created.json.data;
      expect(timer.deadline_local).toBe("2026-03-08T02:30:00");
      expect(timer.deadline_at).toBe("2026-03-08T07:30:00.000Z");
      expect(timer.timezone).toBe("America/New_York");
      const published = await s.call("POST", `/api/v1/timers/${timer.id}/publish`, {
        key,
        headers: { "if-match": timer.revision },
      });
      expect(published.status, published.text).toBe(200);

      const status = await s.call("GET", `/api/v1/timers/${timer.id}/status`, { key });
      expect(status.json.data.remaining).toMatchObject({
        total_seconds: 9000,
        hours: 2,
        minutes: 30,
      });
      expect(status.json.data.target_at).toBe(timer.deadline_at);

      const page = await (await fetch(`${s.url}/t/${timer.id}`)).text();
      const shown = [...page.matchAll(/data-unit="(\w+)">(\d+)</g)].map((m) => `${m[1]}=${m[2]}`);
      expect(shown).toEqual(["hours=02", "minutes=30", "seconds=00"]);
      expect(page).toContain(`"targetAt":${Date.parse(timer.deadline_at)}`);

      const gif = await fetch(`${s.url}/t/${timer.id}/countdown.gif?frames=2`);
      expect(gif.status).toBe(200);
      const frame = firstFrame(new Uint8Array(await gif.arrayBuffer()));
      const images = createImageRenderer();
      const expected = await images.rgba({ remainingSeconds: 9000, look });
      expect(frame.width).toBe(expected.width);
      expect(sameImage(frame, expected)).toBe(true);
      // The comparison can fail: the instant an hour off (the gap read the other way) differs.
      expect(sameImage(frame, await images.rgba({ remainingSeconds: 9000 - 3600, look }))).toBe(
        false,
      );
    } finally {
      s.setNow(null);
    }
  });

  it("reports the cross-field rules with the envelope and the spec's codes", async () => {
    const key = await s.key("sandbox");
    const missingZone = await create(key, { deadline_local: "2026-11-27T09:00" });
    expect(expectError(missingZone, 400, "missing_field").details).toEqual({ field: "timezone" });
    const both = await create(key, {
      deadline_local: "2026-11-27T09:00",
      deadline_at: "2026-11-27T09:00:00Z",
      timezone: "Europe/Berlin",
    });
    expect(expectError(both, 400, "validation_error").details).toEqual({
      field: "deadline_local",
    });
    const offset = await create(key, {
      deadline_local: "2026-11-27T09:00:00+01:00",
      timezone: "Europe/Berlin",
    });
    expect(expectError(offset, 400, "validation_error").message).toContain("without Z or offset");
    const zone = await create(key, { deadline_local: "2026-11-27T09:00", timezone: "CET" });
    expect(expectError(zone, 400, "invalid_timezone").details).toMatchObject({ field: "timezone" });
  });

  it("PATCH moves a wall-clock deadline with its zone", async () => {
    const key = await s.key("sandbox");
    const created = await create(key, {
      deadline_local: "2026-10-25T02:30",
      timezone: "Europe/Berlin",
    });
    // Berlin falls back that night: 02:30 happens twice, the earlier (CEST) counts.
    expect(created.json.data.deadline_at).toBe("2026-10-25T00:30:00.000Z");
    const patched = await s.call("PATCH", `/api/v1/timers/${created.json.data.id}`, {
      key,
      body: { timezone: "Pacific/Chatham" },
      headers: { "if-match": created.json.data.revision },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json.data).toMatchObject({
      deadline_local: "2026-10-25T02:30:00",
      deadline_at: "2026-10-24T12:45:00.000Z",
    });
  });
});
