// One case of render.bench.mjs's section 4 in a process of its own (--processes): one
// build's renderer, warmed on one set of recipients, then timed on as many new ones (their
// looks' atlases built, their new minutes and hours not yet in the frame cache, as in a
// send). Prints the CPU milliseconds per GIF of this process as JSON.
//
//   node bench/_render-look-case.mjs <tree with packages/render/dist> <case> <runs>
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [dir, name, runsArg] = process.argv.slice(2);
const runs = Number(runsArg);
const { createImageRenderer } = await import(
  pathToFileURL(join(resolve(dir), "packages/render/dist/index.js")).href
);
const r = createImageRenderer();
// 3 days and some (the label shows), and under a day (days are zero: hidden when asked).
const days = (i) => 3 * 86_400 + 4 * 3_600 + 5 * 60 + 7 + i * 7_919;
const hours = (i) => 4 * 3_600 + 5 * 60 + 7 + ((i * 7_919) % 72_000);
const cases = {
  default: (i) => r.gif({ remainingSeconds: days(i) }),
  emoji_texts: (i) =>
    r.gif({
      remainingSeconds: days(i),
      look: { labels: { days: "días 🔥" } },
      ended: { text: "🎅 Sale over! 🎁" },
    }),
  emoji_separator: (i) => r.gif({ remainingSeconds: days(i), look: { separator: "🔥" } }),
  under_a_day: (i) => r.gif({ remainingSeconds: hours(i) }),
  hidden_zeros: (i) =>
    r.gif({ remainingSeconds: hours(i), look: { hide_leading_zero_units: true } }),
  emoji_texts_and_hidden_zeros: (i) =>
    r.gif({
      remainingSeconds: hours(i),
      look: { hide_leading_zero_units: true, labels: { hours: "horas 🔥" } },
      ended: { text: "🎅 Sale over! 🎁" },
    }),
};
// "style:<name>": that look.style (issue 39), like the default look otherwise.
const make = name.startsWith("style:")
  ? (i) => r.gif({ remainingSeconds: days(i), look: { style: name.slice(6) } })
  : cases[name];
if (!make) throw new Error(`no case ${name}: ${Object.keys(cases).join(", ")}`);
// Days stay two digits over both passes (3 to about 94 days at 500 runs): one atlas per look.
for (let i = 0; i < runs; i++) await make(i);
const cpu = process.cpuUsage();
for (let i = runs; i < 2 * runs; i++) await make(i);
const used = process.cpuUsage(cpu);
process.stdout.write(`${JSON.stringify({ ms: (used.user + used.system) / 1000 / runs })}\n`);
