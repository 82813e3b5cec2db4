// The store wrapper behind the store metrics and spans: every method timed, failures counted,
// answers and errors passed through unchanged, whether the adapter is a plain object (ours)
// or a class (an adapter of your own).
import { randomUUID } from "node:crypto";
import type { Store } from "@tminus/store";
import { sqliteStore } from "@tminus/store/sqlite";
import { afterEach, describe, expect, it } from "vitest";
import { createMetrics } from "../../src/index";

const opened: Store[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** The real SQLite store behind a class whose methods live on its prototype. */
function classAdapter(inner: Store): Store {
  class ClassStore {
    readonly kind = "class-adapter";
  }
  for (const key of Object.keys(inner)) {
    const value = (inner as unknown as Record<string, unknown>)[key];
    if (typeof value === "function") {
      (ClassStore.prototype as unknown as Record<string, unknown>)[key] = (...args: unknown[]) =>
        (value as (...a: unknown[]) => unknown)(...args);
    }
  }
  return new ClassStore() as unknown as Store;
}

function series(text: string, name: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}

describe.each([
  ["a plain-object adapter", (s: Store) => s],
  ["a class adapter", classAdapter],
])("instrumentStore over %s", (_, adapt) => {
  it("times each call, counts failures, and passes answers and errors through", async () => {
    const inner = sqliteStore({ path: ":memory:" });
    opened.push(inner);
    const metrics = createMetrics({ processMetrics: false });
    const store = metrics.instrumentStore(adapt(inner));
    expect(metrics.instrumentStore(store)).toBe(store); // never wrapped twice
    const name = `acct-${randomUUID()}`;
    const account = await store.createAccount({ id: randomUUID(), name, plan: "starter", now: 1 });
    expect(await store.findAccountByName(name)).toEqual(account);
    const duplicate = store.createAccount({ id: randomUUID(), name, plan: "starter", now: 2 });
    await expect(duplicate).rejects.toMatchObject({ code: "conflict" });
    await expect(store.checkReady()).resolves.toBeUndefined();

    const text = await metrics.metrics();
    const count = (op: string) =>
      series(text, `tminus_store_operation_duration_seconds_count{operation="${op}"}`);
    expect(count("createAccount")).toBe(2);
    expect(count("findAccountByName")).toBe(1);
    expect(count("checkReady")).toBe(1);
    expect(series(text, 'tminus_store_errors_total{operation="createAccount"}')).toBe(1);
    expect(series(text, 'tminus_store_errors_total{operation="findAccountByName"}')).toBe(0);
    expect(
      series(text, 'tminus_store_operation_duration_seconds_sum{operation="createAccount"}'),
    ).toBeGreaterThan(0);
  });
});
