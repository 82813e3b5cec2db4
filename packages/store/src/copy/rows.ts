import { createHash } from "node:crypto";
import type { CopyColumnType, CopyTable } from "./tables";

/** A column's value as both adapters agree on it (see `CopyColumnType`). */
export type CopyValue = string | number | boolean | null | string[];

/** One row, its values in the order of its table's `columns`. */
export type CopyRow = CopyValue[];

/** What a driver hands back for a column, before `normalizeValue`. */
type RawValue = unknown;

/**
 * Turns what either driver read into the one value both sides agree on: bigint strings become
 * numbers, 0/1 booleans, JSON arrays lists, and objects whose key order means nothing their
 * canonical text. Throws on anything else, so a schema drift fails the copy loudly.
 */
export function normalizeValue(type: CopyColumnType, raw: RawValue, column: string): CopyValue {
  if (raw === null || raw === undefined) return null;
  switch (type) {
    case "text":
    case "json":
      if (typeof raw === "string") return raw;
      break;
    case "int": {
      const n = typeof raw === "string" || typeof raw === "bigint" ? Number(raw) : raw;
      if (typeof n === "number" && Number.isSafeInteger(n)) return n;
      break;
    }
    case "real":
      if (typeof raw === "number") return raw;
      break;
    case "bool":
      if (typeof raw === "boolean") return raw;
      if (raw === 0 || raw === 1) return raw === 1;
      break;
    case "jsonmap":
      if (typeof raw === "string") return canonicalJson(JSON.parse(raw));
      if (typeof raw === "object") return canonicalJson(raw);
      break;
    case "bytes":
      if (raw instanceof Uint8Array)
        return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("base64");
      break;
    case "textlist": {
      const list = typeof raw === "string" ? JSON.parse(raw) : raw;
      if (Array.isArray(list) && list.every((v) => typeof v === "string")) return list;
      break;
    }
  }
  throw new Error(`column ${column}: unexpected ${type} value ${JSON.stringify(String(raw))}`);
}

/** JSON text with object keys sorted, so two orders of one map compare equal. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Normalizes a driver row (an object by column name) into a `CopyRow`. */
export function normalizeRow(table: CopyTable, raw: Record<string, unknown>): CopyRow {
  return table.columns.map((c) => normalizeValue(c.type, raw[c.name], `${table.name}.${c.name}`));
}

/** The values of a row's key columns, where the next batch starts after it. */
export function keyOf(table: CopyTable, row: CopyRow): CopyValue[] {
  return table.key.map((k) => row[table.columns.findIndex((c) => c.name === k)] ?? null);
}

const MOD = 1n << 128n;

/**
 * An order-free digest of a table: the sum, modulo 2^128, of the first 16 bytes of each row's
 * SHA-256 over its normalized values. Both sides are summed by this same code from what each
 * read, so equal sums mean equal rows (duplicates counted, unlike XOR) whatever order either
 * database returns them in.
 */
export function createTableDigest(): { add(row: CopyRow): void; hex(): string } {
  let sum = 0n;
  return {
    add(row) {
      const hash = createHash("sha256").update(JSON.stringify(row)).digest("hex");
      sum = (sum + BigInt(`0x${hash.slice(0, 32)}`)) % MOD;
    },
    hex: () => sum.toString(16).padStart(32, "0"),
  };
}
