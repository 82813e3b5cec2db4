// Every character drawn or refused (issue 37), over real HTTP: emoji in the ended text and the
// labels are kept and drawn into the published timer's GIF; a character no font and no emoji
// has is refused on create and on change with validation_error, the field and the character.
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeGif, decodePng } from "../../render/test/helpers";
import {
  createTimer,
  expectError,
  fixedTimer,
  newKey,
  startTestServer,
  type TestServer,
} from "./_harness";

const Database = createRequire(new URL("../../store/package.json", import.meta.url))(
  "better-sqlite3",
) as typeof import("better-sqlite3");

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    sandbox: { new_timers_per_cycle: 50, requests_per_minute: 10_000 },
    plans: { starter: { requests_per_minute: 10_000, new_timers_per_cycle: 50 } },
  });
});
afterAll(() => s.close());

/** Strongly coloured pixels (an emoji's; the look's text and panel are greys and one blue). */
function colourful(rgba: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < rgba.length; i += 4) {
    const [r, g, b] = [rgba[i]!, rgba[i + 1]!, rgba[i + 2]!];
    if (Math.max(r, g, b) - Math.min(r, g, b) > 80 && !(b > r && b > g)) n++;
  }
  return n;
}

describe("emoji in a timer's texts", () => {
  it("are kept as sent and drawn into the GIF and the PNG", async () => {
    const key = await s.key("production");
    const timer = await createTimer(
      s,
      key,
      fixedTimer({
        deadline_at: "2020-01-01T00:00:00Z",
        look: { labels: { days: "días 🔥" } },
        ended: { text: "🎅 Sale over! 🎁" },
      }),
    );
    expect(timer.ended.text).toBe("🎅 Sale over! 🎁");
    expect(timer.look.labels.days).toBe("días 🔥");
    const gif = decodeGif(new Uint8Array(await (await fetch(timer.urls.gif)).arrayBuffer()));
    expect(colourful(gif.frames[0]!.rgba)).toBeGreaterThan(200);
    const png = decodePng(new Uint8Array(await (await fetch(timer.urls.png)).arrayBuffer()));
    expect(colourful(png.rgba)).toBeGreaterThan(200);
    // The plain "Ended" of a timer without emoji has none of those colours.
    const plain = await createTimer(s, key, fixedTimer({ deadline_at: "2020-01-01T00:00:00Z" }));
    const plainPng = decodePng(new Uint8Array(await (await fetch(plain.urls.png)).arrayBuffer()));
    expect(colourful(plainPng.rgba)).toBe(0);
  });

  it("show on the hosted page as sent", async () => {
    const key = await s.key("production");
    const timer = await createTimer(s, key, fixedTimer({ ended: { text: "🎅 Sale over! 🎁" } }));
    const html = await (await fetch(timer.urls.page)).text();
    expect(html).toContain("🎅 Sale over! 🎁");
  });
});

describe("a character images cannot draw", () => {
  const create = async (body: Record<string, unknown>) =>
    s.call("POST", "/api/v1/timers", {
      key: await s.key(),
      body,
      headers: { "idempotency-key": newKey() },
    });

  it("is refused on create with validation_error naming the field and the character", async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ ended: { text: "Sale over \uE000" } }, "ended.text", "U+E000"],
      [{ look: { labels: { hours: "h\u{F0000}" } } }, "look.labels.hours", "U+F0000"],
      [{ look: { separator: "\uE001" } }, "look.separator", "U+E001"],
    ];
    for (const [over, field, codePoint] of cases) {
      const err = expectError(await create(fixedTimer(over)), 400, "validation_error");
      expect(err.details).toEqual({ field });
      expect(err.message).toMatch(
        new RegExp(`^${field.replace(/\./g, "\\.")}: ${codePoint.replace("+", "\\+")}`),
      );
      expect(err.message).toContain("cannot be drawn");
    }
  });

  it("is refused on change too, and the timer keeps its text", async () => {
    const key = await s.key();
    const timer = await createTimer(s, key, fixedTimer({ ended: { text: "Over 🎉" } }), false);
    const res = await s.call("PATCH", `/api/v1/timers/${timer.id}`, {
      key,
      body: { ended: { text: "Over \uE000" } },
      headers: { "if-match": timer.revision },
    });
    expect(expectError(res, 400, "validation_error").details).toEqual({ field: "ended.text" });
    const read = await s.call("GET", `/api/v1/timers/${timer.id}`, { key });
    expect(read.json.data.ended.text).toBe("Over 🎉");
  });

  it("is not confused with scripts the fonts draw", async () => {
    for (const text of [
      "Распродажа окончена",
      "انتهى العرض!",
      "המבצע נגמר!",
      "หมดเวลาแล้ว",
      "ऑफ़र समाप्त",
      "セール終了",
      "세일 종료",
      "促销已结束",
    ]) {
      const res = await create(fixedTimer({ ended: { text } }));
      expect(res.status, `${text}: ${res.text}`).toBe(201);
    }
  });
});

describe("a timer saved before the check with text images cannot draw", () => {
  it("keeps its email images: the text drawn as it was then, never a broken image", async () => {
    const key = await s.key("production");
    const timer = await createTimer(s, key, fixedTimer({ deadline_at: "2020-01-01T00:00:00Z" }));
    const plain = new Uint8Array(await (await fetch(timer.urls.png)).arrayBuffer());
    // Another timer, written as an older version of the API let it be stored, then published.
    const draft = await createTimer(
      s,
      key,
      fixedTimer({ deadline_at: "2020-01-01T00:00:00Z", ended: { text: "Over" } }),
      false,
    );
    const db = new Database(s.dbPath);
    db.prepare(
      "UPDATE timers SET data = json_set(data, '$.definition.ended.text', ?) WHERE id = ?",
    ).run("Over \uE000", draft.id);
    db.close();
    const published = await s.call("POST", `/api/v1/timers/${draft.id}/publish`, {
      key,
      headers: { "if-match": draft.revision },
    });
    expect(published.status, published.text).toBe(200);
    const old = published.json.data;
    expect(old.ended.text).toBe("Over \uE000");
    const res = await fetch(old.urls.png);
    expect(res.status).toBe(200);
    const png = decodePng(new Uint8Array(await res.arrayBuffer()));
    // Drawn as images drew it before issue 37: "Ended", the timer without the text's picture.
    expect(png.rgba).toEqual(decodePng(plain).rgba);
  });
});
