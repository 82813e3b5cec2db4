import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import omggif from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built binary, exactly what `npx tminus render` runs in a build step.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const run = promisify(execFile);
let dir = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-render-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function tminus(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, "render", ...args]);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const deadline = ["--deadline", "2026-11-27T09:00:00+01:00", "--now", "2026-11-25T10:11:12Z"];

describe("tminus render", () => {
  it("writes a 60-frame GIF, and the same bytes again for the same --now", async () => {
    const a = join(dir, "a.gif");
    const b = join(dir, "b.gif");
    const first = await tminus([...deadline, "--out", a]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/wrote .*a\.gif \(gif, \d+ bytes, 164928 s left/);
    expect((await tminus([...deadline, "--out", b])).code).toBe(0);
    const bytes = readFileSync(a);
    expect(bytes.equals(readFileSync(b))).toBe(true);
    const reader = new omggif.GifReader(bytes);
    expect([reader.width, reader.height, reader.numFrames()]).toEqual([600, 160, 60]);
    expect(reader.frameInfo(1).delay).toBe(100);
    expect(reader.loopCount()).toBe(0);
  });

  it("writes a PNG when --out ends in .png, at 2x with --scale 2", async () => {
    const out = join(dir, "still.png");
    expect((await tminus([...deadline, "--scale", "2", "--out", out])).code).toBe(0);
    const png = readFileSync(out);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 320]);
  });

  it("takes the format from the --out extension, and refuses one it cannot write", async () => {
    const upper = join(dir, "STILL.PNG");
    expect((await tminus([...deadline, "--out", upper])).code).toBe(0);
    expect(readFileSync(upper).subarray(1, 4).toString()).toBe("PNG");
    const jpg = await tminus([...deadline, "--out", join(dir, "x.jpg")]);
    expect(jpg.code).toBe(1);
    expect(jpg.stderr).toBe(
      `tminus: --out ${join(dir, "x.jpg")}: cannot write .jpg images; use a .gif or .png file name\n`,
    );
    expect(existsSync(join(dir, "x.jpg"))).toBe(false);
    const clash = await tminus([...deadline, "--format", "png", "--out", join(dir, "y.gif")]);
    expect(clash.stderr).toBe(
      `tminus: --out ${join(dir, "y.gif")} is a .gif file name but --format is png\n`,
    );
    const webp = await tminus([...deadline, "--format", "webp", "--out", join(dir, "y.gif")]);
    expect(webp.stderr).toBe('tminus: --format must be gif or png, got "webp"\n');
    // No extension (a pipe, a device): --format decides.
    const bare = join(dir, "bare");
    expect((await tminus([...deadline, "--format", "png", "--out", bare])).code).toBe(0);
    expect(readFileSync(bare).subarray(1, 4).toString()).toBe("PNG");
  });

  it("renders any timer definition, with a look file laid over it", async () => {
    const timer = join(dir, "timer.json");
    const look = join(dir, "look.json");
    writeFileSync(
      timer,
      JSON.stringify({
        type: "duration",
        name: "Offer",
        duration_seconds: 900,
        look: { theme: "dark" },
      }),
    );
    writeFileSync(look, JSON.stringify({ units: ["minutes", "seconds"], show_labels: false }));
    const out = join(dir, "offer.gif");
    const result = await tminus([
      "--timer",
      timer,
      "--look",
      look,
      "--frames",
      "5",
      "--now",
      "2026-01-01T00:00:00Z",
      "--out",
      out,
    ]);
    expect(result.code).toBe(0);
    // A duration timer counts its full length from --now.
    expect(result.stdout).toContain("900 s left");
    expect(new omggif.GifReader(readFileSync(out)).numFrames()).toBe(5);
  });

  it("explains bad input in one line and exits 1", async () => {
    const bad = await tminus(["--deadline", "tomorrow", "--out", join(dir, "x.gif")]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^tminus: --deadline: deadline_at must be an ISO 8601/);
    const wide = await tminus([...deadline, "--width", "5000", "--out", join(dir, "x.gif")]);
    expect(wide.stderr).toBe("tminus: --width: width must be an integer from 100 to 1200\n");
    const frames = await tminus([...deadline, "--frames", "61", "--out", join(dir, "x.gif")]);
    expect(frames.stderr).toContain("--frames: frames must be an integer from 1 to 60");
    const both = await tminus(["--out", join(dir, "x.gif")]);
    expect(both.stderr).toContain("exactly one of --deadline ISO or --timer FILE.json");
    const look = join(dir, "bad-look.json");
    writeFileSync(look, JSON.stringify({ text_color: "red" }));
    const colour = await tminus([...deadline, "--look", look, "--out", join(dir, "x.gif")]);
    expect(colour.stderr).toContain("look.text_color must be a colour");
  });
});
