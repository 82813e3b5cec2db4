// Benchmark: next occurrence of a weekly rule in a DST zone, @tminus/core against
// rrule (npm) configured with the same rule and tzid, in the same run.
//
//   pnpm build            # or: (cd packages/core && npx tsup); the bench imports packages/core/dist
//   node bench/recurrence.bench.mjs [--instants 100000] [--runs 5] [--rrule-sample 200] [--rrule-runs 3]
//
// What is measured
//   - core: schedule.next(t) for every instant (a Schedule is built once, as an
//     RRule object is), median of --runs runs.
//   - rrule: rule.after(date, false) with its cache off (its cache only helps a
//     repeated identical call, and its lookup is a linear scan that would make
//     100,000 distinct calls quadratic). rrule.js walks from DTSTART on every call
//     and converts every occurrence with two toLocaleString calls, so 100,000
//     calls take hours; its per-call time is measured on an evenly spaced sample
//     of the same instants (--rrule-sample, median of --rrule-runs) and scaled.
//   - agreement: on ALL instants. rrule's answers come from one rule.between()
//     list over the whole span (its own iterator, searched the way after() searches
//     it); on the timed sample, after() itself is checked against that list.
//
// rrule.js and time zones: with `tzid`, rrule.js generates "floating" wall times
// as UTC Date fields and then shifts them by (zone offset - host offset), both read
// at the floating value as if it were an instant. Its Date results are therefore
// real instants only when the host zone is UTC, and are off near transitions even
// then. This script pins the host zone to UTC, recovers the wall time rrule.js
// meant, and resolves that wall time with RFC 5545 rules before judging.

process.env.TZ = "UTC"; // must precede any Date use; Node re-reads TZ on assignment

import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const corePath = fileURLToPath(new URL("../packages/core/dist/index.js", import.meta.url));
const core = await import(corePath).catch((error) => {
  console.error(`Cannot load ${corePath}: build core first (pnpm build).\n${error.message}`);
  process.exit(1);
});
const { RRule } = require("rrule");

// ---------------------------------------------------------------------------
// Configuration
const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, arg, i, all) => {
    if (arg.startsWith("--")) pairs.push([arg.slice(2), Number(all[i + 1])]);
    return pairs;
  }, []),
);
const INSTANTS = args.instants ?? 100_000;
const RUNS = args.runs ?? 5;
const RRULE_SAMPLE = Math.min(args["rrule-sample"] ?? 200, INSTANTS);
const RRULE_RUNS = args["rrule-runs"] ?? 3;

const ZONE = "America/New_York";
const RULE = "FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=9;BYMINUTE=30";
const DTSTART = { year: 2020, month: 3, day: 2, hour: 9, minute: 30, second: 0 };
const SPAN_START = Date.UTC(2020, 1, 15); // before DTSTART: the first answers are DTSTART itself
const SPAN_END = Date.UTC(2026, 11, 31); // seven springs-forward and falls-back

// ---------------------------------------------------------------------------
// Instants: seeded, uniform over the span, plus exact occurrences and their
// neighbours (1 in 50), where "strictly after" is decided.
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const parsed = core.parseRRule(RULE);
if (!parsed.ok) throw new Error(parsed.message);
const schedule = core.createSchedule(parsed.rule, DTSTART, ZONE);

const random = mulberry32(20_261_122);
const instants = new Float64Array(INSTANTS);
for (let i = 0; i < INSTANTS; i++) {
  const t = SPAN_START + Math.floor(random() * (SPAN_END - SPAN_START));
  if (i % 50 === 49) {
    const occurrence = schedule.next(t) ?? t;
    instants[i] = occurrence + [-1, 0, 1][i % 3];
  } else {
    instants[i] = t;
  }
}

// ---------------------------------------------------------------------------
// rrule.js, same rule and tzid. DTSTART is given as floating wall time (UTC
// fields), as rrule.js documents for tzid.
const rrule = new RRule(
  {
    freq: RRule.WEEKLY,
    byweekday: [RRule.MO, RRule.WE, RRule.FR],
    byhour: 9,
    byminute: 30,
    bysecond: 0,
    dtstart: new Date(Date.UTC(2020, 2, 2, 9, 30, 0)),
    tzid: ZONE,
  },
  true, // noCache
);

/** rrule.js's own wall-to-"instant" mapping (dateutil.dateInTimeZone), host zone UTC. */
function rruleShift(floating) {
  const inZone = Date.parse(
    `${new Date(floating).toLocaleString("sv-SE", { timeZone: ZONE }).replace(" ", "T")}Z`,
  );
  return floating - (inZone - floating);
}

/** The floating wall time rrule.js meant by `value` (inverse of rruleShift), verified. */
function rruleWall(value) {
  let wall = value;
  for (let i = 0; i < 4; i++) wall = value + (wall - rruleShift(wall));
  if (rruleShift(wall) !== value) throw new Error(`cannot invert rrule value ${value}`);
  return wall;
}

function wallObject(ms) {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

// ---------------------------------------------------------------------------
// Timing
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const coreAnswers = new Float64Array(INSTANTS);
const coreRuns = [];
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  for (let i = 0; i < INSTANTS; i++) coreAnswers[i] = schedule.next(instants[i]) ?? Number.NaN;
  coreRuns.push(performance.now() - started);
}

const sampleIndexes = Array.from({ length: RRULE_SAMPLE }, (_, k) =>
  Math.floor((k * INSTANTS) / RRULE_SAMPLE),
);
const rruleSampleAnswers = new Map();
const rruleRuns = [];
for (let run = 0; run < RRULE_RUNS; run++) {
  const started = performance.now();
  for (const i of sampleIndexes) {
    const answer = rrule.after(new Date(instants[i]), false);
    rruleSampleAnswers.set(i, answer === null ? Number.NaN : answer.getTime());
  }
  rruleRuns.push(performance.now() - started);
}
const coreSampleRuns = [];
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  for (const i of sampleIndexes) schedule.next(instants[i]);
  coreSampleRuns.push(performance.now() - started);
}

// ---------------------------------------------------------------------------
// Agreement on every instant. after(dt, false) returns the first value, in
// iteration order, that is > dt; the same search over the between() list gives
// the same answer, which the timed sample double-checks.
const list = rrule
  .between(new Date(SPAN_START - 7 * 86_400_000), new Date(SPAN_END + 30 * 86_400_000), true)
  .map((d) => d.getTime());
const rruleAfter = (t) => {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid] <= t) lo = mid + 1;
    else hi = mid;
  }
  return list[lo] ?? Number.NaN;
};
const listSorted = list.every((t, i) => i === 0 || t > list[i - 1]);
let sampleMismatches = 0;
for (const [i, answer] of rruleSampleAnswers) {
  if (!Object.is(answer, rruleAfter(instants[i]))) sampleMismatches++;
}

const disagreements = [];
for (let i = 0; i < INSTANTS; i++) {
  const ours = coreAnswers[i];
  const theirs = rruleAfter(instants[i]);
  if (Object.is(ours, theirs)) continue;
  // Judge: what wall time did rrule.js mean, and which instant is that wall time?
  const wall = rruleWall(theirs);
  const meant = core.resolveLocal(wallObject(wall), ZONE);
  const judgement =
    meant === ours
      ? "same wall time; rrule.js shifted it with the offset read at the wrong instant: core is right"
      : "different occurrence: inspect";
  disagreements.push({ i, at: instants[i], ours, theirs, wall, judgement });
}

// ---------------------------------------------------------------------------
// Report
const iso = (t) => (Number.isNaN(t) ? "null" : new Date(t).toISOString());
const coreMedian = median(coreRuns);
const corePerCall = (coreMedian * 1000) / INSTANTS;
const rrulePerCall = (median(rruleRuns) * 1000) / RRULE_SAMPLE;
const coreSamplePerCall = (median(coreSampleRuns) * 1000) / RRULE_SAMPLE;

console.log(`rule      ${RULE}, DTSTART 2020-03-02T09:30 wall clock in ${ZONE}`);
console.log(`instants  ${INSTANTS} (seeded), ${iso(SPAN_START)} .. ${iso(SPAN_END)}`);
console.log(
  `node      ${process.version}, tz data ${process.versions.tz}, core TZDB_VERSION ${core.TZDB_VERSION}`,
);
console.log("");
console.log(
  `core   next():  ${INSTANTS} calls, median of ${RUNS} runs ${coreMedian.toFixed(1)} ms ` +
    `(${corePerCall.toFixed(2)} us/call; runs ${coreRuns.map((r) => r.toFixed(0)).join(", ")} ms)`,
);
console.log(
  `core   next():  sample of ${RRULE_SAMPLE}, ${coreSamplePerCall.toFixed(2)} us/call (median of ${RUNS})`,
);
console.log(
  `rrule  after(): sample of ${RRULE_SAMPLE}, median of ${RRULE_RUNS} runs ${median(rruleRuns).toFixed(0)} ms ` +
    `(${rrulePerCall.toFixed(0)} us/call; ${INSTANTS} calls would take ~${((rrulePerCall * INSTANTS) / 1e6).toFixed(0)} s)`,
);
console.log(
  `ratio          rrule / core per call: ${(rrulePerCall / corePerCall).toFixed(0)}x (all-instant core median), ` +
    `${(rrulePerCall / coreSamplePerCall).toFixed(0)}x (same sample)`,
);
console.log("");
console.log(
  `agreement      ${INSTANTS - disagreements.length} of ${INSTANTS} instants identical; ` +
    `rrule.between list ${list.length} occurrences, sorted: ${listSorted}; ` +
    `after() vs list on the sample: ${sampleMismatches} mismatches`,
);
for (const d of disagreements.slice(0, 50)) {
  console.log(
    `  #${d.i} after ${iso(d.at)}: core ${iso(d.ours)}, rrule ${iso(d.theirs)} ` +
      `(rrule wall ${iso(d.wall).slice(0, 19)}): ${d.judgement}`,
  );
}
if (disagreements.length > 50) console.log(`  ... ${disagreements.length - 50} more`);
