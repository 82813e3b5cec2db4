// Benchmark: an email GIF per recipient (600x160, 60 one-second frames, the default look),
// and the same at 2x (1200x320). In one run:
//
// 1. Speed, warm: @tminus/render (atlas once per look, frames composited in palette-index
//    space, encoded frames cached, frame 0's panel rows kept as LZW pieces; also with no
//    frame cache at all, frameBytes: 0, each image encoded whole) against the
//    straightforward pipeline written here with the same libraries: satori, then resvg, then
//    gifenc's quantize and encoder, for every frame. Several rounds; each round measures ours,
//    then the baseline, then ours again, so both see the same machine. Medians of the rounds.
// 2. Size: our GIF against `gifsicle -O3` (Debian's gifsicle) on the same frames, both on our
//    file and on the 60 frames written whole and unoptimised. Skipped, and said so, when
//    gifsicle is not installed (apt-get install gifsicle).
// 3. The first image in a fresh process, in child processes: import, the first GIF with
//    nothing prepared, and through a render pool (threads started and warmed at start).
//
// 5. Per style (issue 39), with --styles (or alone with --only-styles): CPU time per GIF
//    (600x160, 60 frames, this one thread) of each look.style against today's default look,
//    interleaved per round in a rotated order, the ratio being the median of the rounds' own
//    ratios; and each style's size against gifsicle -O3 of the same frames (sizes alone,
//    no timing: --only-sizes).
//
// 4. With --base <a checkout of an earlier version, built>: that version's renderer in this
//    same process against ours, per GIF, on today's default look and on looks with emoji
//    (an emoji label and separator) and hidden leading zero units (issue 37). Interleaved
//    per round, medians of the round medians.
//
//   npx -y pnpm@10 build && node bench/render.bench.mjs [--rounds 5] [--runs 200]
//        [--baseline-runs 3] [--children 5] [--base /work/wt/main-build [--only-base]
//        [--frame-bytes 0]] [--json]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    runs: { type: "string", default: "200" },
    "baseline-runs": { type: "string", default: "3" },
    children: { type: "string", default: "5" },
    base: { type: "string" },
    "only-base": { type: "boolean", default: false },
    styles: { type: "boolean", default: false },
    "only-styles": { type: "boolean", default: false },
    "only-sizes": { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    // Section 4 only: each renderer's frame cache in bytes (0: every GIF encoded whole, so
    // the A/B measures drawing and encoding alone, not how often the cache is hit).
    "frame-bytes": { type: "string" },
    // Section 4 only: each case in a fresh process of its own (bench/_render-look-case.mjs).
    processes: { type: "boolean", default: false },
  },
});
const ROUNDS = Number(values.rounds);
const RUNS = Number(values.runs);
const BASELINE_RUNS = Number(values["baseline-runs"]);
const CHILDREN = Number(values.children);

// Everything resolves from the render package, as an installed app would see it.
const renderDir = fileURLToPath(new URL("../packages/render/", import.meta.url));
const require = createRequire(join(renderDir, "package.json"));
const rootRequire = createRequire(new URL("../package.json", import.meta.url));
const { createImageRenderer } = await import("../packages/render/dist/index.js");
const satori = require("satori").default;
const { Resvg } = require("@resvg/resvg-js");
const { GIFEncoder, quantize, applyPalette } = require("gifenc");
const { DEFAULT_LOOK, LOOK_STYLES, formatParts, splitRemaining, unitLabel } =
  require("@tminus/core");
const omggif = rootRequire("omggif");

const WIDTH = 600;
const HEIGHT = 160;
const FRAMES = 60;
// Different recipients: different times left, around 3 days.
const remainingFor = (i) => 3 * 86_400 + 4 * 3_600 + 5 * 60 + 7 + i * 7_919;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};
const round = (x, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------
// The straightforward pipeline, as one would first write it.
const font = (weight) =>
  readFileSync(require.resolve(`@fontsource/inter/files/inter-latin-${weight}-normal.woff`));
const fonts = [
  { name: "Inter", data: font(400), weight: 400, style: "normal" },
  { name: "Inter", data: font(700), weight: 700, style: "normal" },
];
const look = DEFAULT_LOOK;

function frameTree(total, scale) {
  const s = (px) => px * scale;
  const parts = formatParts(
    splitRemaining(total, { largestUnit: look.largest_unit, units: look.units }),
    { pad: look.pad },
  );
  const children = [];
  parts.forEach((part, i) => {
    if (i > 0)
      children.push({
        type: "div",
        props: {
          style: {
            display: "flex",
            fontSize: s(look.font_size),
            fontWeight: 700,
            color: look.accent_color,
            padding: `0 ${s(6)}px`,
          },
          children: look.separator,
        },
      });
    children.push({
      type: "div",
      props: {
        style: { display: "flex", flexDirection: "column", alignItems: "center" },
        children: [
          {
            type: "div",
            props: {
              style: { display: "flex", fontSize: s(look.font_size), fontWeight: 700 },
              children: part.text,
            },
          },
          {
            type: "div",
            props: {
              style: { display: "flex", fontSize: s(look.font_size * 0.3) },
              children: unitLabel(part.unit, part.value, look.locale, look.labels),
            },
          },
        ],
      },
    });
  });
  return {
    type: "div",
    props: {
      style: {
        display: "flex",
        width: "100%",
        height: "100%",
        alignItems: "center",
        justifyContent: "center",
        fontFamily: "Inter",
        color: look.text_color,
        backgroundColor: look.background_color,
        border: `${s(2)}px solid ${look.accent_color}`,
        borderRadius: s(12),
      },
      children,
    },
  };
}

async function straightforwardGif(total, scale) {
  const width = WIDTH * scale;
  const height = HEIGHT * scale;
  const gif = GIFEncoder();
  for (let k = 0; k < FRAMES; k++) {
    const svg = await satori(frameTree(Math.max(0, total - k), scale), { width, height, fonts });
    const rgba = new Resvg(svg, { font: { loadSystemFonts: false } }).render().pixels;
    const palette = quantize(rgba, 256);
    const index = applyPalette(rgba, palette);
    gif.writeFrame(index, width, height, { palette, delay: 1000 });
  }
  gif.finish();
  return gif.bytes();
}

// ---------------------------------------------------------------------------------------
// 1. Speed, warm.

async function time(fn) {
  const start = performance.now();
  const bytes = await fn();
  return { ms: performance.now() - start, size: bytes.length };
}

// ---------------------------------------------------------------------------------------
// 5. Per style.

/** The per-style cases: today's default look, each look.style, and boxes with words. */
function styleCases() {
  const cases = { today: {} };
  for (const style of LOOK_STYLES) cases[style] = { style };
  // The words and a gradient on top of a style: the static parts are in the panel.
  cases.boxes_words_gradient = {
    style: "boxes",
    background: { type: "gradient", from: "#FDE68A", to: "#F472B6", angle: 90 },
    heading: { text: "Sale ends in" },
    button: { label: "Shop now" },
  };
  return cases;
}

/**
 * Each case's GIF of one recipient (3 days 4 h left) and its size against the better of
 * gifsicle -O3 of our file and of the 60 frames written whole; no gifsicle figures without it.
 */
async function styleSizes(r, cases) {
  const out = {};
  const dir = gifsicleAvailable() ? mkdtempSync(join(tmpdir(), "tminus-style-")) : null;
  for (const [name, look] of Object.entries(cases)) {
    const bytes = await r.gif({
      remainingSeconds: remainingFor(7),
      look,
      width: WIDTH,
      height: HEIGHT,
    });
    const row = { bytes: bytes.length };
    if (dir) {
      const file = join(dir, `${name}.gif`);
      writeFileSync(file, bytes);
      writeFileSync(`${file}.whole.gif`, wholeFrames(bytes));
      execFileSync("gifsicle", ["-O3", file, "-o", `${file}.o3.gif`]);
      execFileSync("gifsicle", ["-O3", `${file}.whole.gif`, "-o", `${file}.whole.o3.gif`]);
      const best = Math.min(statSync(`${file}.o3.gif`).size, statSync(`${file}.whole.o3.gif`).size);
      row.gifsicle_O3_best = best;
      row.over_gifsicle = round(bytes.length / best, 3);
    }
    out[name] = row;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  return out;
}

async function perStyle() {
  const r = createImageRenderer();
  const cases = styleCases();
  const gif = (look, i) =>
    r.gif({ remainingSeconds: remainingFor(i), look, width: WIDTH, height: HEIGHT });
  const names = Object.keys(cases);
  for (const name of names) for (let i = 0; i < 30; i++) await gif(cases[name], 500_000 + i);
  const runs = Math.max(20, Math.round(RUNS / 2));
  const perRound = Object.fromEntries(names.map((k) => [k, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (let j = 0; j < names.length; j++) {
      const name = names[(j + round) % names.length];
      const cpu = process.cpuUsage();
      for (let i = 0; i < runs; i++) await gif(cases[name], round * runs + i);
      const used = process.cpuUsage(cpu);
      perRound[name].push((used.user + used.system) / 1000 / runs);
    }
  const sizes = await styleSizes(r, cases);
  const out = {};
  for (const name of names) {
    const ratios = perRound[name].map((x, k) => x / perRound.today[k]);
    out[name] = {
      cpu_ms_per_gif: round(median(perRound[name]), 3),
      cpu_ms_per_round: perRound[name].map((x) => round(x, 3)),
      over_today: round(median(ratios), 3),
      ...sizes[name],
    };
  }
  return { runs_per_round: runs, rounds: ROUNDS, styles: out };
}

if (values["only-sizes"]) {
  // Sizes alone: they need no quiet machine and no rounds.
  const sizes = await styleSizes(createImageRenderer(), styleCases());
  if (values.json) process.stdout.write(`${JSON.stringify(sizes, null, 2)}\n`);
  else
    for (const [name, row] of Object.entries(sizes))
      process.stdout.write(
        `${name.padEnd(22)} ${String(row.bytes).padStart(7)} B  ${(row.bytes / 1024).toFixed(1)} KB  gifsicle -O3 best ${row.gifsicle_O3_best ?? "-"} B  ours/gifsicle ${row.over_gifsicle ?? "-"}\n`,
      );
  process.exit(0);
}

if (values["only-styles"]) {
  const before = loadavg().map((x) => round(x, 1));
  const v = await perStyle();
  const after = loadavg().map((x) => round(x, 1));
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ load_average: { before, after }, ...v }, null, 2)}\n`);
  } else {
    const lines = [
      `per style, 600x160, 60 frames, one thread: CPU ms per GIF, ${v.rounds} rounds of ${v.runs_per_round} GIFs; load average before ${before.join(" ")}, after ${after.join(" ")}`,
    ];
    for (const [name, row] of Object.entries(v.styles))
      lines.push(
        `  ${name.padEnd(22)} ${String(row.cpu_ms_per_gif).padStart(7)} ms  x${row.over_today} of today  ` +
          `${(row.bytes / 1024).toFixed(1)} KB  gifsicle -O3 best ${row.gifsicle_O3_best ?? "-"} B  ours/gifsicle ${row.over_gifsicle ?? "-"}  rounds ${row.cpu_ms_per_round.join(" / ")}`,
      );
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  process.exit(0);
}

if (values.base && values["only-base"]) {
  // Section 4 alone, for a quick comparison with an earlier build.
  const v = values.processes ? againstBaseInProcesses(values.base) : await againstBase(values.base);
  process.stdout.write(
    `${JSON.stringify({ load_average: loadavg().map((x) => round(x, 1)), ...v }, null, 2)}\n`,
  );
  process.exit(0);
}

const images = createImageRenderer();
// The same renderer with no frame cache: every frame of every image encoded afresh.
const uncached = createImageRenderer({ frameBytes: 0 });
const oursInput = (i, scale) => ({
  remainingSeconds: remainingFor(i),
  width: WIDTH,
  height: HEIGHT,
  scale,
});

async function oursBatch(scale, runs, offset, renderer = images) {
  const out = [];
  for (let i = 0; i < runs; i++)
    out.push(await time(() => renderer.gif(oursInput(offset + i, scale))));
  return out;
}

// Warm-up: the atlas of each scale, the JIT, the frame cache of a first few recipients.
for (const scale of [1, 2]) {
  await oursBatch(scale, 50, 100_000);
  await oursBatch(scale, 20, 100_000, uncached);
}
await straightforwardGif(remainingFor(0), 1);

const speed = { 1: [], 2: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const scale of [1, 2]) {
    const runs = Math.ceil(RUNS / scale);
    const before = await oursBatch(scale, runs / 2, r * RUNS);
    const baseline = [];
    for (let i = 0; i < Math.max(1, Math.ceil(BASELINE_RUNS / scale)); i++)
      baseline.push(await time(() => straightforwardGif(remainingFor(r * 10 + i), scale)));
    const after = await oursBatch(scale, runs / 2, r * RUNS + runs);
    const ours = [...before, ...after];
    const noCache = await oursBatch(scale, Math.ceil(runs / 4), r * RUNS, uncached);
    const oursMedian = median(ours.map((t) => t.ms));
    const baseMedian = median(baseline.map((t) => t.ms));
    speed[scale].push({
      ours_median_ms: oursMedian,
      ours_p99_ms: quantile(
        ours.map((t) => t.ms),
        0.99,
      ),
      ours_size: median(ours.map((t) => t.size)),
      no_frame_cache_median_ms: median(noCache.map((t) => t.ms)),
      baseline_median_ms: baseMedian,
      baseline_size: median(baseline.map((t) => t.size)),
      speedup: baseMedian / oursMedian,
    });
  }
}

// ---------------------------------------------------------------------------------------
// 4. Against an earlier build, on the looks of issue 37 (only with --base).

/**
 * Section 4 with every case in a fresh process (--processes): in one process the two
 * builds' code shares V8's feedback and heap, and whole runs moved by up to 1.7x against
 * each other (bench/README.md, issue 37). Each round runs every case once in a rotated
 * order; the ratios are medians of the rounds' own ratios.
 */
function againstBaseInProcesses(baseDir) {
  const here = fileURLToPath(new URL("..", import.meta.url));
  const child = fileURLToPath(new URL("./_render-look-case.mjs", import.meta.url));
  const runs = Math.max(20, Math.round(RUNS / 2));
  const cases = {
    default_then: [baseDir, "default"],
    default_now: [here, "default"],
    emoji_texts_now: [here, "emoji_texts"],
    emoji_separator_now: [here, "emoji_separator"],
    under_a_day_then: [baseDir, "under_a_day"],
    hidden_zeros_now: [here, "hidden_zeros"],
    emoji_texts_and_hidden_zeros_now: [here, "emoji_texts_and_hidden_zeros"],
  };
  // With --styles: each look.style of this tree against the earlier build's default look
  // (issue 39's "today", when the earlier build is the one the issue was filed on).
  if (values.styles)
    for (const style of LOOK_STYLES) cases[`style_${style}_now`] = [here, `style:${style}`];
  const names = Object.keys(cases);
  const perRound = Object.fromEntries(names.map((k) => [k, []]));
  for (let r = 0; r < ROUNDS; r++)
    for (let j = 0; j < names.length; j++) {
      const name = names[(j + r) % names.length];
      const [dir, look] = cases[name];
      const out = execFileSync(process.execPath, [child, dir, look, String(runs)], {
        encoding: "utf8",
      });
      perRound[name].push(JSON.parse(out.trim().split("\n").pop()).ms);
    }
  const v = summarise(baseDir, "processes", runs, perRound);
  if (values.styles)
    v.styles_over_default_then = Object.fromEntries(
      LOOK_STYLES.map((style) => [
        style,
        round(
          median(perRound[`style_${style}_now`].map((x, r) => x / perRound.default_then[r])),
          3,
        ),
      ]),
    );
  return v;
}

async function againstBase(baseDir) {
  const base = await import(join(baseDir, "packages/render/dist/index.js"));
  const cache =
    values["frame-bytes"] === undefined ? {} : { frameBytes: Number(values["frame-bytes"]) };
  const then = base.createImageRenderer(cache);
  const now = createImageRenderer(cache);
  // 3 days and some (the label shows), and under a day (days are zero: hidden when asked).
  const days = (i) => remainingFor(i);
  const hours = (i) => 4 * 3_600 + 5 * 60 + 7 + ((i * 7_919) % 72_000);
  const cases = {
    default_then: (i) => then.gif({ remainingSeconds: days(i) }),
    default_now: (i) => now.gif({ remainingSeconds: days(i) }),
    // The issue's own texts: an emoji in a label and in the ended text (today drawn as
    // "days" and "Ended").
    emoji_texts_now: (i) =>
      now.gif({
        remainingSeconds: days(i),
        look: { labels: { days: "días 🔥" } },
        ended: { text: "🎅 Sale over! 🎁" },
      }),
    // Three full-size pictures in every first frame (today drawn as ":").
    emoji_separator_now: (i) => now.gif({ remainingSeconds: days(i), look: { separator: "🔥" } }),
    under_a_day_then: (i) => then.gif({ remainingSeconds: hours(i) }),
    hidden_zeros_now: (i) =>
      now.gif({ remainingSeconds: hours(i), look: { hide_leading_zero_units: true } }),
    emoji_texts_and_hidden_zeros_now: (i) =>
      now.gif({
        remainingSeconds: hours(i),
        look: { hide_leading_zero_units: true, labels: { hours: "horas 🔥" } },
        ended: { text: "🎅 Sale over! 🎁" },
      }),
  };
  const runs = Math.max(20, Math.round(RUNS / 2));
  for (const make of Object.values(cases)) for (let i = 0; i < 30; i++) await make(900_000 + i);
  // CPU time of this process per GIF (all threads, from the kernel): other processes on a
  // shared machine slow the wall clock far more than they move it. Each round runs the cases
  // in a rotated order, so none always follows the same one.
  const perRound = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  const names = Object.keys(cases);
  for (let r = 0; r < ROUNDS; r++)
    for (let j = 0; j < names.length; j++) {
      const name = names[(j + r) % names.length];
      const cpu = process.cpuUsage();
      for (let i = 0; i < runs; i++) await cases[name](r * runs + i);
      const used = process.cpuUsage(cpu);
      perRound[name].push((used.user + used.system) / 1000 / runs);
    }
  return summarise(baseDir, cache.frameBytes ?? "default", runs, perRound);
}

/** Medians per case, and each ratio as the median of the rounds' own ratios. */
function summarise(baseDir, frameBytes, runs, perRound) {
  const m = Object.fromEntries(Object.entries(perRound).map(([k, v]) => [k, median(v)]));
  const ratio = (a, b) => round(median(perRound[a].map((x, r) => x / perRound[b][r])), 3);
  return {
    base: baseDir,
    frame_bytes: frameBytes,
    runs_per_round: runs,
    median_ms: Object.fromEntries(Object.entries(m).map(([k, v]) => [k, round(v, 3)])),
    per_round_ms: Object.fromEntries(
      Object.entries(perRound).map(([k, v]) => [k, v.map((x) => round(x, 3))]),
    ),
    // Each ratio is the median of the rounds' own ratios: both sides of a round saw the same
    // machine, whatever the other helpers on it were doing.
    ratios: {
      default_now_over_then: ratio("default_now", "default_then"),
      emoji_texts_now_over_default_then: ratio("emoji_texts_now", "default_then"),
      emoji_separator_now_over_default_then: ratio("emoji_separator_now", "default_then"),
      hidden_zeros_now_over_under_a_day_then: ratio("hidden_zeros_now", "under_a_day_then"),
      emoji_texts_and_hidden_zeros_now_over_under_a_day_then: ratio(
        "emoji_texts_and_hidden_zeros_now",
        "under_a_day_then",
      ),
    },
  };
}

const versus = values.base ? await againstBase(values.base) : null;
const styles = values.styles ? await perStyle() : null;

// ---------------------------------------------------------------------------------------
// 2. Size against gifsicle -O3 on the same frames.

function gifsicleAvailable() {
  return spawnSync("gifsicle", ["--version"], { stdio: "ignore" }).status === 0;
}

/** The GIF's frames as shown, written whole and unoptimised with its own global palette. */
function wholeFrames(bytes) {
  const reader = new omggif.GifReader(bytes);
  const { width, height } = reader;
  const info = reader.frameInfo(0);
  const colors = info.palette_size;
  const palette = [];
  const index = new Map();
  for (let i = 0; i < colors; i++) {
    const o = info.palette_offset + i * 3;
    palette.push([bytes[o], bytes[o + 1], bytes[o + 2]]);
    const key = (bytes[o] << 16) | (bytes[o + 1] << 8) | bytes[o + 2];
    if (!index.has(key)) index.set(key, i);
  }
  const screen = new Uint8Array(width * height * 4);
  const out = GIFEncoder();
  for (let f = 0; f < reader.numFrames(); f++) {
    reader.decodeAndBlitFrameRGBA(f, screen);
    const pixels = new Uint8Array(width * height);
    for (let i = 0; i < pixels.length; i++)
      pixels[i] = index.get((screen[i * 4] << 16) | (screen[i * 4 + 1] << 8) | screen[i * 4 + 2]);
    out.writeFrame(pixels, width, height, {
      palette: f === 0 ? palette : undefined,
      delay: 1000,
      repeat: 0,
    });
  }
  out.finish();
  return out.bytes();
}

const sizes = { gifsicle: gifsicleAvailable() };
if (sizes.gifsicle) {
  const dir = mkdtempSync(join(tmpdir(), "tminus-gif-"));
  const o3 = (file) => {
    execFileSync("gifsicle", ["-O3", file, "-o", `${file}.o3.gif`]);
    return statSync(`${file}.o3.gif`).size;
  };
  for (const scale of [1, 2]) {
    const ours = await images.gif(oursInput(7, scale));
    writeFileSync(join(dir, `ours-${scale}.gif`), ours);
    writeFileSync(join(dir, `whole-${scale}.gif`), wholeFrames(ours));
    const onOurs = o3(join(dir, `ours-${scale}.gif`));
    const onWhole = o3(join(dir, `whole-${scale}.gif`));
    sizes[`${scale}x`] = {
      ours: ours.length,
      gifsicle_O3_of_ours: onOurs,
      gifsicle_O3_of_whole_frames: onWhole,
      whole_frames_unoptimised: statSync(join(dir, `whole-${scale}.gif`)).size,
      ours_vs_best_gifsicle: ours.length / Math.min(onOurs, onWhole),
    };
  }
  rmSync(dir, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------
// 3. The first image in a fresh process.

const COLD_DIRECT = `
const t0 = performance.now();
const { renderGif } = await import("./dist/index.js");
const t1 = performance.now();
await renderGif({ remainingSeconds: ${remainingFor(1)} });
const t2 = performance.now();
await renderGif({ remainingSeconds: ${remainingFor(2)} });
const t3 = performance.now();
await renderGif({ remainingSeconds: ${remainingFor(3)}, look: { text_color: "#123456" } });
const t4 = performance.now();
process.stdout.write(JSON.stringify({ boot: t0, import: t1 - t0, first: t2 - t1, second: t3 - t2, new_look: t4 - t3 }));
`;
const COLD_POOL = `
const t0 = performance.now();
const { createRenderPool } = await import("./dist/index.js");
const t1 = performance.now();
const pool = createRenderPool({ threads: 1 });
// Asked at once, while the thread starts and warms.
await pool.renderGif({ remainingSeconds: ${remainingFor(1)} });
const t2 = performance.now();
await pool.ready;
const t3 = performance.now();
await pool.renderGif({ remainingSeconds: ${remainingFor(2)} });
const t4 = performance.now();
await pool.renderGif({ remainingSeconds: ${remainingFor(3)}, look: { text_color: "#123456" } });
const t5 = performance.now();
await pool.close();
process.stdout.write(JSON.stringify({ import: t1 - t0, at_once: t2 - t1, ready: t3 - t1, first_after_ready: t4 - t3, new_look_after_ready: t5 - t4 }));
`;

function child(program) {
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", program], {
    cwd: renderDir,
    encoding: "utf8",
  });
  return JSON.parse(out);
}

const coldDirect = [];
const coldPool = [];
for (let i = 0; i < CHILDREN; i++) {
  coldDirect.push(child(COLD_DIRECT));
  coldPool.push(child(COLD_POOL));
}
const medianOf = (rows, key) => round(median(rows.map((r) => r[key])), 1);

// ---------------------------------------------------------------------------------------

const summary = (scale) => {
  const rows = speed[scale];
  return {
    size: `${WIDTH * scale}x${HEIGHT * scale}`,
    rounds: rows.length,
    ours_median_ms: round(median(rows.map((r) => r.ours_median_ms)), 3),
    ours_median_ms_per_round: rows.map((r) => round(r.ours_median_ms, 3)),
    ours_p99_ms: round(median(rows.map((r) => r.ours_p99_ms))),
    ours_bytes: Math.round(median(rows.map((r) => r.ours_size))),
    ours_without_frame_cache_median_ms: round(
      median(rows.map((r) => r.no_frame_cache_median_ms)),
      3,
    ),
    straightforward_median_ms: round(median(rows.map((r) => r.baseline_median_ms)), 1),
    straightforward_bytes: Math.round(median(rows.map((r) => r.baseline_size))),
    speedup: round(median(rows.map((r) => r.speedup)), 0),
    speedup_per_round: rows.map((r) => round(r.speedup, 0)),
  };
};
const report = {
  machine: {
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    load_average: loadavg().map((x) => round(x, 1)),
  },
  warm: { "1x": summary(1), "2x": summary(2) },
  ...(versus ? { against_base: versus } : {}),
  ...(styles ? { per_style: styles } : {}),
  sizes,
  first_image_fresh_process: {
    children: CHILDREN,
    direct: {
      import_ms: medianOf(coldDirect, "import"),
      first_gif_ms: medianOf(coldDirect, "first"),
      second_gif_ms: medianOf(coldDirect, "second"),
      first_gif_of_a_new_look_ms: medianOf(coldDirect, "new_look"),
      process_start_to_first_gif_ms: round(
        median(coldDirect.map((r) => r.boot + r.import + r.first)),
        1,
      ),
    },
    pool: {
      import_ms: medianOf(coldPool, "import"),
      asked_at_start_ms: medianOf(coldPool, "at_once"),
      ready_ms: medianOf(coldPool, "ready"),
      first_gif_after_ready_ms: medianOf(coldPool, "first_after_ready"),
      new_look_after_ready_ms: medianOf(coldPool, "new_look_after_ready"),
    },
  },
};

if (values.json) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const w = report.warm;
  const out = [];
  out.push(
    `node ${report.machine.node}, ${report.machine.cpus} CPUs (${report.machine.cpu}), load average ${report.machine.load_average.join(" ")}`,
    "",
    `warm, ${ROUNDS} rounds (median of the round medians; runs per round: ours ${RUNS} at 1x, ${RUNS / 2} at 2x; straightforward ${BASELINE_RUNS} at 1x, ${Math.ceil(BASELINE_RUNS / 2)} at 2x)`,
  );
  for (const [name, s] of Object.entries(w))
    out.push(
      `  ${name} ${s.size}: ours ${s.ours_median_ms} ms (p99 ${s.ours_p99_ms} ms, ${(s.ours_bytes / 1024).toFixed(1)} KB), ` +
        `straightforward ${s.straightforward_median_ms} ms (${(s.straightforward_bytes / 1024).toFixed(1)} KB), ` +
        `${s.speedup}x faster; per round: ours ${s.ours_median_ms_per_round.join(" / ")} ms, ${s.speedup_per_round.join(" / ")}x; ` +
        `ours without the frame cache ${s.ours_without_frame_cache_median_ms} ms`,
    );
  out.push("");
  if (!sizes.gifsicle)
    out.push("size: gifsicle NOT INSTALLED, comparison skipped (apt-get install gifsicle)");
  else
    for (const scale of ["1x", "2x"]) {
      const s = sizes[scale];
      out.push(
        `size ${scale}: ours ${s.ours} B; gifsicle -O3 of ours ${s.gifsicle_O3_of_ours} B, of the 60 frames whole ` +
          `${s.gifsicle_O3_of_whole_frames} B (unoptimised ${s.whole_frames_unoptimised} B); ours / best = ${round(s.ours_vs_best_gifsicle, 3)}`,
      );
    }
  if (versus) {
    out.push(
      "",
      `against ${versus.base} (CPU ms per GIF, ${ROUNDS} rounds of ${versus.runs_per_round} GIFs, median of the rounds):`,
    );
    for (const [name, ms] of Object.entries(versus.median_ms))
      out.push(`  ${name}: ${ms} ms (rounds ${versus.per_round_ms[name].join(" / ")})`);
    for (const [name, ratio] of Object.entries(versus.ratios)) out.push(`  ${name}: ${ratio}`);
  }
  const d = report.first_image_fresh_process.direct;
  const p = report.first_image_fresh_process.pool;
  out.push(
    "",
    `first image in a fresh process (median of ${CHILDREN} children):`,
    `  direct: import ${d.import_ms} ms, first GIF ${d.first_gif_ms} ms, second ${d.second_gif_ms} ms, ` +
      `first of a new look ${d.first_gif_of_a_new_look_ms} ms; process start to first GIF ${d.process_start_to_first_gif_ms} ms`,
    `  pool (1 thread, warm at start): import ${p.import_ms} ms, GIF asked at start ${p.asked_at_start_ms} ms, ` +
      `ready after ${p.ready_ms} ms, then first GIF ${p.first_gif_after_ready_ms} ms, new look ${p.new_look_after_ready_ms} ms`,
  );
  process.stdout.write(`${out.join("\n")}\n`);
}
