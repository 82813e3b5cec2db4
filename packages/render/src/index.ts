// @tminus/render: what a timer's viewers see. Email images (animated GIF, still
// PNG) composited from a per-look atlas in well under a millisecond, a bounded
// pool of worker threads to render them off the caller's event loop, and the
// hosted page, embed and embed script as HTML strings, and the font files those link to.
// Pure functions: no I/O but reading the bundled fonts, no clock (the time left and the server time are arguments).

export { snapHeight, snapWidth } from "@tminus/core";
export { type Variant, type VariantColors, variantColors } from "./colors";
export {
  type DrawingProblem,
  describeUndrawable,
  lookDrawingProblem,
  type UndrawableCharacter,
  undrawableCharacter,
} from "./drawable";
export { RenderError, type RenderErrorCode } from "./errors";
export type { CountdownPageInput, PageFont, PageStatus, PageUrls } from "./html/countdown";
export { type EmbedScriptOptions, renderEmbedScript } from "./html/embed-script";
export { escapeHtml } from "./html/escape";
export { countdownCsp, renderEmbed, renderHostedPage } from "./html/page";
export { type WebFontFile, webFontFile } from "./html/web-fonts";
export {
  createImageRenderer,
  IMAGE_CACHE_DEFAULTS,
  type ImageCacheStats,
  type ImageRenderer,
  type ImageRendererOptions,
  type RgbaImage,
  renderGif,
  renderPng,
} from "./image";
export { IMAGE_LIMITS, type ImageInput } from "./options";
export {
  createRenderPool,
  type PoolRenderOptions,
  type RenderPool,
  type RenderPoolOptions,
  type RenderPoolStats,
  URGENT_MAX_QUEUE,
} from "./pool";
export {
  type ImageFormat,
  type Instant,
  type RenderJob,
  type RenderManyDone,
  type RenderManyFailed,
  type RenderManyOptions,
  type RenderManyResult,
  renderMany,
} from "./render-many";
export {
  busyCores,
  type CpuSample,
  chooseThreads,
  measureThreads,
  sampleCpu,
  type ThreadChoice,
} from "./threads";
export { FileProblem, type FileProblemReason } from "./uploads/file-problem";
export { DIGITS, type FontFile, type FontFormat, inspectFont } from "./uploads/font-file";
export { uploadedFamily } from "./uploads/font-stack";
export {
  IMAGE_UPLOAD_LIMITS,
  type ImageFile,
  type ImageFormat as UploadedImageFormat,
  readImage,
} from "./uploads/image-file";
export { type LookFontProblem, lookFontProblem, lookFontText } from "./uploads/look-font";
export { subsetFont } from "./uploads/subset";
