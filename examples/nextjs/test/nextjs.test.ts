// The app docs/mounting.md describes, made from its code blocks alone (the example's files are
// the same blocks: docs-mounting.test.ts), the packed packages and Next.js installed from the
// npm registry with plain npm, `next build` (Turbopack, Next's default),
// then `next start`, driven over real HTTP. Next's own server passes route handlers a request
// URL on `localhost`; the tests check that absolute URLs follow the Host the client asked for.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import omggif from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { driveMountedApp, issueProductionKey } from "../../_harness/mounted";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const HANDLER = Symbol.for("tminus.nextjs.handler");

/** A route that renders a GIF through @tminus/render loaded with `require` (its CJS build). */
const CJS_ROUTE = `import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET() {
  const { createRenderPool } = require("@tminus/render");
  const pool = createRenderPool({ threads: 1 });
  try {
    const gif = await pool.renderGif({ remainingSeconds: 90, frames: 2 });
    return new Response(gif, { headers: { "content-type": "image/gif" } });
  } finally {
    await pool.close();
  }
}
`;

let dir = "";
let app = "";
let next: ChildProcess | undefined;
let origin = "";
let secret = "";
let db = "";

/** A port nothing listens on now, for `next start -p`. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

/** Runs `next <args>` in the app folder (its own bin, as `npx next` would). */
function nextBin(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(
    process.execPath,
    [join(app, "node_modules", "next", "dist", "bin", "next"), ...args],
    {
      cwd: app,
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so the server and anything it forks stop together.
      detached: true,
    },
  );
}

/** Waits for a child to exit; rejects with its output unless it exits 0. */
function finished(child: ChildProcess): Promise<string> {
  let out = "";
  child.stdout!.on("data", (c) => (out += c));
  child.stderr!.on("data", (c) => (out += c));
  return new Promise((resolve, reject) =>
    child.once("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(out)))),
  );
}

/** A request with headers fetch will not send (Host), over node:http. */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method, headers },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/**
 * The Next.js app of docs/mounting.md, made from its section's code blocks alone: the
 * `package.json` (the json block), `next.config.mjs` and the route. What the docs leave out,
 * this build misses too (issue 38: no next.config, no "type": "module").
 */
function nextAppFromDocs(): Record<string, string> {
  const doc = readFileSync(join(root, "docs", "mounting.md"), "utf8");
  const section = doc.slice(doc.indexOf("## Next.js App Router"));
  const end = section.indexOf("\n## ", 5);
  const blocks = [...section.slice(0, end).matchAll(/```(js|json)\n([\s\S]*?)```/g)];
  const pick = (test: (lang: string, code: string) => boolean, what: string) => {
    const found = blocks.filter((m) => test(m[1]!, m[2]!));
    if (found.length !== 1) throw new Error(`docs/mounting.md: ${found.length} blocks for ${what}`);
    return found[0]![2]!;
  };
  return {
    "package.json": pick((lang) => lang === "json", "package.json"),
    "next.config.mjs": pick((_, code) => code.startsWith("// next.config.mjs"), "next.config.mjs"),
    "app/countdown/[...path]/route.js": pick(
      (lang, code) => lang === "js" && code.includes("handler as GET"),
      "the route",
    ),
  };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tminus-nextjs-"));
  app = join(dir, "app");
  mkdirSync(app);
  for (const [name, text] of Object.entries(nextAppFromDocs())) {
    mkdirSync(dirname(join(app, name)), { recursive: true });
    writeFileSync(join(app, name), text);
  }
  // Beside the example's route, one that loads the CommonJS build (require): both builds
  // must pass Next's file tracing, and the CJS one must start its render thread.
  mkdirSync(join(app, "app", "cjs-render"));
  writeFileSync(join(app, "app", "cjs-render", "route.js"), CJS_ROUTE);
  const packed = join(dir, "packed");
  execFileSync(process.execPath, [join(root, "scripts", "pack-packages.mjs"), packed], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  // The app's package.json names next, react and better-sqlite3; the tarballs stand in for
  // the registry's @tminus/* until they are published.
  const tarballs = readdirSync(packed)
    .filter((f) => f.startsWith("tminus-") && !f.startsWith("tminus-0"))
    .map((f) => join(packed, f));
  // The better-sqlite3 the workspace built, so its native module is copied, not compiled.
  const sqlite = createRequire(join(root, "packages", "store", "package.json"))(
    "better-sqlite3/package.json",
  ).version;
  const installStart = performance.now();
  const specs = [...tarballs, `better-sqlite3@${sqlite}`];
  execFileSync(process.execPath, [join(root, "scripts", "install-app.mjs"), app, ...specs], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const buildStart = performance.now();
  await finished(nextBin(["build"]));
  const seconds = (from: number, to: number) => ((to - from) / 1000).toFixed(1);
  console.log(
    `examples/nextjs: npm install ${seconds(installStart, buildStart)} s, next build ${seconds(buildStart, performance.now())} s`,
  );

  db = join(dir, "example.db");
  secret = issueProductionKey(db);
  const port = await freePort();
  // No -H: Next listens on every interface and names the request URL `localhost`.
  next = nextBin(["start", "-p", String(port)], { TMINUS_DB: db });
  let out = "";
  await new Promise<void>((resolve, reject) => {
    const seen = (c: Buffer) => {
      out += c;
      if (/Ready in/.test(out)) resolve();
    };
    next!.stdout!.on("data", seen);
    next!.stderr!.on("data", (c) => (out += c));
    next!.once("exit", (code) => reject(new Error(`next start exited with ${code}: ${out}`)));
  });
  origin = `http://127.0.0.1:${port}`;
}, 480_000);

afterAll(async () => {
  if (next?.pid !== undefined && next.exitCode === null) {
    const exited = new Promise((r) => next!.once("exit", r));
    process.kill(-next.pid, "SIGTERM");
    await exited;
  }
  await (globalThis as Record<symbol, { close(): Promise<void> } | undefined>)[HANDLER]?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("examples/nextjs: the App Router catch-all route, built and started by Next.js", () => {
  it("serves the API, the public routes and the evergreen cookie under /countdown", async () => {
    await driveMountedApp(origin, secret);
  });

  it("builds absolute URLs from the Host the client asked for, not Next's localhost", async () => {
    const host = "timers.example.test";
    const auth = { host, authorization: `Bearer ${secret}`, "content-type": "application/json" };
    const created = await send(
      "POST",
      "/countdown/api/v1/timers",
      { ...auth, "idempotency-key": crypto.randomUUID() },
      JSON.stringify({ type: "fixed", name: "Launch", deadline_at: "2030-01-01T00:00:00Z" }),
    );
    expect(created.status).toBe(201);
    const timer = JSON.parse(created.text).data;
    expect(created.headers["location"]).toBe(`http://${host}/countdown/api/v1/timers/${timer.id}`);

    // A proxy in front (TLS ended there) says so with X-Forwarded-Proto; Next keeps it.
    const published = await send("POST", `/countdown/api/v1/timers/${timer.id}/publish`, {
      ...auth,
      "x-forwarded-proto": "https",
      "if-match": timer.revision,
    });
    expect(published.status).toBe(200);
    const { urls } = JSON.parse(published.text).data;
    expect(urls.gif).toBe(`https://${host}/countdown/t/${timer.id}/countdown.gif`);
    expect(urls.page).toBe(`https://${host}/countdown/t/${timer.id}`);
    expect(urls.embed_script).toBe(`https://${host}/countdown/embed.js`);

    const script = await send("GET", "/countdown/embed.js", { host });
    expect(script.status).toBe(200);
    expect(script.text).toContain(`var ORIGIN = ${JSON.stringify(`http://${host}`)};`);
    expect(script.text).toContain(`var BASE = ${JSON.stringify(`http://${host}/countdown/t/`)};`);
    expect(script.text).not.toContain("localhost");
  });

  it("the CommonJS build of @tminus/render renders on a thread under Next too", async () => {
    const res = await fetch(`${origin}/cjs-render`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/gif");
    const reader = new omggif.GifReader(new Uint8Array(await res.arrayBuffer()));
    expect([reader.width, reader.numFrames()]).toEqual([600, 2]);
  });

  it("HEAD and OPTIONS reach the handler, not Next's 405", async () => {
    const head = await fetch(`${origin}/countdown/embed.js`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^text\/javascript/);
    // The API grants no CORS: OPTIONS gets the handler's envelope, with the methods it accepts.
    const options = await fetch(`${origin}/countdown/api/v1/timers`, {
      method: "OPTIONS",
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(options.headers.get("x-request-id")).not.toBeNull();
    expect((await options.json()).error.code).toBe("not_found");
    expect(options.headers.get("allow")).toBe("POST, GET");
  });
});

describe("examples/nextjs: the route module", () => {
  // Loaded here from the sources (vitest's aliases), as `next dev` evaluates it: again on
  // every edit. A query string makes Node evaluate the file anew, like a hot reload.
  const load = (edit: number) =>
    import(`${new URL("../app/countdown/[...path]/route.js", import.meta.url).href}?edit=${edit}`);
  const held = () => (globalThis as Record<symbol, unknown>)[HANDLER];

  it("exports a handler for every method and runs on Node, never prerendered", async () => {
    const route = await load(0);
    for (const m of METHODS) expect(typeof route[m], m).toBe("function");
    expect(route.runtime).toBe("nodejs");
    expect(route.dynamic).toBe("force-dynamic");
  });

  it("makes nothing on import and keeps one handler (one render pool) across hot reloads", async () => {
    process.env["TMINUS_DB"] = db;
    const first = await load(1);
    expect(held()).toBeUndefined();
    const embed = new Request("http://127.0.0.1/countdown/embed.js");
    expect((await first.GET(embed)).status).toBe(200);
    const handler = held();
    expect(typeof handler).toBe("function");
    const edited = await load(2);
    expect(edited.GET).not.toBe(first.GET);
    expect((await edited.GET(embed)).status).toBe(200);
    expect(held()).toBe(handler);
  });
});
