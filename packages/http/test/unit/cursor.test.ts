// Page cursors: opaque, sealed, bound to one query; and the list query's paging rules.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createCursorCodec } from "../../src/cursor";
import { cursorBinding, keysetPage, PAGE_LIMIT_DEFAULT, readListQuery } from "../../src/paging";
import { errorOf } from "./_errors";

const SECRET = "cursor-secret-for-tests";
const codec = createCursorCodec(SECRET);
const INVALID = "cursor is not valid: pass page.next_cursor from the previous response unchanged";

/** A token sealed as the service would seal it: anyone holding the secret can make one. */
function sealed(payload: unknown): string {
  const text = Buffer.from(typeof payload === "string" ? payload : JSON.stringify(payload));
  const body = text.toString("base64url");
  const mac = createHmac("sha256", SECRET).update(body).digest().subarray(0, 16);
  return `${body}.${mac.toString("base64url")}`;
}
const fingerprintOf = (binding: string) =>
  createHmac("sha256", "tminus-cursor-binding").update(binding).digest("base64url").slice(0, 16);

describe("cursors", () => {
  it("round-trips a position for the same query", () => {
    const token = codec.encode({ value: 1_700_000_000_123, id: "tmr_1" }, "q");
    expect(codec.decode(token, "q")).toEqual({ value: 1_700_000_000_123, id: "tmr_1" });
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
  });

  it("refuses a cursor of another query with its own message", () => {
    const token = codec.encode({ value: 1, id: "a" }, "account|sandbox|timers|status=draft");
    const error = errorOf(() => codec.decode(token, "account|sandbox|timers|status=published"));
    expect(error.code).toBe("validation_error");
    expect(error.details).toEqual({ field: "cursor" });
    expect(error.message).toMatch(/^cursor does not belong to this query/);
  });

  it("refuses edited, truncated, foreign and shapeless tokens as not valid", () => {
    const token = codec.encode({ value: 1, id: "a" }, "q");
    const [body, mac] = token.split(".") as [string, string];
    const other = createCursorCodec("another secret").encode({ value: 1, id: "a" }, "q");
    const flipped = `${body}.${mac[0] === "A" ? "B" : "A"}${mac.slice(1)}`;
    for (const bad of [
      "",
      body,
      `.${mac}`,
      `${body}.`,
      `${body}.${mac.slice(0, -2)}`,
      `${body}.${mac}AA`,
      flipped,
      `${body.slice(1)}.${mac}`,
      other,
    ]) {
      const error = errorOf(() => codec.decode(bad, "q"));
      expect([error.code, error.message, error.details], bad).toEqual([
        "validation_error",
        INVALID,
        { field: "cursor" },
      ]);
    }
  });

  it("refuses a correctly sealed payload of the wrong shape as not valid", () => {
    const fp = fingerprintOf("q");
    expect(codec.decode(sealed([5, "x", fp]), "q")).toEqual({ value: 5, id: "x" });
    for (const payload of [
      "not json",
      { value: 5, id: "x" },
      [5, "x"],
      [5, "x", fp, "extra"],
      ["5", "x", fp],
      [5, 6, fp],
    ]) {
      expect(
        errorOf(() => codec.decode(sealed(payload), "q")).message,
        JSON.stringify(payload),
      ).toBe(INVALID);
    }
  });

  it("accepts tokens up to 512 characters and refuses longer ones before any work", () => {
    // A sealed token is base64url(payload) + "." + 22 MAC characters; unpadded base64url
    // is never 4n+1 long, so no token is exactly 512: 511 is the longest that can pass.
    const fp = fingerprintOf("q");
    const sized = (length: number) => {
      // The id grows the token 4 base64 characters per 3 bytes: find the exact length.
      for (let n = 0; n < 400; n++) {
        const token = sealed([1, "i".repeat(n), fp]);
        if (token.length === length) return token;
      }
      throw new Error(`no token of length ${length}`);
    };
    const at = sized(511);
    expect(codec.decode(at, "q").id.length).toBeGreaterThan(300);
    expect(errorOf(() => codec.decode(sized(513), "q")).message).toBe(INVALID);
  });
});

describe("list queries", () => {
  const q = (text: string) => readListQuery(new URLSearchParams(text), ["status", "type"]);

  it("defaults limit to 25 and accepts 1..100, cursors and known filters", () => {
    expect(q("")).toEqual({ limit: PAGE_LIMIT_DEFAULT, cursor: null, filters: {} });
    expect(PAGE_LIMIT_DEFAULT).toBe(25);
    expect(q("limit=1").limit).toBe(1);
    expect(q("limit=100").limit).toBe(100);
    expect(q("limit=007").limit).toBe(7);
    expect(q("status=draft&cursor=abc&type=fixed")).toEqual({
      limit: 25,
      cursor: "abc",
      filters: { status: "draft", type: "fixed" },
    });
  });

  it("rejects limit outside 1..100 or not a plain integer, rather than clamping", () => {
    for (const raw of ["0", "101", "1000", "-1", "1.5", " 5", "5 ", "", "ten", "1e2", "0x10"]) {
      const error = errorOf(() => q(`limit=${encodeURIComponent(raw)}`));
      expect([error.message, error.details], raw).toEqual([
        "limit must be an integer from 1 to 100",
        { field: "limit" },
      ]);
    }
  });

  it("rejects an empty cursor, a repeated parameter and an unknown one", () => {
    const empty = errorOf(() => q("cursor="));
    expect([empty.message, empty.details]).toEqual([
      "cursor must not be empty; omit it for the first page",
      { field: "cursor" },
    ]);
    expect(errorOf(() => q("status=a&status=b")).message).toBe("status may be given only once");
    expect(errorOf(() => q("limit=5&limit=5")).details).toEqual({ field: "limit" });
    const unknown = errorOf(() => q("stauts=draft"));
    expect([unknown.message, unknown.details]).toEqual([
      "stauts is not a parameter of this list (known: limit, cursor, status, type)",
      { field: "stauts" },
    ]);
  });
});

describe("keyset pages", () => {
  const rows = [1, 2, 3, 4].map((n) => ({ n }));
  const options = {
    view: (row: { n: number }) => ({ id: `t${row.n}` }),
    position: (row: { n: number }) => ({ value: row.n, id: `t${row.n}` }),
    cursors: codec,
    binding: "q",
  };

  it("shows limit rows and seals the cursor at the last one when an extra row came back", () => {
    const result = keysetPage(rows, 3, options);
    expect(result.list).toEqual([{ id: "t1" }, { id: "t2" }, { id: "t3" }]);
    expect(result.page.has_more).toBe(true);
    expect(codec.decode(result.page.next_cursor!, "q")).toEqual({ value: 3, id: "t3" });
  });

  it("has no more and no cursor when no extra row came back, or nothing at all", () => {
    expect(keysetPage(rows, 4, options).page).toEqual({ has_more: false, next_cursor: null });
    expect(keysetPage(rows.slice(0, 2), 4, options).list).toHaveLength(2);
    expect(keysetPage([], 3, options)).toEqual({
      list: [],
      page: { has_more: false, next_cursor: null },
    });
  });

  it("binds cursors to account, environment, list and query, not to the key", () => {
    const account = { id: "acct" } as never;
    const keyA = { id: "key-a", environment: "production" } as never;
    const keyB = { id: "key-b", environment: "production" } as never;
    const sandbox = { id: "key-c", environment: "sandbox" } as never;
    const a = cursorBinding({ account, key: keyA }, "timers", "status=draft", "sort=created");
    expect(cursorBinding({ account, key: keyB }, "timers", "status=draft", "sort=created")).toBe(a);
    expect(a).toBe("acct|production|timers|status=draft|sort=created");
    expect(
      cursorBinding({ account, key: sandbox }, "timers", "status=draft", "sort=created"),
    ).not.toBe(a);
  });
});
