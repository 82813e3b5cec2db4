// The upload shapes of the OpenAPI document: what POST /assets takes (a file in base64 inside
// JSON, as every body of the API is JSON) and what the upload routes answer.
import { z } from "zod";
import { dataEnvelope, deletedSchema, instant, listEnvelope, resourceFields } from "./responses";

/** Most characters of an upload's name. */
export const ASSET_NAME_MAX = 200;

/** The two kinds of upload. */
export const ASSET_KINDS = ["font", "image"] as const;

// Standard base64 (RFC 4648 section 4), padded; no line breaks.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** POST /assets: the kind, a name, and the file's bytes in base64. */
export const assetCreateSchema = z
  .strictObject({
    kind: z.enum(ASSET_KINDS).meta({
      description:
        "`font` (TTF, OTF or WOFF) for a look's `font_asset_id`, or `image` (PNG or JPEG) for a background.",
    }),
    name: z
      .string()
      .min(1)
      .max(ASSET_NAME_MAX)
      .refine(
        (name) => name.trim() !== "" && ![...name].some((ch) => ch < " " || ch === "\u007f"),
        {
          message: "must be a name without control characters",
        },
      )
      .meta({
        description: "A name to know the file by, usually its file name.",
        examples: ["Brand Sans.ttf"],
      }),
    data: z
      .string()
      .min(1)
      .regex(BASE64, {
        message: "must be the file's bytes in base64 (RFC 4648, padded, no line breaks)",
      })
      .meta({
        description:
          "The file's bytes in standard base64. Checked by reading the file, never by its name: fonts by parsing their tables, images by decoding every pixel.",
        examples: ["AAEAAAASAQAABAAgR0RFRrRCsIIAAjWs"],
      }),
  })
  .meta({ description: "An upload: a font or an image, its bytes in base64." });

/** The `kind` filter of GET /assets. */
export const assetKindFilter = z.enum(ASSET_KINDS);

/** An uploaded file as the API shows it (never its bytes). */
export const assetSchema = z
  .strictObject({
    ...resourceFields("asset"),
    kind: z.enum(ASSET_KINDS),
    name: z.string(),
    format: z.enum(["ttf", "otf", "woff", "png", "jpeg"]).meta({
      description: "What the file was read as (from its bytes).",
    }),
    bytes: z.int().min(1).meta({ description: "The file's size." }),
    sha256: z.string().meta({ description: "Lowercase hex SHA-256 of the file." }),
    width: z.int().min(1).nullable().meta({ description: "Images: pixels across. Fonts: null." }),
    height: z.int().min(1).nullable().meta({ description: "Images: pixels down. Fonts: null." }),
    font_family: z.string().nullable().meta({
      description: "Fonts: the family name the file gives itself (may be empty). Images: null.",
    }),
    created_at: instant(),
  })
  .meta({ description: "An uploaded font or image, described (its bytes are not served here)." });

/** The request and response components of the upload routes. */
export const ASSET_REQUEST_SCHEMAS = { AssetCreate: assetCreateSchema };
export const ASSET_RESPONSE_SCHEMAS = {
  Asset: assetSchema,
  AssetResponse: dataEnvelope(assetSchema),
  AssetList: listEnvelope(assetSchema),
  DeletedAssetResponse: dataEnvelope(deletedSchema("asset")),
};
