// Real `tminus` processes for the multi-process tests: the built binary, started and stopped
// by pid, on one PostgreSQL database per test file.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe } from "vitest";
import { createTestDatabase, PG_URL, pgServerReason } from "../../store/test/_postgres";

export { createTestDatabase, PG_URL };

/** The built binary, exactly what `npx tminus` runs. */
export const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const run = promisify(execFile);

/**
 * `describe`, or `describe.skip` with a loud message when no PostgreSQL server answers. Under
 * `CI=true` a missing server fails the file instead: these tests never skip themselves in CI.
 */
export async function describeWithPostgres(): Promise<typeof describe | typeof describe.skip> {
  const missing = await pgServerReason();
  if (missing && process.env.CI === "true") throw new Error(`CI needs PostgreSQL: ${missing}`);
  return missing ? describe.skip : describe;
}

/** Runs one CLI command to its end. */
export async function tminus(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A started process and everything it printed so far. */
export interface Started {
  child: ChildProcess;
  output: () => string;
  /** `serve` only: the URL it listens on. */
  url: string;
}

const children = new Set<ChildProcess>();

/** Starts `tminus <args>` and resolves when its output matches `ready`. */
function start(args: string[], ready: RegExp, timeoutMs = 30_000): Promise<Started> {
  const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.once("exit", () => children.delete(child));
  let output = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`tminus ${args[0]} did not start in time: ${output}`)),
      timeoutMs,
    );
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const m = ready.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ child, output: () => output, url: m[1] ?? "" });
      }
    });
    child.stderr!.on("data", (chunk) => {
      output += chunk;
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`tminus ${args[0]} exited with ${code}: ${output}`));
    });
  });
}

const keysFiles = new Set<string>();

/**
 * `tminus serve --port 0 <args>`. Its first-start secrets go to a file of its own in the
 * temporary folder (`keysFile`) unless `args` name one: on PostgreSQL the default is the
 * current folder, which would be the repository's.
 */
export function serve(args: string[]): Promise<Started & { keysFile: string }> {
  let keysFile = args[args.indexOf("--keys-file") + 1] ?? "";
  if (!args.includes("--keys-file")) {
    keysFile = join(tmpdir(), `tminus-keys-${randomUUID()}.txt`);
    keysFiles.add(keysFile);
    args = [...args, "--keys-file", keysFile];
  }
  return start(["serve", "--port", "0", ...args], /listening on (http:\/\/\S+)/).then(
    (started) => ({ ...started, keysFile }),
  );
}

/** The sandbox and production secrets a first start wrote to its keys file. */
export function firstStartSecrets(keysFile: string): { sandbox: string; production: string } {
  const text = readFileSync(keysFile, "utf8");
  return {
    sandbox: /sandbox\s+(svc_test_\w+)/.exec(text)![1]!,
    production: /production\s+(svc_live_\w+)/.exec(text)![1]!,
  };
}

/** `tminus worker <args>`. */
export function worker(args: string[]): Promise<Started> {
  return start(["worker", ...args], /worker running/);
}

/** SIGTERM (graceful) or SIGKILL, and waits for the exit. */
export async function stop(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  child.kill(signal);
  await exited;
}

/** Kills every process this file started that is still running (afterAll). */
export async function stopAll(): Promise<void> {
  await Promise.all([...children].map((child) => stop(child, "SIGKILL")));
  for (const file of keysFiles) rmSync(file, { force: true });
  keysFiles.clear();
}

/** A key issued with `tminus keys create --json`. */
export interface IssuedKey {
  id: string;
  prefix: string;
  secret: string;
  account: string;
}

/** Issues a production key for `account` through the CLI, on the test's database. */
export async function issueKey(
  db: string,
  config: string,
  account: string,
  plan?: string,
): Promise<IssuedKey> {
  const args = ["keys", "create", "--env", "production", "--account", account, "--json"];
  if (plan) args.push("--plan", plan);
  const res = await tminus([...args, "--db", db, "--config", config]);
  if (res.code !== 0) throw new Error(`keys create: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

/** One HTTP answer, its body read. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked field by field in tests.
  json: any;
}

/** A request to `/api/v1` with a key. */
export async function api(
  base: string,
  key: IssuedKey | string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const secret = typeof key === "string" ? key : key.secret;
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      ...(options.body !== undefined ? { "content-type": "application/json" } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: the test looks at `text`
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Tallies answers by `status code` (e.g. `201`, `429 quota_exhausted`). */
export function tally(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const label = a.status >= 400 ? `${a.status} ${a.json?.error?.code}` : String(a.status);
    out[label] = (out[label] ?? 0) + 1;
  }
  return out;
}

/** Every item of a list route, following `next_cursor`. */
// biome-ignore lint/suspicious/noExplicitAny: list items are checked field by field in tests.
export async function listAll(base: string, key: IssuedKey, path: string): Promise<any[]> {
  const out: unknown[] = [];
  let cursor: string | null = null;
  const sep = path.includes("?") ? "&" : "?";
  do {
    const query = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const res = await api(base, key, "GET", `${path}${sep}limit=100${query}`);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.text}`);
    out.push(...res.json.data);
    cursor = res.json.page.next_cursor;
  } while (cursor);
  // biome-ignore lint/suspicious/noExplicitAny: see above
  return out as any[];
}

/** A fixed timer body. */
export const TIMER = { name: "Launch", type: "fixed", deadline_at: "2031-01-01T00:00:00Z" };

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 50 ms until it returns true, or fails after `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
