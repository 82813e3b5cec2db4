// The first frame of every email GIF stands alone (Outlook desktop shows only it), over real
// HTTP with real decoders: it covers the whole image, needs nothing drawn before it, and is
// pixel for pixel the still PNG of the same instant, for every timer type, look and size; an
// ended timer is a single frame.
import omggif from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeGif, decodePng, samePixels } from "../../render/test/helpers";
import { fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const SECOND = 1000;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    plans: { starter: { requests_per_minute: 100_000, new_timers_per_cycle: 20 } },
  });
});
afterAll(() => s.close());

type Key = Awaited<ReturnType<TestServer["key"]>>;

async function published(key: Key, body: Record<string, unknown>) {
  const created = await s.call("POST", "/api/v1/timers", {
    key,
    body,
    headers: { "idempotency-key": newKey() },
  });
  expect(created.status, created.text).toBe(201);
  const pub = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
    key,
    headers: { "if-match": created.json.data.revision },
  });
  expect(pub.status, pub.text).toBe(200);
  return created.json.data.id as string;
}

async function bytesOf(url: string) {
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** The GIF and the PNG of one URL at one instant, decoded, and frame 0 decoded on its own. */
async function atInstant(id: string, query: string) {
  const gifBytes = await bytesOf(`${s.url}/t/${id}/countdown.gif?${query}`);
  const png = decodePng(await bytesOf(`${s.url}/t/${id}/countdown.png?${query}`));
  const gif = decodeGif(gifBytes);
  // Frame 0 alone, blitted onto an empty screen as a client that shows one frame does.
  const reader = new omggif.GifReader(Buffer.from(gifBytes));
  const alone = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, alone);
  return { gif, png, alone: { width: reader.width, height: reader.height, rgba: alone } };
}

const OPTIONS = ["", "variant=dark&scale=2&width=320", "width=480&frames=30"];

describe("the first frame of an email GIF", () => {
  it("is the still of the same instant, whole, for every timer type and option", async () => {
    s.setNow(T0);
    const key = await s.key("production");
    const timers: Array<[string, string, string]> = [
      ["fixed", await published(key, fixedTimer({ deadline_at: "2030-01-03T15:04:05Z" })), ""],
      [
        "fixed, transparent look",
        await published(
          key,
          fixedTimer({
            deadline_at: "2030-01-01T13:00:00Z",
            look: { transparent: true, matte_color: "#FFFFFF" },
          }),
        ),
        "",
      ],
      [
        "duration",
        await published(key, { name: "Evergreen", type: "duration", duration_seconds: 5400 }),
        "r=ann",
      ],
      [
        "recurring",
        await published(key, {
          name: "Weekly drop",
          type: "recurring",
          timezone: "America/New_York",
          recurrence: {
            rrule: "FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0",
            dtstart: "2026-01-05T09:00:00",
          },
        }),
        "",
      ],
      [
        "personalized",
        await published(key, {
          name: "Trial",
          type: "personalized",
          personalization: { source: "deadline" },
        }),
        "deadline=2030-01-01T12:09:58Z",
      ],
    ];
    // Instants a few seconds apart, so that the ticking digits differ between them.
    for (const [at, [type, id, recipient]] of timers.entries()) {
      s.setNow(T0 + (at * 7 + 1) * SECOND);
      for (const options of OPTIONS) {
        const label = `${type} ${options}`;
        const query = [recipient, options].filter(Boolean).join("&");
        const { gif, png, alone } = await atInstant(id, query);
        const first = gif.info[0]!;
        // Whole: it covers the logical screen, and nothing was on screen before it.
        expect([first.x, first.y, first.width, first.height], label).toEqual([
          0,
          0,
          gif.width,
          gif.height,
        ]);
        expect(samePixels(alone, gif.frames[0]!), label).toBe(true);
        // The same digits and labels as the still of that instant.
        expect(samePixels(alone, png), label).toBe(true);
        // An animation that runs: the next frame shows the next second.
        expect(gif.frames.length, label).toBe(options.includes("frames=30") ? 30 : 60);
        expect(samePixels(gif.frames[1]!, gif.frames[0]!), label).toBe(false);
        // An opaque look has no see-through pixel a client could fill with its own colour.
        if (!type.includes("transparent")) {
          const opaque = alone.rgba.every((v, i) => i % 4 !== 3 || v === 255);
          expect(opaque, label).toBe(true);
        }
      }
    }
  });

  it("an ended timer is one frame, the still of its ended look", async () => {
    s.setNow(T0);
    const key = await s.key("production");
    const ended = await published(
      key,
      fixedTimer({ deadline_at: "2029-12-31T00:00:00Z", ended: { text: "Sale over" } }),
    );
    for (const options of OPTIONS) {
      const { gif, png, alone } = await atInstant(ended, options);
      expect(gif.frames, options).toHaveLength(1);
      expect(samePixels(alone, png), options).toBe(true);
    }
    // Ending inside the animation: frame 0 is still that instant, the last frame the ended look.
    const soon = await published(
      key,
      fixedTimer({ deadline_at: "2030-01-01T12:00:03Z", ended: { text: "Sale over" } }),
    );
    const { gif, png, alone } = await atInstant(soon, "");
    expect(gif.frames).toHaveLength(4);
    expect(samePixels(alone, png)).toBe(true);
    s.setNow(T0 + 3 * SECOND);
    const after = await atInstant(soon, "");
    expect(after.gif.frames).toHaveLength(1);
    expect(samePixels(gif.frames[3]!, after.png)).toBe(true);
  });
});
