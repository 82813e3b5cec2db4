// The core suite under other machine time zones, the three at once (the suite is pure CPU and
// short; one after another they took two minutes of CI). Each run's output is printed whole
// once it ends, and the script fails if any run fails.
import { spawn } from "node:child_process";

const ZONES = ["Pacific/Chatham", "America/St_Johns", "Asia/Kathmandu"];

const runs = ZONES.map(
  (tz) =>
    new Promise((resolve) => {
      const child = spawn("npx", ["vitest", "run", "--project", "core"], {
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
