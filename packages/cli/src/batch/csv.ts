// The CSV dialect of `tminus render --batch`: RFC 4180 with a header row. Fields are
// separated by commas and records by LF or CRLF; a field in double quotes may hold commas,
// line breaks and quotes (doubled: ""); spaces around a field outside quotes are dropped;
// a UTF-8 byte-order mark is ignored; blank lines are skipped. Read as a stream, so a
// file of any length costs the memory of one record.

/** One record: its fields, and the line of the file it starts on (1 is the first line). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

/** A record that breaks the dialect: the rest of its line is skipped. */
export interface CsvFault {
  line: number;
  error: string;
}

/** A fault that ends the file: nothing after it can be read reliably (an open quote). */
export class CsvFatalError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

type State = "start" | "unquoted" | "quoted" | "quote" | "after" | "skip";

/**
 * Parses CSV text given in chunks (a file stream with `encoding: "utf8"`) into records, and
 * faults for malformed ones. Throws {@link CsvFatalError} on an unterminated quoted field.
 * @example
 * for await (const r of parseCsv(createReadStream(file, "utf8"))) console.log(r);
 */
export async function* parseCsv(
  chunks: AsyncIterable<string> | Iterable<string>,
): AsyncGenerator<CsvRecord | CsvFault> {
  let state: State = "start";
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let quotedAt = 0;
  let fault: string | null = null;
  let pendingCr = false;
  let first = true;
  // Anything but spaces on the record's lines: a line of nothing is skipped, `""` is not.
  let touched = false;

  const endField = () => {
    fields.push(state === "unquoted" ? field.trimEnd() : field);
    field = "";
  };
  const endRecord = (): CsvRecord | CsvFault | null => {
    const out: CsvRecord | CsvFault | null =
      fault !== null
        ? { line: recordLine, error: fault }
        : touched
          ? { line: recordLine, fields }
          : null;
    fields = [];
    fault = null;
    touched = false;
    state = "start";
    return out;
  };

  for await (let chunk of chunks) {
    if (first) {
      first = false;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (pendingCr) {
        pendingCr = false;
        if (c === "\n") continue;
      }
      // A whole plain line (no quote, no CR) at a record's start, as most rows are: split at
      // once instead of one character at a time (a campaign file has millions of them).
      if (state === "start" && fields.length === 0 && !touched && field === "") {
        const end = chunk.indexOf("\n", i);
        if (end >= 0) {
          const text = chunk.slice(i, end);
          if (!text.includes('"') && !text.includes("\r")) {
            const record = plainRecord(text, recordLine);
            line++;
            recordLine = line;
            i = end;
            if (record) yield record;
            continue;
          }
        }
      }
      if (c === "\n" || c === "\r") {
        if (c === "\r") pendingCr = true;
        if (state === "quoted") {
          field += "\n";
          line++;
          continue;
        }
        if (state !== "skip") endField();
        line++;
        const record = endRecord();
        recordLine = line;
        if (record) yield record;
        continue;
      }
      switch (state) {
        case "skip":
          break;
        case "start":
          if (c !== " " && c !== "\t") touched = true;
          if (c === '"') {
            state = "quoted";
            quotedAt = line;
          } else if (c === ",") {
            fields.push("");
          } else if (c !== " " && c !== "\t") {
            state = "unquoted";
            field = c;
          }
          break;
        case "unquoted":
          if (c === ",") {
            endField();
            state = "start";
          } else if (c === '"') {
            fault = `a quote inside a field that does not start with one (quote the whole field and double the quote: "a ""b"" c")`;
            state = "skip";
          } else field += c;
          break;
        case "quoted":
          if (c === '"') state = "quote";
          else field += c;
          break;
        case "quote":
          if (c === '"') {
            field += '"';
            state = "quoted";
          } else if (c === ",") {
            endField();
            state = "start";
          } else if (c === " " || c === "\t") state = "after";
          else {
            fault = `"${c}" after a closing quote (a quote inside a quoted field is written "")`;
            state = "skip";
          }
          break;
        case "after":
          if (c === ",") {
            endField();
            state = "start";
          } else if (c !== " " && c !== "\t") {
            fault = `"${c}" after a closing quote (a quote inside a quoted field is written "")`;
            state = "skip";
          }
          break;
      }
    }
  }
  if (state === "quoted")
    throw new CsvFatalError(quotedAt, "a quoted field is never closed (a quote is missing)");
  if (state !== "skip") endField();
  const last = endRecord();
  if (last) yield last;
}

/** A line without quotes: its fields, spaces and tabs before a field and spaces after it dropped; null if blank. */
function plainRecord(text: string, line: number): CsvRecord | null {
  const fields = text.split(",");
  if (fields.length === 1 && /^[ \t]*$/.test(text)) return null;
  for (let k = 0; k < fields.length; k++) fields[k] = fields[k]!.replace(/^[ \t]+/, "").trimEnd();
  return { line, fields };
}
