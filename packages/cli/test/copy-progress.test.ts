// `tminus copy`'s progress: a bar redrawn in place on a terminal, plain lines elsewhere.
import type { CopyProgressEvent } from "@tminus/store/copy";
import { describe, expect, it } from "vitest";
import { copyBar, createCopyProgress } from "../src/copy-progress";

const event = (
  table: string,
  tableRows: number,
  tableTotal: number,
  done: number,
): CopyProgressEvent => ({
  phase: "copy",
  table,
  tableRows,
  tableTotal,
  done,
  total: 1000,
});

describe("copy progress", () => {
  it("draws a bar of the share done, the table and the rate", () => {
    expect(copyBar(event("timers", 250, 500, 500), 200, 2000)).toBe(
      `[${"#".repeat(20)}${"-".repeat(20)}] copy timers 250/500, 500/1000 rows, 250/s`,
    );
    expect(copyBar(event("timers", 500, 500, 1000), 200, 0)).toMatch(/^\[#{40}\] .* 0\/s$/);
  });

  it("redraws on a terminal at most ten times a second; prints lines elsewhere", () => {
    let clock = 0;
    const tty: string[] = [];
    const bar = createCopyProgress(
      { isTTY: true, columns: 100, write: (t) => tty.push(t) },
      () => clock,
    );
    bar.update(event("accounts", 1, 1, 1));
    clock = 50;
    bar.update(event("timers", 10, 500, 11)); // too soon
    clock = 150;
    bar.update(event("timers", 20, 500, 21));
    bar.finish();
    expect(tty.filter((w) => w.startsWith("\r\u001b[K[")).length).toBe(2);
    expect(tty.at(-1)).toBe("\n");

    clock = 0;
    const lines: string[] = [];
    const log = createCopyProgress({ isTTY: false, write: (t) => lines.push(t) }, () => clock);
    log.update(event("accounts", 0, 1, 0));
    log.update(event("accounts", 1, 1, 1));
    log.update(event("secrets", 0, 0, 1)); // empty tables say nothing
    log.update(event("timers", 10, 500, 11));
    clock = 6000;
    log.update(event("timers", 20, 500, 21)); // five seconds on: a line anyway
    log.update(event("timers", 500, 500, 501));
    log.finish();
    expect(lines).toEqual([
      "copy: accounts 1/1 rows (1/1000 in all)\n",
      "copy: timers 20/500 rows (21/1000 in all)\n",
      "copy: timers 500/500 rows (501/1000 in all)\n",
    ]);
    expect(lines.join("")).not.toContain("\u001b");
  });
});
