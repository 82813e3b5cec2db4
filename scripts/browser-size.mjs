// How much `@tminus/core/browser` costs a page: its countdown math and formatting bundled as a
// page's bundler would (esbuild, minified, for browsers), gzipped at level 9. Fails above the
// budget (issue 27: 15 KB) and names the heaviest modules from esbuild's metafile, so a change
// that drags in a dependency (luxon was 71 of the 85 KB before) says which.
//   node scripts/browser-size.mjs [--json] [--budget BYTES]

import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};

/** The budget in bytes, gzipped: 15 KB. */
export const BUDGET = 15 * 1024;

/** What a page imports: the status math and every formatting function. */
const USE = `export { computeStatus, emptyClock, formatParts, splitRemaining, unitLabel } from "./browser";`;

/** Bundles `contents` (imports relative to `dir`) and returns sizes and the heaviest inputs. */
export async function measure(contents = USE, dir = `${root}packages/core/src`) {
  const result = await build({
    stdin: { contents, resolveDir: dir, loader: "ts", sourcefile: "page.ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  const [output] = Object.values(result.metafile.outputs);
  const inputs = Object.entries(output.inputs)
    .map(([file, info]) => ({ file, bytes: info.bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes);
  return { minified: code.byteLength, gzipped: gzipSync(code, { level: 9 }).byteLength, inputs };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const budget = Number(flag("--budget") ?? BUDGET);
  const size = await measure();
  const over = size.gzipped > budget;
  if (args.includes("--json")) {
    console.log(JSON.stringify({ ...size, budget, over }));
  } else {
    console.log(
      `@tminus/core/browser: ${size.minified} B minified, ${size.gzipped} B gzipped (budget ${budget} B)`,
    );
    for (const { file, bytes } of size.inputs.slice(0, 8)) console.log(`  ${bytes} B  ${file}`);
  }
  if (over) {
    console.error(`over budget: ${size.gzipped} B gzipped > ${budget} B`);
    process.exit(1);
  }
}
