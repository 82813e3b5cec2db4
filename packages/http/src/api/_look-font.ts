// A look that names an uploaded font must name a font of its own environment that can draw it:
// the digits (checked at upload), the separator and every label of its locale. Checked when a
// timer is created or its look is replaced, so an image never has to fall back unannounced.
import type { Look } from "@tminus/core";
import { loadRender, RenderMissingError } from "../public/render-module";
import { DocumentedError } from "../vocabulary/error-cases";
import type { RouteContext } from "./context";

/** The look's font_asset_id names no font of this environment. */
export const LOOK_FONT_UNKNOWN = new DocumentedError(
  "validation_error",
  (id: string, environment: string) => ({
    message: `look.font_asset_id: there is no uploaded font ${id} in this ${environment} environment (POST /assets uploads one)`,
    details: { field: "look.font_asset_id" },
  }),
  { example: ["01969e7c-8d7e-7a43-9c57-1f1f0e3e4b2a", "production"], name: "look_font_unknown" },
);

/** The uploaded font cannot draw the look's separator or labels. */
export const LOOK_FONT_MISSING = new DocumentedError(
  "validation_error",
  (field: string, message: string, missing: string[]) => ({
    message: `${field}: ${message}`,
    details: { field, reason: "missing_glyphs", missing },
  }),
  {
    example: [
      "look.locale",
      'the uploaded font cannot draw "д", "н", "и" of the labels in locale ru: choose other labels, another font, or show_labels false',
      ["д", "н", "и"],
    ],
    name: "look_font_missing_glyphs",
  },
);

/**
 * Refuses `look` when its `font_asset_id` is not a font here, or (with `@tminus/render`
 * installed) cannot draw the look's separator and labels. Gives the font's bytes (null
 * when the look names none), for the check of every text the look draws.
 */
export async function checkLookFont(
  ctx: RouteContext,
  look: Look | undefined,
): Promise<Uint8Array | null> {
  const id = look?.font_asset_id ?? null;
  if (!look || id === null) return null;
  const data = await fontBytes(ctx, id);
  if (!data) throw LOOK_FONT_UNKNOWN.error(id, ctx.auth.key.environment);
  let render: Awaited<ReturnType<typeof loadRender>>;
  try {
    render = await loadRender();
  } catch (error) {
    // Without the renderer nothing is drawn at all (the public routes answer 503): no glyphs to check.
    if (error instanceof RenderMissingError) return data;
    throw error;
  }
  const problem = render.lookFontProblem(render.inspectFont(data), look);
  if (problem) throw LOOK_FONT_MISSING.error(problem.field, problem.message, problem.missing);
  return data;
}

/**
 * The bytes of the uploaded font `look` names, or null (none named, or deleted since: images
 * then draw with the built-in font).
 */
export async function lookFontBytes(
  ctx: RouteContext,
  look: Look | undefined,
): Promise<Uint8Array | null> {
  const id = look?.font_asset_id ?? null;
  return id === null ? null : fontBytes(ctx, id);
}

async function fontBytes(ctx: RouteContext, id: string): Promise<Uint8Array | null> {
  const account_id = ctx.auth.account.id;
  const environment = ctx.auth.key.environment;
  const { store } = ctx.services;
  const asset = await store.getAsset(account_id, environment, id);
  return asset?.kind === "font" ? store.getAssetData(account_id, environment, id) : null;
}
