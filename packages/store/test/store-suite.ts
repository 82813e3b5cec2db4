import { afterEach, beforeEach, describe } from "vitest";
import type { Store } from "../src/contract";
import type { SuiteContext } from "./suite/_fixtures";
import { accountTests } from "./suite/accounts";
import { analyticsTests } from "./suite/analytics";
import { apiKeyTests } from "./suite/api-keys";
import { assetTests } from "./suite/assets";
import { changeTimerTests } from "./suite/change-timer";
import { concurrencyTests } from "./suite/concurrency";
import { createTimerTests } from "./suite/create-timer";
import { housekeepingTests } from "./suite/housekeeping";
import { listTimersTests } from "./suite/list-timers";
import { lookTests } from "./suite/looks";
import { meteringTests } from "./suite/metering";
import { requestLogTests } from "./suite/request-log";
import { userTests } from "./suite/users";
import { viewerEventTests } from "./suite/viewer-events";
import { viewerTests } from "./suite/viewers";
import { webhookDeliveryTests } from "./suite/webhook-deliveries";
import { webhookTests } from "./suite/webhooks";

/** Makes the store for one test; `cleanup` runs after the store is closed. */
export type StoreFactory = () => Promise<{ store: Store; cleanup?: () => Promise<void> }>;

/**
 * The conformance suite: every `Store` adapter runs it unchanged. It uses only the `Store`
 * interface, a fresh store per test and fresh random account names, so a factory may also hand
 * out stores over one shared database. Optional methods are tested when present.
 *
 * @example
 * runStoreSuite("sqlite", async () => ({ store: sqliteStore({ path: ":memory:" }) }));
 */
export function runStoreSuite(name: string, factory: StoreFactory): void {
  describe(`Store conformance: ${name}`, () => {
    let current: Awaited<ReturnType<StoreFactory>> | undefined;
    const ctx: SuiteContext = {
      get store() {
        if (!current) throw new Error("the store is only available inside a test");
        return current.store;
      },
    };

    beforeEach(async () => {
      current = await factory();
    });
    afterEach(async () => {
      const finished = current;
      current = undefined;
      await finished?.store.close();
      await finished?.cleanup?.();
    });

    accountTests(ctx);
    apiKeyTests(ctx);
    meteringTests(ctx);
    createTimerTests(ctx);
    changeTimerTests(ctx);
    listTimersTests(ctx);
    concurrencyTests(ctx);
    requestLogTests(ctx);
    viewerTests(ctx);
    analyticsTests(ctx);
    lookTests(ctx);
    assetTests(ctx);
    viewerEventTests(ctx);
    housekeepingTests(ctx);
    webhookTests(ctx);
    webhookDeliveryTests(ctx);
    userTests(ctx);
  });
}
