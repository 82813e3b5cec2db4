import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { uuidv7, uuidv7Time } from "../src/ids";

describe("uuidv7 (request ids)", () => {
  it("is a version 7, RFC 4122 variant UUID carrying the millisecond", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), (ms) => {
        const id = uuidv7(ms);
        expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(ms);
      }),
    );
  });

  it("sorts by time (so the request log's index grows at its end) and never repeats", () => {
    const ids = Array.from({ length: 5000 }, (_, i) => uuidv7(1_800_000_000_000 + i));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 5000 }, () => uuidv7(1)))).toHaveProperty("size", 5000);
  });

  it("gives back its millisecond (either case), and null for anything but a UUIDv7", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), (ms) => {
        expect(uuidv7Time(uuidv7(ms))).toBe(ms);
        expect(uuidv7Time(uuidv7(ms).toUpperCase())).toBe(ms);
      }),
    );
    expect(uuidv7Time(randomUUID())).toBeNull();
    expect(uuidv7Time(`${uuidv7(5)}0`)).toBeNull();
    expect(uuidv7Time("01a20b7c-11b6-79b0-c2a0-60ac5b2937a0")).toBeNull(); // not RFC 4122 variant
    expect(uuidv7Time("")).toBeNull();
  });
});
