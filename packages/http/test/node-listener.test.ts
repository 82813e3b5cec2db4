// What the node:http adapter puts on the wire: a body's length, never chunked framing, for
// JSON, HTML and errors alike.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

function raw(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(`${s.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
      });
      req.on("error", reject);
      req.end();
    },
  );
}

describe("the node:http adapter", () => {
  it("sends Content-Length equal to the body's bytes, not chunked, on success and error", async () => {
    const key = await s.key("production");
    const created = await s.call("POST", "/api/v1/timers", {
      key,
      // Multi-byte characters: the length counts bytes, not UTF-16 units.
      body: fixedTimer({ name: "Fête ⏳ 終わり" }),
      headers: { "idempotency-key": newKey() },
    });
    const auth = { authorization: `Bearer ${key.secret}` };
    for (const path of [
      `/api/v1/timers/${created.json.data.id}`,
      `/api/v1/timers/${created.json.data.id}/status`,
      "/api/v1/timers/not-a-uuid",
      "/api/v1/nowhere",
    ]) {
      const res = await raw(path, auth);
      expect(res.headers["transfer-encoding"], path).toBeUndefined();
      expect(Number(res.headers["content-length"]), path).toBe(res.body.byteLength);
      expect(res.body.byteLength, path).toBeGreaterThan(0);
    }
    expect(created.status).toBe(201);
    const named = await raw(`/api/v1/timers/${created.json.data.id}`, auth);
    expect(JSON.parse(named.body.toString("utf8")).data.name).toBe("Fête ⏳ 終わり");
  });
});
