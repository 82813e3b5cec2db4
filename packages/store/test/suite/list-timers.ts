import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  Account,
  ListTimersQuery,
  Store,
  TimerRecord,
  TimerStatus,
  TimerType,
} from "../../src/contract";
import {
  compareRows,
  createInput,
  createTimer,
  deleteTimer,
  newAccount,
  newTimer,
  pageThrough,
  SORTS,
  type SuiteContext,
  T0,
} from "./_fixtures";

const TYPES: TimerType[] = ["fixed", "duration", "recurring", "personalized"];
const STATUSES: TimerStatus[] = ["draft", "published", "archived"];
const SECOND = 1000;

/** A row to insert: sort values drawn from a few seconds, so ties are common. */
const rowArb = fc.record({
  created: fc.integer({ min: 0, max: 4 }),
  updated: fc.integer({ min: 0, max: 4 }),
  type: fc.constantFrom(...TYPES),
  status: fc.constantFrom(...STATUSES),
});
type RowSpec = typeof rowArb extends fc.Arbitrary<infer R> ? R : never;

/** A listing's filters and sort. */
const queryArb = fc.record({
  sort: fc.constantFrom(...SORTS),
  type: fc.option(fc.constantFrom(...TYPES), { nil: undefined }),
  statuses: fc.subarray(STATUSES, { minLength: 1 }),
});

function insertRow(store: Store, account: Account, spec: RowSpec): Promise<TimerRecord> {
  return createTimer(
    store,
    createInput(
      newTimer(account, {
        type: spec.type,
        status: spec.status,
        created_at: T0 + spec.created * SECOND,
        updated_at: T0 + spec.updated * SECOND,
      }),
    ),
  );
}

/** What a listing must return: the filtered rows in strict `(field, id)` order. */
function expected(rows: TimerRecord[], query: Omit<ListTimersQuery, "limit" | "after">) {
  return rows
    .filter(
      (r) =>
        (query.type === undefined || r.type === query.type) && query.statuses.includes(r.status),
    )
    .sort((a, b) => compareRows(query.sort, a, b))
    .map((r) => r.id);
}

/** Keyset listing: sorts, tie-breaking, filters, and cursors that survive concurrent writes. */
export function listTimersTests(ctx: SuiteContext): void {
  describe("listTimers", () => {
    it("orders by each of the four sorts, ties broken by id in the same direction", async () => {
      const account = await newAccount(ctx.store);
      const rows: TimerRecord[] = [];
      // Three rows share created_at, two share updated_at: ids must decide.
      for (const [created, updated] of [
        [1, 3],
        [1, 2],
        [1, 3],
        [0, 5],
        [2, 0],
      ] as const) {
        rows.push(
          await insertRow(ctx.store, account, { created, updated, type: "fixed", status: "draft" }),
        );
      }
      for (const sort of SORTS) {
        const query = {
          account_id: account.id,
          environment: "production" as const,
          statuses: STATUSES,
          sort,
        };
        const listed = await ctx.store.listTimers({ ...query, limit: 100 });
        expect(
          listed.map((r) => r.id),
          `${sort.field} ${sort.direction}`,
        ).toEqual(expected(rows, query));
      }
    });

    it("combines type and status filters with AND", async () => {
      const account = await newAccount(ctx.store);
      const rows: TimerRecord[] = [];
      for (const type of TYPES) {
        for (const status of STATUSES) {
          rows.push(await insertRow(ctx.store, account, { created: 0, updated: 0, type, status }));
        }
      }
      const query = {
        account_id: account.id,
        environment: "production" as const,
        type: "recurring" as const,
        statuses: ["draft", "published"] as TimerStatus[],
        sort: SORTS[1]!,
      };
      const listed = await ctx.store.listTimers({ ...query, limit: 100 });
      expect(listed.map((r) => [r.type, r.status]).sort()).toEqual([
        ["recurring", "draft"],
        ["recurring", "published"],
      ]);
      expect(listed.map((r) => r.id)).toEqual(expected(rows, query));
      expect(await ctx.store.listTimers({ ...query, statuses: [], limit: 100 })).toEqual([]);
    });

    it("filters by a part of the name, ASCII letters in any case", async () => {
      const account = await newAccount(ctx.store);
      const names = ["Black Friday", "black friday EU", "Cyber Monday", "Fête FRIDAY", "100% off"];
      for (const name of names) {
        await createTimer(ctx.store, createInput(newTimer(account, { name })));
      }
      const find = async (name_contains: string) =>
        (
          await ctx.store.listTimers({
            account_id: account.id,
            environment: "production",
            name_contains,
            statuses: ["draft", "published"],
            sort: SORTS[1]!,
            limit: 100,
          })
        )
          .map((r) => r.name)
          .sort();
      expect(await find("FRIDAY")).toEqual(["Black Friday", "Fête FRIDAY", "black friday EU"]);
      expect(await find("fête")).toEqual(["Fête FRIDAY"]);
      // No pattern language: % and _ are plain characters.
      expect(await find("%")).toEqual(["100% off"]);
      expect(await find("_")).toEqual([]);
    });

    it("returns at most limit rows, strictly after the position", async () => {
      const account = await newAccount(ctx.store);
      const rows: TimerRecord[] = [];
      for (let i = 0; i < 5; i++) {
        rows.push(
          await insertRow(ctx.store, account, {
            created: 0,
            updated: 0,
            type: "fixed",
            status: "draft",
          }),
        );
      }
      const query = {
        account_id: account.id,
        environment: "production" as const,
        statuses: STATUSES,
        sort: SORTS[0]!,
      };
      const order = expected(rows, query);
      const first = await ctx.store.listTimers({ ...query, limit: 2 });
      expect(first.map((r) => r.id)).toEqual(order.slice(0, 2));
      const second = await ctx.store.listTimers({
        ...query,
        limit: 10,
        after: { value: first[1]!.created_at, id: first[1]!.id },
      });
      expect(second.map((r) => r.id)).toEqual(order.slice(2));
    });

    it("lists only the account's and environment's timers", async () => {
      const owner = await newAccount(ctx.store);
      const stranger = await newAccount(ctx.store);
      const mine = await insertRow(ctx.store, owner, {
        created: 0,
        updated: 0,
        type: "fixed",
        status: "draft",
      });
      await insertRow(ctx.store, stranger, {
        created: 0,
        updated: 0,
        type: "fixed",
        status: "draft",
      });
      await createTimer(ctx.store, createInput(newTimer(owner, { environment: "sandbox" })));
      const listed = await ctx.store.listTimers({
        account_id: owner.id,
        environment: "production",
        statuses: STATUSES,
        sort: SORTS[0]!,
        limit: 100,
      });
      expect(listed).toEqual([mine]);
    });

    it("property: paging with random page sizes returns every row once, in order", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(rowArb, { maxLength: 25 }),
          queryArb,
          fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 8 }),
          async (specs, filters, sizes) => {
            const account = await newAccount(ctx.store);
            const rows: TimerRecord[] = [];
            for (const spec of specs) rows.push(await insertRow(ctx.store, account, spec));
            const query = {
              account_id: account.id,
              environment: "production" as const,
              ...filters,
            };
            const seen = await pageThrough(ctx.store, query, (p) => sizes[p % sizes.length]!);
            expect(seen.map((r) => r.id)).toEqual(expected(rows, query));
          },
        ),
        { numRuns: 60 },
      );
    });

    it("property: inserts and deletes between pages never skip or repeat a surviving row", async () => {
      const mutationArb = fc.record({
        inserts: fc.array(rowArb, { maxLength: 3 }),
        // Indexes into the live rows at that moment.
        deletes: fc.array(fc.nat(), { maxLength: 2 }),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(rowArb, { minLength: 1, maxLength: 20 }),
          queryArb,
          fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 6 }),
          fc.array(mutationArb, { minLength: 1, maxLength: 8 }),
          async (specs, filters, sizes, mutations) => {
            const store = ctx.store;
            const account = await newAccount(store);
            const live = new Map<string, TimerRecord>();
            for (const spec of specs) {
              const row = await insertRow(store, account, spec);
              live.set(row.id, row);
            }
            // Rows present from the first page to the last: the cursor must yield each once.
            const survivors = new Map(live);
            const query = {
              account_id: account.id,
              environment: "production" as const,
              ...filters,
            };
            const seen = await pageThrough(
              store,
              query,
              (p) => sizes[p % sizes.length]!,
              async (p) => {
                const mutation = mutations[p % mutations.length]!;
                for (const spec of mutation.inserts) {
                  const row = await insertRow(store, account, spec);
                  live.set(row.id, row);
                }
                for (const index of mutation.deletes) {
                  const ids = [...live.keys()];
                  if (ids.length === 0) break;
                  const id = ids[index % ids.length]!;
                  expect(await deleteTimer(store, account.id, "production", id, T0)).toBe(true);
                  live.delete(id);
                  survivors.delete(id);
                }
              },
            );
            // Strictly increasing in sort order: nothing repeated, nothing out of place.
            for (let i = 1; i < seen.length; i++) {
              expect(compareRows(query.sort, seen[i - 1]!, seen[i]!)).toBeLessThan(0);
            }
            const seenIds = new Set(seen.map((r) => r.id));
            for (const id of expected([...survivors.values()], query)) {
              expect(seenIds.has(id), `surviving row ${id} was skipped`).toBe(true);
            }
            for (const row of seen) expect(expected([row], query)).toEqual([row.id]);
          },
        ),
        { numRuns: 60 },
      );
    });
  });
}
