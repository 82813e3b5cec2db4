import type { Environment, GetInEnvironment, NewestFirstPage, RecordRef } from "./common";

/** What an uploaded file is for: a look's font, or a background image. */
export type AssetKind = "font" | "image";

/** The file formats uploads are accepted in (checked by parsing before the store sees them). */
export type AssetFormat = "ttf" | "otf" | "woff" | "png" | "jpeg";

/** An uploaded file's description, without its bytes (lists never read the bytes). */
export interface AssetRecord {
  id: string;
  account_id: string;
  environment: Environment;
  kind: AssetKind;
  /** The name it was uploaded under, 1 to 200 characters; not unique. */
  name: string;
  format: AssetFormat;
  /** Size of the stored file. */
  byte_size: number;
  /** Lowercase hex SHA-256 of the file. */
  sha256: string;
  /** Images: pixels across and down; fonts: null. */
  width: number | null;
  height: number | null;
  /** Fonts: the family name the file gives itself (may be empty); images: null. */
  font_family: string | null;
  created_at: number;
}

/** A file to store: its description and its bytes. */
export interface NewAsset extends AssetRecord {
  data: Uint8Array;
}

/**
 * Uploaded files (fonts, background images), scoped by account and environment like every
 * tenant row. A file never changes after it is stored: only created and deleted, so whoever
 * holds its bytes by id holds the right ones while it exists.
 */
export interface AssetStore {
  /**
   * Atomic: counts the environment's files and stores the new one only while fewer than
   * `max_assets` exist; otherwise throws `StoreError` `limit_reached`.
   */
  createAsset(input: { asset: NewAsset; max_assets: number }): Promise<AssetRecord>;
  /** A keyset page of the environment's files, newest first, of one kind when `kind` is set. */
  listAssets(query: NewestFirstPage & { kind?: AssetKind }): Promise<AssetRecord[]>;
  /** One file's description; null when absent (or another account's or environment's). */
  getAsset: GetInEnvironment<AssetRecord>;
  /** One file's bytes; null when absent (or another account's or environment's). */
  getAssetData: GetInEnvironment<Uint8Array>;
  /**
   * Deletes one file and moves the `assets` generation in the same transaction, so every
   * process stops drawing with it from its next request. False when there was none.
   */
  deleteAsset(input: RecordRef): Promise<boolean>;
}
