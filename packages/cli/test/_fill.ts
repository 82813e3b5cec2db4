// A database filled through the API of a real `tminus serve`: every kind of resource, in the
// thousands, for the copy and backup tests. And a webhook receiver that checks signatures.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { signPayload } from "@tminus/webhooks";
import { type Answer, api, type IssuedKey, issueKey, tminus } from "./_processes";

/** Bodies of the four timer types, taken in turn. */
const BODIES = [
  { name: "Launch", type: "fixed", deadline_at: "2031-01-01T00:00:00Z" },
  { name: "Offer", type: "duration", duration_seconds: 7200 },
  {
    name: "Weekly",
    type: "recurring",
    timezone: "Europe/Paris",
    recurrence: { rrule: "FREQ=WEEKLY;BYDAY=MO", dtstart: "2026-01-05T09:00" },
  },
  {
    name: "Yours",
    type: "personalized",
    personalization: { source: "deadline", fallback_deadline_at: "2031-06-01T00:00:00Z" },
  },
];

/** What a fill made, to check a copy against. */
export interface Filled {
  acme: IssuedKey;
  sandbox: IssuedKey;
  destination: { id: string; secret: string };
  evergreen: { id: string; browsers: { cookie: string; targetAt: number }[] };
  /** Request ids of answers given before the copy (they must be in the copied log). */
  requestIds: string[];
}

/** Runs `count` calls, `inFlight` at a time. */
export async function inLanes(
  count: number,
  inFlight: number,
  call: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) await call(next++);
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
}

function ok(res: Answer, status: number, what: string): Answer {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res;
}

/** The countdown's end a hosted page shows. */
export const targetAt = (html: string) => Number(/"targetAt":(\d+)/.exec(html)?.[1]);

/**
 * Fills the database of the running `serve` at `base` (`db` is its --db): two environments,
 * `timers` timers of all four types with idempotency keys, updates, publications, deletions,
 * a webhook destination with rules, an evergreen timer seen by 20 browsers, a dashboard user.
 */
export async function fillThroughApi(
  base: string,
  db: string,
  config: string,
  hookUrl: string,
  timers: number,
): Promise<Filled> {
  const acme = await issueKey(db, config, "acme");
  const made = await tminus([
    "keys",
    "create",
    "--env",
    "sandbox",
    "--account",
    "acme",
    "--json",
    "--db",
    db,
    "--config",
    config,
  ]);
  if (made.code !== 0) throw new Error(made.stderr);
  const sandbox: IssuedKey = JSON.parse(made.stdout);
  const user = await tminus([
    "users",
    "create",
    "--account",
    "acme",
    "--email",
    "owner@acme.test",
    "--role",
    "owner",
    "--db",
    db,
    "--config",
    config,
  ]);
  if (user.code !== 0) throw new Error(user.stderr);

  const dest = ok(
    await api(base, acme, "POST", "/webhook-destinations", {
      body: { url: hookUrl, events: ["timer.created", "timer.updated", "timer.published"] },
    }),
    201,
    "destination",
  ).json.data;
  const requestIds: string[] = [];
  const created: { id: string; revision: number }[] = [];
  await inLanes(timers, 12, async (i) => {
    const key = i % 10 === 9 ? sandbox : acme;
    const res = ok(
      await api(base, key, "POST", "/timers", {
        body: {
          ...BODIES[i % BODIES.length],
          name: `Timer ${i} ✓`,
          metadata: { z: "é", i: String(i) },
        },
        headers: { "idempotency-key": `fill-${i}` },
      }),
      201,
      `create ${i}`,
    );
    if (i % 100 === 0) requestIds.push(res.headers.get("x-request-id")!);
    if (key === acme) created.push({ id: res.json.data.id, revision: res.json.data.revision });
  });
  // Updates, publications and deletions: revisions, activity and webhook events.
  await inLanes(created.length, 12, async (i) => {
    const t = created[i]!;
    if (i % 4 === 0) {
      const res = await api(base, acme, "PATCH", `/timers/${t.id}`, {
        body: { name: `Renamed ${i}` },
        headers: { "if-match": String(t.revision) },
      });
      t.revision = ok(res, 200, `update ${i}`).json.data.revision;
    }
    if (i % 7 === 0) {
      const res = await api(base, acme, "POST", `/timers/${t.id}/publish`, {
        headers: { "if-match": String(t.revision) },
      });
      t.revision = ok(res, 200, `publish ${i}`).json.data.revision;
    }
    if (i % 50 === 1) {
      const res = await api(base, acme, "DELETE", `/timers/${t.id}`, {
        headers: { "if-match": String(t.revision) },
      });
      if (res.status !== 200 && res.status !== 204) throw new Error(`delete ${i}: ${res.text}`);
    }
    if (i % 40 === 2) {
      ok(
        await api(base, acme, "POST", `/timers/${t.id}/webhook-rules`, {
          body: {
            destination_id: dest.id,
            events: ["timer.ended", "timer.threshold"],
            offset_seconds: 600,
          },
        }),
        201,
        `rule ${i}`,
      );
    }
  });
  // An evergreen timer: each browser's start is its first view.
  const ever = ok(
    await api(base, acme, "POST", "/timers", {
      body: { name: "Evergreen", type: "duration", duration_seconds: 86_400 },
      headers: { "idempotency-key": "fill-evergreen" },
    }),
    201,
    "evergreen",
  ).json.data;
  ok(
    await api(base, acme, "POST", `/timers/${ever.id}/publish`, {
      headers: { "if-match": String(ever.revision) },
    }),
    200,
    "publish evergreen",
  );
  const browsers: Filled["evergreen"]["browsers"] = [];
  for (let n = 0; n < 20; n++) {
    const page = await fetch(`${base}/t/${ever.id}`);
    if (page.status !== 200) throw new Error(`page: ${page.status}`);
    const cookie = page.headers.get("set-cookie")!.split(";")[0]!;
    browsers.push({ cookie, targetAt: targetAt(await page.text()) });
  }
  return {
    acme,
    sandbox,
    destination: { id: dest.id, secret: dest.secret },
    evergreen: { id: ever.id, browsers },
    requestIds,
  };
}

/** One request a receiver got: the body and what its signature header said. */
export interface Received {
  body: string;
  /** Whether one of its `v1,` signatures is the body's HMAC under `secret`. */
  signedWith(secret: string): boolean;
}

/** A webhook receiver on loopback that keeps every request, answering 204. */
export async function signedReceiver() {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const id = String(req.headers["webhook-id"]);
      const ts = Number(req.headers["webhook-timestamp"]);
      const sent = String(req.headers["webhook-signature"] ?? "").split(" ");
      received.push({
        body,
        signedWith: (secret) => sent.includes(`v1,${signPayload(secret, id, ts, body)}`),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
