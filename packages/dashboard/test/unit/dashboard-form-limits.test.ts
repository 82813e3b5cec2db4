// The builder's maxlength on each unit label is the API's own limit: a label the form lets a
// marketer type is one the API takes, and the API refuses one character more.
import { TIME_UNITS, UNIT_LABEL_MAX, validateTimerCreate } from "@tminus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PageContext } from "../../src/context";
import { builderForm } from "../../src/pages/builder-form";
import { defaultFormValues, timerBodyOf } from "../../src/timer-form";

const NOW = Date.parse("2026-11-26T19:30:00Z");

function formHtml(): string {
  const ctx = { now: NOW, csrf: "t", envPath: (p: string) => `/e${p}` } as unknown as PageContext;
  const values = defaultFormValues(NOW, "Europe/Berlin");
  return String(builderForm(ctx, { values, action: "/x", submit: "Create" }));
}

function bodyWithLabel(unit: string, label: string): unknown {
  const values = { ...defaultFormValues(NOW, "Europe/Berlin"), name: "Sale" };
  return timerBodyOf({ ...values, labels: { [unit]: label } });
}

describe("unit label limits", () => {
  it("each label field's maxlength is the API's limit", () => {
    const page = formHtml();
    for (const unit of TIME_UNITS) {
      const input = new RegExp(`<input[^>]*name="label_${unit}"[^>]*>`).exec(page)?.[0];
      expect(input, unit).toBeDefined();
      expect(input).toContain(`maxlength="${UNIT_LABEL_MAX}"`);
    }
  });

  it("the API takes any label up to the limit and refuses one character more", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TIME_UNITS),
        fc.string({ unit: fc.constantFrom(..."abcdefghij xyzé"), minLength: 1, maxLength: 25 }),
        (unit, raw) => {
          const label = raw.trim() === "" ? "x" : raw.trim();
          const result = validateTimerCreate(bodyWithLabel(unit, label));
          expect(result.ok).toBe(label.length <= UNIT_LABEL_MAX);
        },
      ),
    );
  });
});
