// Text images cannot draw is refused when a timer is created or changed, naming the field
// and the character: images draw with the fonts and emoji that @tminus/render ships, and a
// character none of them has would otherwise reach a recipient as a missing-glyph box. The
// check is render's own (`lookDrawingProblem`), so the API refuses exactly what images
// cannot draw. Without @tminus/render installed nothing is drawn at all (the public routes
// answer 503), and nothing is checked.
import type { TimerDefinition } from "@tminus/core";
import { loadRender, RenderMissingError } from "../public/render-module";
import { DocumentedError } from "../vocabulary/error-cases";

/** A text of the look or the ended text with a character images cannot draw. */
export const UNDRAWABLE_TEXT = new DocumentedError(
  "validation_error",
  (field: string, why: string) => ({ message: `${field}: ${why}`, details: { field } }),
  {
    example: [
      "ended.text",
      'U+E000 "\uE000" (character 11) cannot be drawn: no font and no emoji has it',
    ],
    name: "undrawable_character",
  },
);

// Printable ASCII in an English look: every look font draws it, no need to ask render.
const PLAIN = /^[\x20-\x7e]*$/;

/**
 * Throws UNDRAWABLE_TEXT for the first text of the definition that images cannot draw;
 * `uploadedFont`: the bytes of the look's uploaded font, which draws in front of the built-in one.
 */
export async function assertDrawable(
  definition: Pick<TimerDefinition, "look" | "ended">,
  uploadedFont: Uint8Array | null = null,
): Promise<void> {
  const { look, ended } = definition;
  const texts = [
    look.separator,
    ended.text,
    ...Object.values(look.labels),
    look.heading?.text,
    look.subheading?.text,
    look.button?.label,
  ];
  if ((look.locale === "en" || !look.show_labels) && texts.every((t) => PLAIN.test(t ?? "")))
    return;
  let render: Awaited<ReturnType<typeof loadRender>>;
  try {
    render = await loadRender();
  } catch (error) {
    if (error instanceof RenderMissingError) return;
    throw error;
  }
  const upload = uploadedFont ? render.inspectFont(uploadedFont) : null;
  const problem = render.lookDrawingProblem(look, ended.text, upload);
  if (problem) throw UNDRAWABLE_TEXT.error(problem.field, problem.message);
}
