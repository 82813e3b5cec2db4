const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
const pool = new Uint8Array(16 * 256);
let poolOffset = pool.length;

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
  const b = pool.subarray(poolOffset, poolOffset + 16);
  poolOffset += 16;
  const ms = Math.max(0, Math.floor(now));
  const hi = Math.floor(ms / 0x1000000); // top 24 of 48 bits
  const lo = ms % 0x1000000;
  const t = [
    (hi >>> 16) & 0xff,
    (hi >>> 8) & 0xff,
    hi & 0xff,
    (lo >>> 16) & 0xff,
    (lo >>> 8) & 0xff,
    lo & 0xff,
  ];
  const v = (b[6]! & 0x0f) | 0x70; // version 7
  const r = (b[8]! & 0x3f) | 0x80; // RFC 4122 variant
  return (
    HEX[t[0]!]! +
    HEX[t[1]!]! +
    HEX[t[2]!]! +
    HEX[t[3]!]! +
    "-" +
    HEX[t[4]!]! +
    HEX[t[5]!]! +
    "-" +
    HEX[v]! +
    HEX[b[7]!]! +
    "-" +
    HEX[r]! +
    HEX[b[9]!]! +
    "-" +
    HEX[b[10]!]! +
    HEX[b[11]!]! +
    HEX[b[12]!]! +
    HEX[b[13]!]! +
    HEX[b[14]!]! +
    HEX[b[15]!]!
  );
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
