// The renderer is loaded on the first public request, not at start-up: an API-only deployment
// never pays for satori, resvg and the fonts, and need not install them at all
// (`@tminus/render` is an optional peer of this package).
type RenderModule = typeof import("@tminus/render");

/** How to get the public pages and images when the renderer is not installed. */
export const RENDER_INSTALL_HINT =
  "the public pages and images need @tminus/render: npm install @tminus/render";

/** `@tminus/render` is not installed: the API works, the public pages and images cannot. */
export class RenderMissingError extends Error {
  constructor(cause: unknown) {
    super(RENDER_INSTALL_HINT, { cause });
    this.name = "RenderMissingError";
  }
}

let loading: Promise<RenderModule> | undefined;

/**
 * `@tminus/render`, imported once on first use. When it is not installed, every call rejects
 * with `RenderMissingError` (installing it needs a restart, so the answer is kept too).
 */
export function loadRender(): Promise<RenderModule> {
  loading ??= import("@tminus/render").catch((error: unknown) => {
    throw isMissing(error) ? new RenderMissingError(error) : error;
  });
  return loading;
}

// Only the package itself missing counts; a module missing inside it is a broken install,
// which must surface as the fault it is.
function isMissing(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    /['"]@tminus\/render['"]/.test(message ?? "")
  );
}
