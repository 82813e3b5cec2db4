// Uploads over HTTP: fonts and images stored per account and environment, each bad file refused
// with one clear error and nothing stored, and a look drawn with its uploaded font in images and
// pages until the font is deleted.
import { readFileSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";
import { readImage, subsetFont } from "@tminus/render";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFontFile } from "../../render/src/fonts";
import { unpackWoff } from "../../render/src/uploads/woff";
import { expectError, fixedTimer, newKey, startTestServer, type TestServer } from "./_harness";

const WOFF = readFileSync(
  new URL("../../render/test/fixtures/press-start-2p.woff", import.meta.url),
);

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({
    plans: { starter: { requests_per_minute: 100_000 } },
    sandbox: { requests_per_minute: 100_000 },
    assets: { max_files: 4 },
  });
});
afterAll(() => s.close());

type Key = Awaited<ReturnType<TestServer["key"]>>;

const upload = (key: Key, kind: string, data: Uint8Array | string, name = "file") =>
  s.call("POST", "/api/v1/assets", {
    key,
    body: {
      kind,
      name,
      data: typeof data === "string" ? data : Buffer.from(data).toString("base64"),
    },
  });

async function listed(key: Key): Promise<string[]> {
  const res = await s.call("GET", "/api/v1/assets?limit=100", { key });
  expect(res.status, res.text).toBe(200);
  return res.json.data.map((a: { id: string }) => a.id);
}

/** A PNG that says it is 100,000 x 100,000 pixels, with 1 KB of data behind the claim. */
function imageBomb(): Buffer {
  const png = Buffer.from(readImageFixture());
  png.writeUInt32BE(100_000, 16);
  png.writeUInt32BE(100_000, 20);
  return png;
}

/** A PNG of one grey, written here: its rows deflate to almost nothing. */
function flatPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const rows = Buffer.alloc((width + 1) * height, 200);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0; // filter: none
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A 2 x 1 PNG. */
function readImageFixture(): Uint8Array {
  return readFileSync(new URL("./fixtures/dot.png", import.meta.url));
}

describe("uploads: POST, GET and DELETE /assets", () => {
  it("stores a font and an image, described, in their own account and environment only", async () => {
    const key = await s.key("production", "uploader");
    const font = await upload(key, "font", WOFF, "Press Start 2P.woff");
    expect(font.status, font.text).toBe(201);
    expect(font.json.data).toMatchObject({
      object: "asset",
      kind: "font",
      name: "Press Start 2P.woff",
      format: "woff",
      bytes: WOFF.byteLength,
      width: null,
      height: null,
      font_family: "Press Start 2P",
    });
    expect(font.json.data.sha256).toMatch(/^[0-9a-f]{64}$/);
    const image = await upload(key, "image", readImageFixture(), "dot.png");
    expect(image.status, image.text).toBe(201);
    expect(image.json.data).toMatchObject({ kind: "image", format: "png", width: 2, height: 1 });
    expect(await listed(key)).toEqual([image.json.data.id, font.json.data.id]);
    const fonts = await s.call("GET", "/api/v1/assets?kind=font", { key });
    expect(fonts.json.data.map((a: { id: string }) => a.id)).toEqual([font.json.data.id]);
    // Pages of one, with the cursor bound to the filter.
    const first = await s.call("GET", "/api/v1/assets?limit=1", { key });
    expect(first.json.page.has_more).toBe(true);
    const next = await s.call(
      "GET",
      `/api/v1/assets?limit=1&cursor=${first.json.page.next_cursor}`,
      {
        key,
      },
    );
    expect(next.json.data[0].id).toBe(font.json.data.id);
    expectError(
      await s.call(
        "GET",
        `/api/v1/assets?limit=1&kind=font&cursor=${first.json.page.next_cursor}`,
        {
          key,
        },
      ),
      400,
      "validation_error",
    );
    const read = await s.call("GET", `/api/v1/assets/${font.json.data.id}`, { key });
    expect(read.json.data).toEqual(font.json.data);
    // Another environment or account does not see it.
    for (const other of [await s.key("sandbox", "uploader"), await s.key("production", "other")]) {
      expectError(
        await s.call("GET", `/api/v1/assets/${font.json.data.id}`, { key: other }),
        404,
        "not_found",
      );
      expectError(
        await s.call("DELETE", `/api/v1/assets/${font.json.data.id}`, { key: other }),
        404,
        "not_found",
      );
      expect(await listed(other)).toEqual([]);
    }
    const gone = await s.call("DELETE", `/api/v1/assets/${image.json.data.id}`, { key });
    expect(gone.json.data).toEqual({ id: image.json.data.id, object: "asset", deleted: true });
    expectError(
      await s.call("GET", `/api/v1/assets/${image.json.data.id}`, { key }),
      404,
      "not_found",
    );
    expectError(await s.call("GET", "/api/v1/assets/not-a-uuid", { key }), 400, "validation_error");
  });

  it("refuses each bad file with one clear error, and stores nothing", async () => {
    const key = await s.key("production", "bad-files");
    const inter = unpackWoff(readFontFile("inter", "latin", 700, "woff"));
    const jpeg = readFileSync(new URL("./fixtures/tiny.jpg", import.meta.url));
    const cases: Array<[string, Uint8Array | string, string, string, RegExp]> = [
      ["font", WOFF.subarray(0, WOFF.length / 2), "data", "malformed", /cut short/],
      ["font", readImageFixture(), "data", "unsupported_format", /PNG image, not a font/],
      ["image", WOFF, "data", "unsupported_format", /a font, not an image/],
      ["font", Buffer.from(`wOF2${"x".repeat(60)}`), "data", "unsupported_format", /WOFF2/],
      [
        "font",
        await subsetFont(inter, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
        "data",
        "missing_glyphs",
        /cannot draw the digits 0, 1, 2, 3, 4, 5, 6, 7, 8, 9/,
      ],
      ["image", imageBomb(), "data", "too_large", /100000 x 100000 pixels/],
      ["image", jpeg.subarray(0, jpeg.length - 200), "data", "malformed", /JPEG/],
      [
        "font",
        Buffer.alloc(2 * 1024 * 1024 + 1, 1),
        "data",
        "too_large",
        /fonts may be at most 2,097,152 bytes \(2 MiB\)/,
      ],
      ["image", Buffer.alloc(4 * 1024 * 1024, 1), "data", "too_large", /at most 2,097,152 bytes/],
      ["font", "not base64!", "data", "", /base64/],
    ];
    for (const [kind, data, field, reason, message] of cases) {
      const res = await upload(key, kind, data);
      const error = expectError(res, 400, "validation_error");
      expect(error.message, `${kind} ${reason}`).toMatch(message);
      expect(error.details?.field).toBe(field);
      if (reason) expect(error.details?.reason).toBe(reason);
    }
    const missing = await s.call("POST", "/api/v1/assets", {
      key,
      body: { kind: "font", name: "x" },
    });
    expect(expectError(missing, 400, "missing_field").details?.field).toBe("data");
    expect(await listed(key)).toEqual([]);
  });

  it("decodes a large image off the event loop and takes it", async () => {
    const key = await s.key("production", "large-image");
    // 4,096 x 4,096 pixels, the most a side may have: 16.7 million decoded, a small file.
    const res = await upload(key, "image", flatPng(4096, 4096));
    expect(res.status, res.text).toBe(201);
    expect(res.json.data).toMatchObject({ format: "png", width: 4096, height: 4096 });
  });

  it("keeps at most assets.max_files per environment", async () => {
    const key = await s.key("production", "full");
    for (let n = 0; n < 4; n++) expect((await upload(key, "font", WOFF)).status).toBe(201);
    const error = expectError(await upload(key, "font", WOFF), 400, "validation_error");
    expect(error.details).toEqual({ field: "assets", reason: "limit_reached", limit: 4 });
    expect(await listed(key)).toHaveLength(4);
  });

  it("needs assets:write to upload or delete and assets:read to list", async () => {
    const reader = await s.key("production", "scoped", ["assets:read"]);
    expectError(await upload(reader, "font", WOFF), 403, "forbidden");
    expect((await s.call("GET", "/api/v1/assets", { key: reader })).status).toBe(200);
    const timers = await s.key("production", "scoped", ["timers:read"]);
    expectError(await s.call("GET", "/api/v1/assets", { key: timers }), 403, "forbidden");
  });
});

describe("a look drawn with an uploaded font", () => {
  async function create(key: Key, look: Record<string, unknown>) {
    return s.call("POST", "/api/v1/timers", {
      key,
      body: fixedTimer({ look }),
      headers: { "idempotency-key": newKey() },
    });
  }

  async function publish(key: Key, timer: { id: string; revision: string }) {
    const res = await s.call("POST", `/api/v1/timers/${timer.id}/publish`, {
      key,
      headers: { "if-match": timer.revision },
    });
    expect(res.status, res.text).toBe(200);
    return res.json.data;
  }

  const pixels = async (url: string) => {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    return readImage(new Uint8Array(await res.arrayBuffer())).rgba;
  };

  it("refuses a font that is not here or cannot draw the look", async () => {
    const key = await s.key("production", "looks-refused");
    const image = await upload(key, "image", readImageFixture());
    const font = await upload(key, "font", WOFF);
    const unknown = "01969e7c-8d7e-7a43-9c57-1f1f0e3e4b2a";
    for (const id of [unknown, image.json.data.id]) {
      const error = expectError(await create(key, { font_asset_id: id }), 400, "validation_error");
      expect(error.details?.field).toBe("look.font_asset_id");
    }
    const russian = expectError(
      await create(key, { font_asset_id: font.json.data.id, locale: "ru" }),
      400,
      "validation_error",
    );
    expect(russian.details).toMatchObject({ field: "look.locale", reason: "missing_glyphs" });
    expect(russian.message).toContain("in locale ru");
    const arrow = expectError(
      await create(key, { font_asset_id: font.json.data.id, separator: "→" }),
      400,
      "validation_error",
    );
    expect(arrow.details).toEqual({
      field: "look.separator",
      reason: "missing_glyphs",
      missing: ["→"],
    });
    // Another environment's font is no font here.
    const sandbox = await s.key("sandbox", "looks-refused");
    expectError(
      await create(sandbox, { font_asset_id: font.json.data.id }),
      400,
      "validation_error",
    );
  });

  it("draws images and pages with the font, and the built-in font once it is deleted", async () => {
    const key = await s.key("production", "looks");
    const font = (await upload(key, "font", WOFF)).json.data;
    s.setNow(Date.parse("2026-11-20T10:00:00Z"));
    try {
      const plain = await publish(key, (await create(key, {})).json.data);
      const created = await create(key, { font_asset_id: font.id });
      expect(created.status, created.text).toBe(201);
      expect(created.json.data.look.font_asset_id).toBe(font.id);
      const fancy = await publish(key, created.json.data);
      const builtIn = await pixels(plain.urls.png);
      const drawn = await pixels(fancy.urls.png);
      expect(Buffer.from(drawn).equals(Buffer.from(builtIn))).toBe(false);
      // The page loads a subset of the font from the timer's own route.
      const page = await (await fetch(fancy.urls.page)).text();
      const src = /src:url\("([^"]+\/font\?v=[0-9a-f]{16})"\)/.exec(page)?.[1];
      expect(src, page.slice(0, 2000)).toBeDefined();
      expect(page).toContain(`font-family:"tminus-upload-${font.id}"`);
      const file = await fetch(src!);
      expect(file.status).toBe(200);
      expect(file.headers.get("content-type")).toBe("font/ttf");
      expect(file.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const bytes = new Uint8Array(await file.arrayBuffer());
      expect(bytes.byteLength).toBeLessThan(WOFF.byteLength);
      // The embed too.
      expect(await (await fetch(fancy.urls.embed)).text()).toContain(`/t/${fancy.id}/font?v=`);
      // A timer without an uploaded font has no font route.
      expect((await fetch(`${s.url}/t/${plain.id}/font`)).status).toBe(404);

      const gone = await s.call("DELETE", `/api/v1/assets/${font.id}`, { key });
      expect(gone.status).toBe(200);
      // From the next request on: the built-in font, and no font file.
      expect(Buffer.from(await pixels(fancy.urls.png)).equals(Buffer.from(builtIn))).toBe(true);
      expect((await fetch(src!)).status).toBe(404);
      expect(await (await fetch(fancy.urls.page)).text()).not.toContain("tminus-upload-");
      // The look keeps the id; naming it again is refused, other changes are not.
      const read = await s.call("GET", `/api/v1/timers/${fancy.id}`, { key });
      expect(read.json.data.look.font_asset_id).toBe(font.id);
      const renamed = await s.call("PATCH", `/api/v1/timers/${fancy.id}`, {
        key,
        body: { name: "Renamed" },
        headers: { "if-match": read.json.data.revision },
      });
      expect(renamed.status, renamed.text).toBe(200);
      const again = await s.call("PATCH", `/api/v1/timers/${fancy.id}`, {
        key,
        body: { look: { font_asset_id: font.id } },
        headers: { "if-match": renamed.json.data.revision },
      });
      expect(expectError(again, 400, "validation_error").details?.field).toBe("look.font_asset_id");
    } finally {
      s.setNow(null);
    }
  });
});
