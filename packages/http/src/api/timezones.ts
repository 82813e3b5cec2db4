import { describeTimeZone, TZDB_VERSION, timeZoneNames } from "@tminus/core";
import { z } from "zod";
import { cursorBinding } from "../paging";
import { responseSchemas } from "../schemas/registry";
import { listQuery, toldAs } from "../vocabulary/parameters";
import type { RouteContext, RouteResult } from "./context";
import { defineRoute } from "./define";

/** Longest accepted `search`: longer than any zone id, short enough to bound the work. */
export const TIMEZONE_SEARCH_MAX = 64;

/**
 * Response headers naming the tz data behind the answer: the release the accepted list comes
 * from (fixed at build time, see @tminus/core) and the ICU tz data the runtime computes
 * offsets with (`process.versions.tz`; absent on runtimes that do not report it).
 */
export const TZDB_VERSION_HEADER = "tminus-tzdb-version";
/** See {@link TZDB_VERSION_HEADER}. */
export const ICU_TZ_VERSION_HEADER = "tminus-icu-tz-version";

// Search compares lowercase text with underscores read as spaces, so "new york",
// "New_York" and "NEW YORK" all find America/New_York. Built once: the list is fixed.
let searchable: readonly string[] | undefined;
const normalize = (text: string) => text.toLowerCase().replaceAll("_", " ");

const QUERY = listQuery({
  search: toldAs(
    z.string().trim().min(1).max(TIMEZONE_SEARCH_MAX).overwrite(normalize),
    (name) => `${name} must be 1 to ${TIMEZONE_SEARCH_MAX} characters; omit it to list every zone`,
  )
    .optional()
    .meta({
      description: `Case-insensitive substring of the id, 1 to ${TIMEZONE_SEARCH_MAX} characters; spaces match underscores (\`new york\` finds \`America/New_York\`).`,
      example: "new york",
    }),
});

function versionHeaders(): Record<string, string> {
  const headers: Record<string, string> = { [TZDB_VERSION_HEADER]: TZDB_VERSION };
  const icu = process.versions.tz;
  if (icu) headers[ICU_TZ_VERSION_HEADER] = icu;
  return headers;
}

/**
 * GET /timezones: the accepted identifiers (canonical tz database names, never the JS engine's
 * preferred aliases), each described at the request's `now`. Keyset paging over the id: the
 * list is sorted by code unit, so "after the last id" stays right even when a tz release adds
 * or removes zones between two pages.
 */
async function listTimezones(
  ctx: RouteContext<unknown, unknown, z.output<typeof QUERY>>,
): Promise<RouteResult> {
  const { limit, cursor, search } = ctx.query;
  const binding = cursorBinding(ctx.auth, "timezones", search ?? "");
  const after = cursor ? ctx.services.cursors.decode(cursor, binding).id : undefined;
  searchable ??= timeZoneNames.map(normalize);

  const page: string[] = [];
  let hasMore = false;
  for (let i = 0; i < timeZoneNames.length; i++) {
    const name = timeZoneNames[i]!;
    if (after !== undefined && name <= after) continue;
    if (search !== undefined && !searchable[i]!.includes(search)) continue;
    if (page.length === limit) {
      hasMore = true;
      break;
    }
    page.push(name);
  }
  const last = page[page.length - 1];
  return {
    list: page.map((name) => ({ object: "timezone", ...describeTimeZone(name, ctx.now) })),
    page: {
      has_more: hasMore,
      next_cursor:
        hasMore && last ? ctx.services.cursors.encode({ value: 0, id: last }, binding) : null,
    },
    headers: versionHeaders(),
  };
}

/** GET /timezones, readable with the `timers:read` scope (zones only matter for timers). */
export const timezoneRoutes = [
  defineRoute({
    method: "GET",
    path: "/timezones",
    scope: "timers:read",
    operationId: "listTimeZones",
    summary: "List accepted time zones",
    description:
      "The authoritative list of identifiers accepted as a timer's `timezone`: the canonical zones of the IANA tz database (zone.tab and zone1970.tab, plus `Etc/UTC`), sorted by id. It does not depend on the JavaScript engine running the service, whose own list prefers some aliases (`Asia/Calcutta`). Offsets and DST are given at the time of the request. Needs no scope of its own: `timers:read` covers it.",
    tag: "Time zones",
    query: QUERY,
    success: {
      status: 200,
      schema: responseSchemas.TimeZoneList,
      description: "A page of time zones.",
      headers: ["Tminus-Tzdb-Version", "Tminus-Icu-Tz-Version"],
    },

    handle: listTimezones,
  }),
];
