// @tminus/render: what a timer's viewers see. Email images (animated GIF, still
// PNG) composited from a per-look atlas in milliseconds, and the hosted page,
// embed and embed script as HTML strings. Pure functions: no I/O but reading the
// bundled fonts once, no clock (the time left and the server time are arguments).

export { type Variant, type VariantColors, variantColors } from "./colors";
export { RenderError, type RenderErrorCode } from "./errors";
export type { CountdownPageInput, PageStatus } from "./html/countdown";
export { type EmbedScriptOptions, renderEmbedScript } from "./html/embed-script";
export { escapeHtml } from "./html/escape";
export { countdownCsp, renderEmbed, renderHostedPage } from "./html/page";
export {
  createImageRenderer,
  type ImageRenderer,
  type ImageRendererOptions,
  type RgbaImage,
  renderGif,
  renderPng,
} from "./image";
export { IMAGE_LIMITS, type ImageInput } from "./options";
