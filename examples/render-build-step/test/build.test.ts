import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import omggif from "omggif";
import { beforeAll, describe, expect, it } from "vitest";

const example = fileURLToPath(new URL("..", import.meta.url));
const dist = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../dist/${name}`, import.meta.url)));
const run = promisify(execFile);

/** The example's build script, as `npm run build` runs it. */
async function build(sendAt: string): Promise<string> {
  const { stdout } = await run(process.execPath, ["build.mjs"], {
    cwd: example,
    env: { ...process.env, SEND_AT: sendAt },
  });
  return stdout;
}

beforeAll(() =>
  rmSync(fileURLToPath(new URL("../dist", import.meta.url)), { recursive: true, force: true }),
);

describe("render-build-step example", () => {
  it("renders light and dark GIFs at 1x and 2x, a PNG and the email snippet", async () => {
    const out = await build("2026-11-26T08:00:00Z");
    expect(out).toContain("86400 s left");
    for (const variant of ["light", "dark"]) {
      const one = new omggif.GifReader(dist(`countdown-${variant}@1x.gif`));
      const two = new omggif.GifReader(dist(`countdown-${variant}@2x.gif`));
      expect([one.width, one.height, one.numFrames()]).toEqual([600, 160, 60]);
      expect([two.width, two.height, two.numFrames()]).toEqual([1200, 320, 60]);
      expect(one.loopCount()).toBe(0);
      expect(one.frameInfo(59).delay).toBe(100);
    }
    // The dark variant really uses the campaign's dark background (#0B1120) at the panel's edge.
    const dark = new omggif.GifReader(dist("countdown-dark@1x.gif"));
    const screen = new Uint8Array(600 * 160 * 4);
    dark.decodeAndBlitFrameRGBA(0, screen);
    expect([...screen.subarray((80 * 600 + 10) * 4, (80 * 600 + 10) * 4 + 3)]).toEqual([
      0x0b, 0x11, 0x20,
    ]);
    expect(dist("countdown.png").subarray(1, 4).toString()).toBe("PNG");
    const snippet = dist("snippet.html").toString();
    expect(snippet).toContain('media="(prefers-color-scheme: dark)"');
    expect(snippet).toContain('alt="Black Friday 2026: countdown"');
  });

  it("is reproducible: the same send time gives the same bytes", async () => {
    await build("2026-11-26T08:00:00Z");
    const first = dist("countdown-light@1x.gif");
    await build("2026-11-26T08:00:00Z");
    expect(dist("countdown-light@1x.gif").equals(first)).toBe(true);
  });

  it("shows the ended look when sent after the deadline", async () => {
    await build("2026-11-28T00:00:00Z");
    const gif = new omggif.GifReader(dist("countdown-light@1x.gif"));
    expect(gif.numFrames()).toBe(1);
    expect(dist("snippet.html").toString()).toContain("The sale has ended");
  });
});
