// Instructions per GIF, counted by valgrind's callgrind: the same count whatever else the
// machine is doing, so a comparison holds on a loaded shared machine where CPU time moves by
// 20% between runs. Each (renderer, look) pair runs twice in a child under callgrind, once
// with `--few` GIFs and once with `--many`; the difference divided by the extra GIFs is the
// cost of one more GIF, with start-up, warm-up and the look's atlas cancelled out.
//
//   node bench/render-instructions.mjs --base /path/to/an/earlier/checkout [--few 20] [--many 120]
//        [--cases default,style_circles]   (some cases only; style_<s> is look.style s, issue 39)
//     [--jobs 1]
//
// `--jobs` runs that many children at once: the counts do not change, only the wall time on a
// machine whose other work would otherwise get most of the CPU.
//
// Needs valgrind (Debian's package). The earlier checkout must have packages/render/dist built.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, promisify } from "node:util";

const { values } = parseArgs({
  options: {
    base: { type: "string" },
    few: { type: "string", default: "20" },
    many: { type: "string", default: "120" },
    jobs: { type: "string", default: "1" },
    child: { type: "string" },
    renderer: { type: "string" },
    count: { type: "string" },
    json: { type: "boolean", default: false },
    cases: { type: "string" },
  },
});

// 3 days and some (the label shows); under a day (days are zero: hidden when asked).
const days = (i) => 3 * 86_400 + 4 * 3_600 + 5 * 60 + 7 + i * 7_919;
const hours = (i) => 4 * 3_600 + 5 * 60 + 7 + ((i * 7_919) % 72_000);
const CASES = {
  default: (i) => ({ remainingSeconds: days(i) }),
  emoji_texts: (i) => ({
    remainingSeconds: days(i),
    look: { labels: { days: "días 🔥" } },
    ended: { text: "🎅 Sale over! 🎁" },
  }),
  emoji_separator: (i) => ({ remainingSeconds: days(i), look: { separator: "🔥" } }),
  under_a_day: (i) => ({ remainingSeconds: hours(i) }),
  hidden_zeros: (i) => ({ remainingSeconds: hours(i), look: { hide_leading_zero_units: true } }),
  emoji_texts_and_hidden_zeros: (i) => ({
    remainingSeconds: hours(i),
    look: { hide_leading_zero_units: true, labels: { hours: "horas 🔥" } },
    ended: { text: "🎅 Sale over! 🎁" },
  }),
};
// Each look.style (issue 39), 3 days and some.
for (const style of ["rounded", "plain", "minimal", "boxes", "outlined", "flip", "circles", "bar"])
  CASES[`style_${style}`] = (i) => ({ remainingSeconds: days(i), look: { style } });
const chosen = values.cases
  ? values.cases.split(",")
  : Object.keys(CASES).filter((k) => !k.startsWith("style_"));

if (values.child) {
  // In the child, under callgrind: warm the look, then render `count` GIFs of it.
  const { createImageRenderer } = await import(values.renderer);
  const images = createImageRenderer();
  const make = CASES[values.child];
  for (let i = 0; i < 10; i++) await images.gif(make(500_000 + i));
  const count = Number(values.count);
  for (let i = 0; i < count; i++) await images.gif(make(i));
  process.exit(0);
}

const here = fileURLToPath(import.meta.url);
const ours = fileURLToPath(new URL("../packages/render/dist/index.js", import.meta.url));

async function instructions(renderer, name, count) {
  const dir = mkdtempSync(join(tmpdir(), "tminus-callgrind-"));
  try {
    const out = join(dir, "callgrind.out");
    await promisify(execFile)(
      "valgrind",
      [
        "--tool=callgrind",
        "--smc-check=all-non-file",
        `--callgrind-out-file=${out}`,
        process.execPath,
        // One thread of V8's compiler and collector work where possible, so the count is the
        // same from run to run.
        "--single-threaded",
        here,
        "--child",
        name,
        "--renderer",
        renderer,
        "--count",
        String(count),
      ],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    const summary = /^summary:\s+(\d+)/m.exec(readFileSync(out, "utf8"));
    if (!summary) throw new Error(`no summary line in ${out}`);
    return Number(summary[1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const few = Number(values.few);
const many = Number(values.many);

// "then" is the earlier checkout's renderer (a list, not an object: an object with a "then"
// key looks like a promise).
const renderers = [
  ["now", ours],
  ...(values.base ? [["then", join(values.base, "packages/render/dist/index.js")]] : []),
];
const pairs = [];
for (const [who, renderer] of renderers)
  for (const name of chosen) {
    // The earlier version draws emoji as nothing and shows zero units: only its default
    // looks (and styles, which it has) are the baseline.
    if (
      who === "then" &&
      name !== "default" &&
      name !== "under_a_day" &&
      !name.startsWith("style_")
    )
      continue;
    pairs.push({ row: `${name}_${who}`, renderer, name });
  }
// Every child, `--jobs` at a time; the rows keep the order above whatever finishes first.
const runs = pairs.flatMap((p) => [
  { ...p, count: few },
  { ...p, count: many },
]);
const counts = new Map();
let next = 0;
const worker = async () => {
  while (next < runs.length) {
    const run = runs[next++];
    counts.set(`${run.row}:${run.count}`, await instructions(run.renderer, run.name, run.count));
  }
};
await Promise.all(Array.from({ length: Math.max(1, Number(values.jobs)) }, worker));
const rows = {};
for (const { row } of pairs)
  rows[row] = Math.round(
    (counts.get(`${row}:${many}`) - counts.get(`${row}:${few}`)) / (many - few),
  );

const ratio = (a, b) => (rows[a] && rows[b] ? Math.round((rows[a] / rows[b]) * 1000) / 1000 : null);
const result = {
  load_average: loadavg().map((x) => Math.round(x * 10) / 10),
  gifs: { few, many },
  instructions_per_gif: rows,
  ratios: values.cases
    ? Object.fromEntries(
        chosen.map((name) => [
          `${name}_${values.base ? "now_over_then" : "now_over_default"}`,
          values.base ? ratio(`${name}_now`, `${name}_then`) : ratio(`${name}_now`, "default_now"),
        ]),
      )
    : values.base
      ? {
          default_now_over_then: ratio("default_now", "default_then"),
          emoji_texts_now_over_default_then: ratio("emoji_texts_now", "default_then"),
          emoji_separator_now_over_default_then: ratio("emoji_separator_now", "default_then"),
          hidden_zeros_now_over_under_a_day_then: ratio("hidden_zeros_now", "under_a_day_then"),
          emoji_texts_and_hidden_zeros_now_over_under_a_day_then: ratio(
            "emoji_texts_and_hidden_zeros_now",
            "under_a_day_then",
          ),
        }
      : {
          emoji_texts_over_default: ratio("emoji_texts_now", "default_now"),
          emoji_separator_over_default: ratio("emoji_separator_now", "default_now"),
          hidden_zeros_over_under_a_day: ratio("hidden_zeros_now", "under_a_day_now"),
        },
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
