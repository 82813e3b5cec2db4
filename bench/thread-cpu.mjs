// Benchmark: the CPU one thread spends on the same images, on the caller's thread and in a
// render thread (issue 29: a warm pool of 1 ran at 0.73 of a warm renderer on the caller's
// thread, and its thread spent 20 to 60% more CPU on the same 3,000 images).
//
// The same IMAGES distinct GIFs as render-batch.mjs's ratio part (600x160, 60 frames, every
// deadline its own), rendered ROUNDS times after one untimed warm pass, by:
//   main    a warm createImageRenderer() on this thread, one image after another
//   detached  the same, after detaching one ArrayBuffer (as transferring a result does), which
//           invalidates a V8 protector for typed arrays in this thread: it changed nothing
//   worker  the same loop inside a plain worker thread (no message per image: the thread's
//           own rendering, nothing of the pool's)
//   many    renderMany(jobs, { pool }) on that pool, as render-batch.mjs times it
//   pool    a warm createRenderPool({ threads: 1 }), every image sent to it (what renderMany
//           does with a pool), NICE its niceness (default 10, as the pool's)
// The figure is the rendering thread's own CPU time (utime + stime of /proc/thread-self/stat,
// or of the pool's busiest thread from /proc/self/task/*/stat), which a shared machine
// changes far less than wall time, and its context switches: "waits" (it slept) and
// "preempted" (the kernel took its core; in `pool`, twice per message of the thread before
// replies were batched: bench/README.md, "The render thread's extra CPU"). Under
// `chrt -f 1` no other process preempts it: a quiet machine for a process of two busy threads.
// Run under `node --cpu-prof --cpu-prof-dir DIR` for one profile per thread (the plain worker
// included; a pool's thread only if `threadExecArgv` in pool-threads.ts lets the flag through).
//
//   npx -y pnpm@10 build && node bench/thread-cpu.mjs [--modes main,detached,worker,pool,many]
//        [--images 3000] [--rounds 5] [--nice 10] [--concurrency 4] [--render DIST] [--json]
import { readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { isMainThread, parentPort, Worker, workerData } from "node:worker_threads";

// `--render DIR` (A/B): another build of packages/render/dist, copied aside.
const renderArg = process.argv.indexOf("--render");
const render =
  !isMainThread && workerData.render
    ? workerData.render
    : renderArg > 0
      ? pathToFileURL(`${process.argv[renderArg + 1]}/index.js`).href
      : new URL("../packages/render/dist/index.js", import.meta.url).href;
const NOW = Date.parse("2026-11-25T10:00:00Z");
const deadlineOf = (i) => NOW + 86_400_000 + i * 3_661_000;
const inputOf = (i) => ({ remainingSeconds: Math.ceil((deadlineOf(i) - NOW) / 1000) });
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * One thread's counters from /proc (Linux): CPU ms (utime + stime, clock ticks of 10 ms), of
 * which system ms, and its context switches: voluntary (it waited) and not (it was preempted).
 */
function snapshot(dir) {
  const stat = readFileSync(`${dir}/stat`, "utf8")
    .replace(/^.*\) /, "")
    .split(" ");
  const status = readFileSync(`${dir}/status`, "utf8");
  const count = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return {
    cpu: (Number(stat[11]) + Number(stat[12])) * 10,
    sys: Number(stat[12]) * 10,
    waits: count("voluntary_ctxt_switches"),
    preempted: count("nonvoluntary_ctxt_switches"),
  };
}
const minus = (a, b) => ({
  cpu: a.cpu - b.cpu,
  sys: a.sys - b.sys,
  waits: a.waits - b.waits,
  preempted: a.preempted - b.preempted,
});
function tasks() {
  const out = new Map();
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      out.set(tid, snapshot(`/proc/self/task/${tid}`));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

/** Warm pass, then `rounds` timed passes over the images on this thread: CPU and wall ms each. */
async function loop(images, rounds, detach) {
  if (detach) {
    // What a thread that transfers its results does once: detach an ArrayBuffer.
    const b = new ArrayBuffer(8);
    structuredClone(b, { transfer: [b] });
  }
  const { createImageRenderer } = await import(render);
  const renderer = createImageRenderer();
  for (let i = 0; i < images; i++) await renderer.gif(inputOf(i));
  const out = [];
  for (let k = 0; k < rounds; k++) {
    const before = snapshot("/proc/thread-self");
    const t = performance.now();
    for (let i = 0; i < images; i++) await renderer.gif(inputOf(i));
    out.push({ ...minus(snapshot("/proc/thread-self"), before), wall: performance.now() - t });
  }
  return out;
}

if (!isMainThread) {
  parentPort.postMessage(await loop(workerData.images, workerData.rounds, workerData.detach));
} else {
  const { values } = parseArgs({
    options: {
      modes: { type: "string", default: "main,worker,pool,many" },
      images: { type: "string", default: "3000" },
      rounds: { type: "string", default: "5" },
      nice: { type: "string", default: "10" },
      concurrency: { type: "string", default: "4" },
      render: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const images = Number(values.images);
  const rounds = Number(values.rounds);
  const results = { load_start: loadavg().map((x) => Math.round(x * 100) / 100) };

  for (const mode of values.modes.split(",")) {
    if (mode === "main") results.main = await loop(images, rounds, false);
    else if (mode === "detached") results.detached = await loop(images, rounds, true);
    else if (mode === "worker") {
      const worker = new Worker(new URL(import.meta.url), {
        workerData: { images, rounds, render },
      });
      results.worker = await new Promise((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
      });
      await worker.terminate();
    } else if (mode === "pool" || mode === "many") {
      const { createRenderPool, renderMany } = await import(render);
      const pool = createRenderPool({ threads: 1, niceness: Number(values.nice), maxQueue: 64 });
      await pool.ready;
      const jobs = Array.from({ length: images }, (_, i) => ({ deadline: deadlineOf(i) }));
      const pass =
        mode === "many"
          ? // What render-batch.mjs times as "a warm pool of 1".
            async () => {
              for await (const x of renderMany(jobs, { now: NOW, pool })) if (!x.ok) throw x.error;
            }
          : async () => {
              // A few in flight, as renderMany keeps: the thread never waits for the next.
              let next = 0;
              const lane = async () => {
                while (next < images) await pool.renderGif(inputOf(next++));
              };
              await Promise.all(Array.from({ length: Number(values.concurrency) }, lane));
            };
      await pass();
      const out = [];
      for (let k = 0; k < rounds; k++) {
        const before = tasks();
        const t = performance.now();
        await pass();
        const wall = performance.now() - t;
        const after = tasks();
        const deltas = [...after].map(([tid, x]) => ({
          tid,
          ...minus(x, before.get(tid) ?? { cpu: 0, sys: 0, waits: 0, preempted: 0 }),
        }));
        deltas.sort((x, y) => y.cpu - x.cpu);
        const caller = deltas.find((d) => Number(d.tid) === process.pid);
        const thread = deltas.find((d) => Number(d.tid) !== process.pid);
        out.push({ ...thread, wall, caller: caller.cpu, callerWaits: caller.waits });
      }
      await pool.close();
      results[mode] = out;
    }
  }
  results.load_end = loadavg().map((x) => Math.round(x * 100) / 100);
  if (values.json) console.log(JSON.stringify(results, null, 2));
  else {
    console.log(`${images} images, ${rounds} rounds; load ${results.load_start.join(" ")}`);
    for (const mode of ["main", "detached", "worker", "pool", "many"]) {
      const rs = results[mode];
      if (!rs) continue;
      const m = (k) => median(rs.map((x) => x[k]));
      console.log(
        `${mode.padEnd(6)} thread CPU median ${m("cpu")} ms (${rs.map((x) => x.cpu).join(" / ")}; system ${m("sys")}), waits ${m("waits")}, preempted ${m("preempted")}, wall median ${Math.round(m("wall"))} ms${rs[0].caller === undefined ? "" : `; caller's thread CPU ${m("caller")} ms, waits ${m("callerWaits")}`}`,
      );
    }
    console.log(`load at the end ${results.load_end.join(" ")}`);
  }
}
