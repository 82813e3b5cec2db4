// Issue 39 over HTTP: a look's style, background picture and words are stored, drawn in the
// images and served to the pages; an unknown picture or undrawable words are refused.
import { crc32, deflateSync } from "node:zlib";
import { readImage } from "@tminus/render";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError, fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    plans: { starter: { requests_per_minute: 100_000 } },
    sandbox: { requests_per_minute: 100_000 },
  });
});
afterAll(() => s.close());

type Key = Awaited<ReturnType<TestServer["key"]>>;

/** A 64 x 32 PNG of stripes, red and blue: drawn behind the panel, it shows at the corners. */
function stripes(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const w = 64;
  const h = 32;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.alloc((w * 3 + 1) * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      rows.set(x < w / 2 ? [220, 20, 20] : [20, 20, 220], y * (w * 3 + 1) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const create = (key: Key, look: Record<string, unknown>) =>
  s.call("POST", "/api/v1/timers", {
    key,
    body: fixedTimer({ look }),
    headers: { "idempotency-key": newKey() },
  });

async function publish(key: Key, timer: { id: string; revision: string }) {
  const once = () =>
    s.call("POST", `/api/v1/timers/${timer.id}/publish`, {
      key,
      headers: { "if-match": timer.revision },
    });
  // On this loaded machine a reused keep-alive connection is now and then reset under the
  // request (ECONNRESET, before any answer): asked again on a fresh one, unless it got through.
  let res = await once().catch(() => null);
  if (res === null) {
    const read = await s.call("GET", `/api/v1/timers/${timer.id}`, { key });
    if (read.json.data.status === "published") return read.json.data;
    res = await once();
  }
  expect(res.status, res.text).toBe(200);
  return res.json.data;
}

describe("styles, backgrounds and words over HTTP", () => {
  it("stores the fields, draws them, and serves the picture to the pages", async () => {
    const key = await s.key("production", "styles");
    const up = await s.call("POST", "/api/v1/assets", {
      key,
      body: { kind: "image", name: "stripes", data: stripes().toString("base64") },
    });
    expect(up.status, up.text).toBe(201);
    const look = {
      style: "circles",
      background: { type: "image", asset_id: up.json.data.id },
      heading: { text: "Sale ends in" },
      button: { label: "Shop now" },
    };
    {
      const created = await create(key, look);
      expect(created.status, created.text).toBe(201);
      expect(created.json.data.look).toMatchObject({
        style: "circles",
        panel: "rounded",
        background: { type: "image", asset_id: up.json.data.id },
        heading: { text: "Sale ends in", font: null, size: 22, color: null },
        subheading: null,
        button: { label: "Shop now", size: 16, background_color: null },
      });
      const timer = await publish(key, created.json.data);
      const png = await fetch(timer.urls.png);
      expect(png.status).toBe(200);
      const { rgba, width } = readImage(new Uint8Array(await png.arrayBuffer()));
      // The picture's red half at the top left corner, its blue half at the top right.
      const at = (x: number, y: number) => [
        ...rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 3),
      ];
      expect(at(2, 2)[0]).toBeGreaterThan(150);
      expect(at(width - 3, 2)[2]).toBeGreaterThan(150);
      const gif = await fetch(timer.urls.gif);
      expect(gif.status).toBe(200);
      expect((await gif.arrayBuffer()).byteLength).toBeLessThan(90_000);

      const page = await (await fetch(timer.urls.page)).text();
      expect(page).toContain('class="tm-timer tm-s-circles"');
      expect(page).toContain('<p class="tm-heading" dir="auto">Sale ends in</p>');
      const src = /url\("([^"]+\/background\?v=[0-9a-f]{16})"\)/.exec(page)?.[1];
      expect(src, page.slice(0, 3000)).toBeDefined();
      const file = await fetch(src!);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("image/png");
      expect(Buffer.from(await file.arrayBuffer()).equals(stripes())).toBe(true);
    }
    // A ring style's first atlas is some 180 rings, drawn once per look: seconds on a busy machine.
  }, 180_000);

  it("refuses a picture that is not an image here, undrawable words and a transparent background", async () => {
    const key = await s.key("production", "styles-refused");
    const unknown = "01969e7c-8d7e-7a43-9c57-1f1f0e3e4b2a";
    const missing = expectError(
      await create(key, { background: { type: "image", asset_id: unknown } }),
      400,
      "validation_error",
    );
    expect(missing.details?.field).toBe("look.background.asset_id");
    const words = expectError(
      await create(key, { heading: { text: "Sale \uE000" } }),
      400,
      "validation_error",
    );
    expect(words.details?.field).toBe("look.heading.text");
    const transparent = expectError(
      await create(key, {
        transparent: true,
        background: { type: "gradient", from: "#000000", to: "#FFFFFF" },
      }),
      400,
      "validation_error",
    );
    expect(transparent.details?.field).toBe("look.background");
    const style = expectError(await create(key, { style: "wavy" }), 400, "validation_error");
    expect(style.details?.field).toBe("look.style");
  });
});
