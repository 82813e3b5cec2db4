import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

// The size budget of `@tminus/core/browser` (issue 27), run as a process as CI would.
const SCRIPT = fileURLToPath(new URL("../scripts/browser-size.mjs", import.meta.url));
const run = promisify(execFile);

describe("scripts/browser-size.mjs", () => {
  it("bundles the countdown math and formatting to at most 15 KB gzipped, with no luxon or zod", async () => {
    const { stdout } = await run(process.execPath, [SCRIPT, "--json"]);
    const size = JSON.parse(stdout) as {
      gzipped: number;
      minified: number;
      inputs: { file: string }[];
    };
    expect(size.gzipped).toBeLessThanOrEqual(15 * 1024);
    expect(size.gzipped).toBeGreaterThan(1000);
    const files = size.inputs.map((i) => i.file).join("\n");
    expect(files).toContain("status/recurring.ts");
    expect(files).toContain("format/labels.ts");
    expect(files).not.toMatch(/luxon|zod|zones\.generated/);
  });

  it("fails, naming the size, when the bundle is over the budget", async () => {
    const failed = await run(process.execPath, [SCRIPT, "--budget", "1000"]).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/over budget: \d+ B gzipped > 1000 B/);
  });
});
