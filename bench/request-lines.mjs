// What one request line costs `tminus serve` in CPU, in process: 100,000 status lines a round,
// 20 per event-loop turn (as requests arrive), to stdout through pino's asynchronous
// destination (4 KiB writes, as packages/cli/src/logging.ts sets it up), each way in a fresh
// process, order alternating, median of the rounds:
//   none      the line object built, nothing written (the floor);
//   pino      `logger.info(line, "request")` (before issue 27);
//   ours, sonic-boom  the CLI's hand-written line (packages/cli/src/request-lines.ts), handed
//             to pino's destination 4 KiB at a time (the first round of issue 27);
//   ours      the same lines into the CLI's own destination (packages/cli/src/log-destination.ts:
//             pieces of 4 KiB to process.stdout, now);
//   ours, unwritten  the same lines formatted and dropped (what formatting alone costs).
// Stdout goes to a pipe read by another process, as under a log shipper. Build first
// (`pnpm build`: pino comes from the CLI's dependencies).
//
//   node bench/request-lines.mjs [--rounds 5] [--lines 100000]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    lines: { type: "string", default: "100000" },
    child: { type: "string" },
    module: { type: "string" },
    out: { type: "string" },
  },
});
const N = Number(values.lines);

if (values.child) {
  // One way, in a process of its own; writes µs of CPU per line to `--out`.
  const { pino } = createRequire(here("../packages/cli/package.json"))("pino");
  const { requestLines, logDestination } = await import(values.module);
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  await new Promise((ok) => stream.once("ready", ok));
  const logger = pino({ level: "info", base: { pid: process.pid } }, stream);
  const format = { head: '{"level":30,"time":', bindings: `,"pid":${process.pid}` };
  // The first round's way: lines gathered into 4 KiB, then handed to pino's destination.
  let gathered = "";
  const toSonic = requestLines((text) => {
    gathered += text;
    if (gathered.length >= 4096) {
      stream.write(gathered);
      gathered = "";
    }
  }, format);
  const destination = values.child === "ours" ? logDestination() : null;
  const written = destination ? requestLines(destination.write, format) : null;
  const dropped = requestLines(() => {}, format);
  const line = (i) => ({
    request_id: `01a21a7f-68a6-761e-bb25-${String(i).padStart(12, "0")}`,
    method: "GET",
    route: "/api/v1/timers/{timer_id}/status",
    status: 200,
    duration_ms: 0.297,
    account_id: "0b6c3c1e-68a6-761e-bb25-51d756006d21",
    environment: "production",
  });
  const ways = {
    none: (i) => line(i),
    pino: (i) => logger.info(line(i), "request"),
    "ours, sonic-boom": (i) => toSonic(line(i)),
    ours: (i) => written(line(i)),
    "ours, unwritten": (i) => dropped(line(i)),
  };
  const one = ways[values.child];
  const turn = () => new Promise((ok) => setImmediate(ok));
  for (let i = 0; i < 20_000; i++) {
    one(i);
    if (i % 20 === 0) await turn();
  }
  const start = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    one(i);
    if (i % 20 === 0) await turn();
  }
  stream.write(gathered);
  await new Promise((ok) => stream.flush(ok));
  await destination?.flush();
  const used = process.cpuUsage(start);
  writeFileSync(values.out, String((used.user + used.system) / N));
  process.exit(0);
}

// The module from its TypeScript source, bundled once for this run.
const { build } = createRequire(here("../package.json"))("esbuild");
const dir = mkdtempSync(join(tmpdir(), "tminus-lines-"));
const module = join(dir, "request-lines.mjs");
const entry = join(dir, "entry.ts");
writeFileSync(
  entry,
  `export { requestLines } from ${JSON.stringify(here("../packages/cli/src/request-lines.ts"))};
export { logDestination } from ${JSON.stringify(here("../packages/cli/src/log-destination.ts"))};`,
);
await build({
  entryPoints: [entry],
  outfile: module,
  format: "esm",
  bundle: true,
  logLevel: "error",
});
const ways = ["none", "pino", "ours, sonic-boom", "ours", "ours, unwritten"];
const figures = Object.fromEntries(ways.map((w) => [w, []]));
console.log(
  `load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}; ${values.rounds} rounds of ${N} lines`,
);
for (let r = 0; r < Number(values.rounds); r++) {
  for (const way of r % 2 ? [...ways].reverse() : ways) {
    // stdout into a pipe that another node process drains.
    const out = join(dir, "figure");
    execFileSync(
      "/bin/sh",
      [
        "-c",
        `"${process.execPath}" "${here("./request-lines.mjs")}" --lines ${N} --child "${way}" --module "${module}" --out "${out}" | "${process.execPath}" -e "process.stdin.resume()"`,
      ],
      { stdio: ["ignore", "ignore", "inherit"] },
    );
    figures[way].push(Number(readFileSync(out, "utf8")));
  }
}
rmSync(dir, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const way of ways) {
  console.log(
    `${way}: ${median(figures[way]).toFixed(2)} us of CPU per line (rounds: ${figures[way].map((x) => x.toFixed(2)).join(" ")})`,
  );
}
console.log(
  `load at the end ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}`,
);
