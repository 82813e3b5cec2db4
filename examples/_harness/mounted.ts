// What every mounting example must do, driven over real HTTP: the timer lifecycle through the
// API under the app's prefix, a decoded public GIF, the embed script, and an evergreen timer
// whose viewer cookie comes back under the prefix.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import omggif from "omggif";
import { afterAll, beforeAll, expect } from "vitest";

const cli = fileURLToPath(new URL("../../packages/cli/dist/cli.js", import.meta.url));

/** A production key (it may publish) on a fresh SQLite file, issued by the built CLI. */
export function issueProductionKey(db: string): string {
  const out = execFileSync(
    process.execPath,
    [cli, "keys", "create", "--env", "production", "--db", db, "--json"],
    { encoding: "utf8" },
  );
  return JSON.parse(out).secret;
}

/** A running example: its origin (`http://127.0.0.1:PORT`) and how to stop it. */
export interface RunningExample {
  origin: string;
  stop(): Promise<void>;
}

/** Starts an example's server as a user would (`node server.js`), on a free loopback port. */
export async function startExample(script: string, db: string): Promise<RunningExample> {
  const child: ChildProcess = spawn(process.execPath, [script], {
    env: { ...process.env, TMINUS_DB: db, PORT: "0" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const origin = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/[^\s/]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`example exited with ${code}: ${out}`)));
  });
  return {
    origin,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/**
 * Runs an example's `server.js` for the test file (started before its tests, stopped after) on
 * a fresh database with a production key.
 */
export function useExample(server: URL): { readonly origin: string; readonly secret: string } {
  const state = { origin: "", secret: "" };
  let dir = "";
  let app: RunningExample | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "tminus-example-"));
    const db = join(dir, "example.db");
    state.secret = issueProductionKey(db);
    app = await startExample(fileURLToPath(server), db);
    state.origin = app.origin;
  });
  afterAll(async () => {
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return state;
}

const PREFIX = "/countdown";

/**
 * Drives an app that mounts tminus at `/countdown` on `origin`: create, read, PATCH, publish,
 * a public GIF, the embed script, the evergreen cookie, DELETE. Fails on the first deviation.
 */
export async function driveMountedApp(origin: string, secret: string): Promise<void> {
  const base = origin + PREFIX;
  const json = { authorization: `Bearer ${secret}`, "content-type": "application/json" };

  const created = await fetch(`${base}/api/v1/timers`, {
    method: "POST",
    headers: { ...json, "idempotency-key": crypto.randomUUID() },
    body: JSON.stringify({ type: "duration", name: "Welcome offer", duration_seconds: 3600 }),
  });
  expect(created.status).toBe(201);
  const id = (await created.json()).data.id;
  const location = created.headers.get("location");
  expect(location).toBe(`${base}/api/v1/timers/${id}`);

  const read = await fetch(location!, { headers: json });
  expect(read.status).toBe(200);
  const timer = (await read.json()).data;
  expect(timer.name).toBe("Welcome offer");

  const patched = await fetch(location!, {
    method: "PATCH",
    headers: { ...json, "if-match": timer.revision },
    body: JSON.stringify({ name: "Welcome offer, 1 hour" }),
  });
  expect(patched.status).toBe(200);
  const renamed = (await patched.json()).data;
  expect(renamed.name).toBe("Welcome offer, 1 hour");

  const published = await fetch(`${location}/publish`, {
    method: "POST",
    headers: { ...json, "if-match": renamed.revision },
  });
  expect(published.status).toBe(200);
  const live = (await published.json()).data;
  expect(live.urls.gif).toBe(`${base}/t/${id}/countdown.gif`);

  const gif = await fetch(`${live.urls.gif}?frames=3`);
  expect(gif.status).toBe(200);
  expect(gif.headers.get("content-type")).toBe("image/gif");
  const reader = new omggif.GifReader(new Uint8Array(await gif.arrayBuffer()));
  expect([reader.width, reader.numFrames()]).toEqual([600, 3]);

  const script = await fetch(live.urls.embed_script);
  expect(script.status).toBe(200);
  expect(script.headers.get("content-type")).toMatch(/^text\/javascript/);
  const source = await script.text();
  expect(source).toContain(`var ORIGIN = ${JSON.stringify(origin)};`);
  expect(source).toContain(`var BASE = ${JSON.stringify(`${base}/t/`)};`);

  await expectEvergreenCookie(live.urls.page, id);

  const deleted = await fetch(location!, {
    method: "DELETE",
    headers: { ...json, "if-match": live.revision },
  });
  expect(deleted.status).toBe(200);
  expect((await deleted.json()).data).toMatchObject({ id, deleted: true });
  expect((await fetch(location!, { headers: json })).status).toBe(404);
  expect((await fetch(live.urls.gif)).status).toBe(404);
}

/** The page's countdown target, from the JSON block its script reads. */
async function targetOf(res: Response): Promise<number> {
  expect(res.status).toBe(200);
  const m = /"targetAt":(\d+)/.exec(await res.text());
  expect(m).not.toBeNull();
  return Number(m![1]);
}

/** A duration timer counts from the viewer's first visit: the cookie must come back to it. */
async function expectEvergreenCookie(page: string, id: string): Promise<void> {
  const first = await fetch(page);
  const cookie = first.headers.get("set-cookie");
  expect(cookie).toContain(`Path=${PREFIX}/t/${id}`);
  const start = await targetOf(first);
  // Long enough that a new viewer would get a later target.
  await new Promise((r) => setTimeout(r, 1100));
  const again = await fetch(page, { headers: { cookie: cookie!.split(";")[0]! } });
  expect(again.headers.get("set-cookie")).toBeNull();
  expect(await targetOf(again)).toBe(start);
  const stranger = await fetch(page);
  expect(await targetOf(stranger)).toBeGreaterThan(start);
}
