// Benchmark: an email GIF per recipient (600x160, 60 one-second frames, the default look).
// Our pipeline (atlas once per look, frames composited in palette-index space, only the
// changed rectangle LZW-encoded) against the straightforward one written here with the
// same libraries: satori, then resvg, then gifenc's quantize, then gifenc's encoder, for
// every frame. Same look, same size, same run; the baseline runs between our batches.
//
//   npx -y pnpm@10 build && node bench/render.bench.mjs [--runs 300] [--baseline-runs 5] [--json]
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "300" },
    "baseline-runs": { type: "string", default: "5" },
    json: { type: "boolean", default: false },
  },
});
const RUNS = Number(values.runs);
const BASELINE_RUNS = Number(values["baseline-runs"]);

// Everything resolves from the render package, as an installed app would see it.
const require = createRequire(new URL("../packages/render/package.json", import.meta.url));
const { createImageRenderer } = await import("../packages/render/dist/index.js");
const satori = require("satori").default;
const { Resvg } = require("@resvg/resvg-js");
const { GIFEncoder, quantize, applyPalette } = require("gifenc");
const { DEFAULT_LOOK, formatParts, splitRemaining, unitLabel } = require("@tminus/core");

const WIDTH = 600;
const HEIGHT = 160;
const FRAMES = 60;
// Different recipients: different times left, around 3 days.
const remainingFor = (i) => 3 * 86_400 + 4 * 3_600 + 5 * 60 + 7 + i * 7_919;

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
    {
      pad: look.pad,
    },
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

function stats(times, sizes) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return {
    runs: sorted.length,
    median_ms: round(at(0.5)),
    p99_ms: round(at(0.99)),
    size_bytes: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length),
  };
}
const round = (ms) => Math.round(ms * 100) / 100;

async function time(fn) {
  const start = performance.now();
  const bytes = await fn();
  return { ms: performance.now() - start, size: bytes.length };
}

async function measureFast(scale, runs) {
  const images = createImageRenderer();
  // Cold: the first image of a look on this renderer, atlas included (satori and resvg once).
  const cold = [];
  for (let i = 0; i < 5; i++) {
    const fresh = createImageRenderer();
    cold.push(
      await time(() =>
        fresh.gif({ remainingSeconds: remainingFor(i), width: WIDTH, height: HEIGHT, scale }),
      ),
    );
  }
  await images.gif({ remainingSeconds: remainingFor(0), width: WIDTH, height: HEIGHT, scale });
  for (let i = 0; i < 20; i++)
    await images.gif({ remainingSeconds: remainingFor(i), width: WIDTH, height: HEIGHT, scale });
  const warm = [];
  for (let i = 0; i < runs; i++)
    warm.push(
      await time(() =>
        images.gif({ remainingSeconds: remainingFor(i), width: WIDTH, height: HEIGHT, scale }),
      ),
    );
  return { cold, warm };
}

const summarize = (results) =>
  stats(
    results.map((r) => r.ms),
    results.map((r) => r.size),
  );

async function measureBaseline(scale, runs) {
  await straightforwardGif(remainingFor(0), scale); // warm up satori, fonts and the JIT
  const results = [];
  for (let i = 0; i < runs; i++)
    results.push(await time(() => straightforwardGif(remainingFor(i), scale)));
  return stats(
    results.map((r) => r.ms),
    results.map((r) => r.size),
  );
}

// Fonts and satori's wasm load once per process: that first call is reported on its own.
const firstEver = await time(() =>
  createImageRenderer().gif({ remainingSeconds: remainingFor(0), width: WIDTH, height: HEIGHT }),
);

const report = {
  machine: { node: process.version, cpus: (await import("node:os")).cpus().length },
  first_in_process_ms: round(firstEver.ms),
};
for (const scale of [1, 2]) {
  // Ours before and after the baseline, so both see the same machine conditions.
  const before = await measureFast(scale, Math.ceil(RUNS / (2 * scale)));
  const baseline = await measureBaseline(scale, Math.max(1, Math.ceil(BASELINE_RUNS / scale)));
  const after = await measureFast(scale, Math.ceil(RUNS / (2 * scale)));
  const warm = summarize([...before.warm, ...after.warm]);
  report[`${scale}x`] = {
    size: `${WIDTH * scale}x${HEIGHT * scale}`,
    ours_warm: warm,
    ours_cold: summarize([...before.cold, ...after.cold]),
    straightforward: baseline,
    speedup_median: round(baseline.median_ms / warm.median_ms),
  };
}

if (values.json) {
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} else {
  const rows = [["", "runs", "median ms", "p99 ms", "size KB"]];
  for (const scale of ["1x", "2x"]) {
    const r = report[scale];
    for (const [name, s] of [
      [`${scale} ours, warm`, r.ours_warm],
      [`${scale} ours, cold (atlas)`, r.ours_cold],
      [`${scale} straightforward`, r.straightforward],
    ])
      rows.push([
        name,
        String(s.runs),
        s.median_ms.toFixed(2),
        s.p99_ms.toFixed(2),
        (s.size_bytes / 1024).toFixed(1),
      ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows)
    process.stdout.write(
      `${row.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join("  ")}\n`,
    );
  process.stdout.write(
    `\nspeedup (median, warm): 1x ${report["1x"].speedup_median}x, 2x ${report["2x"].speedup_median}x\n` +
      `first image in a fresh process (fonts, satori wasm, atlas): ${report.first_in_process_ms} ms\n` +
      `node ${report.machine.node}, ${report.machine.cpus} CPUs\n`,
  );
}
