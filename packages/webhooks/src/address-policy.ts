import { isIP } from "node:net";

/** Why an address may not receive webhooks (conventions.md, SSRF). */
export type BlockedReason =
  | "loopback"
  | "private"
  | "link_local"
  | "unique_local"
  | "multicast"
  | "reserved"
  | "metadata"
  | "ipv4_mapped";

interface Range {
  /** The network as a number (IPv4) or bigint (IPv6). */
  base: bigint;
  bits: number;
  reason: BlockedReason;
}

// First match wins, so the cloud metadata endpoints are named before the ranges holding them.
const V4: [string, number, BlockedReason][] = [
  ["169.254.169.254", 32, "metadata"], // AWS, GCP, Azure, OpenStack
  ["100.100.100.200", 32, "metadata"], // Alibaba Cloud
  ["0.0.0.0", 8, "reserved"], // "this network"
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "private"], // carrier-grade NAT, shared address space
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link_local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"], // IETF protocol assignments
  ["192.0.2.0", 24, "reserved"], // documentation
  ["192.88.99.0", 24, "reserved"], // 6to4 relay anycast
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "reserved"], // benchmarking
  ["198.51.100.0", 24, "reserved"], // documentation
  ["203.0.113.0", 24, "reserved"], // documentation
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved"], // future use and broadcast
];

const V6: [string, number, BlockedReason][] = [
  ["fd00:ec2::254", 128, "metadata"], // AWS over IPv6
  ["::1", 128, "loopback"],
  ["::ffff:0:0", 96, "ipv4_mapped"], // would reach any IPv4 address, private ones included
  ["::ffff:0:0:0", 96, "reserved"], // IPv4-translated (SIIT, RFC 2765): embeds an IPv4 address
  ["::", 96, "reserved"], // unspecified and IPv4-compatible (deprecated)
  ["64:ff9b::", 96, "reserved"], // NAT64: embeds an IPv4 address
  ["64:ff9b:1::", 48, "reserved"], // local-use NAT64
  ["100::", 64, "reserved"], // discard-only
  ["2001::", 23, "reserved"], // IETF protocol assignments (Teredo included)
  ["2001:db8::", 32, "reserved"], // documentation
  ["2002::", 16, "reserved"], // 6to4: embeds an IPv4 address
  ["3fff::", 20, "reserved"], // documentation
  ["fc00::", 7, "unique_local"],
  ["fe80::", 10, "link_local"],
  ["fec0::", 10, "reserved"], // site-local (deprecated)
  ["ff00::", 8, "multicast"],
];

const V4_RANGES: Range[] = V4.map(([ip, bits, reason]) => ({ base: v4(ip), bits, reason }));
const V6_RANGES: Range[] = V6.map(([ip, bits, reason]) => ({ base: v6(ip), bits, reason }));

/**
 * Why `address` (an IPv4 or IPv6 literal) may not receive webhooks, or null when it is a
 * public unicast address. Anything that is not an IP address is refused as `reserved`.
 * Hand-written rather than `net.BlockList`, which treats IPv4-mapped IPv6 addresses as
 * IPv4 and so could not name them.
 */
export function blockedReason(address: string): BlockedReason | null {
  // A zone id (fe80::1%eth0) names the interface to leave by, not part of the address.
  const plain = address.replace(/^\[|\]$/g, "").split("%")[0]!;
  const family = isIP(plain);
  if (family === 4) return match(V4_RANGES, v4(plain), 32);
  if (family === 6) return match(V6_RANGES, v6(plain), 128);
  return "reserved";
}

/**
 * A URL's host as the address policy compares it: without IPv6 brackets, lowercase, and
 * without trailing dots. `localhost.` and `localhost` are the same name to a resolver, so a
 * check that compared the text as written could be walked around with one dot.
 */
export function normalizeHost(hostname: string): string {
  const unbracketed = hostname.replace(/^\[|\]$/g, "");
  return unbracketed.toLowerCase().replace(/\.+$/, "");
}

/**
 * Why a URL's host may not receive webhooks, as far as its text tells (an address literal, or
 * a `localhost` name), or null when only resolving it can tell. Registration refuses these at
 * once; delivery checks them too, then every resolved address.
 */
export function blockedHost(hostname: string): BlockedReason | null {
  const host = normalizeHost(hostname);
  if (isIP(host)) return blockedReason(host);
  return host === "localhost" || host.endsWith(".localhost") ? "loopback" : null;
}

function match(ranges: Range[], value: bigint, width: number): BlockedReason | null {
  for (const r of ranges) {
    const shift = BigInt(width - r.bits);
    if (value >> shift === r.base >> shift) return r.reason;
  }
  return null;
}

// The parsers below read addresses that isIP has already accepted (and the literals of the
// tables above), so they check nothing themselves.

function v4(text: string): bigint {
  let out = 0n;
  for (const part of text.split(".")) out = (out << 8n) | BigInt(Number(part));
  return out;
}

function v6(text: string): bigint {
  // No lower-casing: parseInt reads hex digits in either case.
  let head = text;
  // A trailing dotted quad (::ffff:127.0.0.1) is the last two groups, written in decimal.
  const cut = head.lastIndexOf(":") + 1;
  const last = head.slice(cut);
  if (last.includes(".")) {
    const quad = v4(last);
    head = `${head.slice(0, cut)}${(quad >> 16n).toString(16)}:${(quad & 0xffffn).toString(16)}`;
  }
  const [left, right] = head.split("::") as [string, string?];
  const leftGroups = left ? left.split(":") : [];
  const rightGroups = right ? right.split(":") : [];
  const missing = 8 - leftGroups.length - rightGroups.length;
  let out = 0n;
  for (const g of [...leftGroups, ...Array<string>(missing).fill("0"), ...rightGroups]) {
    out = (out << 16n) | BigInt(Number.parseInt(g, 16));
  }
  return out;
}
