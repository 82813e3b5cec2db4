// Uploads: an account's fonts and background images, per environment. A file is checked by
// reading it (render's inspectFont and readImage), never by its name or Content-Type, and
// refused with one clear error before anything is stored.
import { createHash, randomUUID } from "node:crypto";
import type { FileProblem } from "@tminus/render";
import { type AssetKind, type AssetRecord, StoreError } from "@tminus/store";
import { z } from "zod";
import { assetsConfig, type TminusConfig } from "../config";
import { cursorBinding } from "../paging";
import { loadRender } from "../public/render-module";
import { ASSET_NAME_MAX, type assetCreateSchema, assetKindFilter } from "../schemas/assets";
import { requestSchemas, responseSchemas } from "../schemas/registry";
import { BodyTooLargeError } from "../transport/exchange";
import { ASSET_ID_ERRORS, BODY_NOT_JSON, DocumentedError } from "../vocabulary/error-cases";
import { ASSET_ID, listQuery } from "../vocabulary/parameters";
import { checkImageOffThread } from "./_image-check";
import { newestFirstPage, scopeOf, webhookNotFound } from "./_webhook-common";
import type { RouteContext, RouteResult } from "./context";
import { defineRoute } from "./define";

const ASSET_PATH = z.object({ asset_id: ASSET_ID });
type AssetContext = RouteContext<unknown, z.output<typeof ASSET_PATH>>;

const LIST_QUERY = listQuery({
  kind: assetKindFilter
    .optional()
    .meta({ description: "Only files of this kind.", example: "font" }),
});

/** The most bytes a file of `kind` may have. */
export function maxFileBytes(config: TminusConfig, kind: AssetKind): number {
  const limits = assetsConfig(config);
  return kind === "font" ? limits.max_font_bytes : limits.max_image_bytes;
}

/** The body an upload may send: the largest file in base64, and room for the rest. */
function uploadBodyBytes(config: TminusConfig): number {
  const largest = Math.max(maxFileBytes(config, "font"), maxFileBytes(config, "image"));
  return Math.ceil(largest / 3) * 4 + 16 * 1024;
}

const mib = (bytes: number) =>
  bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB`
    : `${bytes.toLocaleString("en")} bytes`;

/** The file is over its kind's byte limit (or the body over what the largest file needs). */
const FILE_TOO_LARGE = new DocumentedError(
  "validation_error",
  (kind: AssetKind | "file", limit: number, size: number | null) => ({
    message:
      `the ${kind} is ${size === null ? "larger than that" : `${size.toLocaleString("en")} bytes`}: ` +
      `${kind}s may be at most ${limit.toLocaleString("en")} bytes (${mib(limit)})`,
    details: { field: "data", reason: "too_large", limit },
  }),
  { example: ["font", 2_097_152, 3_145_728], name: "file_too_large" },
);

/** The file does not read as the kind it was sent as (FileProblem of render). */
const FILE_UNUSABLE = new DocumentedError(
  "validation_error",
  (problem: Pick<FileProblem, "reason" | "message" | "missing">) => ({
    message: `data: ${problem.message}`,
    details: {
      field: "data",
      reason: problem.reason,
      ...(problem.missing.length > 0 ? { missing: [...problem.missing] } : {}),
    },
  }),
  {
    example: [
      {
        reason: "missing_glyphs",
        message: "the font cannot draw the digits 7, 8, 9: a countdown needs 0-9",
        missing: ["7", "8", "9"],
      },
    ],
    name: "file_unusable",
  },
);

/** The environment holds as many files as the operator allows. */
const ASSET_LIMIT = new DocumentedError(
  "validation_error",
  (limit: number) => ({
    message: `this environment already has the maximum of ${limit} uploaded files; delete one first`,
    details: { field: "assets", reason: "limit_reached", limit },
  }),
  { example: [50], name: "asset_limit" },
);

/** An upload as the API shows it. */
export function assetView(asset: AssetRecord) {
  return {
    id: asset.id,
    object: "asset" as const,
    kind: asset.kind,
    name: asset.name,
    format: asset.format,
    bytes: asset.byte_size,
    sha256: asset.sha256,
    width: asset.width,
    height: asset.height,
    font_family: asset.font_family,
    created_at: new Date(asset.created_at).toISOString(),
  };
}

/** What reading the file found: its format and what it says of itself. */
type Described = Pick<AssetRecord, "format" | "width" | "height" | "font_family">;

/**
 * Reads the file as `kind`; a FileProblem becomes the one error that names it. A font's tables
 * are read here (a cmap and a few headers: fast); an image is decoded on a thread of its own.
 */
async function describeFile(kind: AssetKind, bytes: Uint8Array): Promise<Described> {
  const render = await loadRender();
  if (kind === "image") {
    const image = await checkImageOffThread(bytes);
    if (!image.ok) throw FILE_UNUSABLE.error(image);
    return { format: image.format, width: image.width, height: image.height, font_family: null };
  }
  try {
    const font = render.inspectFont(bytes);
    return { format: font.format, width: null, height: null, font_family: font.family };
  } catch (error) {
    if (error instanceof render.FileProblem) throw FILE_UNUSABLE.error(error);
    throw error;
  }
}

async function createAsset(
  ctx: RouteContext<z.output<typeof assetCreateSchema>>,
): Promise<RouteResult> {
  const { store, config } = ctx.services;
  let body: z.output<typeof assetCreateSchema>;
  try {
    body = await ctx.body();
  } catch (error) {
    // Larger than the largest file may be: the file is too large, whatever its kind.
    if (error instanceof BodyTooLargeError) {
      const largest = Math.max(maxFileBytes(config, "font"), maxFileBytes(config, "image"));
      throw FILE_TOO_LARGE.error("file", largest, null);
    }
    throw error;
  }
  const bytes = Buffer.from(body.data, "base64");
  const limit = maxFileBytes(config, body.kind);
  if (bytes.byteLength > limit) throw FILE_TOO_LARGE.error(body.kind, limit, bytes.byteLength);
  const described = await describeFile(body.kind, bytes);
  try {
    const created = await store.createAsset({
      asset: {
        id: randomUUID(),
        ...scopeOf(ctx),
        kind: body.kind,
        name: body.name,
        ...described,
        byte_size: bytes.byteLength,
        sha256: createHash("sha256").update(bytes).digest("hex"),
        created_at: ctx.now,
        data: bytes,
      },
      max_assets: assetsConfig(config).max_files,
    });
    return { status: 201, data: assetView(created) };
  } catch (error) {
    if (error instanceof StoreError && error.code === "limit_reached")
      throw ASSET_LIMIT.error(assetsConfig(config).max_files);
    throw error;
  }
}

async function listAssets(
  ctx: RouteContext<unknown, unknown, z.output<typeof LIST_QUERY>>,
): Promise<RouteResult> {
  const { limit, cursor, kind } = ctx.query;
  const { store, cursors } = ctx.services;
  const binding = cursorBinding(ctx.auth, "assets", kind);
  const after = cursor ? cursors.decode(cursor, binding) : undefined;
  const rows = await store.listAssets({
    ...scopeOf(ctx),
    ...(kind ? { kind } : {}),
    after,
    limit: limit + 1,
  });
  return newestFirstPage(rows, limit, assetView, cursors, binding);
}

async function getAsset(ctx: AssetContext): Promise<RouteResult> {
  const { account_id, environment } = scopeOf(ctx);
  const found = await ctx.services.store.getAsset(account_id, environment, ctx.params.asset_id);
  if (!found) throw webhookNotFound(ASSET_ID_ERRORS, ctx.params.asset_id, ctx);
  return { data: assetView(found) };
}

async function deleteAsset(ctx: AssetContext): Promise<RouteResult> {
  const id = ctx.params.asset_id;
  const deleted = await ctx.services.store.deleteAsset({ ...scopeOf(ctx), id });
  if (!deleted) throw webhookNotFound(ASSET_ID_ERRORS, id, ctx);
  return { data: { id, object: "asset", deleted: true } };
}

/** Uploads: create, list, read, delete. */
export const assetRoutes = [
  defineRoute({
    method: "POST",
    path: "/assets",
    scope: "assets:write",
    operationId: "createAsset",
    summary: "Upload a font or an image",
    description:
      "Stores a file of the key's environment for looks to use. Like every body of the API it is JSON: the file's bytes go in `data`, base64. " +
      "A `font` must be TTF, OTF or WOFF (WOFF2 and font collections are refused by name), at most `assets.max_font_bytes` (default and most 2 MiB), and draw the digits 0-9; " +
      "an `image` must be PNG or JPEG, at most `assets.max_image_bytes` (default 2 MiB) and 4,096 pixels across and down (16,777,216 in all, checked from its header before decoding). " +
      "Each file is read whole (fonts parsed, images decoded); one that does not read is refused with `details.reason` `unsupported_format`, `malformed`, `too_large` or `missing_glyphs` (with `details.missing`), and nothing is stored. " +
      "An environment keeps at most `assets.max_files` files (default 50). Needs `@tminus/render` installed.",
    tag: "Assets",
    body: {
      schema: requestSchemas.AssetCreate,
      required: true,
      description: "The kind, a name, and the file in base64.",
      example: {
        kind: "font",
        name: "Brand Sans.ttf",
        data: "AAEAAAASAQAABAAgR0RFRrRCsIIAAjWs",
      },
      maxBytes: uploadBodyBytes,
    },
    success: {
      status: 201,
      schema: responseSchemas.AssetResponse,
      description: "The stored file, described.",
    },
    errors: [
      { code: "missing_field", message: "data is required", details: { field: "data" } },
      {
        code: "validation_error",
        name: "name_too_long",
        message: `name must be at most ${ASSET_NAME_MAX} characters long`,
        details: { field: "name" },
      },
      FILE_TOO_LARGE,
      FILE_UNUSABLE,
      ASSET_LIMIT,
      BODY_NOT_JSON,
    ],
    handle: createAsset,
  }),
  defineRoute({
    method: "GET",
    path: "/assets",
    scope: "assets:read",
    operationId: "listAssets",
    summary: "List uploaded files",
    description:
      "The environment's fonts and images, newest first; `kind` keeps one kind. Never their bytes.",
    tag: "Assets",
    query: LIST_QUERY,
    success: { status: 200, schema: responseSchemas.AssetList, description: "A page of files." },
    handle: listAssets,
  }),
  defineRoute({
    method: "GET",
    path: "/assets/{asset_id}",
    params: ASSET_PATH,
    scope: "assets:read",
    operationId: "getAsset",
    summary: "Read an uploaded file's description",
    description: "One file's kind, format, size, checksum and dimensions or family name.",
    tag: "Assets",
    success: {
      status: 200,
      schema: responseSchemas.AssetResponse,
      description: "The file, described.",
    },
    handle: getAsset,
  }),
  defineRoute({
    method: "DELETE",
    path: "/assets/{asset_id}",
    params: ASSET_PATH,
    scope: "assets:write",
    operationId: "deleteAsset",
    summary: "Delete an uploaded file",
    description:
      "Deletes the file at once, on every process. A timer whose look names a deleted font keeps its `font_asset_id` and is drawn with its built-in `font` from the next image or page on (no image ever breaks); a change that names the deleted font again is refused.",
    tag: "Assets",
    success: {
      status: 200,
      schema: responseSchemas.DeletedAssetResponse,
      description: "The id of the deleted file.",
    },
    handle: deleteAsset,
  }),
];
