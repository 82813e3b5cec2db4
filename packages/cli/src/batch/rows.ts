// The rows of a `--batch` file, CSV or JSON Lines, as plain values with their line numbers.
import { createReadStream } from "node:fs";
import { extname } from "node:path";
import { isPlainObject } from "@tminus/core";
import { CliError } from "../errors";
import { CsvFatalError, parseCsv } from "./csv";

/** One recipient's values (CSV: strings, by header name; JSONL: the line's object). */
export interface BatchRow {
  line: number;
  values: Record<string, unknown>;
}

/** A row that could not be read; the others still are. */
export interface BatchRowFault {
  line: number;
  error: string;
}

/** How a batch file is read, from its extension. */
export type BatchFileKind = "csv" | "jsonl";

/** `.csv`, or `.jsonl` / `.ndjson`; anything else is a one-line error. */
export function batchFileKind(path: string): BatchFileKind {
  const ext = extname(path).toLowerCase();
  if (ext === ".csv") return "csv";
  if (ext === ".jsonl" || ext === ".ndjson") return "jsonl";
  throw new CliError(`--batch ${path}: use a .csv or .jsonl file (one recipient per row)`);
}

/**
 * Reads the rows of a batch file as a stream. A CSV header that cannot work (an empty or
 * repeated name) and an unterminated quote are CliErrors; a bad row is a fault.
 */
export async function* readRows(
  path: string,
  kind: BatchFileKind,
  shown: string,
): AsyncGenerator<BatchRow | BatchRowFault> {
  const stream = createReadStream(path, { encoding: "utf8" });
  try {
    if (kind === "csv") yield* csvRows(stream, shown);
    else yield* jsonlRows(stream);
  } catch (err) {
    if (err instanceof CsvFatalError) throw new CliError(`${shown}:${err.line}: ${err.message}`);
    const code = (err as { code?: string }).code;
    if (code === "ENOENT" || code === "EISDIR" || code === "EACCES")
      throw new CliError(`cannot read --batch ${shown}: ${(err as Error).message}`);
    throw err;
  } finally {
    stream.destroy();
  }
}

async function* csvRows(
  chunks: AsyncIterable<string>,
  shown: string,
): AsyncGenerator<BatchRow | BatchRowFault> {
  let header: string[] | null = null;
  for await (const record of parseCsv(chunks)) {
    if ("error" in record) {
      if (!header) throw new CliError(`${shown}:${record.line}: header row: ${record.error}`);
      yield record;
      continue;
    }
    if (!header) {
      header = record.fields.map((name) => name.trim());
      const seen = new Set<string>();
      for (const name of header) {
        if (name === "")
          throw new CliError(`${shown}:${record.line}: the header row has an empty column name`);
        if (seen.has(name))
          throw new CliError(`${shown}:${record.line}: the header row names "${name}" twice`);
        seen.add(name);
      }
      continue;
    }
    if (record.fields.length !== header.length) {
      yield {
        line: record.line,
        error: `${record.fields.length} fields, but the header has ${header.length} (quote a field that holds a comma)`,
      };
      continue;
    }
    const values: Record<string, unknown> = {};
    // An empty field is no value: the column's default applies to this row.
    record.fields.forEach((value, i) => {
      if (value !== "") values[header![i]!] = value;
    });
    yield { line: record.line, values };
  }
  if (!header) throw new CliError(`${shown} is empty: the first row must name the columns`);
}

async function* jsonlRows(chunks: AsyncIterable<string>): AsyncGenerator<BatchRow | BatchRowFault> {
  let line = 0;
  for await (const text of lines(chunks)) {
    line++;
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      yield { line, error: `not valid JSON: ${(err as Error).message}` };
      continue;
    }
    if (!isPlainObject(value)) yield { line, error: "each line must be a JSON object" };
    else yield { line, values: value };
  }
}

/** The lines of a text stream, without their LF or CRLF. */
async function* lines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let rest = "";
  let first = true;
  for await (let chunk of chunks) {
    if (first) {
      first = false;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    rest += chunk;
    let at = rest.indexOf("\n");
    let from = 0;
    while (at >= 0) {
      yield rest.slice(from, at > from && rest[at - 1] === "\r" ? at - 1 : at);
      from = at + 1;
      at = rest.indexOf("\n", from);
    }
    rest = rest.slice(from);
  }
  if (rest !== "") yield rest.endsWith("\r") ? rest.slice(0, -1) : rest;
}
