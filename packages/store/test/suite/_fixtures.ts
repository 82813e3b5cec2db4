import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import {
  type Account,
  type CreateTimerInput,
  type CreateTimerOutcome,
  type Environment,
  type NewTimer,
  type Store,
  StoreError,
  type StoreErrorCode,
  type TimerRecord,
  type TimerSort,
} from "../../src/contract";

/** What every group of conformance tests receives: the fresh store of the running test. */
export interface SuiteContext {
  readonly store: Store;
}

/** A fixed clock: the store never reads time, so tests pass it explicitly. */
export const T0 = Date.UTC(2026, 10, 5, 12, 0, 0);

/** The billing cycle the tests meter in. */
export const CYCLE = "2026-11";

/** A name no other test (or concurrent run against a shared database) uses. */
export function unique(prefix: string): string {
  return `${prefix}-${randomUUID()}`;
}

/** Creates an account with a unique name. */
export function newAccount(store: Store, plan = "starter"): Promise<Account> {
  return store.createAccount({ id: randomUUID(), name: unique("acct"), plan, now: T0 });
}

/** A timer row to insert, with every field overridable. */
export function newTimer(
  account: Account,
  overrides: Partial<NewTimer> & { environment?: Environment } = {},
): NewTimer {
  return {
    id: randomUUID(),
    account_id: account.id,
    environment: "production",
    name: "Launch",
    type: "fixed",
    status: "draft",
    created_at: T0,
    updated_at: T0,
    published_at: null,
    data: { deadline_at: "2026-12-01T00:00:00Z" },
    ...overrides,
  };
}

/** A create input with a generous allowance and a response that echoes the row. */
export function createInput(
  timer: NewTimer,
  overrides: Partial<Omit<CreateTimerInput, "timer">> = {},
): CreateTimerInput {
  return {
    timer,
    allowance: { cycle_id: CYCLE, limit: 1_000_000 },
    respond: (row) => ({
      status: 201,
      headers: { "content-type": "application/json", etag: `"${row.revision}"` },
      body: JSON.stringify({ data: row }),
    }),
    now: T0,
    ...overrides,
  };
}

/** Creates a timer and insists it was created. */
export async function createTimer(store: Store, input: CreateTimerInput): Promise<TimerRecord> {
  const outcome = await store.createTimer(input);
  expect(outcome.kind).toBe("created");
  return (outcome as Extract<CreateTimerOutcome, { kind: "created" }>).timer;
}

/** Asserts a promise rejects with a `StoreError` of the given code. */
export async function expectStoreError(promise: Promise<unknown>, code: StoreErrorCode) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreError);
  expect((error as StoreError).code).toBe(code);
}

/** The four sort orders of GET /timers. */
export const SORTS: TimerSort[] = [
  { field: "created_at", direction: "asc" },
  { field: "created_at", direction: "desc" },
  { field: "updated_at", direction: "asc" },
  { field: "updated_at", direction: "desc" },
];

/**
 * Sort-order comparison of two rows: by the sort field, then by id, both in the sort's
 * direction. Ids compare by code unit, i.e. binary ("C") collation, which every adapter uses.
 */
export function compareRows(
  sort: TimerSort,
  a: Pick<TimerRecord, "id" | "created_at" | "updated_at">,
  b: Pick<TimerRecord, "id" | "created_at" | "updated_at">,
): number {
  const byValue = a[sort.field] - b[sort.field];
  const natural = byValue !== 0 ? byValue : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  return sort.direction === "asc" ? natural : -natural;
}

/**
 * Walks a whole listing page by page, as the http layer does with cursors. Every row must lie
 * strictly after the position it was asked for, so a non-strict comparison fails at once
 * instead of looping.
 */
export async function pageThrough(
  store: Store,
  query: Omit<Parameters<Store["listTimers"]>[0], "after" | "limit">,
  pageSize: (page: number) => number,
  between: (page: number) => Promise<void> = async () => {},
): Promise<TimerRecord[]> {
  const seen: TimerRecord[] = [];
  let previous: TimerRecord | undefined;
  for (let page = 0; page < 1_000; page++) {
    const limit = pageSize(page);
    const after = previous && { value: previous[query.sort.field], id: previous.id };
    const rows = await store.listTimers({ ...query, after, limit });
    expect(rows.length).toBeLessThanOrEqual(limit);
    for (const row of rows) {
      if (previous) expect(compareRows(query.sort, previous, row)).toBeLessThan(0);
      previous = row;
      seen.push(row);
    }
    if (rows.length < limit) return seen;
    await between(page);
  }
  throw new Error("paging did not terminate");
}

/** Soft-deletes a live timer through `changeTimer`; false when there was none to delete. */
export async function deleteTimer(
  store: Store,
  account_id: string,
  environment: Environment,
  id: string,
  now = T0,
): Promise<boolean> {
  const current = await store.getTimer(account_id, environment, id);
  if (!current) return false;
  const outcome = await store.changeTimer({
    account_id,
    environment,
    id,
    expected_revision: current.revision,
    actor: { key_id: null, key_prefix: null, request_id: null },
    activity_id: randomUUID(),
    now,
    change: () => ({ action: "deleted", changes: {}, delete: true }),
  });
  return outcome.kind === "changed";
}
