// What `tminus render` reads from its flags, for one image and for a batch alike.
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import {
  isPlainObject,
  type LookInput,
  parseOffsetDateTime,
  type TimerDefinition,
  validateTimerCreate,
} from "@tminus/core";
import { CliError } from "../errors";
import { userPath } from "../paths";

/** The flags of `tminus render` that this module reads. */
export interface RenderFlags {
  deadline?: string;
  timer?: string;
  look?: string;
  format?: string;
}

function readJson(file: string, what: string): unknown {
  const path = userPath(file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new CliError(`cannot read ${what} ${path}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`${what} ${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/** An ISO 8601 flag value with Z or an offset, in epoch milliseconds. */
export function instant(value: string, flag: string): number {
  const ms = parseOffsetDateTime(value);
  if (ms === null)
    throw new CliError(`${flag} must be an ISO 8601 date-time with Z or an offset, got "${value}"`);
  return ms;
}

/** A whole-number flag value (the renderer checks its range and names the flag). */
export function intOption(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n)) throw new CliError(`${flag} must be an integer, got "${value}"`);
  return n;
}

/**
 * The timer to render: a POST /timers body from --timer, or (`fixedFallback`) a fixed timer
 * from --deadline; --look is laid over the body's own look before validation, so its partial
 * fields fill from the same defaults as the API's. Without either, undefined.
 */
export function definitionOf(
  flags: RenderFlags,
  fixedFallback: boolean,
): TimerDefinition | undefined {
  let body: Record<string, unknown>;
  if (flags.timer) {
    const parsed = readJson(flags.timer, "timer file");
    if (!isPlainObject(parsed))
      throw new CliError(`timer file ${flags.timer} must hold a JSON object`);
    body = parsed;
  } else if (fixedFallback && flags.deadline) {
    body = { type: "fixed", name: "tminus render", deadline_at: flags.deadline };
  } else return undefined;
  const look = lookOf(flags);
  if (look)
    body = { ...body, look: { ...(isPlainObject(body["look"]) ? body["look"] : {}), ...look } };
  return validated(body, flags);
}

/**
 * The --look file's fields, checked as the API checks a timer's look (a batch without
 * --timer lays them under each row's own look fields).
 */
export function checkedLook(flags: RenderFlags): LookInput | undefined {
  const look = lookOf(flags);
  if (look)
    validated({ type: "fixed", name: "look", deadline_at: "2000-01-01T00:00:00Z", look }, flags);
  return look as LookInput | undefined;
}

function lookOf(flags: RenderFlags): Record<string, unknown> | undefined {
  if (!flags.look) return undefined;
  const look = readJson(flags.look, "look file");
  if (!isPlainObject(look)) throw new CliError(`look file ${flags.look} must hold a JSON object`);
  return look;
}

function validated(body: Record<string, unknown>, flags: RenderFlags): TimerDefinition {
  const result = validateTimerCreate(body);
  if (result.ok) return result.value;
  const source =
    flags.timer ??
    (flags.look && result.issues[0]?.field.startsWith("look") ? flags.look : "--deadline");
  throw new CliError(`${source}: ${result.issues[0]!.message}`);
}

/** The image formats `render` writes, by file extension. */
const FORMATS: Record<string, "gif" | "png"> = { ".gif": "gif", ".png": "png" };

/** `--format`, when given: gif or png. */
export function formatFlag(flag: string | undefined): "gif" | "png" | undefined {
  if (flag !== undefined && flag !== "gif" && flag !== "png")
    throw new CliError(`--format must be gif or png, got "${flag}"`);
  return flag;
}

/**
 * The format of `--out`: its extension decides (`.gif`, `.png`); `--format`, when given, must
 * agree with it. A file without an extension (`/dev/stdout`) takes `--format`, else gif.
 */
export function outputFormat(out: string, flag: string | undefined): "gif" | "png" {
  const given = formatFlag(flag);
  const ext = extname(out).toLowerCase();
  if (ext === "") return given ?? "gif";
  const format = FORMATS[ext];
  if (format === undefined)
    throw new CliError(`--out ${out}: cannot write ${ext} images; use a .gif or .png file name`);
  if (given !== undefined && given !== format)
    throw new CliError(`--out ${out} is a .${format} file name but --format is ${given}`);
  return format;
}
