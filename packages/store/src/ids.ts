// Each byte's two hex digits as character codes, low digit in the high byte.
const HEX_CODES = Uint16Array.from({ length: 256 }, (_, i) => {
  const hex = i.toString(16).padStart(2, "0");
  return hex.charCodeAt(0) | (hex.charCodeAt(1) << 8);
});
const pool = new Uint8Array(16 * 256);
let poolOffset = pool.length;

// The id is written as bytes and read out as one flat string. Joined with `+` it was a tree
// of 19 pieces (a V8 cons string) that its first use on every request (the response header,
// the JSON body, the request log's SQLite bind) had to copy flat first. Buffer where there is
// one (Node); String.fromCharCode elsewhere.
const chars: Uint8Array = typeof Buffer === "function" ? Buffer.alloc(36) : new Uint8Array(36);
chars[8] = chars[13] = chars[18] = chars[23] = 0x2d; // "-"
const readChars: () => string =
  typeof Buffer === "function"
    ? () => (chars as Buffer).toString("latin1", 0, 36)
    : () => String.fromCharCode(...chars);

function put(at: number, byte: number): void {
  const code = HEX_CODES[byte]!;
  chars[at] = code & 0xff;
  chars[at + 1] = code >>> 8;
}

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Request ids are
 * time-ordered, so the request log's index on them grows at its end instead of touching a
 * random page per request (which was most of the cost of writing the log).
 */
export function uuidv7(now: number): string {
  if (poolOffset === pool.length) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  const b = poolOffset;
  poolOffset += 16;
  const ms = Math.max(0, Math.floor(now));
  const hi = Math.floor(ms / 0x1000000); // top 24 of 48 bits
  const lo = ms % 0x1000000;
  put(0, (hi >>> 16) & 0xff);
  put(2, (hi >>> 8) & 0xff);
  put(4, hi & 0xff);
  put(6, (lo >>> 16) & 0xff);
  put(9, (lo >>> 8) & 0xff);
  put(11, lo & 0xff);
  put(14, (pool[b + 6]! & 0x0f) | 0x70); // version 7
  put(16, pool[b + 7]!);
  put(19, (pool[b + 8]! & 0x3f) | 0x80); // RFC 4122 variant
  put(21, pool[b + 9]!);
  for (let i = 10; i < 16; i++) put(24 + (i - 10) * 2, pool[b + i]!);
  return readChars();
}

const V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * The Unix milliseconds a UUIDv7 carries, or null for any other string (another version, or
 * not a UUID).
 * @example uuidv7Time("01a20b7c-11b6-79b0-82a0-60ac5b2937a0") // 1795489010102
 */
export function uuidv7Time(id: string): number | null {
  const m = V7.exec(id);
  return m ? Number.parseInt(m[1]! + m[2]!, 16) : null;
}
