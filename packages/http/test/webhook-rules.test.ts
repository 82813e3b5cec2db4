import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    sandbox: { requests_per_minute: 100_000 },
    plans: { starter: { requests_per_minute: 100_000 } },
  });
});
afterAll(() => s.close());

type Key = Awaited<ReturnType<TestServer["key"]>>;

async function setup(key: Key) {
  const timer = await s.call("POST", "/api/v1/timers", {
    key,
    body: fixedTimer(),
    headers: { "idempotency-key": newKey() },
  });
  const destination = await s.call("POST", "/api/v1/webhook-destinations", {
    key,
    body: { url: "https://hooks.example.com/in" },
  });
  return { timer: timer.json.data, destination: destination.json.data };
}

describe("webhook rules on a timer", () => {
  it("creates, lists newest first, pages and deletes", async () => {
    const key = await s.key("production");
    const { timer, destination } = await setup(key);
    const path = `/api/v1/timers/${timer.id}/webhook-rules`;
    const first = await s.call("POST", path, {
      key,
      body: { destination_id: destination.id, events: ["timer.ended"] },
    });
    expect(first.status, first.text).toBe(201);
    expect(first.json.data).toMatchObject({
      object: "webhook_rule",
      timer_id: timer.id,
      destination_id: destination.id,
      events: ["timer.ended"],
      offset_seconds: null,
    });
    const second = await s.call("POST", path, {
      key,
      body: {
        destination_id: destination.id,
        events: ["timer.threshold", "timer.updated"],
        offset_seconds: 300,
      },
    });
    expect(second.json.data.offset_seconds).toBe(300);
    const page1 = await s.call("GET", `${path}?limit=1`, { key });
    expect(page1.json.page.has_more).toBe(true);
    const page2 = await s.call(
      "GET",
      `${path}?limit=1&cursor=${encodeURIComponent(page1.json.page.next_cursor)}`,
      { key },
    );
    expect(page2.json.page.has_more).toBe(false);
    expect(
      [...page1.json.data, ...page2.json.data].map((r: { id: string }) => r.id).sort(),
    ).toEqual([first.json.data.id, second.json.data.id].sort());

    const del = await s.call("DELETE", `${path}/${first.json.data.id}`, { key });
    expect(del.json.data).toEqual({
      id: first.json.data.id,
      object: "webhook_rule",
      deleted: true,
    });
    expectError(await s.call("DELETE", `${path}/${first.json.data.id}`, { key }), 404, "not_found");
    const rest = await s.call("GET", path, { key });
    expect(rest.json.data.map((r: { id: string }) => r.id)).toEqual([second.json.data.id]);
  });

  it("validates the timer id, the rule id and the body", async () => {
    const key = await s.key("production");
    const { timer, destination } = await setup(key);
    const path = `/api/v1/timers/${timer.id}/webhook-rules`;
    const ok = { destination_id: destination.id, events: ["timer.ended"] };
    expectError(
      await s.call("POST", "/api/v1/timers/nope/webhook-rules", { key, body: ok }),
      400,
      "invalid_timer_id",
    );
    expectError(
      await s.call("GET", "/api/v1/timers/00000000-0000-4000-8000-000000000000/webhook-rules", {
        key,
      }),
      404,
      "not_found",
    );
    const badRule = await s.call("DELETE", `${path}/nope`, { key });
    expect(expectError(badRule, 400, "validation_error").details?.field).toBe("rule_id");
    const cases: [unknown, string, string][] = [
      [{ events: ["timer.ended"] }, "missing_field", "destination_id"],
      [{ destination_id: destination.id }, "missing_field", "events"],
      [{ destination_id: "x", events: ["timer.ended"] }, "validation_error", "destination_id"],
      [{ destination_id: destination.id, events: [] }, "validation_error", "events"],
      [
        { destination_id: destination.id, events: ["timer.exploded"] },
        "validation_error",
        "events[0]",
      ],
      [
        { destination_id: destination.id, events: ["timer.ended", "timer.ended"] },
        "validation_error",
        "events",
      ],
      [
        { destination_id: destination.id, events: ["timer.threshold"] },
        "missing_field",
        "offset_seconds",
      ],
      [
        { destination_id: destination.id, events: ["timer.ended"], offset_seconds: 60 },
        "validation_error",
        "offset_seconds",
      ],
      [
        { destination_id: destination.id, events: ["timer.threshold"], offset_seconds: 0 },
        "validation_error",
        "offset_seconds",
      ],
      [
        { destination_id: destination.id, events: ["timer.threshold"], offset_seconds: 1.5 },
        "validation_error",
        "offset_seconds",
      ],
    ];
    for (const [body, code, field] of cases) {
      const error = expectError(await s.call("POST", path, { key, body }), 400, code);
      expect(error.details?.field, JSON.stringify(body)).toBe(field);
    }
  });

  it("refuses a destination of another environment or account", async () => {
    const key = await s.key("production");
    const { timer } = await setup(key);
    const sandbox = await s.key("sandbox", key.account);
    const elsewhere = await s.call("POST", "/api/v1/webhook-destinations", {
      key: sandbox,
      body: { url: "https://hooks.example.com/in" },
    });
    const stranger = await s.key("production");
    const theirs = await s.call("POST", "/api/v1/webhook-destinations", {
      key: stranger,
      body: { url: "https://hooks.example.com/in" },
    });
    for (const d of [elsewhere.json.data, theirs.json.data]) {
      const res = await s.call("POST", `/api/v1/timers/${timer.id}/webhook-rules`, {
        key,
        body: { destination_id: d.id, events: ["timer.ended"] },
      });
      expect(expectError(res, 400, "validation_error").details?.field).toBe("destination_id");
    }
    // The timer of another environment does not exist from the sandbox key's view.
    expectError(
      await s.call("GET", `/api/v1/timers/${timer.id}/webhook-rules`, { key: sandbox }),
      404,
      "not_found",
    );
  });
});
