import type { TimerDefinition } from "@tminus/core";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The PATCH body of an edit, with what the builder does not show carried over from the
 * stored timer: PATCH replaces `look`, `ended`, `recurrence` and `personalization` whole, so
 * sending only the builder's fields would drop the rest (exdates, a matte colour, the dark
 * variant's colours, a personalization fallback...). A field the stored timer derived (matte
 * from the background, largest unit from the units) is left to be derived again.
 */
export function keepUnshown(stored: TimerDefinition, change: Json): Json {
  const out: Json = { ...change };
  const was = stored as unknown as Json;
  const look = out.look;
  if (isObject(look)) {
    const old = stored.look;
    const kept: Json = {};
    if (old.brand_color !== null) kept.brand_color = old.brand_color;
    if (old.cta !== null) kept.cta = old.cta;
    // Shown for personalized timers only (the only ones whose countdown can start later).
    if (!("not_started_click_url" in look) && old.not_started_click_url) {
      kept.not_started_click_url = old.not_started_click_url;
    }
    if (old.matte_color !== old.background_color) kept.matte_color = old.matte_color;
    if (old.largest_unit !== (old.units[0] === "seconds" ? "minutes" : old.units[0])) {
      kept.largest_unit = old.largest_unit;
    }
    out.look = {
      ...kept,
      ...look,
      // The builder only switches the dark variant on or off; its colours are kept.
      dark: look.dark === null ? null : (old.dark ?? look.dark),
    };
  }
  for (const key of ["ended", "recurrence", "personalization"] as const) {
    const sent = out[key];
    const before = was[key];
    if (isObject(sent) && isObject(before)) out[key] = { ...before, ...sent };
  }
  // The builder's "ended" fields are all shown: an emptied one is removed, not kept.
  if (isObject(out.ended) && isObject(change.ended)) {
    for (const f of ["image_url", "redirect_url", "click_url"])
      if (!(f in change.ended)) delete out.ended[f];
  }
  if (isObject(out.personalization) && isObject(change.personalization)) {
    const sent = change.personalization;
    if (sent.source === "deadline") delete out.personalization.offset_seconds;
  }
  // An evergreen timer's cap: the builder shows it, so an emptied field clears it.
  if (stored.type === "duration" && !("not_after" in change)) out.not_after = null;
  return out;
}
