import type { Store } from "../src/contract";
import { createInput, newAccount, newTimer, T0 } from "./suite/_fixtures";
import { createDestination } from "./suite/webhooks";

/**
 * An account whose one event went to one destination and was delivered at T0 + 1 s, then a
 * purge past retention. Adapter tests count the rows left, which the contract cannot see.
 */
export async function deliverThenPurge(
  store: Store,
): Promise<{ account_id: string; delivery_ids: string[] }> {
  const account = await newAccount(store);
  await createDestination(store, account, { events: ["timer.created"] });
  await store.createTimer(
    createInput(newTimer(account), {
      events: [
        { id: crypto.randomUUID(), type: "timer.created", occurred_at: T0, payload: () => ({}) },
      ],
      now: T0,
    }),
  );
  const claimed = await store.claimDueDeliveries({
    now: T0,
    lease_ms: 30_000,
    limit: 1000,
    worker_id: "purge",
  });
  const own = claimed.filter((c) => c.account_id === account.id);
  for (const c of own) {
    await store.recordAttempt({
      delivery_id: c.id,
      worker_id: "purge",
      attempt: {
        attempt: c.attempt,
        trigger: "scheduled",
        started_at: T0,
        duration_ms: 1,
        response_status: 204,
        response_body: "",
        error: null,
      },
      outcome: "succeeded",
      now: T0 + 1_000,
    });
  }
  await store.purge({
    now: T0 + 2_000,
    request_log_before: 0,
    rate_windows_before: 0,
    webhook_deliveries_before: T0 + 2_000,
  });
  return { account_id: account.id, delivery_ids: own.map((c) => c.id) };
}
