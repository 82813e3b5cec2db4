import { computeStatus, emptyClock, imageInputOf } from "@tminus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { define } from "./_define";

const DEADLINE = Date.UTC(2026, 10, 27, 8, 0, 0);
const fixed = define({
  type: "fixed",
  name: "Launch",
  deadline_at: "2026-11-27T09:00:00+01:00",
  look: { theme: "dark", font_size: 40 },
  ended: { text: "Too late" },
});
const running = computeStatus({ definition: fixed, clock: emptyClock() }, DEADLINE - 93_784_000);
const paused = computeStatus(
  { definition: fixed, clock: { ...emptyClock(), paused_at: DEADLINE - 7_200_000 } },
  DEADLINE - 3_600_000,
);
const ended = computeStatus({ definition: fixed, clock: emptyClock() }, DEADLINE + 1000);

// The three places that drew a timer before imageInputOf existed, as they wrote it.
describe("imageInputOf gives the inputs its callers wrote by hand", () => {
  it("public image routes: the status, the timer's look, the URL's size and variant", () => {
    for (const status of [running, paused, ended]) {
      expect(
        imageInputOf(fixed, status, { width: 620, scale: 2, variant: "dark", frames: 30 }),
      ).toEqual({
        remainingSeconds: status.remaining.total_seconds,
        running: status.state === "running",
        look: fixed.look,
        ended: fixed.ended,
        width: 620,
        scale: 2,
        variant: "dark",
        frames: 30,
      });
    }
    expect(paused.state).toBe("paused");
    expect(imageInputOf(fixed, paused).running).toBe(false);
    expect(imageInputOf(fixed, running).remainingSeconds).toBe(93_784);
  });

  it("dashboard preview: the ended look is drawn at zero, still", () => {
    expect(imageInputOf(fixed, running, { width: 600, showEnded: true })).toMatchObject({
      remainingSeconds: 0,
      running: false,
      look: fixed.look,
      ended: { text: "Too late" },
      width: 600,
    });
    expect(imageInputOf(fixed, running, { width: 600, showEnded: false })).toMatchObject({
      remainingSeconds: 93_784,
      running: true,
    });
  });

  it("renderMany: the job's look over the timer's; no timer is a bare countdown", () => {
    const input = imageInputOf(fixed, running, { look: { text_color: "#112233" } });
    expect(input.look).toEqual({ ...fixed.look, text_color: "#112233" });
    expect(fixed.look.text_color).not.toBe("#112233");
    expect(imageInputOf(undefined, running, { look: {} })).toMatchObject({
      remainingSeconds: 93_784,
      running: true,
      look: {},
      ended: undefined,
    });
    expect(imageInputOf(undefined, ended).look).toBeUndefined();
  });
});

describe("imageInputOf properties", () => {
  it("time left and running follow the status unless the ended look is asked for", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -86_400_000, max: 400 * 86_400_000 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 3_600_000 }), { nil: undefined }),
        (before, showEnded, pausedFor) => {
          const now = DEADLINE - before;
          const clock =
            pausedFor === undefined
              ? emptyClock()
              : { ...emptyClock(), paused_at: now - pausedFor };
          const status = computeStatus({ definition: fixed, clock }, now);
          const input = imageInputOf(fixed, status, { showEnded });
          expect(input.remainingSeconds).toBe(showEnded ? 0 : status.remaining.total_seconds);
          expect(input.running).toBe(!showEnded && status.state === "running");
          expect(input.running).toBe(!showEnded && pausedFor === undefined && before > 0);
        },
      ),
    );
  });

  it("the options' look wins field by field; the timer's other fields stay", () => {
    const colour = fc
      .integer({ min: 0, max: 0xffffff })
      .map((n) => `#${n.toString(16).padStart(6, "0")}`);
    fc.assert(
      fc.property(
        fc.record(
          {
            text_color: colour,
            background_color: colour,
            font_size: fc.integer({ min: 12, max: 96 }),
          },
          { requiredKeys: [] },
        ),
        (look) => {
          const input = imageInputOf(fixed, running, { look });
          const drawn = input.look as Record<string, unknown>;
          for (const [k, v] of Object.entries(fixed.look)) {
            expect(drawn[k]).toEqual(k in look ? look[k as keyof typeof look] : v);
          }
          // The stored look itself is never changed.
          expect(fixed.look.font_size).toBe(40);
        },
      ),
    );
  });
});
