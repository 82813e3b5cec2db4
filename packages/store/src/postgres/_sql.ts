/**
 * Collects the values of a statement built from parts and names their placeholders, with an
 * explicit type: a value used in several places must not leave PostgreSQL to infer one. Values
 * always travel as parameters, never inside the SQL text.
 */
export class Params {
  readonly values: unknown[] = [];
  private add(value: unknown, type: string): string {
    this.values.push(value);
    return `$${this.values.length}::${type}`;
  }
  text(value: string | null): string {
    return this.add(value, "text");
  }
  /** Unix ms and counters. */
  big(value: number | null): string {
    return this.add(value, "bigint");
  }
  int(value: number | null): string {
    return this.add(value, "integer");
  }
  float(value: number | null): string {
    return this.add(value, "double precision");
  }
  bool(value: boolean): string {
    return this.add(value, "boolean");
  }
  texts(value: readonly string[]): string {
    return this.add(value, "text[]");
  }
  bigs(value: readonly number[]): string {
    return this.add(value, "bigint[]");
  }
  /** A value already serialised to JSON text, stored as `json` (kept byte for byte). */
  json(text: string): string {
    return this.add(text, "json");
  }
  /** A value already serialised to JSON text, stored as `jsonb`. */
  jsonb(text: string): string {
    return this.add(text, "jsonb");
  }
}

/**
 * A Unix-ms column value as a number. `bigint` comes back from node-postgres as a string (it
 * may exceed 2^53 in general; our instants never do), so every mapper converts.
 */
export function ms(value: string | number): number {
  return typeof value === "number" ? value : Number(value);
}

/** `ms` for nullable columns. */
export function msOrNull(value: string | number | null): number | null {
  return value === null ? null : ms(value);
}
