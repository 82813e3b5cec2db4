import { StoreError } from "../contract";

/**
 * Turns constraint violations into the contract's expected failures: a duplicate row is a
 * `conflict`, a missing parent (an unknown account) is `not_found`. Anything else is a fault
 * and passes through unchanged.
 */
export function mapConstraintError(error: unknown, what: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "SQLITE_CONSTRAINT_UNIQUE" || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    return new StoreError("conflict", `${what} already exists`);
  }
  if (code === "SQLITE_CONSTRAINT_FOREIGNKEY") {
    return new StoreError("not_found", `${what} refers to an account that does not exist`);
  }
  return error;
}
