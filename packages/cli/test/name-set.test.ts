import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createNameSet } from "../src/batch/name-set";

// The batch's check that no two rows write the same file, against a Map of the names.
describe("the batch's set of file names", () => {
  it("answers like a Map of names to the line that took each, through growth", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a.gif", "b.gif", "")), {
          maxLength: 400,
        }),
        (names) => {
          const set = createNameSet();
          const model = new Map<string, number>();
          names.forEach((name, line) => {
            const before = set.take(name, line);
            expect(before).toBe(model.get(name));
            if (before === undefined) model.set(name, line);
          });
          expect(set.size).toBe(model.size);
        },
      ),
    );
  });

  it("tells 200,000 distinct names apart (no false 'taken') and finds each again", () => {
    const set = createNameSet();
    let refused = 0;
    for (let i = 0; i < 200_000; i++) if (set.take(`r${i}.gif`, i + 2) !== undefined) refused++;
    expect(refused).toBe(0);
    expect(set.size).toBe(200_000);
    const found: number[] = [];
    for (let i = 0; i < 200_000; i += 9973) found.push(set.take(`r${i}.gif`, 0) ?? -1);
    expect(found).toEqual(found.map((_, k) => k * 9973 + 2));
  });
});
