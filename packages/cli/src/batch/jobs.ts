// From a batch row to a render job and the file it is written to. The columns a row may
// have are documented in docs/cli.md (render --batch); any other column is the caller's,
// usable in the file name template.
import { extname } from "node:path";
import { isPlainObject } from "@tminus/core";
import type { RenderJob } from "@tminus/render";
import { createNameSet } from "./name-set";
import type { BatchRow } from "./rows";

/** A job of the batch: the render job, the file it goes to, and the row it came from. */
export interface BatchJob extends RenderJob {
  line: number;
  /** The file name, checked: one name in the output folder, nothing else. */
  file: string;
  /** The row's `id` column as text (for the manifest), or null without one. */
  id: string | null;
}

/** Columns whose text is a whole number in CSV. */
const INTEGERS = new Set(["width", "height", "frames", "scale"]);
/** Columns passed to the renderer as they are. */
const PLAIN = new Set(["format", "variant"]);
/** Instants: ISO 8601 text, or (CSV text of digits, or a JSON number) epoch milliseconds. */
const INSTANTS = new Set(["deadline", "start", "now"]);

/** The extensions a file name may end in, and the format each means. */
const EXTENSIONS: Record<string, "gif" | "png"> = { ".gif": "gif", ".png": "png" };

/** A row that cannot become a job: the message, without the line. */
export class RowError extends Error {}

/**
 * The job of one row. `--format` (`format`) is the batch default; a row's `format` column
 * wins, and the file name's extension must agree with the result.
 */
export function rowToJob(
  row: BatchRow,
  names: FileNames,
  defaults: { format: "gif" | "png" | undefined },
): BatchJob {
  const job: Record<string, unknown> = {};
  const look: Record<string, unknown> = {};
  for (const [column, raw] of Object.entries(row.values)) {
    if (PLAIN.has(column)) job[column] = raw;
    else if (INSTANTS.has(column)) job[column] = integerOf(raw);
    else if (INTEGERS.has(column)) job[column] = integerOf(raw);
    else if (column === "look") Object.assign(look, jsonObject(raw, "look"));
    else if (column === "timer") job["timer"] = jsonObject(raw, "timer");
    else if (column.startsWith("look.")) look[column.slice(5)] = lookValue(raw);
  }
  if (Object.keys(look).length > 0) job["look"] = look;
  const format = (job["format"] as string | undefined) ?? defaults.format;
  if (format !== undefined && format !== "gif" && format !== "png")
    throw new RowError(`format must be gif or png, got "${String(format)}"`);
  const file = names.name(row, format ?? "gif");
  const byName = EXTENSIONS[extname(file).toLowerCase()];
  if (byName === undefined)
    throw new RowError(`file name ${file} must end in .gif or .png (see --name)`);
  if (format !== undefined && format !== byName)
    throw new RowError(`file name ${file} does not match format ${format}`);
  const id = row.values["id"];
  const text = id === undefined || id === null || typeof id === "object" ? null : String(id);
  return { ...(job as RenderJob), format: byName, line: row.line, file, id: text };
}

function integerOf(raw: unknown): unknown {
  return typeof raw === "string" && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
}

/** CSV holds text: a look field that reads as JSON (48, false, ["hours"]) is that value. */
function lookValue(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function jsonObject(raw: unknown, column: string): Record<string, unknown> {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      value = undefined;
    }
  }
  if (!isPlainObject(value)) throw new RowError(`${column} must be a JSON object`);
  return value;
}

/**
 * File names from a template such as `{id}.gif`: `{column}` is the row's value of that
 * column, `{line}` its line in the file, `{format}` gif or png. A name is one file in the
 * output folder: values with a path separator, a control character or a character some file
 * systems refuse are errors, as are `.` and `..`, and a name a previous row took.
 */
export interface FileNames {
  name(row: BatchRow, format: string): string;
}

/** Characters no file name of the batch may contain (separators, Windows' reserved ones). */
const RESERVED = /[/\\<>:"|?*]/;

/** A separator, a reserved character or a control character (a newline in a name is trouble). */
function unsafe(text: string): boolean {
  if (RESERVED.test(text)) return true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Checks a `--name` template and returns its namer; throws RowError for a template that cannot work. */
export function fileNames(template: string): FileNames {
  const parts = template.split(/(\{[^{}]*\})/);
  const literal = parts.filter((_, i) => i % 2 === 0).join("");
  if (/[{}]/.test(literal))
    throw new RowError(`--name ${template}: a { or } without its pair; placeholders are {column}`);
  if (unsafe(literal))
    throw new RowError(`--name ${template}: a file name, not a path (no / \\ : * ? " < > |)`);
  if (template === "") throw new RowError("--name is empty");
  const taken = createNameSet();
  return {
    name(row, format) {
      const out = parts
        .map((part, i) => {
          if (i % 2 === 0) return part;
          const key = part.slice(1, -1);
          const value = key === "line" ? row.line : key === "format" ? format : row.values[key];
          if (value === undefined || value === null || value === "")
            throw new RowError(`no value for {${key}} of the file name template`);
          if (typeof value === "object")
            throw new RowError(`{${key}} of the file name template is not text`);
          const text = String(value);
          if (unsafe(text))
            throw new RowError(
              `{${key}} "${text}" cannot be part of a file name (no / \\ : * ? " < > | or control characters)`,
            );
          return text;
        })
        .join("");
      if (out === "." || out === "..") throw new RowError(`"${out}" is not a file name`);
      if (Buffer.byteLength(out) > 255)
        throw new RowError(`file name ${out.slice(0, 40)}... is longer than 255 bytes`);
      const before = taken.take(out, row.line);
      if (before !== undefined)
        throw new RowError(`file name ${out} is already taken by line ${before}`);
      return out;
    },
  };
}
