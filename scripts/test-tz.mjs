// The core suite under other machine time zones, the three at once (the suite is pure CPU and
// short; one after another they took two minutes of CI). Each run's output is printed whole
// once it ends, and the script fails if any run fails. Each run keeps to one worker
// (--no-file-parallelism): three at once already fill the machine, and vitest.config.ts's
// worker count is for the whole suite.
import { spawn } from "node:child_process";

const ZONES = ["Pacific/Chatham", "America/St_Johns", "Asia/Kathmandu"];

const runs = ZONES.map(
  (tz) =>
    new Promise((resolve) => {
      const child = spawn("npx", ["vitest", "run", "--project", "core", "--no-file-parallelism"], {
        env: { ...process.env, TZ: tz },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
      });
      child.stderr.on("data", (chunk) => {
        out += chunk;
      });
      child.on("close", (code) => resolve({ tz, code, out }));
    }),
);
let failed = 0;
for (const { tz, code, out } of await Promise.all(runs)) {
  console.log(`== TZ=${tz}: ${code === 0 ? "passed" : `failed (exit ${code})`}\n${out}`);
  if (code !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
