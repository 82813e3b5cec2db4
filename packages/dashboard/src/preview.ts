import {
  computeStatus,
  emptyClock,
  type ImageInput,
  imageInputOf,
  type TimerDefinition,
  type UploadedFont,
  type UploadedImage,
  type ViewerContext,
  validateTimerCreate,
} from "@tminus/core";
import type { ApiResponse } from "@tminus/http";
import type { PageContext } from "./context";
import type { DashboardDeps } from "./deps";
import { endedWarnings, formErrors, formProblemOf } from "./form-problems";
import { jsonResponse } from "./responses";
import { lengthInWords } from "./share-options";
import { describeRule, readTimerForm, timerBodyOf, todayIn } from "./timer-form";
import { inZone, zoneDay } from "./zone-time";

/** How far a personalized timer's sample recipient is from their deadline in the preview. */
const SAMPLE_DEADLINE_MS = 2 * 86_400_000 + 5 * 3_600_000;

/** A sample viewer: evergreen timers start now, personalized ones end in two days (the preview and the list's thumbnails). */
export function sampleViewer(definition: TimerDefinition, now: number): ViewerContext | undefined {
  if (definition.type === "duration") return { start_at: now };
  if (definition.type === "personalized") {
    return definition.personalization.source === "start"
      ? { start_at: now }
      : { deadline_at: now + SAMPLE_DEADLINE_MS };
  }
  return undefined;
}

/** The uploaded font a timer's look names, for its preview or thumbnail; null: none. */
export function lookFontOf(
  ctx: PageContext,
  deps: DashboardDeps,
  definition: TimerDefinition,
): Promise<UploadedFont | null> {
  if (!definition.look.font_asset_id) return Promise.resolve(null);
  return deps.lookFont(
    { account_id: ctx.account.id, environment: ctx.environment },
    definition.look,
    { endedText: definition.ended?.text, name: definition.name },
  );
}

/** An image background's uploaded picture, for a preview or thumbnail; null: none, or gone. */
async function backgroundImageOf(
  ctx: PageContext,
  definition: TimerDefinition,
): Promise<UploadedImage | null> {
  const background = definition.look.background;
  if (background?.type !== "image") return null;
  const data = await ctx.admin.imageData(ctx.account.id, ctx.environment, background.asset_id);
  return data && { id: background.asset_id, data };
}

/**
 * `input` with the uploads the look names (its font, its background picture), as the public
 * images draw it; a deleted one is left out, and the look draws without it.
 */
export async function withUploads(
  ctx: PageContext,
  deps: DashboardDeps,
  definition: TimerDefinition,
  input: ImageInput,
): Promise<ImageInput> {
  const [font, picture] = await Promise.all([
    lookFontOf(ctx, deps, definition),
    backgroundImageOf(ctx, definition),
  ]);
  if (font) input.font = font;
  if (picture) input.backgroundImage = picture;
  return input;
}

/** The width and height a PNG declares in its header. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * The builder's live preview: the form's fields become the POST /timers body, checked by the
 * API's own validation, and drawn as a PNG at this second. Nothing is stored: no timer, no
 * viewer, no allowance, no request-log entry. An invalid form answers 422 with the first
 * problem, worded as the API words it.
 */
export async function previewImage(ctx: PageContext, deps: DashboardDeps): Promise<ApiResponse> {
  const values = readTimerForm(ctx.req.query, ctx.now);
  // The form's own checks first, in its words (a name may stay blank while drafting).
  const own = formErrors(values).find((p) => p.id !== "name");
  if (own) {
    return jsonResponse(422, {
      field: own.id,
      id: own.id,
      message: `${own.label}: ${own.message}`,
    });
  }
  const checked = validateTimerCreate(timerBodyOf(values));
  if (!checked.ok) {
    const issue = checked.issues[0]!;
    // Worded as the form words it ("Ends at: ..."), with the field it belongs to.
    const problem = formProblemOf(issue.field, issue.message);
    return jsonResponse(422, {
      field: issue.field,
      id: problem?.id ?? null,
      message: problem ? `${problem.label}: ${problem.message}` : issue.message,
    });
  }
  const definition = checked.value;
  const status = computeStatus(
    { definition, clock: emptyClock(), viewer: sampleViewer(definition, ctx.now) },
    ctx.now,
  );
  // "Show the ended look": what viewers see after the end, drawn at zero.
  const input = await withUploads(
    ctx,
    deps,
    definition,
    imageInputOf(definition, status, { width: 600, showEnded: values.preview_ended }),
  );
  let bytes: Uint8Array;
  try {
    bytes = await deps.renderImage("png", input);
  } catch (error) {
    // A text images cannot draw (a character no font and no emoji has): the renderer names
    // the field and the character, and the form says it in its own words, as on save.
    const refused = drawingRefusal(error);
    if (!refused) throw error;
    return jsonResponse(422, refused);
  }
  const zone = definition.timezone;
  const at = status.target_at === null ? null : inZone(status.target_at, zone);
  let summary = at === null ? "Preview: no deadline" : `Ends ${at}`;
  // Per-recipient timers have no one end: the preview is a sample recipient's.
  if (definition.type === "duration") {
    summary = `Each recipient gets ${lengthInWords(definition.duration_seconds)} from their own first open; the preview shows one who opens now`;
  } else if (definition.type === "personalized") {
    const fallback = definition.personalization.fallback_deadline_at;
    summary =
      definition.personalization.source === "start"
        ? "Each recipient counts from their own start; the preview shows one whose start is now"
        : "Each recipient counts to their own deadline; the preview shows one whose deadline is 2 days 5 hours away";
    summary += fallback
      ? `. Links without a valid deadline count to ${inZone(Date.parse(fallback), zone)}`
      : "";
  }
  if (definition.type === "recurring") {
    summary = `${describeRule(values)}; next: ${at ?? "none"}`;
    // A rule that starts on a later day counts to its first time from now on: say so.
    if (values.starts_on > todayIn(zone, ctx.now)) {
      summary += `; starts in the future, on ${zoneDay(values.starts_on)}`;
    }
  }
  // What the create would warn about, said while the person types.
  for (const warning of endedWarnings(values, ctx.now)) {
    summary += `. Careful: ${warning.label}: ${warning.message}`;
  }
  if (values.preview_ended) summary = `Showing the ended look. ${summary}`;
  return {
    status: 200,
    headers: {
      "content-type": "image/png",
      "cache-control": "no-store",
      "tminus-preview-summary": summary.replace(/[^\x20-\x7e]/g, "?"),
    },
    body: bytes,
  };
}

/** The 422 answer for a renderer's refusal of a field's text, or null for any other error. */
function drawingRefusal(
  error: unknown,
): { field: string; id: string | null; message: string } | null {
  const { code, field, message } = (error ?? {}) as {
    code?: unknown;
    field?: unknown;
    message?: unknown;
  };
  if (code !== "validation_error" || typeof field !== "string" || typeof message !== "string")
    return null;
  const problem = formProblemOf(field, message);
  return {
    field,
    id: problem?.id ?? null,
    message: problem ? `${problem.label}: ${problem.message}` : message,
  };
}
