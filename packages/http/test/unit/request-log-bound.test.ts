// The request log against a real SQLite store whose writes stall (its `logRequests` held
// until released): entries beyond the bound are dropped and counted, never kept.
import type { RequestLogEntry } from "@tminus/store";
import { describe, expect, it } from "vitest";
import { createRequestLog } from "../../src/request-log";
import { unitStore } from "./_store";

const entry = (i: number, account_id: string): RequestLogEntry => ({
  id: `01a21a7f-68a6-761e-bb25-${String(i).padStart(12, "0")}`,
  account_id,
  environment: "production",
  key_id: "0b6c3c1e-68a6-761e-bb25-51d756006d21",
  key_prefix: "svc_live_AbC12xYz",
  request_id: `01a21a7f-68a6-761e-bb25-${String(i).padStart(12, "0")}`,
  method: "GET",
  route: "/api/v1/timers",
  status: 200,
  error_code: null,
  duration_ms: 1,
  created_at: Date.UTC(2026, 10, 27) + i,
});

describe("request log while the store falls behind", () => {
  it("keeps at most maxPending entries, drops the rest, and reports how many", async () => {
    const u = unitStore();
    const { auth } = await u.key("acme");
    const logRequests = u.store.logRequests.bind(u.store);
    let open!: () => void;
    const stalled = new Promise<void>((resolve) => {
      open = resolve;
    });
    u.store.logRequests = async (entries) => {
      await stalled;
      return logRequests(entries);
    };
    const dropped: number[] = [];
    const log = createRequestLog(
      u.store,
      (error) => {
        throw error;
      },
      { maxPending: 700, intervalMs: 5, onDropped: (n) => dropped.push(n) },
    );
    // 500 and 500 leave as two stalled batches; 700 more wait; 300 are dropped.
    for (let i = 0; i < 2000; i++) log.add(entry(i, auth.account.id));
    await new Promise((resolve) => setTimeout(resolve, 30));
    open();
    await log.flush();
    await log.flush();
    const stored = await u.store.listRequestLog({
      account_id: auth.account.id,
      environment: "production",
      limit: 5000,
    });
    expect(stored).toHaveLength(1700);
    expect(dropped).toEqual([300]);
    await u.close();
  });
});
