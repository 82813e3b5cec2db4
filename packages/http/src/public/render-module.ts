// The renderer is loaded on the first public request, not at start-up: an API-only deployment
// never pays for satori, resvg and the fonts.
type RenderModule = typeof import("@tminus/render");

let loading: Promise<RenderModule> | undefined;

/** `@tminus/render`, imported once on first use. */
export function loadRender(): Promise<RenderModule> {
  loading ??= import("@tminus/render");
  return loading;
}
