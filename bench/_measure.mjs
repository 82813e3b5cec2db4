// Shared by the server benches (hot-path-ab.mjs, status-floor.mjs, creates-floor.mjs): start a
// server process, read its CPU time, and price one load by the server's CPU per request.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

/** The median of a list of numbers. */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** An autocannon run, as a promise. */
export const load = (opts) =>
  new Promise((ok, fail) => autocannon(opts, (e, r) => (e ? fail(e) : ok(r))));

/**
 * A Node process (`args` after the executable), resolved once it prints where it listens.
 * What it writes after that (a request line per request) is read and dropped, never kept: kept,
 * it would grow without end and cost this process, the load generator, CPU beside the server.
 */
export function startListening(args) {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((ok, fail) => {
    let out = "";
    let listening = false;
    child.stdout.on("data", (c) => {
      if (listening) return;
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        listening = true;
        ok({ child, url: m[1] });
      }
    });
    child.once("exit", (code) => fail(new Error(`server exited ${code}: ${out}`)));
  });
}

/** CPU time (user + system, all threads) of a process so far, in µs (Linux). */
export function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
}

/**
 * The server's CPU per request over one autocannon load, less what it spends idle (its timers,
 * the webhook worker's polls, render threads), measured for a second just before at the same
 * rate for the load's length; and the load's requests per second. Any non-2xx answer throws.
 */
export async function measured(pid, opts) {
  const idleFrom = cpuMicros(pid);
  const idleStart = performance.now();
  await new Promise((ok) => setTimeout(ok, 1000));
  const idleRate = (cpuMicros(pid) - idleFrom) / (performance.now() - idleStart);
  const before = cpuMicros(pid);
  const started = performance.now();
  const result = await load(opts);
  const used = cpuMicros(pid) - before - idleRate * (performance.now() - started);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${opts.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rate: result.requests.average, cpu: used / result.requests.total };
}
