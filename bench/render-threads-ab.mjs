// renderMany with `threads: N` (issue 40: `threads: 2` on two cores was slower than one thread),
// this tree's build against `--baseline`'s, in one run. Every measurement is a fresh child
// process (renderMany makes its pool per call, so each starts cold, as a build step does)
// rendering IMAGES distinct 600x160 60-frame GIFs (render-batch.mjs's deadlines) with
// `renderMany(jobs, { now, threads })`; the order of the (build, threads) pairs rotates each
// round. Per run: wall ms (images/s) and the child's CPU (all threads: process.cpuUsage()).
// Medians of the rounds; the ratio is `threads: N` images/s over `threads: 1` of the same build.
//
//   npx -y pnpm@10 build && node bench/render-threads-ab.mjs --baseline /work/wt/base
//     [--images 2000] [--rounds 3] [--threads 0,1,2]
import { execFile as execFileCb, execFileSync } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs, promisify } from "node:util";

const execFile = promisify(execFileCb);
const { values } = parseArgs({
  options: {
    baseline: { type: "string" },
    images: { type: "string", default: "2000" },
    rounds: { type: "string", default: "3" },
    threads: { type: "string", default: "0,1,2" },
  },
});
const here = fileURLToPath(new URL("..", import.meta.url));
const builds = { ours: here };
if (values.baseline) builds.base = resolve(values.baseline);
const counts = values.threads.split(",").map(Number);
const IMAGES = Number(values.images);
const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

// The child: one renderMany call, its wall time and CPU (all threads) printed as JSON.
const child = `
const { renderMany } = await import(process.argv[1]);
const threads = Number(process.argv[2]);
const n = Number(process.argv[3]);
const NOW = Date.parse("2026-11-25T10:00:00Z");
const jobs = Array.from({ length: n }, (_, i) => ({ deadline: NOW + 86_400_000 + i * 3_661_000 }));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let ok = 0;
for await (const r of renderMany(jobs, { now: NOW, threads })) if (r.ok) ok++;
const ms = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
if (ok !== n) throw new Error(ok + " of " + n);
console.log(JSON.stringify({ ms, cpu_ms: (cpu.user + cpu.system) / 1000 }));
`;

const pairs = Object.keys(builds).flatMap((b) => counts.map((t) => [b, t]));
const results = new Map(pairs.map(([b, t]) => [`${b} ${t}`, []]));
console.log(
  `renderMany, ${IMAGES} images a run, ${availableParallelism()} CPUs; start: ${uptime()}`,
);
for (let round = 0; round < Number(values.rounds); round++) {
  const order = pairs.map((_, i) => pairs[(i + round) % pairs.length]);
  for (const [build, threads] of order) {
    const entry = pathToFileURL(join(builds[build], "packages/render/dist/index.js")).href;
    const { stdout } = await execFile(process.execPath, [
      "--input-type=module",
      "-e",
      child,
      entry,
      String(threads),
      String(IMAGES),
    ]);
    const m = JSON.parse(stdout.trim().split("\n").pop());
    results.get(`${build} ${threads}`).push(m);
    console.log(
      `round ${round + 1} ${build} threads: ${threads}: ${Math.round(m.ms)} ms, ` +
        `${Math.round((IMAGES / m.ms) * 1000)} images/s, CPU ${(m.cpu_ms / IMAGES).toFixed(3)} ms an image ` +
        `(load ${loadavg()[0].toFixed(1)})`,
    );
  }
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const table = {};
for (const [build, threads] of pairs) {
  const runs = results.get(`${build} ${threads}`);
  const one = results.get(`${build} 1`);
  table[`${build}, threads: ${threads}`] = {
    "images/s": Math.round(median(runs.map((m) => (IMAGES / m.ms) * 1000))),
    "CPU ms/image": Number(median(runs.map((m) => m.cpu_ms / IMAGES)).toFixed(3)),
    "to threads: 1": one ? Number(median(runs.map((m, i) => one[i].ms / m.ms)).toFixed(2)) : null,
  };
}
console.table(table);
console.log(`end: ${uptime()}`);
