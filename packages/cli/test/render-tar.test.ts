import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import omggif from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, runBin } from "./_bin";

// `render --batch --out-tar` and `--manifest`, through the built binary: the archive read back
// by the system's tar (GNU tar), every image in it decoded, the manifest checked row by row.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const now = "2026-11-25T10:00:00Z";
const nowMs = Date.parse(now);
let dir = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-tar-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function decode(bytes: Buffer) {
  const reader = new omggif.GifReader(bytes);
  return { width: reader.width, height: reader.height, frames: reader.numFrames() };
}

/** Rows r0..r{n-1}, deadlines a day and i x 1 h 1 min 1 s away; `pad` is i + 1 x's. */
function recipients(n: number): string {
  const rows = Array.from(
    { length: n },
    (_, i) =>
      `r${i},${new Date(nowMs + 86_400_000 + i * 3_661_000).toISOString()},${"x".repeat(i + 1)}`,
  );
  return `id,deadline,pad\n${rows.join("\n")}\n`;
}

describe("tminus render --batch --out-tar", () => {
  it("writes one ustar archive and a manifest line per image; tar reads it back, every GIF decodes, the bytes are those of --out-dir", async () => {
    const folder = join(dir, "file");
    mkdirSync(folder);
    // Row 3 has a bad deadline; the name template makes the last names longer than ustar's
    // 100 bytes (a pax header carries them).
    writeFileSync(
      join(folder, "r.csv"),
      recipients(6).replace(/\nr3,[^,]*,/, "\nr3,soon,") + "r6,2026-11-25T09:00:00Z,ended\n",
    );
    const name = "{id}-{pad}.gif";
    const batch = (...out: string[]) =>
      runBin(
        ["render", "--batch", "r.csv", ...out, "--name", name, "--now", now, "--frames", "10"],
        folder,
      );
    const tarred = await batch("--out-tar", "out/images.tar", "--manifest", "out/m.jsonl");
    expect(tarred.code).toBe(1);
    expect(tarred.stderr).toMatch(/^r\.csv:5: deadline must be an ISO 8601 date-time/);
    expect(tarred.stdout).toMatch(/^wrote 6 images to .*out\/images\.tar in [\d.]+ s/);

    const archive = join(folder, "out", "images.tar");
    const listed = execFileSync("tar", ["-tf", archive], { encoding: "utf8" }).trim().split("\n");
    const expected = [0, 1, 2, 4, 5]
      .map((i) => `r${i}-${"x".repeat(i + 1)}.gif`)
      .concat("r6-ended.gif");
    // All within ustar's 100 bytes; the next test has longer ones.
    expect(listed).toEqual(expected);
    const extracted = join(folder, "x");
    mkdirSync(extracted);
    execFileSync("tar", ["-xf", archive, "-C", extracted]);

    const plain = await batch("--out-dir", "dir");
    expect(plain.code).toBe(1);
    expect(readdirSync(extracted).sort()).toEqual(readdirSync(join(folder, "dir")).sort());

    const manifest = readFileSync(join(folder, "out", "m.jsonl"), "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(manifest.map((m) => m.file)).toEqual(expected);
    for (const [k, line] of manifest.entries()) {
      const bytes = readFileSync(join(extracted, line.file));
      expect(bytes.equals(readFileSync(join(folder, "dir", line.file)))).toBe(true);
      const i = Number(line.id.slice(1));
      const ended = line.id === "r6";
      expect(line).toEqual({
        id: `r${i}`,
        file: expected[k],
        remaining_seconds: ended ? 0 : 86_400 + i * 3_661,
        state: ended ? "ended" : "running",
        bytes: bytes.length,
        line: i + 2,
      });
      expect(decode(bytes)).toEqual({ width: 600, height: 160, frames: ended ? 1 : 10 });
    }
  }, 120_000);

  it("streams to standard output with `-`, long names in pax headers, the summary on stderr", async () => {
    const folder = join(dir, "stdout");
    mkdirSync(folder);
    writeFileSync(join(folder, "r.csv"), recipients(130));
    const child = spawn(
      process.execPath,
      [
        cli,
        "render",
        "--batch",
        "r.csv",
        "--out-tar",
        "-",
        "--name",
        "{pad}{id}.gif",
        "--now",
        now,
        "--frames",
        "2",
        "--threads",
        "1",
      ],
      { cwd: folder, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] },
    );
    const chunks: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stderr.on("data", (c: Buffer) => {
      stderr += c;
    });
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).toMatch(/^wrote 130 images to standard output in [\d.]+ s/);
    expect(code).toBe(0);
    const archive = Buffer.concat(chunks);
    // Blocks of 512 bytes, two zero blocks at the end.
    expect(archive.length % 512).toBe(0);
    expect(archive.subarray(-1024).every((b) => b === 0)).toBe(true);
    const listed = execFileSync("tar", ["-t"], { input: archive, encoding: "utf8" })
      .trim()
      .split("\n");
    expect(listed).toHaveLength(130);
    expect(listed[129]).toBe(`${"x".repeat(130)}r129.gif`);
    expect(listed).toEqual(Array.from({ length: 130 }, (_, i) => `${"x".repeat(i + 1)}r${i}.gif`));
    // Names of 101 bytes and more: rows 93 to 129.
    expect(listed.filter((n) => n.length > 100)).toHaveLength(37);
    const extracted = join(folder, "x");
    mkdirSync(extracted);
    execFileSync("tar", ["-x", "-C", extracted], { input: archive });
    for (const file of readdirSync(extracted))
      expect(decode(readFileSync(join(extracted, file)))).toMatchObject({ width: 600, frames: 2 });
    expect(readdirSync(extracted)).toHaveLength(130);
  }, 120_000);

  it("refuses combinations that cannot work, in one line, before writing anything", async () => {
    const folder = join(dir, "refused");
    mkdirSync(folder);
    writeFileSync(join(folder, "r.csv"), recipients(2));
    mkdirSync(join(folder, "adir"));
    const cases: Array<[string[], string]> = [
      [
        ["--out-tar", "a.tar", "--out", "x.gif"],
        "tminus: --batch writes to --out-dir DIR or --out-tar FILE, not --out\n",
      ],
      [
        ["--out-tar", "a.tar", "--out-dir", "d"],
        "tminus: give one of --out-dir DIR or --out-tar FILE, not both\n",
      ],
      [
        ["--manifest", "m.jsonl"],
        "tminus: --batch needs --out-dir DIR or --out-tar FILE for the images\n",
      ],
      [
        ["--out-tar", "a.tar", "--manifest", "-"],
        "tminus: --manifest needs a file name (standard output is for --out-tar -)\n",
      ],
      [
        ["--out-tar", "a.tar", "--manifest", "a.tar"],
        "tminus: --manifest a.tar is the file the images go to\n",
      ],
      [
        ["--out-tar", "adir"],
        `tminus: --out-tar ${join(folder, "adir")} is a folder, not a file\n`,
      ],
      [
        ["--out-dir", "d", "--manifest", "adir"],
        `tminus: --manifest ${join(folder, "adir")} is a folder, not a file\n`,
      ],
    ];
    for (const [args, stderr] of cases) {
      const result = await runBin(["render", "--batch", "r.csv", ...args], folder);
      expect({ args, stderr: result.stderr, code: result.code }).toEqual({ args, stderr, code: 1 });
    }
    const single = await runBin(["render", "--deadline", now, "--out-tar", "a.tar"], folder);
    expect(single.stderr).toBe(
      "tminus: --out-dir, --out-tar, --manifest and --name go with --batch; one image is written to --out\n",
    );
    // A header that cannot work stops the batch before its first image: no archive, no
    // manifest, no folder made for them.
    writeFileSync(join(folder, "twice.csv"), "id,id\na,b\n");
    const twice = await runBin(
      ["render", "--batch", "twice.csv", "--out-tar", "out/a.tar", "--manifest", "out/m.jsonl"],
      folder,
    );
    expect(twice.stderr).toBe('tminus: twice.csv:1: the header row names "id" twice\n');
    expect(readdirSync(folder).sort()).toEqual(["adir", "r.csv", "twice.csv"]);
  }, 120_000);
});
