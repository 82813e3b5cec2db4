// examples/nginx-cdn as a user runs it: the built `tminus serve --shared-cache-seconds 1` behind
// Debian's nginx with the example's nginx.conf (only its two ports changed). 20,000 opens of one
// timer in about 10 s, in two looks and sizes, and how many of them reach tminus: at most two
// per second per URL (nginx's log of what it passed on), the same count in tminus's own log.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../../../packages/cli/dist/cli.js", import.meta.url));
const conf = readFileSync(new URL("../nginx.conf", import.meta.url), "utf8");
const OPENS = 20_000;
const SECONDS = 10;
const IN_FLIGHT = 64;

function nginxMissing(): string | null {
  try {
    execFileSync("nginx", ["-v"], { stdio: "ignore" });
    return null;
  } catch {
    return "nginx is not installed (Debian: apt-get install nginx; .ci/run installs it)";
  }
}
const missing = nginxMissing();
if (missing && process.env.CI === "true") throw new Error(`CI needs nginx: ${missing}`);
if (missing) console.warn(`\n*** SKIPPING examples/nginx-cdn: ${missing} ***\n`);

const dir = mkdtempSync(join(tmpdir(), "tminus-nginx-cdn-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts a process and resolves with it once its output matches `ready`. */
function started(
  command: string,
  args: string[],
  ready: RegExp,
): Promise<{ child: ChildProcess; output: () => string; match: RegExpExecArray }> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${command} did not start: ${output}`)),
      60_000,
    );
    const seen = (chunk: Buffer) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, output: () => output, match });
      }
    };
    child.stdout!.on("data", seen);
    child.stderr!.on("data", seen);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}: ${output}`));
    });
  });
}

async function api(base: string, key: string, method: string, path: string, headers = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body:
      method === "POST" && path === "/api/v1/timers"
        ? JSON.stringify({ name: "Launch", type: "fixed", deadline_at: "2099-01-01T00:00:00Z" })
        : undefined,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

/** GETs `path` on the agent's server; the status, type, and whether the body is a whole GIF. */
function open(agent: Agent, port: number, path: string) {
  return new Promise<{ status: number; gif: boolean; cache: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          gif:
            res.headers["content-type"] === "image/gif" &&
            body.subarray(0, 6).toString("latin1") === "GIF89a" &&
            body.length === Number(res.headers["content-length"]),
          cache: String(res.headers["x-cache"]),
        });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe.skipIf(missing !== null)("examples/nginx-cdn: nginx in front of tminus", () => {
  it("20,000 opens of one timer in 10 s reach tminus at most twice per second per look and size", async () => {
    const serve = await started(
      process.execPath,
      [
        cli,
        "serve",
        "--db",
        join(dir, "tminus.db"),
        "--port",
        "0",
        "--no-worker",
        "--shared-cache-seconds",
        "1",
        "--log-format",
        "json",
      ],
      /"event":"listening","url":"(http:\/\/[^"]+)"/,
    );
    const origin = serve.match[1]!;
    // With JSON logs the first start's secrets are in a 0600 file whose path is logged.
    const keysFile = /"keys_file":"([^"]+)"/.exec(serve.output())![1]!;
    const key = /production\s+(\S+)/.exec(readFileSync(keysFile, "utf8"))![1]!;
    const created = await api(origin, key, "POST", "/api/v1/timers", { "idempotency-key": "one" });
    await api(origin, key, "POST", `/api/v1/timers/${created.id}/publish`, {
      "if-match": created.revision,
    });

    // The example as shipped, on this test's ports; workers of a root nginx run as root here
    // (the folders are the test's own).
    const port = await freePort();
    const upstreamPort = new URL(origin).port;
    const config = conf
      .replace("server 127.0.0.1:8787;", `server 127.0.0.1:${upstreamPort};`)
      .replace("listen 8080;", `listen 127.0.0.1:${port};`);
    expect(config).not.toBe(conf);
    writeFileSync(join(dir, "nginx.conf"), config);
    for (const sub of ["cache", "temp"]) mkdirSync(join(dir, sub));
    chmodSync(dir, 0o755);
    const globals = process.getuid?.() === 0 ? "daemon off; user root;" : "daemon off;";
    const nginx = spawn("nginx", ["-p", dir, "-c", "nginx.conf", "-e", "stderr", "-g", globals], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    children.push(nginx);
    for (let i = 0; ; i++) {
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (i > 100) throw new Error("nginx did not answer");
      await new Promise((r) => setTimeout(r, 100));
    }

    // Two looks and sizes of the same timer, half the opens each, paced at 2,000 per second.
    const urls = [
      `/t/${created.id}/countdown.gif`,
      `/t/${created.id}/countdown.gif?width=300&variant=dark&utm_source=mail`,
    ];
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
    // The first image of a look and size draws its glyph atlas, seconds on a busy machine:
    // longer than nginx holds the other opens back (proxy_cache_lock_timeout, 5 s), after which
    // they all go through. Asked once each before the send, as a test send would.
    for (const path of urls) expect((await open(agent, port, path)).status).toBe(200);
    // Their lines written out (nginx at once, tminus within 200 ms) before the send is counted.
    await new Promise((r) => setTimeout(r, 1000));
    const logFrom = readFileSync(join(dir, "access.log"), "utf8").length;
    const linesBefore = serve.output().split("\n").length;
    const results: Awaited<ReturnType<typeof open>>[] = [];
    const begin = Date.now();
    let sent = 0;
    let inFlight = 0;
    await new Promise<void>((resolve, reject) => {
      const pump = () => {
        const due = Math.min(OPENS, Math.ceil(((Date.now() - begin) / 1000 / SECONDS) * OPENS));
        while (sent < due && inFlight < IN_FLIGHT) {
          const path = urls[sent % urls.length]!;
          sent++;
          inFlight++;
          open(agent, port, path).then((r) => {
            results.push(r);
            inFlight--;
            if (results.length === OPENS) resolve();
            else pump();
          }, reject);
        }
        if (sent < OPENS) setTimeout(pump, 5);
      };
      pump();
    });
    const took = (Date.now() - begin) / 1000;
    agent.destroy();

    expect(results).toHaveLength(OPENS);
    expect(results.filter((r) => r.status !== 200 || !r.gif)).toEqual([]);

    // nginx's log: which opens it passed to tminus, by URL and second.
    const log = readFileSync(join(dir, "access.log"), "utf8").slice(logFrom).trim().split("\n");
    const passed = new Map<string, number>();
    let reached = 0;
    for (const line of log) {
      const m = /^(\d+)\.\d+ (\S+) "([^"]*)" (\d+) "([^"]*)"$/.exec(line)!;
      if (!m[5]!.includes("countdown.gif")) continue;
      if (m[3] === "-" || m[3] === "") continue;
      reached++;
      const bucket = `${m[5]} @${m[1]}`;
      passed.set(bucket, (passed.get(bucket) ?? 0) + 1);
    }
    const busiest = Math.max(...passed.values());
    // tminus's own request lines for the image route, written as it answered.
    await new Promise((r) => setTimeout(r, 300));
    const lines = serve
      .output()
      .split("\n")
      .slice(linesBefore - 1)
      .filter((l) => l.includes('"route":"/t/{timer_id}/countdown.gif"'));
    const perSecond = new Map<number, number>();
    for (const l of lines) {
      const second = Math.floor(JSON.parse(l).time / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    console.log(
      `nginx-cdn: ${OPENS} opens in ${took.toFixed(1)} s, ${reached} reached tminus ` +
        `(nginx's log; tminus logged ${lines.length}), busiest URL-second ${busiest}, ` +
        `busiest tminus second ${Math.max(...perSecond.values())}, ` +
        `HIT ${results.filter((r) => r.cache === "HIT").length}, ` +
        `UPDATING ${results.filter((r) => r.cache === "UPDATING").length}; busiest: ` +
        [...passed]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 3)
          .map(([k, n]) => `${n} ${k}`)
          .join(", "),
    );
    expect(lines.length).toBe(reached);
    expect(busiest).toBeLessThanOrEqual(2);
    for (const n of perSecond.values()) expect(n).toBeLessThanOrEqual(2 * urls.length);
    expect(reached).toBeLessThanOrEqual(2 * urls.length * (Math.ceil(took) + 1));
    // The cache answered nearly everything: fresh copies (HIT), and the expiring copy while one
    // request fetched the next second's (UPDATING).
    const cached = results.filter((r) => r.cache === "HIT" || r.cache === "UPDATING").length;
    expect(cached).toBeGreaterThan(OPENS * 0.95);
  }, 180_000);
});
