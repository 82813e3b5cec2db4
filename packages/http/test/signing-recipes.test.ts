// Every signing recipe of docs/email.md ("Signing per recipient"), run as written against a
// real server: Node's node:crypto, Python's hmac (python3), the CSV build step on
// @tminus/core, and Braze's Liquid (liquidjs, with Braze's hmac_sha256_base64 filter as
// Braze documents it: standard base64 of HMAC-SHA256, the key as its argument). Each signs
// the deadlines (ISO with Z, with an offset, Unix seconds); each signed link is
// read by the status route in every form a URL can carry it (as is, percent-encoded, an
// offset's + decoded to a space), and one email image per recipe is decoded: frame 0 is the
// recipient's countdown, not "Ended". Signatures made before 0.2 (over the percent-encoded
// value) still verify.
import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { legacyCanonicalPersonalizedParams } from "@tminus/core";
import { createImageRenderer } from "@tminus/render";
import { Liquid } from "liquidjs";
import omggif from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newKey, startTestServer, type TestServer } from "./_harness";

const NOW = Date.parse("2026-12-01T12:00:00Z");
const DEADLINE_AT = Date.parse("2026-12-07T20:43:39Z");
/** The deadline in the three forms contact fields hold it. */
const VALUES = [
  "2026-12-07T20:43:39Z",
  "2026-12-07T21:43:39+01:00",
  String(DEADLINE_AT / 1000),
] as const;

/** The code block after each `<!-- recipe: NAME -->` of docs/email.md, dedented. */
function recipes(): Record<string, string> {
  const docs = readFileSync(join(import.meta.dirname, "../../../docs/email.md"), "utf8");
  const out: Record<string, string> = {};
  for (const m of docs.matchAll(/<!-- recipe: (\w+) -->\n( *)```\w+\n([\s\S]*?)\n *```/g)) {
    const indent = m[2]!.length;
    out[m[1]!] = m[3]!
      .split("\n")
      .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
      .join("\n");
  }
  return out;
}

let s: TestServer;
let key: Awaited<ReturnType<TestServer["key"]>>;
let timer: { id: string; signing_secret: string; look: Record<string, unknown> };
const code = recipes();
// A folder inside the workspace, so the CSV step's `import "@tminus/core"` resolves as in a
// project that installed it.
const work = mkdtempSync(join(import.meta.dirname, ".recipes-"));
const outside = mkdtempSync(join(tmpdir(), "tminus-recipes-"));

beforeAll(async () => {
  s = await startTestServer();
  s.setNow(NOW);
  key = await s.key("production");
  const made = await s.call("POST", "/api/v1/timers", {
    key,
    body: {
      name: "Trial ends",
      type: "personalized",
      personalization: { source: "deadline", require_signature: true },
    },
    headers: { "idempotency-key": newKey() },
  });
  expect(made.status, made.text).toBe(201);
  timer = made.json.data;
  const published = await s.call("POST", `/api/v1/timers/${timer.id}/publish`, {
    key,
    headers: { "if-match": made.json.data.revision },
  });
  expect(published.status, published.text).toBe(200);
});

afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
  await s?.close();
});

const env = () => ({ ...process.env, TMINUS_SIGNING_SECRET: timer.signing_secret });

/** Each recipe as a function from a deadline to what it puts in the email's image URL. */
const SIGNERS: Record<string, (deadline: string) => Promise<{ query: string }>> = {
  async node(deadline) {
    const file = join(outside, "sign.mjs");
    writeFileSync(file, code.node!);
    const sig = execFileSync(process.execPath, [file, deadline], { env: env() }).toString().trim();
    return { query: `deadline=${deadline}&sig=${sig}` };
  },
  async python(deadline) {
    const file = join(outside, "sign.py");
    writeFileSync(file, code.python!);
    const sig = execFileSync("python3", [file, deadline], { env: env() }).toString().trim();
    return { query: `deadline=${deadline}&sig=${sig}` };
  },
  async csv(deadline) {
    const file = join(work, "sign-contacts.mjs");
    writeFileSync(file, code.csv!);
    const input = `email,COUNTDOWN_DEADLINE\nann@example.com,${deadline}\n`;
    const out = execFileSync(process.execPath, [file], { env: env(), input }).toString();
    const [header, row] = out.trim().split("\n");
    expect(header).toBe("email,COUNTDOWN_DEADLINE,COUNTDOWN_SIG");
    const [, value, sig] = row!.split(",");
    expect(value).toBe(deadline);
    return { query: `deadline=${value}&sig=${sig}` };
  },
  async braze(deadline) {
    const liquid = new Liquid();
    // Braze's filter (braze.com, "Advanced filters"): HMAC-SHA256 as standard base64.
    liquid.registerFilter("hmac_sha256_base64", (text: string, secret: string) =>
      createHmac("sha256", secret).update(text).digest("base64"),
    );
    // Braze reads `custom_attribute.${name}` before Liquid runs; here it is the plain path.
    const template = code
      .braze!.replaceAll(/\$\{(\w+)\}/g, "$1")
      .replace("'psk_...'", `'${timer.signing_secret}'`);
    const html = await liquid.parseAndRender(template, {
      custom_attribute: { countdown_deadline: deadline },
    });
    const src = /src="BASE\?([^"]+)"/.exec(html);
    expect(src, html).not.toBeNull();
    return { query: src![1]! };
  },
};

/** What the status route says for a query as the email's URL carries it. */
async function statusOf(query: string) {
  const res = await s.call("GET", `/api/v1/timers/${timer.id}/status?${query}`, { key });
  expect(res.status, res.text).toBe(200);
  return res.json.data as { deadline_source: string; target_at: string | null };
}

/** The query with the deadline's value percent-encoded, as `*|URL:FIELD|*` would write it. */
function encoded(query: string): string {
  const params = new URLSearchParams(query.replaceAll("+", "%2B"));
  return `deadline=${encodeURIComponent(params.get("deadline")!)}&sig=${params.get("sig")}`;
}

function firstFrame(bytes: Uint8Array) {
  const reader = new omggif.GifReader(Buffer.from(bytes));
  const rgba = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, rgba);
  return { width: reader.width, height: reader.height, rgba };
}

describe("the signing recipes of docs/email.md, against a real server", () => {
  it("the docs hold the four recipes", () => {
    expect(Object.keys(code).sort()).toEqual(["braze", "csv", "node", "python"]);
  });

  for (const recipe of Object.keys(SIGNERS)) {
    it(`${recipe}: every deadline form verifies, as is, percent-encoded or with + as a space`, async () => {
      for (const deadline of VALUES) {
        const { query } = await SIGNERS[recipe]!(deadline);
        // As is: an offset's raw + arrives as a space, Z dates and seconds unchanged.
        for (const form of [query, encoded(query)]) {
          const status = await statusOf(form);
          expect(status, `${recipe} ${deadline} ${form}`).toMatchObject({
            deadline_source: "viewer",
            target_at: new Date(DEADLINE_AT).toISOString(),
          });
        }
      }
    });
  }

  it("each recipe's email image draws the recipient's countdown in frame 0, not Ended", async () => {
    const images = createImageRenderer();
    const expected = await images.rgba({
      remainingSeconds: (DEADLINE_AT - NOW) / 1000,
      look: timer.look as never,
    });
    const ended = await images.rgba({ remainingSeconds: 0, look: timer.look as never });
    for (const recipe of Object.keys(SIGNERS)) {
      const { query } = await SIGNERS[recipe]!(VALUES[1]);
      const res = await fetch(`${s.url}/t/${timer.id}/countdown.gif?${query}&frames=1`);
      expect(res.status).toBe(200);
      const frame = firstFrame(new Uint8Array(await res.arrayBuffer()));
      expect(frame.width).toBe(expected.width);
      expect(Buffer.compare(Buffer.from(frame.rgba), Buffer.from(expected.rgba)), recipe).toBe(0);
      expect(Buffer.compare(Buffer.from(frame.rgba), Buffer.from(ended.rgba))).not.toBe(0);
    }
  });

  it("signatures over the percent-encoded value (sent before 0.2) still verify; edits do not", async () => {
    const deadline = VALUES[1];
    const legacy = createHmac("sha256", timer.signing_secret)
      .update(legacyCanonicalPersonalizedParams({ deadline }))
      .digest("base64url");
    for (const form of [
      `deadline=${deadline}&sig=${legacy}`,
      `deadline=${encodeURIComponent(deadline)}&sig=${legacy}`,
    ]) {
      expect((await statusOf(form)).deadline_source).toBe("viewer");
    }
    const { query } = await SIGNERS.node!(deadline);
    const sig = new URLSearchParams(query.replace("+", "%2B")).get("sig");
    expect(
      (await statusOf(`deadline=2026-12-08T21:43:39%2B01:00&sig=${sig}`)).deadline_source,
    ).toBe("none");
    expect(
      (await statusOf(`deadline=${encodeURIComponent(deadline)}&sig=${sig}x`)).deadline_source,
    ).toBe("none");
  });
});
