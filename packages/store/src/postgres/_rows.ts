import { type ColumnDecoder, rowMappers } from "../shared/rows";
import { ms } from "./_sql";

export * from "../shared/columns";
export type * from "../shared/rows";

/**
 * node-postgres' values: bigint arrives as a string (`ms` converts), json, jsonb, text[] and
 * boolean already as JavaScript values.
 */
const decode: ColumnDecoder = {
  ms,
  json: <T>(value: unknown) => value as T,
  list: <T extends string>(value: unknown) => value as T[],
  bool: (value) => value as boolean,
};

/** Rows of this adapter to records. */
export const fromRow = rowMappers(decode);
