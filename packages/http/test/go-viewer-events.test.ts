// A click on an email's /go link can be a recipient's first sight of an evergreen timer
// (images turned off): it stores their start, and viewer.started is sent for it, once.
import { createWebhookWorker } from "@tminus/webhooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { newKey, startTestServer, type TestServer } from "./_harness";
import { type Receiver, startReceiver } from "./_receiver";

const OPEN = { allow_http: true, allow_private_destinations: true };
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

let s: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  s = await startTestServer({
    plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 5 } },
    webhooks: OPEN,
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await s.close();
});

it("a first click on /go starts the recipient's countdown and sends viewer.started once", async () => {
  s.setNow(T0);
  const key = await s.key("production");
  const d = await s.call("POST", "/api/v1/webhook-destinations", {
    key,
    body: { url: `${receiver.url}/go` },
  });
  expect(d.status, d.text).toBe(201);
  const body = { name: "Offer", type: "duration", duration_seconds: 600 };
  const created = await s.call("POST", "/api/v1/timers", {
    key,
    body,
    headers: { "idempotency-key": newKey() },
  });
  const id = created.json.data.id as string;
  const pub = await s.call("POST", `/api/v1/timers/${id}/publish`, {
    key,
    headers: { "if-match": created.json.data.revision },
  });
  expect(pub.status, pub.text).toBe(200);
  const rule = await s.call("POST", `/api/v1/timers/${id}/webhook-rules`, {
    key,
    body: { destination_id: d.json.data.id, events: ["viewer.started"] },
  });
  expect(rule.status, rule.text).toBe(201);

  s.setNow(T0 + 5000);
  for (let i = 0; i < 2; i++) {
    const res = await fetch(`${s.url}/t/${id}/go?r=ann`, { redirect: "manual" });
    await res.arrayBuffer();
    expect(res.status).toBe(302);
  }
  // The offer to the store runs behind the response: let it land, then deliver.
  await new Promise((r) => setTimeout(r, 50));
  const worker = createWebhookWorker({
    store: s.store,
    config: { webhooks: OPEN },
    now: () => T0 + 5000,
  });
  await worker.runOnce();
  await worker.runOnce();
  await worker.stop();
  const started = receiver.received.map((r) => JSON.parse(r.body));
  expect(started.map((b) => [b.type, b.viewer.recipient_id, b.viewer.started_at])).toEqual([
    ["viewer.started", "ann", new Date(T0 + 5000).toISOString()],
  ]);
});
