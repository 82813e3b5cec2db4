// The analytics as CSV (RFC 4180): what a marketer opens in a spreadsheet. The columns are
// written once here; the OpenAPI document lists them from here and docs/analytics.md
// describes each one.
import { CLICK_STATES, CLIENT_FAMILIES, RENDER_KINDS, REQUEST_SOURCES } from "@tminus/store";
import type { ApiRequest } from "../transport/exchange";
import type { RouteResult } from "./context";

/** One column of a CSV answer: its header and the row value of a JSON item. */
export interface CsvColumn {
  name: string;
  value: (item: Record<string, unknown>) => unknown;
}

const field = (name: string): CsvColumn => ({ name, value: (item) => item[name] });
const part = (prefix: string, object: string, key: string): CsvColumn => ({
  name: `${prefix}_${key}`,
  value: (item) => (item[object] as Record<string, unknown>)[key],
});

/** The columns of GET /analytics and GET /timers/{timer_id}/analytics as CSV. */
export const BUCKET_COLUMNS: readonly CsvColumn[] = [
  field("start"),
  field("end"),
  field("views"),
  field("unique_viewers"),
  field("human_unique_viewers"),
  ...REQUEST_SOURCES.map((s) => part("views", "by_source", s)),
  ...RENDER_KINDS.map((k) => part("views", "by_kind", k)),
  ...CLIENT_FAMILIES.map((c) => part("views", "by_client", c)),
  field("clicks"),
  ...REQUEST_SOURCES.map((s) => part("clicks", "clicks_by_source", s)),
  ...CLICK_STATES.map((s) => part("clicks", "clicks_by_state", s)),
  field("click_through"),
];

const TOTAL_COLUMNS: readonly CsvColumn[] = [
  field("from"),
  field("to"),
  field("views"),
  ...REQUEST_SOURCES.map((s) => part("views", "by_source", s)),
  field("clicks"),
  ...REQUEST_SOURCES.map((s) => part("clicks", "clicks_by_source", s)),
];

/** The columns of the campaign totals as CSV. */
export const CAMPAIGN_COLUMNS: readonly CsvColumn[] = [field("campaign"), ...TOTAL_COLUMNS];

/** The columns of the timer totals as CSV. */
export const TIMER_COLUMNS: readonly CsvColumn[] = [
  field("timer_id"),
  field("name"),
  ...TOTAL_COLUMNS,
];

/**
 * A cell as RFC 4180 writes it: quoted when it holds a comma, quote or line break. A text
 * starting with `=`, `+`, `-`, `@`, tab or CR is prefixed with `'`, so a spreadsheet shows a
 * campaign label someone wrote as a formula instead of running it (OWASP's CSV injection).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header line and rows of `items` under `columns`, CRLF-terminated (RFC 4180). */
export function toCsv(columns: readonly CsvColumn[], items: readonly Record<string, unknown>[]) {
  const lines = [columns.map((c) => c.name).join(",")];
  for (const item of items) lines.push(columns.map((c) => csvCell(c.value(item))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/**
 * Whether the caller wants CSV: `format=csv`, or no `format` and an `Accept` header that
 * prefers `text/csv` to JSON (listed first, or the only one of the two).
 */
export function wantsCsv(req: Pick<ApiRequest, "header">, format: "json" | "csv" | undefined) {
  if (format !== undefined) return format === "csv";
  const accept = req.header("accept");
  if (accept === null) return false;
  for (const entry of accept.split(",")) {
    const [type, ...params] = entry.split(";").map((p) => p.trim().toLowerCase());
    // A type the caller refuses (q=0) does not count as asked for.
    if (params.some((p) => /^q=0(\.0*)?$/.test(p))) continue;
    if (type === "text/csv") return true;
    if (type === "application/json" || type === "*/*" || type === "application/*") return false;
  }
  return false;
}

/** A CSV answer named `name` (the download's file name). */
export function csvResult(
  name: string,
  columns: readonly CsvColumn[],
  items: readonly Record<string, unknown>[],
): RouteResult {
  return {
    raw: {
      status: 200,
      headers: {
        "content-type": "text/csv; charset=utf-8; header=present",
        "content-disposition": `attachment; filename="tminus-${name.replace(/[^a-z0-9-]/gi, "")}.csv"`,
        "cache-control": "no-store",
      },
      body: toCsv(columns, items),
    },
  };
}
