// A look whose background is an uploaded picture must name a picture of its own environment,
// checked when a timer is created or its look replaced, as the look's font is (_look-font.ts).
import type { Look } from "@tminus/core";
import { DocumentedError } from "../vocabulary/error-cases";
import type { RouteContext } from "./context";

/** The look's background.asset_id names no picture of this environment. */
export const LOOK_BACKGROUND_UNKNOWN = new DocumentedError(
  "validation_error",
  (id: string, environment: string) => ({
    message: `look.background.asset_id: there is no uploaded image ${id} in this ${environment} environment (POST /assets with kind image uploads one)`,
    details: { field: "look.background.asset_id" },
  }),
  {
    example: ["01969e7c-8d7e-7a43-9c57-1f1f0e3e4b2a", "production"],
    name: "look_background_unknown",
  },
);

/** Refuses `look` when its background names a picture that is not an image asset here. */
export async function checkLookBackground(
  ctx: RouteContext,
  look: Look | undefined,
): Promise<void> {
  const background = look?.background;
  if (background?.type !== "image") return;
  const asset = await ctx.services.store.getAsset(
    ctx.auth.account.id,
    ctx.auth.key.environment,
    background.asset_id,
  );
  if (asset?.kind !== "image")
    throw LOOK_BACKGROUND_UNKNOWN.error(background.asset_id, ctx.auth.key.environment);
}
