import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv } from "./_bin";

// A batch's memory does not grow with its rows: 200,000 rows through the built binary in a
// child process whose V8 heap is capped at 64 MB, the tar stream read by this process as it
// comes (so the pipe's backpressure is real), the child's RSS sampled from /proc. Small
// one-frame images of one deadline keep the run to a few minutes on a busy machine; what is
// checked is the pipeline around the renderer: the CSV read as a stream, rows in flight,
// the name check, the tar and manifest writers.
const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const ROWS = 200_000;
let dir = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-memory-"));
  const lines = ["id,deadline"];
  for (let i = 0; i < ROWS; i++) lines.push(`recipient-${i},2026-11-26T10:00:00Z`);
  writeFileSync(join(dir, "rows.csv"), `${lines.join("\n")}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The process's resident set in MB (Linux), or null once it is gone. */
function rssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

describe.runIf(process.platform === "linux")("render --batch at 200,000 rows", () => {
  it("completes under a 64 MB heap with its RSS flat: no growth from the first half to the second", async () => {
    const child = spawn(
      process.execPath,
      [
        "--max-old-space-size=64",
        cli,
        "render",
        "--batch",
        "rows.csv",
        "--out-tar",
        "-",
        "--manifest",
        "manifest.jsonl",
        "--frames",
        "1",
        "--width",
        "100",
        "--height",
        "40",
        "--threads",
        "0",
        "--now",
        "2026-11-25T10:00:00Z",
      ],
      { cwd: dir, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] },
    );
    // Tar entries counted from the stream: a header, its file's blocks, the next header.
    let entries = 0;
    let skip = 0;
    let pending: Buffer = Buffer.alloc(0);
    let total = 0;
    child.stdout.on("data", (chunk: Buffer) => {
      total += chunk.length;
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      let at = 0;
      for (;;) {
        if (skip > 0) {
          const take = Math.min(skip, pending.length - at);
          skip -= take;
          at += take;
          if (skip > 0) break;
        }
        if (pending.length - at < 512) break;
        const header = pending.subarray(at, at + 512);
        at += 512;
        if (header[0] === 0) continue; // the end blocks
        const size = Number.parseInt(header.subarray(124, 136).toString("latin1"), 8);
        entries++;
        skip = Math.ceil(size / 512) * 512;
      }
      pending = pending.subarray(at);
    });
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => {
      stderr += c;
    });
    const samples: Array<{ at: number; mb: number }> = [];
    const started = Date.now();
    const timer = setInterval(() => {
      const mb = rssMb(child.pid!);
      if (mb !== null) samples.push({ at: Date.now() - started, mb });
    }, 100);
    const code = await new Promise((resolve) => child.on("close", resolve));
    clearInterval(timer);

    expect(stderr).toMatch(new RegExp(`^wrote ${ROWS} images to standard output in`));
    expect(code).toBe(0);
    expect(entries).toBe(ROWS);
    expect(total % 512).toBe(0);
    const manifest = statSync(join(dir, "manifest.jsonl")).size;
    expect(manifest).toBeGreaterThan(ROWS * 80);

    // The peak stays under a bound; the second half of the run peaks no higher than the
    // first half did (16 MB of slack for the allocator), where growth per row would show.
    expect(samples.length).toBeGreaterThan(20);
    const end = samples[samples.length - 1]!.at;
    const peak = (xs: typeof samples) => Math.max(...xs.map((s) => s.mb));
    const first = peak(samples.filter((s) => s.at <= end / 2));
    const second = peak(samples.filter((s) => s.at > end / 2));
    expect(peak(samples)).toBeLessThan(200);
    expect(second).toBeLessThan(first + 16);
  }, 900_000);
});
