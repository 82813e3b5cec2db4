import { writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { computeStatus, emptyClock, imageInputOf } from "@tminus/core";
import { createImageRenderer, RenderError } from "@tminus/render";
import type { Command } from "commander";
import { makeFolder } from "../created";
import { CliError } from "../errors";
import { userPath } from "../paths";
import { type BatchFlags, renderBatch } from "./render-batch";
import { definitionOf, instant, intOption, outputFormat } from "./render-input";

/** Every flag of `tminus render`, as commander hands them over. */
interface RenderOptions extends BatchFlags {
  out?: string;
}

/** One image to `--out`. */
async function renderOne(opts: RenderOptions): Promise<void> {
  if (opts.outDir || opts.name || opts.outTar || opts.manifest)
    throw new CliError(
      "--out-dir, --out-tar, --manifest and --name go with --batch; one image is written to --out",
    );
  if (!opts.out) throw new CliError("--out FILE is required (or --batch FILE with --out-dir DIR)");
  if (!opts.deadline === !opts.timer)
    throw new CliError("give exactly one of --deadline ISO or --timer FILE.json");
  const definition = definitionOf(opts, true)!;
  const now = opts.now === undefined ? Date.now() : instant(opts.now, "--now");
  const format = outputFormat(opts.out, opts.format);
  const out = userPath(opts.out);
  // Rendered as if published at --now: a duration timer shows its full length,
  // a personalized one its fallback deadline.
  const status = computeStatus({ definition, clock: { ...emptyClock(), published_at: now } }, now);
  const images = createImageRenderer({ maxLooks: 1 });
  const input = imageInputOf(definition, status, {
    frames: intOption(opts.frames, "--frames"),
    scale: intOption(opts.scale, "--scale") as 1 | 2,
    variant: opts.variant as "light" | "dark",
    width: intOption(opts.width, "--width"),
    height: intOption(opts.height, "--height"),
  });
  let bytes: Uint8Array;
  try {
    bytes = format === "png" ? await images.png(input) : await images.gif(input);
  } catch (err) {
    if (err instanceof RenderError && err.field) {
      const flag = err.field.startsWith("look.")
        ? (opts.look ?? opts.timer ?? "look")
        : `--${err.field}`;
      throw new CliError(`${flag}: ${err.message}`);
    }
    throw err;
  }
  try {
    makeFolder(dirname(out));
    writeFileSync(out, bytes);
  } catch (err) {
    throw new CliError(`cannot write ${out}: ${(err as Error).message}`);
  }
  const remaining = status.remaining.total_seconds;
  process.stdout.write(
    `wrote ${out} (${format}, ${bytes.length} bytes, ${remaining} s left at ${new Date(now).toISOString()})\n`,
  );
}

/** `tminus render`: email images (GIF or PNG) of a deadline or timer, one or a batch, for build steps. */
export function registerRender(program: Command): void {
  program
    .command("render")
    .description(
      "write a countdown GIF or PNG for a deadline or a timer definition, or one per row of a CSV or JSONL file, without a server",
    )
    .option("--deadline <iso>", "count down to this instant (a fixed timer)")
    .option("--timer <file>", "a timer definition as POST /api/v1/timers takes it (JSON)")
    .option("--look <file>", "look fields (JSON) laid over the timer's look")
    .option("--format <format>", "gif or png (default: the extension of --out or --name)")
    .option("--frames <n>", "GIF frames, 1..60 (one per second)", "60")
    .option("--scale <n>", "1, or 2 for retina", "1")
    .option(
      "--variant <variant>",
      "light or dark (the look's dark colours, or the dark palette)",
      "light",
    )
    .option("--width <px>", "width in CSS pixels, 100..1200", "600")
    .option("--height <px>", "height in CSS pixels, 40..600 (default: from the font size)")
    .option(
      "--now <iso>",
      "render as of this instant (default: the current time); same --now, same bytes",
    )
    .option("--out <file>", "where to write the image (.gif or .png); its folder is made")
    .option(
      "--batch <file>",
      "one image per row of a .csv (header row) or .jsonl file: deadline, start, id, look.* ...",
    )
    .option("--out-dir <dir>", "with --batch: the folder the images are written to")
    .option(
      "--out-tar <file>",
      "with --batch: one tar archive (ustar) of the images instead of a folder; - for standard output",
    )
    .option(
      "--manifest <file>",
      "with --batch: a JSON line per image (id, file, remaining_seconds, state, bytes, line)",
    )
    .option(
      "--threads <n>",
      "with --batch: render threads beside this one, 0..64 (default: 0 up to 2,000 rows, else the idle CPUs less one, at most 4)",
    )
    .option(
      "--name <template>",
      "with --batch: file name of each image, {column} from the row (default {id}.{format})",
    )
    .action(async (opts: RenderOptions) => {
      if (opts.batch) await renderBatch(opts);
      else await renderOne(opts);
    });
}
