// A/B of the email GIF against another build of @tminus/render, in one process and one run:
// the same images (600x160, 60 one-second frames, the default look, a different time left
// per recipient, warm caches) from this tree's dist and from a baseline's dist, in interleaved
// rounds (A, B, B, A, ...), so both see the same machine. Reports the median per-image time of
// each and their ratio. With --font FILE it also times a look drawn with that uploaded font
// (this tree only: the baseline has no uploaded fonts).
//
//   npx -y pnpm@10 build
//   git archive main packages/render packages/core tsup.base.ts | tar -x -C /tmp/base  (then
//   link node_modules and build both there with tsup)
//   node bench/render-ab.mjs --base /tmp/base [--rounds 7] [--runs 150] [--font f.woff]
//        [--style circles]   (that look.style instead of the default look, both builds)
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    rounds: { type: "string", default: "7" },
    runs: { type: "string", default: "150" },
    font: { type: "string" },
    style: { type: "string" },
  },
});
if (!values.base) throw new Error("--base DIR: a tree whose packages/render/dist is the baseline");
const ROUNDS = Number(values.rounds);
const RUNS = Number(values.runs);

const load = (dir) =>
  import(pathToFileURL(join(resolve(dir), "packages/render/dist/index.js")).href);
const current = await load(new URL("..", import.meta.url).pathname);
const baseline = await load(values.base);

const remainingFor = (i) => 3 * 86_400 + 4 * 3_600 + 5 * 60 + 7 + i * 7_919;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Milliseconds per image over `RUNS` images of distinct recipients, after one warm-up. */
async function time(renderer, extra = {}, offset = 0) {
  await renderer.gif({ remainingSeconds: remainingFor(offset), ...extra });
  const started = process.cpuUsage();
  const wall = performance.now();
  for (let i = 1; i <= RUNS; i++)
    await renderer.gif({ remainingSeconds: remainingFor(offset + i), ...extra });
  const cpu = process.cpuUsage(started);
  return {
    wall: (performance.now() - wall) / RUNS,
    cpu: (cpu.user + cpu.system) / 1000 / RUNS,
  };
}

const a = current.createImageRenderer();
const b = baseline.createImageRenderer();
let uploaded = null;
if (values.font) {
  const bytes = new Uint8Array(readFileSync(values.font));
  const file = current.inspectFont(bytes);
  const id = "01969e7c-8d7e-7a43-9c57-1f1f0e3e4b2a";
  const look = { font_asset_id: id };
  const data = await current.subsetFont(file.sfnt, current.lookFontText(look));
  uploaded = { look, font: { id, data } };
}
const styled = values.style ? { look: { style: values.style } } : {};
const results = { current: [], baseline: [], currentCpu: [], baselineCpu: [], uploaded: [] };
console.log(
  `load average at start: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
for (let round = 0; round < ROUNDS; round++) {
  // Alternate who goes first, so neither always meets a warmer or colder machine.
  const order = round % 2 === 0 ? ["current", "baseline"] : ["baseline", "current"];
  for (const who of order) {
    const t = await time(who === "current" ? a : b, styled, round * 10_000);
    results[who].push(t.wall);
    results[`${who}Cpu`].push(t.cpu);
  }
  if (uploaded) results.uploaded.push((await time(a, uploaded, round * 10_000)).wall);
  console.log(
    `round ${round + 1}: current ${results.current.at(-1).toFixed(3)} ms, baseline ${results.baseline.at(-1).toFixed(3)} ms` +
      (uploaded ? `, uploaded font ${results.uploaded.at(-1).toFixed(3)} ms` : ""),
  );
}
const summary = {
  rounds: ROUNDS,
  runs: RUNS,
  style: values.style ?? "default look",
  current_ms: median(results.current),
  baseline_ms: median(results.baseline),
  ratio: median(results.current) / median(results.baseline),
  current_cpu_ms: median(results.currentCpu),
  baseline_cpu_ms: median(results.baselineCpu),
  cpu_ratio: median(results.currentCpu) / median(results.baselineCpu),
  ...(uploaded ? { uploaded_font_ms: median(results.uploaded) } : {}),
  load_average_end: loadavg().map((x) => Number(x.toFixed(2))),
};
console.log(JSON.stringify(summary, null, 2));
