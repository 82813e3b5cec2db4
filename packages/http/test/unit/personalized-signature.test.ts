// The server's native check of a personalized URL's `sig` must answer exactly as core's
// portable one: the same valid signatures, and every edited, padded, truncated or
// re-encoded one refused by both.
import { createHmac } from "node:crypto";
import {
  legacyCanonicalPersonalizedParams,
  personalizedTimerSchema,
  resolvePersonalizedViewer,
  signPersonalizedParams,
  verifyPersonalizedParams,
} from "@tminus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { verifyPersonalizedSignature } from "../../src/personalized-signature";

const secret = "tps_0123456789abcdef0123456789abcdef";

describe("verifyPersonalizedSignature", () => {
  it("accepts core's signatures and refuses what core refuses", () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.record({ deadline: fc.string(), start: fc.string() }, { requiredKeys: [] }),
        fc.string(),
        (key, params, junk) => {
          const sig = signPersonalizedParams(key, params);
          // A link signed before 0.2, over the percent-encoded values.
          const legacy = createHmac("sha256", key)
            .update(legacyCanonicalPersonalizedParams(params))
            .digest("base64url");
          const variants = [
            sig,
            legacy,
            `${sig}=`,
            `${sig} `,
            sig.slice(1),
            `${sig}${junk}`,
            `${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`,
            sig.replaceAll("-", "+").replaceAll("_", "/"),
            junk,
            "",
          ];
          for (const v of variants)
            expect(verifyPersonalizedSignature(key, params, v)).toBe(
              verifyPersonalizedParams(key, params, v),
            );
          expect(verifyPersonalizedSignature(key, params, sig)).toBe(true);
        },
      ),
    );
  });

  it("decides a signed URL's viewer as core's default check does", () => {
    const definition = personalizedTimerSchema.parse({
      type: "personalized",
      name: "t",
      personalization: { source: "deadline", require_signature: true },
    });
    const deadline = "2026-12-01T09:00:00+01:00";
    const sig = signPersonalizedParams(secret, { deadline });
    const cases = [
      { deadline, sig },
      // The unencoded "+" a query string decodes to a space: signed as "+", as core says.
      { deadline: deadline.replace("+", " "), sig },
      { deadline: "2026-12-02T09:00:00+01:00", sig },
      { deadline, sig: `${sig}x` },
    ];
    for (const params of cases)
      expect(
        resolvePersonalizedViewer(definition, params, secret, verifyPersonalizedSignature),
      ).toEqual(resolvePersonalizedViewer(definition, params, secret));
    expect(
      resolvePersonalizedViewer(definition, cases[1]!, secret, verifyPersonalizedSignature).valid,
    ).toBe(true);
  });
});
