// Same-timer opens (issue 40): the campaign where everyone opens one timer's GIF, against a bare
// node:http server sending a buffer of the same size (`_floor-server.mjs image`), and two builds
// of `tminus serve` (this tree's and `--baseline`'s), in one run. Each server is its own process
// (default config, log level info, its own SQLite file, one published fixed timer); each round
// loads the three in turn with autocannon (the order rotating), the same connections and
// length, on `/t/{id}/countdown.gif` (600x160, 60 frames: every answer within a second is the
// same picture, from tminus's image cache). Per load: requests/s and the server's CPU per
// request (all threads, from /proc, net of idle: _measure.mjs). Medians of the rounds; the
// ratios are tminus over the bare server (rates) and the bare server's CPU over tminus's.
//
//   npx -y pnpm@10 build && node bench/same-timer-ab.mjs --baseline /work/wt/base
//     [--rounds 5] [--seconds 3] [--connections 32] [--path-query "width=600"]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { measured, median, startListening } from "./_measure.mjs";

const { values } = parseArgs({
  options: {
    baseline: { type: "string" },
    rounds: { type: "string", default: "5" },
    seconds: { type: "string", default: "3" },
    connections: { type: "string", default: "32" },
    "path-query": { type: "string", default: "" },
    json: { type: "boolean", default: false },
  },
});
const rounds = Number(values.rounds);
const duration = Number(values.seconds);
const connections = Number(values.connections);
const here = fileURLToPath(new URL("..", import.meta.url));
const builds = { ours: join(here, "packages/cli/dist/cli.js") };
if (values.baseline) builds.base = join(resolve(values.baseline), "packages/cli/dist/cli.js");
const dir = mkdtempSync(join(tmpdir(), "tminus-same-timer-"));
const uptime = () => execFileSync("uptime", { encoding: "utf8" }).trim();

/** `tminus serve` of one build, with its production key and one published timer. */
async function tminus(name, cli) {
  const child = spawn(
    process.execPath,
    [
      cli,
      "serve",
      "--no-worker",
      "--port",
      "0",
      "--db",
      join(dir, `${name}.db`),
      "--keys-file",
      join(dir, `${name}-keys.txt`),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  const url = await new Promise((ok, fail) => {
    const seen = (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        child.stdout.off("data", seen);
        // Its request lines are read and dropped, as a log shipper would.
        child.stdout.resume();
        ok(m[1]);
      }
    };
    child.stdout.on("data", seen);
    child.once("exit", (code) => fail(new Error(`${name} exited ${code}: ${out}`)));
  });
  // A first start writes its secrets to a 0600 file (issue 38), and shows them on stdout only
  // on a terminal.
  const keys = readFileSync(join(dir, `${name}-keys.txt`), "utf8");
  const key = /production\s+(\S+)/.exec(keys)[1];
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const created = await (
    await fetch(`${url}/api/v1/timers`, {
      method: "POST",
      headers: { ...headers, "idempotency-key": `same-${name}` },
      body: JSON.stringify({ name: "Sale", type: "fixed", deadline_at: "2099-01-01T00:00:00Z" }),
    })
  ).json();
  const published = await fetch(`${url}/api/v1/timers/${created.data.id}/publish`, {
    method: "POST",
    headers: { ...headers, "if-match": created.data.revision },
  });
  if (!published.ok) throw new Error(`${name}: publish ${published.status}`);
  const path = `/t/${created.data.id}/countdown.gif${values["path-query"] ? `?${values["path-query"]}` : ""}`;
  const first = await fetch(url + path);
  const size = (await first.arrayBuffer()).byteLength;
  if (first.status !== 200) throw new Error(`${name}: image ${first.status}`);
  return { child, url: url + path, size };
}

const servers = {};
for (const [name, cli] of Object.entries(builds)) servers[name] = await tminus(name, cli);
const size = servers.ours.size;
servers.bare = {
  ...(await startListening([join(here, "bench/_floor-server.mjs"), "image", String(size), "-"])),
  size,
};
servers.bare.url += "/t/x/countdown.gif";

const names = Object.keys(servers);
const results = Object.fromEntries(names.map((n) => [n, []]));
console.log(
  `same-timer opens: ${size} bytes a GIF, ${connections} connections, ${duration} s a load`,
);
console.log(`start: ${uptime()}`);
for (let round = 0; round < rounds; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length]);
  const line = [];
  for (const name of order) {
    const s = servers[name];
    const m = await measured(s.child.pid, { url: s.url, connections, duration });
    results[name].push(m);
    line.push(`${name} ${Math.round(m.rate)}/s ${m.cpu.toFixed(1)} us`);
  }
  console.log(`round ${round + 1}: ${line.join(", ")}  (load ${loadavg()[0].toFixed(1)})`);
}
const summary = {};
for (const name of names) {
  summary[name] = {
    rate: Math.round(median(results[name].map((m) => m.rate))),
    cpu_us: Math.round(median(results[name].map((m) => m.cpu)) * 10) / 10,
  };
}
for (const name of names.filter((n) => n !== "bare")) {
  summary[name].rate_ratio = median(
    results[name].map((m, i) => m.rate / results.bare[i].rate),
  ).toFixed(3);
  summary[name].cpu_ratio = median(
    results[name].map((m, i) => results.bare[i].cpu / m.cpu),
  ).toFixed(3);
}
console.log(`end: ${uptime()}`);
if (values.json) console.log(JSON.stringify(summary));
else console.table(summary);
for (const s of Object.values(servers)) s.child.kill("SIGTERM");
rmSync(dir, { recursive: true, force: true });
