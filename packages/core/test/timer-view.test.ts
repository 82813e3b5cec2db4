// The timer object (resource/timer-view.ts) as docs/api.md shows it: common fields, the
// type's own fields, `urls` only while published, the signing secret only when there is one.
import { describe, expect, it } from "vitest";
import {
  DEFAULT_LOOK,
  emptyClock,
  revisionTag,
  type TimerDefinition,
  type TimerRow,
  timerData,
  timerView,
  validateTimerCreate,
} from "../src/index";

function created(body: Record<string, unknown>): TimerDefinition {
  const result = validateTimerCreate(body);
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.value;
}

const ID = "0190f5f0-0000-7000-8000-000000000000";

function row(definition: TimerDefinition, extra: Partial<TimerRow> = {}, data = {}): TimerRow {
  return {
    id: ID,
    name: "Sale",
    type: definition.type,
    status: "draft",
    environment: "live",
    revision: 7,
    created_at: Date.UTC(2026, 10, 1),
    updated_at: Date.UTC(2026, 10, 2, 3, 4, 5, 6),
    published_at: null,
    data: { definition, clock: emptyClock(), ...data },
    ...extra,
  };
}

const duration = created({ type: "duration", name: "Sale", duration_seconds: 3600 });

describe("timerView", () => {
  it("shows a draft: common fields, its own fields, no URLs, no deadline", () => {
    const view = timerView(row(duration), "https://shop.example");
    expect(view).toEqual({
      id: ID,
      object: "timer",
      name: "Sale",
      type: "duration",
      status: "draft",
      environment: "live",
      timezone: duration.timezone,
      deadline_at: null,
      duration_seconds: 3600,
      start_on: "first_open",
      look: DEFAULT_LOOK,
      ended: duration.ended,
      metadata: {},
      revision: "r7",
      created_at: "2026-11-01T00:00:00.000Z",
      updated_at: "2026-11-02T03:04:05.006Z",
      published_at: null,
      urls: null,
    });
  });

  it("shows a duration timer's start_on, and first_open for a row stored before it existed", () => {
    const human = created({ ...duration, start_on: "first_human_open" });
    expect(timerView(row(human))["start_on"]).toBe("first_human_open");
    const { start_on: _omitted, ...older } = duration as TimerDefinition & { start_on?: string };
    expect(timerView(row(older as TimerDefinition))["start_on"]).toBe("first_open");
  });

  it("shows public URLs only while published and a base URL is known", () => {
    const published = row(duration, { status: "published", published_at: Date.UTC(2026, 10, 3) });
    expect(timerView(published, "https://shop.example/c")["urls"]).toMatchObject({
      page: `https://shop.example/c/t/${ID}`,
    });
    expect(timerView(published, "https://shop.example/c")["published_at"]).toBe(
      "2026-11-03T00:00:00.000Z",
    );
    expect(timerView(published)["urls"]).toBeNull();
    expect(timerView(published, "")["urls"]).toBeNull();
    expect(
      timerView(row(duration, { status: "archived" }), "https://shop.example")["urls"],
    ).toBeNull();
  });

  it("shows allow_viewer_timezone on fixed and recurring timers only, false for rows stored before it", () => {
    const fixed = created({
      type: "fixed",
      name: "Sale",
      deadline_local: "2030-03-11T00:00",
      timezone: "Europe/London",
      allow_viewer_timezone: true,
    });
    const recurring = created({
      type: "recurring",
      name: "Sale",
      timezone: "Europe/London",
      recurrence: { rrule: "FREQ=DAILY;BYHOUR=0;BYMINUTE=0", dtstart: "2030-03-01T00:00" },
      allow_viewer_timezone: true,
    });
    for (const definition of [fixed, recurring]) {
      expect(timerView(row(definition))["allow_viewer_timezone"]).toBe(true);
      const { allow_viewer_timezone: _omitted, ...older } = definition as TimerDefinition & {
        allow_viewer_timezone?: boolean;
      };
      expect(timerView(row(older as TimerDefinition))["allow_viewer_timezone"]).toBe(false);
    }
    expect(timerView(row(duration))).not.toHaveProperty("allow_viewer_timezone");
  });

  it("shows metadata as given and a signing secret only when the row has one", () => {
    const withMeta = created({
      type: "duration",
      name: "Sale",
      duration_seconds: 60,
      metadata: { campaign: "bf" },
    });
    expect(timerView(row(withMeta))["metadata"]).toEqual({ campaign: "bf" });
    expect(timerView(row(withMeta))).not.toHaveProperty("signing_secret");
    expect(timerView(row(withMeta), undefined)).not.toHaveProperty("signing_secret");
    const secret = timerView(row(withMeta, {}, { signing_secret: "s3cret" }));
    expect(secret["signing_secret"]).toBe("s3cret");
    expect(timerView(row(withMeta, {}, { signing_secret: "" }))).not.toHaveProperty(
      "signing_secret",
    );
  });

  it("takes the name and type from the row's columns, not from the stored definition", () => {
    const view = timerView(row(duration, { name: "Renamed" }));
    expect(view["name"]).toBe("Renamed");
    expect(view["look"]).toEqual(DEFAULT_LOOK);
    expect(view["timezone"]).toBe(duration.timezone);
  });

  it("reads the definition and clock back from the row, and tags revisions opaquely", () => {
    const r = row(duration);
    expect(timerData(r).definition).toBe(duration);
    expect(revisionTag(12)).toBe("r12");
  });
});
