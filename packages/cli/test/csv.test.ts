import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CsvFatalError, type CsvFault, type CsvRecord, parseCsv } from "../src/batch/csv";
import { createProgress, progressLine, summaryLine } from "../src/batch/progress";

async function parse(text: string | string[]): Promise<Array<CsvRecord | CsvFault>> {
  const out: Array<CsvRecord | CsvFault> = [];
  for await (const r of parseCsv(typeof text === "string" ? [text] : text)) out.push(r);
  return out;
}

/** A field as a careful writer quotes it: when it holds a comma, quote, line break or edge space. */
function quote(field: string): string {
  return /[",\r\n]|^[ \t]|[ \t]$|^$/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}

describe("parseCsv", () => {
  it("reads the dialect: header, quotes, doubled quotes, CRLF, BOM, blank lines, spaces", async () => {
    const text =
      "\uFEFFid, deadline ,note\r\n" +
      'a,2026-11-27T09:00:00Z,"Doe, Jane"\r\n' +
      "\r\n" +
      'b , 2026-11-28T09:00:00Z , "say ""hi"""\n' +
      '"c","x","two\r\nlines"\n' +
      "d,,\n" +
      '"",e,  "f"  ';
    expect(await parse(text)).toEqual([
      { line: 1, fields: ["id", "deadline", "note"] },
      { line: 2, fields: ["a", "2026-11-27T09:00:00Z", "Doe, Jane"] },
      { line: 4, fields: ["b", "2026-11-28T09:00:00Z", 'say "hi"'] },
      { line: 5, fields: ["c", "x", "two\nlines"] },
      { line: 7, fields: ["d", "", ""] },
      { line: 8, fields: ["", "e", "f"] },
    ]);
  });

  it("reports a malformed record with its line and goes on with the next", async () => {
    expect(await parse('id\na"b\n"c"d\nok\n')).toEqual([
      { line: 1, fields: ["id"] },
      { line: 2, error: expect.stringContaining("a quote inside a field") },
      { line: 3, error: expect.stringContaining('"d" after a closing quote') },
      { line: 4, fields: ["ok"] },
    ]);
  });

  it("refuses an unterminated quote, naming the line it opened on", async () => {
    const error = await parse('id\n"a\nb\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvFatalError);
    expect(error).toMatchObject({ line: 2 });
  });

  it("reads any text alike whole (plain lines split at once) and a character at a time", async () => {
    const outcome = (text: string | string[]) =>
      parse(text).then(
        (records) => ({ records }),
        (e: unknown) => ({ fatal: (e as CsvFatalError).line }),
      );
    await fc.assert(
      fc.asyncProperty(
        fc
          .array(fc.constantFrom("a", "b", " ", "\t", ",", '"', "\n", "\r", "\u00a0"), {
            maxLength: 60,
          })
          .map((cs) => cs.join("")),
        async (text) => {
          expect(await outcome(text)).toEqual(await outcome([...text]));
        },
      ),
    );
  });

  it("reads back whatever a careful writer wrote, however the text is cut into chunks", async () => {
    const field = fc.string({
      unit: fc.constantFrom("a", "Z", " ", ",", '"', "\n", "\r\n", "é", "\t"),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(field, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.constantFrom("\n", "\r\n"),
        async (records, cuts, eol) => {
          const text = records.map((r) => r.map(quote).join(",")).join(eol) + eol;
          const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...at].map((from, i) => text.slice(from, at[i] ?? text.length));
          const parsed = await parse(chunks);
          // A line break inside quotes reads back as LF.
          const expected = records.map((r) => r.map((f) => f.replaceAll("\r\n", "\n")));
          expect(parsed.map((r) => ("fields" in r ? r.fields : r))).toEqual(expected);
          // Each record starts on the line after the previous one's last line.
          let line = 1;
          for (const [i, r] of parsed.entries()) {
            expect(r.line).toBe(line);
            line += 1 + records[i]!.join(",").split(/\r\n|\n/).length - 1;
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("batch progress", () => {
  const counts = { written: 250, failed: 2, expected: 1000, elapsedMs: 500 };

  it("draws a bar with counts and the rate, and a plain summary", () => {
    expect(progressLine(counts, 80)).toBe(
      `[${"#".repeat(10)}${"-".repeat(30)}] 252/1000 images, 2 failed, 500/s`,
    );
    expect(progressLine({ ...counts, expected: null }, 80)).toBe("252 images, 2 failed, 500/s");
    // More rows than the estimate: never past 100 %.
    expect(progressLine({ ...counts, expected: 100 }, 80)).toContain("[####");
    expect(progressLine({ ...counts, expected: 100 }, 80)).toContain("252/252 images");
    expect(summaryLine({ ...counts, elapsedMs: 2000 }, "out")).toBe(
      "wrote 250 images to out in 2.00 s (125 images/s); 2 failed",
    );
    expect(summaryLine({ written: 3, failed: 0, expected: 3, elapsedMs: 4000 }, "o")).toBe(
      "wrote 3 images to o in 4.00 s (0.8 images/s)",
    );
  });

  it("redraws in place on a terminal, at most every interval, and writes messages above the bar", () => {
    const writes: string[] = [];
    const tty = createProgress({ isTTY: true, columns: 60, write: (t) => writes.push(t) }, 100);
    tty.update({ ...counts, elapsedMs: 100 });
    tty.update({ ...counts, elapsedMs: 150 }); // too soon: not drawn
    tty.message("r.csv:3: bad");
    tty.finish({ ...counts, elapsedMs: 900 });
    expect(writes.filter((w) => w.startsWith("\r\u001b[K[")).length).toBe(3);
    expect(writes).toContain("\r\u001b[Kr.csv:3: bad\n");
    expect(writes.at(-1)).toBe("\n");

    const plain: string[] = [];
    const log = createProgress({ isTTY: false, write: (t) => plain.push(t) });
    log.update(counts);
    log.message("r.csv:3: bad");
    log.finish(counts);
    expect(plain).toEqual(["r.csv:3: bad\n"]);
  });
});
