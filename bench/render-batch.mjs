// Benchmark: rendering at campaign scale, in two parts, with the machine's load printed next
// to every figure (the machine may be shared).
//
// 1. `tminus render --batch rows.csv --out-tar -` of ROWS personalized GIFs (every row its
//    own deadline: 1 day and i x 1 h 1 min 1 s away, so every image differs), the real bin in
//    a child process, its tar stream read by this process as it comes (counted, then
//    dropped: an uploader at the end of a pipe), ROUNDS rounds: wall seconds (process start
//    included), images/s, peak RSS (VmHWM, all threads), CPU seconds. `--out dir` writes
//    the files to a folder instead (removed after each round), `--out null` the tar to
//    /dev/null (no reader beside the batch: the reader took 0.8 s of CPU for 3,000 images
//    under load, about a quarter of a millisecond an image).
// 2. renderMany against the caller's thread alone (`threads: 0`), IMAGES images a round,
//    order alternating: a warm pool of 1 (and, on more cores, up to cores - 1) threads
//    (steady state: started and warmed before the clock), the default (`renderMany(jobs)`:
//    threads from the idle cores, the caller's thread too), and the old default (a pool of
//    min(4, cores) threads made for the call, the caller's thread idle). Ratios are medians
//    of the per-round ratios (caller alone ms / other ms); the target for a pool of N threads
//    on a machine with N + 1 idle cores is 0.9 x N. A warm pool is also set against a warm
//    renderer on the caller's thread (`createImageRenderer()` kept across rounds), since
//    renderMany's own renderer starts cold each call (its atlas and frame cache).
//
//   npx -y pnpm@10 build && node bench/render-batch.mjs [--rows 100000] [--rounds 3]
//        [--images 3000] [--ratio-rounds 5] [--frames 60] [--width 600] [--height H]
//        [--threads N (the CLI's --threads)] [--out tar|dir|null] [--skip-batch] [--skip-ratio] [--json]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "100000" },
    rounds: { type: "string", default: "3" },
    images: { type: "string", default: "3000" },
    "ratio-rounds": { type: "string", default: "5" },
    frames: { type: "string" },
    width: { type: "string" },
    height: { type: "string" },
    threads: { type: "string" },
    out: { type: "string", default: "tar" },
    "skip-batch": { type: "boolean", default: false },
    "skip-ratio": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
  },
});
const ROWS = Number(values.rows);
const ROUNDS = Number(values.rounds);
const IMAGES = Number(values.images);
const RATIO_ROUNDS = Number(values["ratio-rounds"]);
const cli = fileURLToPath(new URL("../packages/cli/dist/cli.js", import.meta.url));
const NOW = Date.parse("2026-11-25T10:00:00Z");
const deadlineOf = (i) => NOW + 86_400_000 + i * 3_661_000;
const sizeFlags = ["frames", "width", "height", "threads"].flatMap((k) =>
  values[k] === undefined ? [] : [`--${k}`, values[k]],
);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const r = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const load = () => loadavg().map((x) => r(x, 1));
const uptime = () => {
  try {
    return execFileSync("uptime", { encoding: "utf8" }).trim();
  } catch {
    return `load average ${load().join(", ")}`;
  }
};
const log = (line) => {
  if (!values.json) console.log(line);
};

const work = mkdtempSync(join(tmpdir(), "tminus-batch-bench-"));
const summary = {
  cpus: `${cpus().length} x ${cpus()[0]?.model ?? "?"}`,
  available_parallelism: availableParallelism(),
  node: process.version,
  uptime_start: uptime(),
};

/** /proc/PID/status fields in kB (Linux), or null. */
function procStatus(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0);
    // utime and stime (fields 14 and 15) in clock ticks, all threads; 100 a second on Linux.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
      .replace(/^.*\) /, "")
      .split(" ");
    const cpuS = (Number(stat[11]) + Number(stat[12])) / 100;
    return { hwm: kb("VmHWM"), rss: kb("VmRSS"), cpuS };
  } catch {
    return null;
  }
}

/** One `tminus render --batch` child: wall ms, peak RSS MB, CPU s, images counted. */
function batchRound(csv, round) {
  const dir = join(work, `out-${round}`);
  // `--out null`: the tar to /dev/null, no reader process beside the batch.
  const target =
    values.out === "dir"
      ? ["--out-dir", dir]
      : values.out === "null"
        ? ["--out-tar", "/dev/null"]
        : ["--out-tar", "-"];
  const args = [cli, "render", "--batch", csv, ...target, "--now", new Date(NOW).toISOString()];
  args.push(...sizeFlags);
  return new Promise((resolve, reject) => {
    const t = performance.now();
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let bytes = 0;
    let stderr = "";
    let stdout = "";
    let peakKb = 0;
    let cpuS = 0;
    let last = 0;
    child.stdout.on("data", (c) => {
      bytes += c.length;
      if (values.out !== "tar") stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    // VmHWM is the process's peak resident set; read often, the last reading before exit is it.
    const sample = setInterval(() => {
      const s = procStatus(child.pid);
      if (s) peakKb = Math.max(peakKb, s.hwm, s.rss);
      if (s) cpuS = s.cpuS;
      const done = performance.now() - t;
      if (!values.json && done - last > 30_000) {
        last = done;
        process.stdout.write(
          `  ... ${r(done / 1000, 0)} s, RSS ${r(s?.rss / 1024 ?? 0, 0)} MB, load ${load()[0]}\n`,
        );
      }
    }, 100);
    child.on("close", (code) => {
      clearInterval(sample);
      const ms = performance.now() - t;
      rmSync(dir, { recursive: true, force: true });
      const line = (values.out === "tar" ? stderr : stdout).trim().split("\n").pop();
      if (code !== 0) return reject(new Error(`--batch exit ${code}: ${stderr.slice(-500)}`));
      const written = Number(/^wrote (\d+) images/.exec(line)?.[1]);
      if (written !== ROWS) return reject(new Error(`--batch wrote ${written}: ${line}`));
      resolve({ ms, peakMb: peakKb / 1024, cpuS, tarBytes: bytes, summary: line, load: load() });
    });
  });
}

try {
  log(
    `${summary.cpus}, availableParallelism ${summary.available_parallelism}, Node ${summary.node}`,
  );
  log(`uptime at the start: ${summary.uptime_start}`);
  if (!values["skip-batch"]) {
    const csv = join(work, "rows.csv");
    // Written in pieces: a million rows are 45 MB of text.
    writeFileSync(csv, "id,deadline\n");
    const piece = 50_000;
    for (let from = 0; from < ROWS; from += piece) {
      let text = "";
      for (let i = from; i < Math.min(ROWS, from + piece); i++)
        text += `r${i},${new Date(deadlineOf(i)).toISOString()}\n`;
      writeFileSync(csv, text, { flag: "a" });
    }
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) {
      const cpuBefore = process.resourceUsage();
      const result = await batchRound(csv, i);
      const cpuAfter = process.resourceUsage();
      // Children's CPU is not in resourceUsage; /usr/bin/time would have it. Ours is the reader.
      result.readerCpuS = r(
        (cpuAfter.userCPUTime +
          cpuAfter.systemCPUTime -
          cpuBefore.userCPUTime -
          cpuBefore.systemCPUTime) /
          1e6,
        2,
      );
      rounds.push(result);
      log(
        `batch round ${i + 1}: ${r(result.ms / 1000, 1)} s, ${r((ROWS * 1000) / result.ms, 0)} images/s, peak RSS ${r(result.peakMb, 0)} MB, CPU ${r(result.cpuS, 0)} s (last reading), load ${result.load.join(" ")}  (${result.summary})`,
      );
    }
    const ms = median(rounds.map((x) => x.ms));
    summary.batch = {
      rows: ROWS,
      output:
        values.out === "dir"
          ? "--out-dir (files)"
          : values.out === "null"
            ? "--out-tar /dev/null"
            : "--out-tar - (read and dropped by the bench)",
      image: `${values.width ?? 600}x${values.height ?? "160"}, ${values.frames ?? 60} frames`,
      rounds: ROUNDS,
      seconds: r(ms / 1000, 1),
      images_per_s: r((ROWS * 1000) / ms, 0),
      peak_rss_mb: r(Math.max(...rounds.map((x) => x.peakMb)), 0),
      tar_mb: r(rounds[0].tarBytes / 1e6, 0),
      // CPU of all the batch's threads per image (the last /proc reading, within 0.1 s of the
      // end): what a busy machine changes least.
      cpu_ms_per_image: r((median(rounds.map((x) => x.cpuS)) * 1000) / ROWS, 3),
      reader_cpu_s: r(median(rounds.map((x) => x.readerCpuS)), 2),
      per_round: rounds.map((x) => ({
        seconds: r(x.ms / 1000, 1),
        peak_rss_mb: r(x.peakMb, 0),
        cpu_s: r(x.cpuS, 1),
        reader_cpu_s: x.readerCpuS,
        load_after: x.load,
      })),
      target_45s: ms <= 45_000 ? "met" : "NOT met",
      target_300mb: Math.max(...rounds.map((x) => x.peakMb)) <= 300 ? "met" : "NOT met",
    };
  }
  if (!values["skip-ratio"]) summary.ratio = await ratio();
  summary.uptime_end = uptime();
  if (values.json) console.log(JSON.stringify(summary, null, 2));
  else {
    if (summary.batch) {
      const b = summary.batch;
      console.log(`
tminus render --batch, ${b.rows} rows, ${b.image}, ${b.output}; ${b.rounds} rounds, median
  ${b.seconds} s   ${b.images_per_s} images/s   peak RSS ${b.peak_rss_mb} MB (highest round)   archive ${b.tar_mb} MB
  CPU ${b.cpu_ms_per_image} ms an image (all the batch's threads; the bench's reader ${b.reader_cpu_s} s a round)
  target <= 45 s: ${b.target_45s}; peak RSS <= 300 MB: ${b.target_300mb}`);
    }
    if (summary.ratio) {
      const q = summary.ratio;
      console.log(`
renderMany, ${q.images} images a round, ${q.rounds} rounds (medians; ratio = caller alone ms / ms)
  caller's thread alone (threads: 0)   ${q.caller_ms} ms   ${q.caller_per_s} images/s (a fresh renderer each run, as renderMany makes)
  caller's thread, warm renderer       ${q.warm_ms} ms   (createImageRenderer() kept across runs: the fair baseline for a warm pool)`);
      for (const p of q.pools)
        console.log(
          `  warm pool of ${p.threads}                      ${p.ms} ms   ratio ${p.ratio}, to the warm renderer ${p.ratio_to_warm} (target ${r(0.9 * p.threads, 2)} with ${p.threads + 1} idle cores)`,
        );
      console.log(`  default renderMany(jobs)            ${q.default_ms} ms   ratio ${q.default_ratio} (threads it chose at the start: ${q.default_threads})
  old default (own pool of ${q.old_threads}, caller idle)  ${q.old_ms} ms   ratio ${q.old_ratio}
  pool start: ready after ${q.pool_ready_ms} ms (1 thread, warm)`);
    }
    console.log(`\nuptime at the end: ${summary.uptime_end}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}

async function ratio() {
  const { createImageRenderer, createRenderPool, measureThreads, renderMany } = await import(
    "../packages/render/dist/index.js"
  );
  const jobs = Array.from({ length: IMAGES }, (_, i) => ({ deadline: deadlineOf(i) }));
  const run = async (options) => {
    const t = performance.now();
    let n = 0;
    for await (const x of renderMany(jobs, { now: NOW, ...options })) if (x.ok) n++;
    if (n !== IMAGES) throw new Error(`renderMany: ${IMAGES - n} failed`);
    return performance.now() - t;
  };
  // Untimed: this thread's modules and atlas, as after any first image. The warm renderer is
  // the fair baseline for a warm pool (its atlas built, its frame cache filled by one pass).
  const warm = createImageRenderer();
  const sequential = async () => {
    const t = performance.now();
    for (const job of jobs)
      await warm.gif({ remainingSeconds: Math.ceil((job.deadline - NOW) / 1000) });
    return performance.now() - t;
  };
  await sequential();
  const t = performance.now();
  const probe = createRenderPool({ threads: 1 });
  await probe.ready;
  const poolReadyMs = performance.now() - t;
  await probe.close();
  const sizes = [1];
  for (let n = 2; n <= Math.min(4, availableParallelism() - 1); n++) sizes.push(n);
  const pools = new Map();
  for (const n of sizes) {
    const pool = createRenderPool({ threads: n, maxQueue: 64 });
    await pool.ready;
    // Warm the atlas and frame cache of every thread.
    await run({ pool, concurrency: 16 }).catch(() => undefined);
    pools.set(n, pool);
  }
  const oldThreads = Math.max(1, Math.min(4, availableParallelism()));
  const rounds = [];
  const chosen = [];
  for (let i = 0; i < RATIO_ROUNDS; i++) {
    const one = {};
    const order = ["caller", "warm", ...sizes.map((n) => `pool${n}`), "default", "old"];
    if (i % 2) order.reverse();
    for (const what of order) {
      if (what === "caller") one.caller = await run({ threads: 0 });
      else if (what === "warm") one.warm = await sequential();
      else if (what === "default") {
        // What the default decides from: the machine over its first 150 ms (measured here just
        // before, the same way, since renderMany does not report it).
        chosen.push(await measureThreads(true));
        one.default = await run({});
      } else if (what === "old") one.old = await run({ threads: oldThreads, callerThread: false });
      else one[what] = await run({ pool: pools.get(Number(what.slice(4))) });
    }
    rounds.push(one);
    log(
      `ratio round ${i + 1}: caller ${r(one.caller, 0)} ms, warm caller ${r(one.warm, 0)} ms, ${sizes.map((n) => `pool ${n} ${r(one[`pool${n}`], 0)} ms`).join(", ")}, default ${r(one.default, 0)} ms, old default ${r(one.old, 0)} ms (load ${load()[0]})`,
    );
  }
  for (const pool of pools.values()) await pool.close();
  const callerMs = median(rounds.map((x) => x.caller));
  return {
    images: IMAGES,
    rounds: RATIO_ROUNDS,
    caller_ms: r(callerMs, 0),
    caller_per_s: r((IMAGES * 1000) / callerMs, 0),
    warm_ms: r(median(rounds.map((x) => x.warm)), 0),
    pools: sizes.map((n) => ({
      threads: n,
      ms: r(median(rounds.map((x) => x[`pool${n}`])), 0),
      ratio: r(median(rounds.map((x) => x.caller / x[`pool${n}`])), 2),
      ratio_to_warm: r(median(rounds.map((x) => x.warm / x[`pool${n}`])), 2),
    })),
    default_ms: r(median(rounds.map((x) => x.default)), 0),
    default_ratio: r(median(rounds.map((x) => x.caller / x.default)), 2),
    default_threads: chosen.join(","),
    old_threads: oldThreads,
    old_ms: r(median(rounds.map((x) => x.old)), 0),
    old_ratio: r(median(rounds.map((x) => x.caller / x.old)), 2),
    pool_ready_ms: r(poolReadyMs, 0),
  };
}
