// Timers saved before the API refused text that images cannot draw (issue 37) may still hold
// some: a private-use character, or a locale whose script's font package is not installed.
// Their email images must not break: the renderer refuses such input (RenderError
// validation_error naming the field), and the image route then draws the timer as images
// drew it before, the field's text replaced as it was then, field by field. Only the refused
// path pays for this; new and changed timers never get here (the API refuses the text).
import type { ImageInput } from "@tminus/render";

/** The renderer's refusal of one text field of a stored timer, or null for any other error. */
export function refusedTextField(error: unknown): string | null {
  const { code, field } = (error ?? {}) as { code?: unknown; field?: unknown };
  if (code !== "validation_error" || typeof field !== "string") return null;
  return /^(ended\.text|look\.separator|look\.locale|look\.labels\.\w+)$/.test(field)
    ? field
    : null;
}

/** `input` with the refused field's text as images showed it before issue 37. */
export function withFormerText(input: ImageInput, field: string): ImageInput {
  const look = { ...(input.look as Record<string, unknown> | undefined) };
  if (field === "ended.text") return { ...input, ended: { ...input.ended, text: "Ended" } };
  if (field === "look.separator") look["separator"] = ":";
  else if (field === "look.locale") look["locale"] = "en";
  else {
    const labels = { ...(look["labels"] as Record<string, string> | undefined) };
    delete labels[field.slice("look.labels.".length)];
    look["labels"] = labels;
  }
  return { ...input, look: look as ImageInput["look"] };
}
