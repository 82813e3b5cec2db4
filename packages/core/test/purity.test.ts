import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The package promises results that do not depend on the machine's clock or
// time zone. Rather than run the suite under many TZ values, this guards the
// cause: no source file may reach for the clock or local-time APIs.
const SRC = fileURLToPath(new URL("../src", import.meta.url));

const FORBIDDEN: Array<[RegExp, string]> = [
  [/\bDate\.now\s*\(/, "Date.now(): now is an argument"],
  [/\bnew Date\s*\(\s*\)/, "new Date(): now is an argument"],
  [/\bperformance\.now\s*\(/, "performance.now(): now is an argument"],
  [
    /\.(get|set)(FullYear|Month|Date|Day|Hours|Minutes|Seconds|Milliseconds)\s*\(/,
    "local-time Date getter/setter",
  ],
  [/\.getTimezoneOffset\s*\(/, "getTimezoneOffset(): the machine's zone"],
  [/\.toLocale\w*String\s*\(/, "toLocale*String(): the machine's zone and locale"],
  [/\bDate\.parse\s*\(/, "Date.parse(): reads offset-less text in the machine's zone"],
  [/\bDateTime\.(now|local)\s*\(/, "luxon DateTime.now()/local(): the clock or the machine's zone"],
  [/\bSettings\.(defaultZone|now)\b/, "luxon Settings: global state"],
  [/\bprocess\.env\b/, "process.env: configuration is passed in"],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

describe("purity", () => {
  it.each(sourceFiles(SRC).map((file) => file.slice(SRC.length + 1)))(
    "%s uses no clock or local time",
    (file) => {
      const lines = readFileSync(join(SRC, file), "utf8").split("\n");
      const found: string[] = [];
      lines.forEach((line, i) => {
        // Doc comments may show Date.now() in an @example: callers own the clock.
        if (/^\s*(\*|\/\*|\/\/)/.test(line)) return;
        const code = line.replace(/\/\/.*$/, "");
        for (const [pattern, why] of FORBIDDEN)
          if (pattern.test(code)) found.push(`${file}:${i + 1}: ${why}`);
      });
      expect(found).toEqual([]);
    },
  );
});
