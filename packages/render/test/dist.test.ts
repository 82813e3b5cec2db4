import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The built package, as an app that installed it loads it: fonts and gifenc are
// found from dist/ through the dependencies, in both module formats.
const root = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);

// The render pool's threads too: their worker script is found in dist/ from either
// build, and they start under a parent that runs with -e and --input-type; renderMany's too.
const program = (load: string) => `
${load}
const png = await renderPng({ remainingSeconds: 3661, look: { font: "serif" } });
const gif = await renderGif({ remainingSeconds: 3661, frames: 3 });
const pool = createRenderPool({ threads: 1, warm: false });
const pooled = await pool.renderGif({ remainingSeconds: 3661, frames: 3 });
await pool.close();
let many = false;
for await (const r of renderMany([{ deadline: 3661000 }], { now: 0, frames: 3, threads: 1 }))
  many = r.ok && Buffer.from(r.bytes).equals(Buffer.from(gif));
process.stdout.write(JSON.stringify({ png: Buffer.from(png.subarray(1, 4)).toString(), gif: Buffer.from(gif.subarray(0, 6)).toString(), pooled: Buffer.from(pooled).equals(Buffer.from(gif)), many }));
`;

describe("the built package", () => {
  it("renders from the ESM build", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        program(
          'import { createRenderPool, renderGif, renderMany, renderPng } from "./dist/index.js";',
        ),
      ],
      { cwd: root },
    );
    expect(JSON.parse(stdout)).toEqual({ png: "PNG", gif: "GIF89a", pooled: true, many: true });
  });

  it("renders from the CommonJS build", async () => {
    const { stdout } = await run(
      process.execPath,
      [
        "-e",
        `(async () => { ${program('const { createRenderPool, renderGif, renderMany, renderPng } = require("./dist/index.cjs");')} })()`,
      ],
      { cwd: root },
    );
    expect(JSON.parse(stdout)).toEqual({ png: "PNG", gif: "GIF89a", pooled: true, many: true });
  });

  it("renders beside the caller's thread to the end of a script", async () => {
    // Closing a pool whose thread had not started once let the process end at `await`,
    // exit code 13, before the line after the loop ran.
    const { stdout } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { renderMany } from "./dist/index.js";
let ok = 0;
const jobs = Array.from({ length: 300 }, (_, i) => ({ deadline: 90061000 + i * 3661000 }));
for await (const r of renderMany(jobs, { now: 0, callerThread: true, threads: 1 })) ok += r.ok ? 1 : 0;
process.stdout.write(String(ok));`,
      ],
      { cwd: root },
    );
    expect(stdout).toBe("300");
  });
});
