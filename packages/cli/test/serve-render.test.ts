// `tminus serve` starts its render threads at start, below the API's priority, so the first
// email image does not wait for fonts and an atlas, and a storm of images yields the CPU to
// the API. Seen from outside: the process's threads in /proc (Linux).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { getPriority, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tminus-serve-render-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

function niceValues(pid: number): number[] {
  const out: number[] = [];
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      out.push(
        Number(
          readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ")[16],
        ),
      );
    } catch {
      // A thread that ended while listed.
    }
  }
  return out;
}

describe.runIf(process.platform === "linux")("tminus serve's render threads", () => {
  it("are running, 10 below the API's priority, before any image is asked for", async () => {
    const child = spawn(
      process.execPath,
      [cli, "serve", "--port", "0", "--db", join(dir, "t.db")],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (c) => {
        out += c;
        if (/listening on /.test(out)) resolve();
      });
      child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
    });
    const lowered = Math.min(19, getPriority() + 10);
    const deadline = Date.now() + 20_000;
    while (!niceValues(child.pid!).includes(lowered) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(niceValues(child.pid!)).toContain(lowered);
    // The API's own thread (its id is the process id) keeps the priority it started with.
    const main = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ")[16];
    expect(Number(main)).toBe(getPriority());
  });
});
