import { currentLook, type Look, lookOutputSchema } from "@tminus/core";
import type { SavedLook } from "@tminus/store";
import type { PageContext } from "./context";
import { lookFormValues, type TimerFormValues } from "./timer-form";

// Looks saved under a name (brand kits): a timer's complete look, kept in the store per
// account and environment (saveLook, listLooks, deleteLook), to start new timers from.

/** The longest name a saved look may have. */
export const LOOK_NAME_MAX = 100;

/** The account's saved looks in this environment, by name. */
export function savedLooks(ctx: PageContext): Promise<SavedLook[]> {
  return ctx.admin.looks.listLooks({ account_id: ctx.account.id, environment: ctx.environment });
}

/** A saved look's complete look, or null when what is stored is not one (never trusted). */
export function lookOf(saved: SavedLook): Look | null {
  try {
    // A look saved before a field existed lacks it: filled as the timer object fills it.
    const parsed = lookOutputSchema.safeParse(currentLook(JSON.parse(saved.look) as Look));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** `values` with a saved look's fields, as far as the builder shows them. */
export function withSavedLook(values: TimerFormValues, look: Look): TimerFormValues {
  return { ...values, ...lookFormValues(look) };
}
