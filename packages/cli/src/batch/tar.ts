// The tar format of `render --batch --out-tar`: POSIX ustar (IEEE Std 1003.1-2001), the
// headers written here. Each image is a 512-byte header, its bytes, and zeros up to the next
// 512-byte boundary; the archive ends with two zero blocks. A name longer than ustar's 100
// bytes is carried by a pax extended header ("path=..."), which every current tar reads.

const BLOCK = 512;

/** What a tar entry records besides its bytes: every entry is a plain file, mode 0644, owner 0. */
export interface TarEntry {
  name: string;
  size: number;
  /** Modification time, in seconds since the epoch. */
  mtime: number;
}

/**
 * The header blocks of one file (one block, or three with a pax header for a long name).
 * The caller writes them, then the file's bytes, then {@link tarPadding} of its size.
 */
export function tarHeader(entry: TarEntry): Buffer {
  const name = Buffer.from(entry.name, "utf8");
  if (name.length <= 100) return ustarBlock(name, entry.size, entry.mtime, "0");
  // "<length> path=<name>\n", where the length counts its own digits.
  const body = ` path=${entry.name}\n`;
  let length = Buffer.byteLength(body) + 1;
  while (String(length).length + Buffer.byteLength(body) !== length) length++;
  const record = Buffer.from(`${length}${body}`, "utf8");
  const short = Buffer.from(`PaxHeaders/${entry.name}`.slice(0, 90), "utf8").subarray(0, 100);
  return Buffer.concat([
    ustarBlock(short, record.length, entry.mtime, "x"),
    record,
    tarPadding(record.length),
    ustarBlock(name.subarray(0, 100), entry.size, entry.mtime, "0"),
  ]);
}

/** The zeros that fill a file of `size` bytes to the next block. */
export function tarPadding(size: number): Buffer {
  const rest = size % BLOCK;
  return rest === 0 ? EMPTY : Buffer.alloc(BLOCK - rest);
}

/** The end of an archive: two zero blocks. */
export function tarEnd(): Buffer {
  return Buffer.alloc(2 * BLOCK);
}

const EMPTY = Buffer.alloc(0);

function ustarBlock(name: Buffer, size: number, mtime: number, type: "0" | "x"): Buffer {
  const block = Buffer.alloc(BLOCK);
  name.copy(block, 0, 0, Math.min(100, name.length));
  octal(block, 100, 8, 0o644);
  octal(block, 108, 8, 0);
  octal(block, 116, 8, 0);
  octal(block, 124, 12, size);
  octal(block, 136, 12, Math.max(0, Math.floor(mtime)));
  block.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  block.write(type, 156, "latin1");
  block.write("ustar\u000000", 257, "latin1");
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += block[i]!;
  block.write(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148, "latin1");
  return block;
}

/** A number in octal digits, zero-padded, NUL-terminated, in `width` bytes at `offset`. */
function octal(block: Buffer, offset: number, width: number, value: number): void {
  const digits = value.toString(8);
  if (digits.length > width - 1) throw new RangeError(`${value} does not fit a tar field`);
  block.write(`${digits.padStart(width - 1, "0")}\u0000`, offset, "latin1");
}
