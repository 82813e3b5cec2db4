import { readFileSync, writeFileSync } from "node:fs";
import { extname } from "node:path";
import {
  computeStatus,
  emptyClock,
  isPlainObject,
  parseOffsetDateTime,
  validateTimerCreate,
} from "@tminus/core";
import { createImageRenderer, RenderError } from "@tminus/render";
import type { Command } from "commander";
import { CliError } from "../options";
import { userPath } from "../paths";

function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(userPath(file), "utf8");
  } catch (err) {
    throw new CliError(`cannot read ${what} ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${what} ${file} is not valid JSON: ${(err as Error).message}`);
  }
}

function instant(value: string, flag: string): number {
  const ms = parseOffsetDateTime(value);
  if (ms === null)
    throw new CliError(`${flag} must be an ISO 8601 date-time with Z or an offset, got "${value}"`);
  return ms;
}

function intOption(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new CliError(`${flag} must be an integer, got "${value}"`);
  return n;
}

/**
 * The timer definition to render: a POST /timers body from --timer, or a fixed
 * timer from --deadline; --look is laid over the body's own look before
 * validation, so its partial fields fill from the same defaults as the API's.
 */
function definitionOf(opts: { deadline?: string; timer?: string; look?: string }) {
  if (!opts.deadline === !opts.timer)
    throw new CliError("give exactly one of --deadline ISO or --timer FILE.json");
  let body: Record<string, unknown>;
  if (opts.timer) {
    const parsed = readJson(opts.timer, "timer file");
    if (!isPlainObject(parsed))
      throw new CliError(`timer file ${opts.timer} must hold a JSON object`);
    body = parsed;
  } else {
    body = { type: "fixed", name: "tminus render", deadline_at: opts.deadline };
  }
  if (opts.look) {
    const look = readJson(opts.look, "look file");
    if (!isPlainObject(look)) throw new CliError(`look file ${opts.look} must hold a JSON object`);
    body = { ...body, look: { ...(isPlainObject(body["look"]) ? body["look"] : {}), ...look } };
  }
  const result = validateTimerCreate(body);
  if (!result.ok) {
    const source =
      opts.timer ??
      (opts.look && result.issues[0]?.field.startsWith("look") ? opts.look : "--deadline");
    throw new CliError(`${source}: ${result.issues[0]!.message}`);
  }
  return result.value;
}

/** The image formats `render` writes, by file extension. */
const FORMATS: Record<string, "gif" | "png"> = { ".gif": "gif", ".png": "png" };

/**
 * The format of `--out`: its extension decides (`.gif`, `.png`); `--format`, when given, must
 * agree with it. A file without an extension (`/dev/stdout`) takes `--format`, else gif.
 */
export function outputFormat(out: string, flag: string | undefined): "gif" | "png" {
  if (flag !== undefined && flag !== "gif" && flag !== "png")
    throw new CliError(`--format must be gif or png, got "${flag}"`);
  const ext = extname(out).toLowerCase();
  if (ext === "") return flag ?? "gif";
  const format = FORMATS[ext];
  if (format === undefined)
    throw new CliError(`--out ${out}: cannot write ${ext} images; use a .gif or .png file name`);
  if (flag !== undefined && flag !== format)
    throw new CliError(`--out ${out} is a .${format} file name but --format is ${flag}`);
  return format;
}

/** `tminus render`: an email image (GIF or PNG) of a deadline or timer, for build steps. */
export function registerRender(program: Command): void {
  program
    .command("render")
    .description(
      "write a countdown GIF or PNG for a deadline or a timer definition, without a server",
    )
    .option("--deadline <iso>", "count down to this instant (a fixed timer)")
    .option("--timer <file>", "a timer definition as POST /api/v1/timers takes it (JSON)")
    .option("--look <file>", "look fields (JSON) laid over the timer's look")
    .option("--format <format>", "gif or png (default: the extension of --out)")
    .option("--frames <n>", "GIF frames, 1..60 (one per second)", "60")
    .option("--scale <n>", "1, or 2 for retina", "1")
    .option("--variant <variant>", "light or dark (the look's dark colours)", "light")
    .option("--width <px>", "width in CSS pixels, 100..1200", "600")
    .option("--height <px>", "height in CSS pixels, 40..600 (default: from the font size)")
    .option(
      "--now <iso>",
      "render as of this instant (default: the current time); same --now, same bytes",
    )
    .requiredOption("--out <file>", "where to write the image")
    .action(async (opts) => {
      const definition = definitionOf(opts);
      const now = opts.now === undefined ? Date.now() : instant(opts.now, "--now");
      const format = outputFormat(opts.out, opts.format);
      const out = userPath(opts.out);
      // Rendered as if published at --now: a duration timer shows its full length,
      // a personalized one its fallback deadline.
      const status = computeStatus(
        { definition, clock: { ...emptyClock(), published_at: now } },
        now,
      );
      const images = createImageRenderer({ maxLooks: 1 });
      const input = {
        remainingSeconds: status.remaining.total_seconds,
        running: status.state === "running",
        look: definition.look,
        ended: definition.ended,
        frames: intOption(opts.frames, "--frames"),
        scale: intOption(opts.scale, "--scale") as 1 | 2,
        variant: opts.variant,
        width: intOption(opts.width, "--width"),
        height: intOption(opts.height, "--height"),
      };
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
        writeFileSync(out, bytes);
      } catch (err) {
        throw new CliError(`cannot write ${out}: ${(err as Error).message}`);
      }
      const remaining = status.remaining.total_seconds;
      process.stdout.write(
        `wrote ${out} (${format}, ${bytes.length} bytes, ${remaining} s left at ${new Date(now).toISOString()})\n`,
      );
    });
}
