import { createHash } from "node:crypto";

/**
 * A statement worth preparing: the adapter sends it by `name` (when prepared statements are
 * on), so each connection parses and plans it once instead of on every execution. The name is
 * a hash of the text: node-postgres refuses one name for two texts, and two texts never share
 * a name.
 */
export interface NamedStatement {
  readonly name: string;
  readonly text: string;
}

/** What `Db.query` runs: plain text (sent unnamed, planned each time) or a named statement. */
export type Statement = string | NamedStatement;

/**
 * How many statement texts this process names at most. Each name costs every connection a
 * prepared statement (its parse tree and plan) for the connection's life, so only texts from
 * a bounded set may be named: fixed texts, and the few variants of a statement assembled from
 * optional parts (the create statement: with or without an activity entry, an idempotency
 * record, outbox rows). At most 30 exist today (15 fixed, 15 variants); past the bound, new texts go unnamed (and
 * `namedStatementCount` lets a test notice).
 */
export const MAX_NAMED_STATEMENTS = 64;

const byText = new Map<string, NamedStatement>();

/**
 * `text` as a named statement, or the text itself once `MAX_NAMED_STATEMENTS` texts are
 * named. Only for texts from a bounded set: never a text that carries a value, a
 * variable-length list of placeholders or a caller's choice of filters.
 *
 * A named statement must list the columns it returns (no `SELECT *` or `RETURNING *` of a
 * table): a migration that adds a column would otherwise change the result of a plan cached
 * by processes of the previous release, which PostgreSQL refuses ("cached plan must not
 * change result type") on every execution.
 */
export function named(text: string): Statement {
  const known = byText.get(text);
  if (known) return known;
  if (byText.size >= MAX_NAMED_STATEMENTS) return text;
  const statement: NamedStatement = {
    name: `tminus_${createHash("sha256").update(text).digest("hex").slice(0, 24)}`,
    text,
  };
  byText.set(text, statement);
  return statement;
}

/** How many texts this process has named (for the test that keeps it under the bound). */
export function namedStatementCount(): number {
  return byText.size;
}
