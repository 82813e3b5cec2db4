import { StoreError } from "../contract";

/**
 * Turns constraint violations into the contract's expected failures, as the SQLite adapter
 * does: a duplicate row (unique_violation) is a `conflict`, a missing parent (an unknown
 * account, foreign_key_violation) is `not_found`. Anything else is a fault and passes through.
 */
export function mapConstraintError(error: unknown, what: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "23505") return new StoreError("conflict", `${what} already exists`);
  if (code === "23503") {
    return new StoreError("not_found", `${what} refers to an account that does not exist`);
  }
  return error;
}
