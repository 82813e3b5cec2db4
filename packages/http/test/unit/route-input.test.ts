// Route parameters as zod schemas: parsed once before the handler, with the specification's
// codes and messages; and documented errors whose document example is what the service throws.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineRoute } from "../../src/api/define";
import { parseRouteInput } from "../../src/api/route-input";
import { apiRoutes } from "../../src/api/routes";
import * as catalogue from "../../src/vocabulary/error-cases";
import { listQuery, oneOf, RULE_ID, TIMER_ID, timerPath } from "../../src/vocabulary/parameters";
import { errorOf } from "./_errors";

const ID = "0B6C3C1E-3F0A-4D5E-9A43-8F1B2C3D4E5F";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const parse = (route: Parameters<typeof parseRouteInput>[0], params = {}, query = "") =>
  parseRouteInput(route, params, new URLSearchParams(query));

describe("path parameters", () => {
  const rule = { params: z.object({ timer_id: TIMER_ID, rule_id: RULE_ID }) };

  it("gives the handler lowercase ids", () => {
    expect(parse(rule, { timer_id: ID, rule_id: ID }).params).toEqual({
      timer_id: ID.toLowerCase(),
      rule_id: ID.toLowerCase(),
    });
  });

  it("answers a timer id that is not a UUID with invalid_timer_id, any other id with validation_error", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 100 }).filter((s) => !UUID.test(s)),
        (raw) => {
          const timer = errorOf(() => parse(rule, { timer_id: raw, rule_id: ID }));
          expect([timer.code, timer.message, timer.details]).toEqual([
            "invalid_timer_id",
            `timer id "${raw.slice(0, 64)}" is not a UUID`,
            undefined,
          ]);
          const other = errorOf(() => parse(rule, { timer_id: ID, rule_id: raw }));
          expect([other.code, other.message, other.details]).toEqual([
            "validation_error",
            `rule_id "${raw.slice(0, 64)}" is not a UUID`,
            { field: "rule_id" },
          ]);
        },
      ),
    );
  });

  it("answers a path id it has seen before as it did the first time", () => {
    for (let round = 0; round < 3; round++) {
      expect(parse(rule, { timer_id: ID, rule_id: ID.toLowerCase() }).params).toEqual({
        timer_id: ID.toLowerCase(),
        rule_id: ID.toLowerCase(),
      });
      expect(errorOf(() => parse(rule, { timer_id: `${ID}0`, rule_id: ID })).code).toBe(
        "invalid_timer_id",
      );
    }
    // More ids than are remembered (the memo starts over): still the schema's answers.
    const ids = Array.from({ length: 1500 }, (_, i) =>
      `0B6C3C1E-3F0A-4D5E-9A43-${i.toString(16).padStart(12, "0")}`.toUpperCase(),
    );
    for (const id of [...ids, ...ids]) {
      expect(parse(rule, { timer_id: id, rule_id: ID }).params.timer_id).toBe(id.toLowerCase());
    }
  });

  it("checks the path before the query", () => {
    const route = { params: timerPath, query: listQuery({}) };
    expect(errorOf(() => parse(route, { timer_id: "abc" }, "limit=0")).code).toBe(
      "invalid_timer_id",
    );
  });
});

describe("query parameters", () => {
  const list = { query: listQuery({ status: oneOf(["a", "b"]).optional() }) };

  it("types a list's query: limit (default 25), cursor and the filters", () => {
    expect(parse(list).query).toEqual({ limit: 25, cursor: undefined });
    expect(parse(list, {}, "status=b&limit=7&cursor=xyz").query).toEqual({
      status: "b",
      limit: 7,
      cursor: "xyz",
    });
  });

  it("names the parameter in every refusal", () => {
    const bad = errorOf(() => parse(list, {}, "status=c"));
    expect([bad.code, bad.message, bad.details]).toEqual([
      "validation_error",
      "status must be one of a, b",
      { field: "status" },
    ]);
    const unknown = errorOf(() => parse(list, {}, "state=a"));
    expect(unknown.message).toBe(
      "state is not a parameter of this list (known: limit, cursor, status)",
    );
    expect(errorOf(() => parse(list, {}, "limit=101")).details).toEqual({ field: "limit" });
  });

  it("reads only the named parameters of a query that is not a list's", () => {
    const route = { query: z.object({ start: z.string().optional() }) };
    expect(parse(route, {}, "start=1&start=2&other=x").query).toEqual({ start: "2" });
  });
});

describe("route definitions", () => {
  it("declare exactly the parameters of their path", () => {
    for (const route of apiRoutes) {
      const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(Object.keys(route.params?.shape ?? {}), route.operationId).toEqual(inPath);
    }
    const base = {
      method: "GET",
      scope: null,
      operationId: "x",
      summary: "",
      description: "",
      tag: "Timers",
      success: { status: 200, schema: z.object({}), description: "" },
      handle: async () => ({ data: null }),
    } as const;
    expect(() => defineRoute({ ...base, path: "/timers/{timer_id}" })).toThrow(/params/);
    expect(() => defineRoute({ ...base, path: "/timers", params: timerPath })).toThrow(/params/);
  });
});

describe("documented errors", () => {
  it("show in the document exactly what the service throws for the example", () => {
    const documented = Object.entries(catalogue).filter(
      (entry): entry is [string, catalogue.DocumentedError<unknown[]>] =>
        entry[1] instanceof catalogue.DocumentedError,
    );
    expect(documented.length).toBeGreaterThan(8);
    for (const [name, value] of documented) {
      const thrown = value.error(...value.example);
      expect([thrown.code, thrown.message, thrown.details], name).toEqual([
        value.code,
        value.message,
        value.details,
      ]);
    }
    const thrown = catalogue.TIMER_NOT_FOUND.error(catalogue.EXAMPLE_ID, "production");
    expect([thrown.code, thrown.message]).toEqual(["not_found", catalogue.TIMER_NOT_FOUND.message]);
    const stale = catalogue.STALE_REVISION.error(3, 4);
    expect([stale.status, stale.message, stale.details]).toEqual([
      409,
      catalogue.STALE_REVISION.message,
      catalogue.STALE_REVISION.details,
    ]);
  });
});
