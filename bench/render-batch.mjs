// Benchmark: a build step that renders one email GIF per recipient. 1,000 personalized
// 600x160 60-frame GIFs (every recipient its own deadline, so every image differs), in one
// run, several rounds, alternating the order:
//
// 1. renderMany (@tminus/render): a pool of render threads made for the call (its start
//    included), at most 16 jobs in flight, results taken in input order; bytes summed.
//    Twice: the pool alone (the library's default), and with `callerThread: true` (the
//    caller's thread renders too, while the threads start and beside them; --batch over 2,000
//    rows), and `threads: 0` (no pool: the caller's thread only; --batch up to 2,000 rows).
// 2. Baseline: the same images one after another on the caller's thread with a fresh
//    createImageRenderer() (the fastest single-threaded way; its atlas built once).
// 3. `tminus render --batch recipients.csv --out-dir DIR`: the real bin in a child process,
//    process start, reading the CSV and writing 1,000 files included.
// 4. Once, for the record: the way the issue started from, a `tminus render` process per
//    image (measured on a few, extrapolated to 1,000).
//
// Images/s and wall times are medians of the rounds; the ratio is the median of the
// per-round ratios (renderMany / baseline). CPU is the process's (all threads) per image.
// The machine is shared: the load average is printed at the start and the end.
//
//   npx -y pnpm@10 build && node bench/render-batch.mjs [--rounds 5] [--images 1000]
//        [--threads N] [--per-process 3] [--json]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    images: { type: "string", default: "1000" },
    threads: { type: "string" },
    "per-process": { type: "string", default: "3" },
    json: { type: "boolean", default: false },
  },
});
const ROUNDS = Number(values.rounds);
const IMAGES = Number(values.images);
const THREADS = values.threads === undefined ? undefined : Number(values.threads);
const PER_PROCESS = Number(values["per-process"]);

const { createImageRenderer, renderMany } = await import("../packages/render/dist/index.js");
const cli = fileURLToPath(new URL("../packages/cli/dist/cli.js", import.meta.url));

const NOW = Date.parse("2026-11-25T10:00:00Z");
const nowIso = new Date(NOW).toISOString();
// Recipient i: a deadline 1 day and i times 1 h 1 min 1 s away: days, hours, minutes and
// seconds all differ from one image to the next.
const deadlineOf = (i) => NOW + 86_400_000 + i * 3_661_000;
const jobs = Array.from({ length: IMAGES }, (_, i) => ({ id: `r${i}`, deadline: deadlineOf(i) }));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
const cpuMs = (since) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

async function viaRenderMany(extra = {}) {
  const cpu = process.cpuUsage();
  const t = performance.now();
  let bytes = 0;
  let failed = 0;
  for await (const r of renderMany(jobs, { now: NOW, threads: THREADS, ...extra })) {
    if (r.ok) bytes += r.bytes.length;
    else failed++;
  }
  if (failed) throw new Error(`renderMany: ${failed} failed`);
  return { ms: performance.now() - t, cpu: cpuMs(cpu), bytes };
}

async function sequential() {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const images = createImageRenderer();
  let bytes = 0;
  for (const job of jobs) {
    const gif = await images.gif({ remainingSeconds: Math.ceil((job.deadline - NOW) / 1000) });
    bytes += gif.length;
  }
  return { ms: performance.now() - t, cpu: cpuMs(cpu), bytes };
}

const work = mkdtempSync(join(tmpdir(), "tminus-batch-bench-"));
const csv = join(work, "recipients.csv");
writeFileSync(
  csv,
  `id,deadline\n${jobs.map((j) => `${j.id},${new Date(j.deadline).toISOString()}`).join("\n")}\n`,
);

function viaCli(round) {
  const out = join(work, `out-${round}`);
  const t = performance.now();
  const stdout = execFileSync(
    process.execPath,
    [cli, "render", "--batch", csv, "--out-dir", out, "--now", nowIso],
    { encoding: "utf8" },
  );
  const ms = performance.now() - t;
  const files = readdirSync(out).length;
  if (files !== IMAGES) throw new Error(`--batch wrote ${files} files: ${stdout}`);
  rmSync(out, { recursive: true, force: true });
  return { ms, summary: stdout.trim() };
}

function perProcess() {
  const times = [];
  for (let i = 0; i < PER_PROCESS; i++) {
    const t = performance.now();
    execFileSync(process.execPath, [
      cli,
      "render",
      "--deadline",
      new Date(deadlineOf(i)).toISOString(),
      "--now",
      nowIso,
      "--out",
      join(work, `one-${i}.gif`),
    ]);
    times.push(performance.now() - t);
  }
  return median(times);
}

const loadStart = loadavg();
const rounds = [];
try {
  // Untimed: the modules (satori, resvg's wasm, fonts) loaded once, as after any first image.
  await createImageRenderer().gif({ remainingSeconds: 100, frames: 2 });
  for (let r = 0; r < ROUNDS; r++) {
    const result = {};
    // Alternate which goes first, so neither always meets the machine's quieter moment.
    const order =
      r % 2
        ? ["sequential", "inline", "beside", "many", "cli"]
        : ["many", "beside", "inline", "sequential", "cli"];
    for (const what of order) {
      if (what === "many") result.many = await viaRenderMany();
      else if (what === "beside") result.beside = await viaRenderMany({ callerThread: true });
      else if (what === "inline") result.inline = await viaRenderMany({ threads: 0 });
      else if (what === "sequential") result.sequential = await sequential();
      else result.cli = viaCli(r);
    }
    rounds.push(result);
    if (!values.json)
      console.log(
        `round ${r + 1}: renderMany ${round(result.many.ms, 0)} ms, with callerThread ${round(result.beside.ms, 0)} ms, threads 0 ${round(result.inline.ms, 0)} ms, sequential ${round(result.sequential.ms, 0)} ms, CLI --batch ${round(result.cli.ms, 0)} ms (load ${loadavg()[0].toFixed(1)})`,
      );
  }
  const oneProcess = perProcess();
  const loadEnd = loadavg();

  const many = median(rounds.map((r) => r.many.ms));
  const beside = median(rounds.map((r) => r.beside.ms));
  const inline = median(rounds.map((r) => r.inline.ms));
  const seq = median(rounds.map((r) => r.sequential.ms));
  const cliMs = median(rounds.map((r) => r.cli.ms));
  const summary = {
    images: IMAGES,
    size: "600x160, 60 frames",
    threads: THREADS ?? Math.max(1, Math.min(4, availableParallelism())),
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? "?"}`,
    node: process.version,
    load_average: {
      start: loadStart.map((x) => round(x, 1)),
      end: loadEnd.map((x) => round(x, 1)),
    },
    rounds: ROUNDS,
    renderMany: {
      ms: round(many, 0),
      images_per_s: round((IMAGES * 1000) / many, 0),
      cpu_ms_per_image: round(median(rounds.map((r) => r.many.cpu)) / IMAGES, 3),
      kb_per_image: round(rounds[0].many.bytes / IMAGES / 1024, 1),
    },
    renderMany_callerThread: {
      ms: round(beside, 0),
      images_per_s: round((IMAGES * 1000) / beside, 0),
      cpu_ms_per_image: round(median(rounds.map((r) => r.beside.cpu)) / IMAGES, 3),
    },
    renderMany_threads_0: {
      ms: round(inline, 0),
      images_per_s: round((IMAGES * 1000) / inline, 0),
      cpu_ms_per_image: round(median(rounds.map((r) => r.inline.cpu)) / IMAGES, 3),
    },
    sequential: {
      ms: round(seq, 0),
      images_per_s: round((IMAGES * 1000) / seq, 0),
      cpu_ms_per_image: round(median(rounds.map((r) => r.sequential.cpu)) / IMAGES, 3),
    },
    cli_batch: { ms: round(cliMs, 0), images_per_s: round((IMAGES * 1000) / cliMs, 0) },
    process_per_image: {
      ms_each: round(oneProcess, 0),
      ms_for_all: round(oneProcess * IMAGES, 0),
    },
    ratio_renderMany_over_sequential: round(
      median(rounds.map((r) => r.sequential.ms / r.many.ms)),
      2,
    ),
    ratio_callerThread_over_sequential: round(
      median(rounds.map((r) => r.sequential.ms / r.beside.ms)),
      2,
    ),
    ratio_threads_0_over_sequential: round(
      median(rounds.map((r) => r.sequential.ms / r.inline.ms)),
      2,
    ),
    ratio_cli_batch_over_process_per_image: round((oneProcess * IMAGES) / cliMs, 0),
    per_round_ms: rounds.map((r) => ({
      renderMany: round(r.many.ms, 0),
      callerThread: round(r.beside.ms, 0),
      threads0: round(r.inline.ms, 0),
      sequential: round(r.sequential.ms, 0),
      cli: round(r.cli.ms, 0),
    })),
  };
  if (values.json) console.log(JSON.stringify(summary, null, 2));
  else {
    const s = summary;
    console.log(`
${IMAGES} personalized ${s.size} GIFs; ${s.cpus}; Node ${s.node}; ${s.rounds} rounds, medians
load average ${s.load_average.start.join(" ")} at the start, ${s.load_average.end.join(" ")} at the end

renderMany (${s.threads} threads)   ${s.renderMany.ms} ms   ${s.renderMany.images_per_s} images/s   CPU ${s.renderMany.cpu_ms_per_image} ms/image   ${s.renderMany.kb_per_image} KB/image
renderMany, callerThread  ${s.renderMany_callerThread.ms} ms   ${s.renderMany_callerThread.images_per_s} images/s   CPU ${s.renderMany_callerThread.cpu_ms_per_image} ms/image   (the caller's thread renders too; --batch over 2,000 rows)
renderMany, threads 0     ${s.renderMany_threads_0.ms} ms   ${s.renderMany_threads_0.images_per_s} images/s   CPU ${s.renderMany_threads_0.cpu_ms_per_image} ms/image   (no pool; --batch up to 2,000 rows)
sequential, in process    ${s.sequential.ms} ms   ${s.sequential.images_per_s} images/s   CPU ${s.sequential.cpu_ms_per_image} ms/image
tminus render --batch     ${s.cli_batch.ms} ms   ${s.cli_batch.images_per_s} images/s   (process start, CSV, 1 file per image)
a process per image       ${s.process_per_image.ms_each} ms each, ${round(s.process_per_image.ms_for_all / 1000, 1)} s for ${IMAGES}

renderMany / sequential: ${s.ratio_renderMany_over_sequential}x   with callerThread: ${s.ratio_callerThread_over_sequential}x   threads 0: ${s.ratio_threads_0_over_sequential}x   --batch / a process per image: ${s.ratio_cli_batch_over_process_per_image}x
target: 1,000 in <= 5 s: renderMany ${s.renderMany.ms <= 5000 ? "met" : "NOT met"}, with callerThread ${s.renderMany_callerThread.ms <= 5000 ? "met" : "NOT met"}, threads 0 ${s.renderMany_threads_0.ms <= 5000 ? "met" : "NOT met"}, --batch ${s.cli_batch.ms <= 5000 ? "met" : "NOT met"}`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
