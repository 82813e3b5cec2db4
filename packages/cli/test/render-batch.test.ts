import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import omggif from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBin } from "./_bin";

// The built binary on real files: a CSV and a JSONL file in, decoded images out.
let dir = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-batch-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `tminus render <args>`, in `cwd`. */
function tminus(args: string[], cwd = dir) {
  return runBin(["render", ...args], cwd);
}

const now = "2026-11-25T10:00:00Z";

function gif(path: string) {
  const reader = new omggif.GifReader(readFileSync(path));
  return { width: reader.width, height: reader.height, frames: reader.numFrames() };
}

function png(path: string) {
  const bytes = readFileSync(path);
  expect(bytes.subarray(1, 4).toString()).toBe("PNG");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("tminus render --batch", () => {
  it("renders one image per CSV row, each the image `render` makes for that recipient alone", async () => {
    const folder = join(dir, "csv");
    mkdirSync(folder);
    writeFileSync(
      join(folder, "recipients.csv"),
      "\uFEFFid,deadline,name,look.theme,look.show_labels,width,format\r\n" +
        'alice,2026-11-27T09:00:00+01:00,"Doe, Alice",,,,\r\n' +
        'bob,2026-11-28T09:00:00Z,"Bob ""B"" Smith",dark,false,400,\r\n' +
        "carol,2026-11-25T10:01:30Z,Carol,,,,png\r\n",
    );
    const result = await tminus(
      ["--batch", "recipients.csv", "--out-dir", "out/images", "--now", now],
      folder,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^wrote 3 images to .*out\/images in \d+\.\d\d s \([\d.]+ images\/s\)\n$/,
    );
    const out = join(folder, "out", "images");
    expect(readdirSync(out).sort()).toEqual(["alice.gif", "bob.gif", "carol.png"]);
    expect(gif(join(out, "alice.gif"))).toEqual({ width: 600, height: 160, frames: 60 });
    // No labels: 2.5 times the 48 px font high.
    expect(gif(join(out, "bob.gif"))).toEqual({ width: 400, height: 120, frames: 60 });
    expect(png(join(out, "carol.png"))).toEqual({ width: 600, height: 160 });

    // The same bytes as one `tminus render` for alice's deadline.
    const single = join(folder, "alice-alone.gif");
    const alone = await tminus(
      ["--deadline", "2026-11-27T09:00:00+01:00", "--now", now, "--out", single],
      folder,
    );
    expect(alone.code).toBe(0);
    expect(readFileSync(join(out, "alice.gif")).equals(readFileSync(single))).toBe(true);
  });

  it("renders JSON Lines rows against a --timer, each from its own start, with a name template (and a render thread)", async () => {
    const folder = join(dir, "jsonl");
    mkdirSync(folder);
    writeFileSync(
      join(folder, "offer.json"),
      JSON.stringify({ type: "duration", name: "Offer", duration_seconds: 3600 }),
    );
    writeFileSync(
      join(folder, "rows.jsonl"),
      [
        { id: 1, start: "2026-11-25T09:50:00Z" },
        { id: 2, start: "2026-11-25T08:00:00Z", variant: "dark", look: { theme: "dark" } },
        { id: 3, frames: 5, scale: 2 },
      ]
        .map((row) => JSON.stringify(row))
        .join("\n"),
    );
    const result = await tminus(
      [
        "--threads",
        "1",
        "--batch",
        "rows.jsonl",
        "--timer",
        "offer.json",
        "--out-dir",
        "out",
        "--name",
        "offer-{id}-{line}.{format}",
        "--now",
        now,
      ],
      folder,
    );
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain("wrote 3 images");
    const out = join(folder, "out");
    expect(readdirSync(out).sort()).toEqual(["offer-1-1.gif", "offer-2-2.gif", "offer-3-3.gif"]);
    expect(gif(join(out, "offer-1-1.gif")).frames).toBe(60);
    // Started two hours before --now: a one-hour offer is over, one still frame.
    expect(gif(join(out, "offer-2-2.gif")).frames).toBe(1);
    expect(gif(join(out, "offer-3-3.gif"))).toEqual({ width: 1200, height: 320, frames: 5 });
  });

  it("reports each bad row on its own line with its line number, writes the rest, exits 1", async () => {
    const folder = join(dir, "bad");
    mkdirSync(folder);
    writeFileSync(
      join(folder, "r.csv"),
      [
        "id,deadline,width",
        "ok1,2026-11-27T09:00:00Z,",
        "late,tomorrow,",
        "../escape,2026-11-27T09:00:00Z,",
        "wide,2026-11-27T09:00:00Z,5000",
        "ok1,2026-11-27T09:00:00Z,",
        'q"uote,2026-11-27T09:00:00Z,',
        "short,2026-11-27T09:00:00Z",
        ",2026-11-27T09:00:00Z,",
        "ok2,2026-11-27T09:00:00Z,",
        // Epoch milliseconds, as the message says (2026-11-27T09:00:00Z).
        "epoch,1795770000000,",
      ].join("\n"),
    );
    const result = await tminus(["--batch", "r.csv", "--out-dir", "out", "--now", now], folder);
    expect(result.code).toBe(1);
    expect(result.stderr.split("\n")).toEqual([
      "r.csv:3: deadline must be an ISO 8601 date-time with Z or an offset, or epoch milliseconds",
      'r.csv:4: {id} "../escape" cannot be part of a file name (no / \\ : * ? " < > | or control characters)',
      "r.csv:5: width must be an integer from 100 to 1200",
      "r.csv:6: file name ok1.gif is already taken by line 2",
      expect.stringMatching(/^r\.csv:7: a quote inside a field/),
      "r.csv:8: 2 fields, but the header has 3 (quote a field that holds a comma)",
      "r.csv:9: no value for {id} of the file name template",
      "",
    ]);
    expect(result.stdout).toMatch(/^wrote 3 images to .* \(.*\); 7 failed\n$/);
    expect(readdirSync(join(folder, "out")).sort()).toEqual(["epoch.gif", "ok1.gif", "ok2.gif"]);
    expect(existsSync(join(folder, "escape.gif"))).toBe(false);

    writeFileSync(
      join(folder, "r.jsonl"),
      '{"id":"a","deadline":"2026-11-27T09:00:00Z"}\n{oops\n[1]\n',
    );
    const jsonl = await tminus(["--batch", "r.jsonl", "--out-dir", "out2", "--now", now], folder);
    expect(jsonl.code).toBe(1);
    expect(jsonl.stderr).toMatch(
      /^r\.jsonl:2: not valid JSON: .*\nr\.jsonl:3: each line must be a JSON object\n$/,
    );
    expect(readdirSync(join(folder, "out2"))).toEqual(["a.gif"]);
  });

  it("refuses what cannot work before rendering anything, in one line", async () => {
    const folder = join(dir, "refused");
    mkdirSync(folder);
    writeFileSync(join(folder, "r.csv"), "id,deadline\na,2026-11-27T09:00:00Z\n");
    writeFileSync(join(folder, "open.csv"), 'id,deadline\n"a,2026-11-27T09:00:00Z\n');
    writeFileSync(join(folder, "twice.csv"), "id,id\na,b\n");
    writeFileSync(join(folder, "file"), "");
    const cases: Array<[string[], string]> = [
      [
        ["--batch", "r.txt", "--out-dir", "o"],
        "tminus: --batch r.txt: use a .csv or .jsonl file (one recipient per row)\n",
      ],
      [
        ["--batch", "r.csv"],
        "tminus: --batch needs --out-dir DIR or --out-tar FILE for the images\n",
      ],
      [
        ["--batch", "r.csv", "--out", "x.gif"],
        "tminus: --batch writes to --out-dir DIR or --out-tar FILE, not --out\n",
      ],
      [
        ["--batch", "r.csv", "--out-dir", "o", "--name", "../{id}.gif"],
        expect.stringContaining("a file name, not a path"),
      ],
      [
        ["--batch", "r.csv", "--out-dir", "o", "--width", "5000"],
        "tminus: --width: width must be an integer from 100 to 1200\n",
      ],
      [
        ["--batch", "r.csv", "--out-dir", "file"],
        `tminus: --out-dir ${join(folder, "file")} is a file, not a folder\n`,
      ],
      [
        ["--batch", "missing.csv", "--out-dir", "o"],
        expect.stringMatching(/^tminus: cannot read --batch missing\.csv: ENOENT/),
      ],
      [
        ["--batch", "open.csv", "--out-dir", "o"],
        "tminus: open.csv:2: a quoted field is never closed (a quote is missing)\n",
      ],
      [
        ["--batch", "twice.csv", "--out-dir", "o"],
        'tminus: twice.csv:1: the header row names "id" twice\n',
      ],
      [
        ["--out-dir", "o", "--deadline", now],
        "tminus: --out-dir, --out-tar, --manifest and --name go with --batch; one image is written to --out\n",
      ],
    ];
    // A file that cannot be written ends the batch: the next ones would fail alike.
    mkdirSync(join(folder, "taken", "a.gif"), { recursive: true });
    cases.push([
      ["--batch", "r.csv", "--out-dir", "taken", "--now", now],
      expect.stringMatching(/^tminus: cannot write .*taken\/a\.gif: EISDIR/),
    ]);
    for (const [args, stderr] of cases) {
      const result = await tminus(args, folder);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr, args.join(" ")).toEqual(stderr);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
