// A/B of the HTTP path of an email image (issue 27): two `tminus serve` processes, this tree's
// and another build's (`--baseline-cli`, say a copy of main's packages with their dist), each
// on its own SQLite file with the same personalized timer, asked the same kind of burst in
// turn (A B B A A B ...), each burst IMAGES GIFs never asked before (distinct signed
// deadlines 1 to 365 days ahead), CONCURRENCY at a time. Per burst: the server's CPU per image
// (all threads, and its event loop alone; counted until the server is idle again, so renders
// still running after the last answer count) and full/still answers. On a shared machine the
// bursts of both sides see the same noise, so the medians compare better than two runs of
// images-over-http.mjs taken minutes apart.
//
//   npx -y pnpm@10 build && node bench/images-over-http-ab.mjs --baseline-cli OTHER/packages/cli/dist/cli.js
//     [--images 1000] [--bursts 6] [--concurrency 64] [--warm-images 500] [--max-wait-ms N]
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { signPersonalizedParams } from "../packages/core/dist/index.js";

const { values } = parseArgs({
  options: {
    "baseline-cli": { type: "string" },
    images: { type: "string", default: "1000" },
    bursts: { type: "string", default: "6" },
    concurrency: { type: "string", default: "64" },
    "warm-images": { type: "string", default: "500" },
    // A short render.max_wait_ms on both servers makes stills: what happens to their renders.
    "max-wait-ms": { type: "string" },
  },
});
if (!values["baseline-cli"]) throw new Error("--baseline-cli PATH (another build's cli.js)");
const IMAGES = Number(values.images);
const BURSTS = Number(values.bursts);
const CONCURRENCY = Number(values.concurrency);
const WARM = Number(values["warm-images"]);
const TIMER = {
  name: "Trial ends",
  type: "personalized",
  personalization: { source: "deadline", require_signature: true },
};
const r = (x, d = 3) => Math.round(x * 10 ** d) / 10 ** d;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
function cpuSeconds(pid, main = false) {
  const file = main ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`;
  const fields = readFileSync(file, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function start(name, cli) {
  const dir = mkdtempSync(join(tmpdir(), `tminus-ab-${name}-`));
  const db = join(dir, "bench.db");
  const config = join(dir, "config.json");
  writeFileSync(
    config,
    JSON.stringify({
      plans: { starter: { requests_per_minute: 1e9, new_timers_per_cycle: 1e9 } },
      render:
        values["max-wait-ms"] === undefined ? {} : { max_wait_ms: Number(values["max-wait-ms"]) },
    }),
  );
  const args = ["--db", db, "--config", config];
  const key = JSON.parse(
    execFileSync(
      process.execPath,
      [cli, "keys", "create", "--env", "production", "--account", "bench", ...args, "--json"],
      { encoding: "utf8" },
    ),
  );
  const child = spawn(
    process.execPath,
    [cli, "serve", "--port", "0", "--no-worker", ...args, "--log-level", "warn"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise((resolve, reject) => {
    let out = "";
    let listening = false;
    child.stdout.on("data", (c) => {
      if (listening) return; // request lines: read and dropped, never kept
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        listening = true;
        resolve(m[1]);
      }
    });
    child.once("exit", (code) => reject(new Error(`${name} exited ${code}`)));
  });
  const auth = { authorization: `Bearer ${key.secret}` };
  let timer = (
    await (
      await fetch(`${url}/api/v1/timers`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json", "idempotency-key": "ab" },
        body: JSON.stringify(TIMER),
      })
    ).json()
  ).data;
  if (timer.status !== "published") {
    const res = await fetch(`${url}/api/v1/timers/${timer.id}/publish`, {
      method: "POST",
      headers: { ...auth, "if-match": timer.revision },
    });
    timer = (await res.json()).data;
  }
  return { name, dir, child, url, timer, bursts: [] };
}

async function burst(server, deadlines) {
  const urls = deadlines.map((d) => {
    const deadline = String(d);
    const sig = signPersonalizedParams(server.timer.signing_secret, { deadline });
    return `${server.url}/t/${server.timer.id}/countdown.gif?deadline=${deadline}&sig=${sig}`;
  });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const out = { full: 0, stills: 0, other: 0 };
  let next = 0;
  const one = () =>
    new Promise((resolve) => {
      const i = next++;
      if (i >= urls.length) return resolve();
      request(urls[i], { agent }, (res) => {
        res.resume();
        res.on("end", () => {
          if (res.statusCode !== 200 || res.headers["content-type"] !== "image/gif") out.other++;
          else if (res.headers["x-tminus-degraded"] === "still") out.stills++;
          else out.full++;
          resolve(one());
        });
      })
        .on("error", () => {
          out.other++;
          resolve(one());
        })
        .end();
    });
  const pid = server.child.pid;
  const cpu = cpuSeconds(pid);
  const main = cpuSeconds(pid, true);
  await Promise.all(Array.from({ length: CONCURRENCY }, one));
  agent.destroy();
  // Work the answers left behind (renders a still stood in for) counts too: until it is idle.
  for (let last = -1, now = cpuSeconds(pid); now !== last; last = now, now = cpuSeconds(pid))
    await new Promise((resolve) => setTimeout(resolve, 300));
  const n = urls.length;
  return {
    ...out,
    serverMs: ((cpuSeconds(pid) - cpu) * 1000) / n,
    loopMs: ((cpuSeconds(pid, true) - main) * 1000) / n,
  };
}

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const servers = [
  await start("this tree", here("../packages/cli/dist/cli.js")),
  await start("baseline", values["baseline-cli"]),
];
const SLOTS = 2 * (BURSTS + 1);
const step = Math.floor((364 * 86_400) / (Math.max(IMAGES, WARM) * SLOTS));
const first = Math.floor(Date.now() / 1000) + 86_400;
const deadlinesOf = (slot, n) =>
  Array.from({ length: n }, (_, j) => first + (j * SLOTS + slot) * step);
const load0 = loadavg()[0];
try {
  for (const [i, s] of servers.entries()) await burst(s, deadlinesOf(i, WARM));
  for (let b = 0; b < BURSTS; b++) {
    // A B, B A, A B ...: neither side always goes first.
    const order = b % 2 ? [1, 0] : [0, 1];
    for (const i of order) {
      const got = await burst(servers[i], deadlinesOf(2 * (b + 1) + i, IMAGES));
      servers[i].bursts.push(got);
      console.error(
        `burst ${b + 1} ${servers[i].name}: server ${r(got.serverMs)} ms/image (event loop ${r(got.loopMs)}), ${got.full} full, ${got.stills} stills, ${got.other} other`,
      );
    }
  }
} finally {
  for (const s of servers) {
    s.child.kill("SIGTERM");
    await new Promise((resolve) => s.child.once("exit", resolve));
    rmSync(s.dir, { recursive: true, force: true });
  }
}
console.log(
  `${IMAGES} distinct personalized GIFs a burst, ${BURSTS} bursts a side alternating, concurrency ${CONCURRENCY}; load average ${r(load0, 1)} -> ${r(loadavg()[0], 1)}`,
);
for (const s of servers) {
  const m = (pick) => r(median(s.bursts.map(pick)));
  console.log(
    `  ${s.name}: server CPU ${m((x) => x.serverMs)} ms per image (event loop ${m((x) => x.loopMs)}); per burst server ${s.bursts.map((x) => r(x.serverMs)).join(" ")}, event loop ${s.bursts.map((x) => r(x.loopMs)).join(" ")}; full animations ${s.bursts.reduce((a, x) => a + x.full, 0)} of ${IMAGES * BURSTS} (${s.bursts.map((x) => x.full).join("/")}), stills ${s.bursts.map((x) => x.stills).join("/")}`,
  );
}
