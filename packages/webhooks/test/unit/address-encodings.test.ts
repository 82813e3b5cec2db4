// The SSRF guard against the many ways one address can be written: brackets in odd places,
// zone ids, upper case, zero padding, "::" anywhere, a dotted IPv4 tail, and the prefixes
// that carry an IPv4 address inside an IPv6 one (mapped, compatible, translated, NAT64, 6to4,
// Teredo). An address the guard refuses must stay refused however it is spelt.
import { isIP } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type BlockedReason,
  blockedHost,
  blockedReason,
  normalizeHost,
} from "../../src/address-policy";

const cases = (list: [string, BlockedReason | null][]) =>
  it.each(list)("%j is %s", (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

describe("brackets in odd places make a text no address at all (refused as reserved)", () => {
  cases([
    ["[::1]", "loopback"],
    ["[fe80::1%eth0]", "link_local"],
    ["[2606:4700::1]", null],
    // Only one leading and one trailing bracket are taken off; any other leaves no address,
    // even where removing it would leave a public one.
    ["8.8.[8.8]", "reserved"],
    ["8.8.8.]8", "reserved"],
    ["2606:[4700::1]", "reserved"],
    ["[2606:4700]::1", "reserved"],
    ["2606:4700]::1", "reserved"],
    ["[[::1]]", "reserved"],
    ["[::1]]", "reserved"],
    ["[fe80::1]%eth0", "reserved"],
    ["[]", "reserved"],
  ]);

  it("a URL's host loses only its enclosing brackets", () => {
    expect(normalizeHost("[2606:4700::1]")).toBe("2606:4700::1");
    expect(normalizeHost("a[b]")).toBe("a[b");
    expect(normalizeHost("[a]b")).toBe("a]b");
    expect(normalizeHost("[[a]]")).toBe("[a]");
    expect(blockedHost("[2606:[4700]::1]")).toBeNull(); // not an address: left to DNS, which fails
    expect(blockedHost("[::1]")).toBe("loopback");
  });
});

describe("zone ids name an interface and do not change the address", () => {
  cases([
    ["fe80::1%eth0", "link_local"],
    ["FE80::1%ETH0", "link_local"],
    ["::1%lo", "loopback"],
    // A zone may hold dots and colons: it must not be read as a dotted tail or as groups.
    ["::1%1.2.3.4", "loopback"],
    ["::ffff:0:0%a:b", "ipv4_mapped"],
    ["fd00:ec2::254%eth0", "metadata"],
    ["::0.0.0.1%eth0", "loopback"],
    ["64:ff9b::10.0.0.1%1", "reserved"],
    ["2606:4700::1%eth0", null],
    ["%eth0", "reserved"],
  ]);
});

describe("upper case reads as lower case", () => {
  cases([
    ["FE80::1", "link_local"],
    ["FD00:EC2::254", "metadata"],
    ["Fd00:eC2::254", "metadata"],
    ["FC00::", "unique_local"],
    ["FEC0::", "reserved"],
    ["FF02::1", "multicast"],
    ["::FFFF:7F00:1", "ipv4_mapped"],
    ["::FFFF:0:A00:1", "reserved"],
    ["2001:DB8::", "reserved"],
    ["2606:4700::ABCD", null],
  ]);
});

describe("IPv4 inside IPv6, dotted and hex", () => {
  cases([
    // IPv4-mapped (::ffff:0:0/96)
    ["::ffff:127.0.0.1", "ipv4_mapped"],
    ["::ffff:7f00:1", "ipv4_mapped"],
    ["0:0:0:0:0:ffff:10.0.0.1", "ipv4_mapped"],
    ["0000:0000:0000:0000:0000:FFFF:0A00:0001", "ipv4_mapped"],
    ["::ffff:169.254.169.254", "ipv4_mapped"],
    ["::ffff:8.8.8.8", "ipv4_mapped"], // refused whatever it maps: it is IPv4 in disguise
    // IPv4-compatible (::/96, deprecated)
    ["::127.0.0.1", "reserved"],
    ["::7f00:1", "reserved"],
    ["::10.0.0.1", "reserved"],
    ["::a00:1", "reserved"],
    ["::8.8.8.8", "reserved"],
    // IPv4-translated (::ffff:0:0:0/96, SIIT)
    ["::ffff:0:127.0.0.1", "reserved"],
    ["::ffff:0:7f00:1", "reserved"],
    ["0:0:0:0:ffff:0:10.0.0.1", "reserved"],
    ["::ffff:0:0:0", "reserved"],
    ["::ffff:0:ffff:ffff", "reserved"],
    ["::ffff:1:0:0", null],
    ["::fffe:ffff:ffff:ffff", null],
    // Where the last 32 bits decide (the /128 ranges), the dotted tail is read in full.
    ["::0.0.0.1", "loopback"],
    ["0:0:0:0:0:0:0.0.0.1", "loopback"],
    ["::0:0.0.0.1", "loopback"],
    ["::0.0.0.2", "reserved"],
    ["::0.5.0.1", "reserved"],
    ["::1.0.0.1", "reserved"],
    ["::10.0.0.1", "reserved"],
    ["fd00:ec2::0.0.2.84", "metadata"],
    ["fd00:ec2:0:0:0:0:0.0.2.84", "metadata"],
    ["fd00:ec2::0.0.0.254", "unique_local"],
    ["fd00:ec2::0.1.2.84", "unique_local"],
    ["fd00:ec2::10.0.2.84", "unique_local"],
    ["fd00:ec2::1:0.0.2.84", "unique_local"],
    ["2606:4700::10.0.0.1", null],
    ["2606:4700:0:0:0:0:127.0.0.1", null],
  ]);
});

describe("NAT64, 6to4 and Teredo addresses are refused whatever IPv4 address they carry", () => {
  cases([
    // NAT64 (64:ff9b::/96) and local-use NAT64 (64:ff9b:1::/48)
    ["64:ff9b::127.0.0.1", "reserved"],
    ["64:ff9b::7f00:1", "reserved"],
    ["64:ff9b::10.0.0.1", "reserved"],
    ["64:FF9B::A00:1", "reserved"],
    ["64:ff9b::169.254.169.254", "reserved"],
    ["64:ff9b::192.168.1.1", "reserved"],
    ["64:ff9b::8.8.8.8", "reserved"],
    ["64:ff9b:1::10.0.0.1", "reserved"],
    ["64:ff9b:1:abcd::7f00:1", "reserved"],
    ["64:ff9b:1:ffff:ffff:ffff:127.0.0.1", "reserved"],
    // 6to4 (2002::/16): the IPv4 address is bits 16-47
    ["2002:7f00:1::", "reserved"],
    ["2002:a00:1::1", "reserved"],
    ["2002:c0a8:101::", "reserved"],
    ["2002:a9fe:a9fe::1", "reserved"],
    ["2002:808:808::1", "reserved"],
    // Teredo (2001::/32): the server's IPv4 in bits 32-63, the client's inverted in the last 32
    ["2001:0:a00:1::", "reserved"],
    ["2001:0:4136:e378:8000:63bf:80ff:fffe", "reserved"], // client 127.0.0.1
    ["2001::a00:1:0:0:f5ff:fffe", "reserved"], // client 10.0.0.1
    ["2001:0:7f00:1:0:0:0.0.0.0", "reserved"],
  ]);
});

// ---------------------------------------------------------------------------------------------
// Properties: one address, every spelling.

type Prefix = { groups: number[]; bits: number };
const g = (...groups: number[]): number[] => [...groups, ...Array(8 - groups.length).fill(0)];

/** Refused IPv6 ranges, as groups (written out here, not read from the policy's table). */
const refusedV6: Prefix[] = [
  { groups: g(0, 0, 0, 0, 0, 0, 0, 1), bits: 128 },
  { groups: g(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254), bits: 128 },
  { groups: g(0, 0, 0, 0, 0, 0xffff), bits: 96 },
  { groups: g(0, 0, 0, 0, 0xffff), bits: 96 },
  { groups: g(), bits: 96 },
  { groups: g(0x64, 0xff9b), bits: 96 },
  { groups: g(0x64, 0xff9b, 1), bits: 48 },
  { groups: g(0x100), bits: 64 },
  { groups: g(0x2001), bits: 32 },
  { groups: g(0x2001, 0xdb8), bits: 32 },
  { groups: g(0x2002), bits: 16 },
  { groups: g(0xfc00), bits: 7 },
  { groups: g(0xfe80), bits: 10 },
  { groups: g(0xfec0), bits: 10 },
  { groups: g(0xff00), bits: 8 },
];
/** Refused IPv4 ranges: [first octets, prefix length]. */
const refusedV4: [number[], number][] = [
  [[0], 8],
  [[10], 8],
  [[100, 64], 10],
  [[127], 8],
  [[169, 254], 16],
  [[169, 254, 169, 254], 32],
  [[100, 100, 100, 200], 32],
  [[172, 16], 12],
  [[192, 168], 16],
  [[192, 0, 0], 24],
  [[198, 18], 15],
  [[224], 4],
  [[240], 4],
];

const toBig = (groups: number[]) => groups.reduce((out, x) => (out << 16n) | BigInt(x), 0n);
const toGroups = (value: bigint) =>
  Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - 16 * i)) & 0xffffn));
const within = (prefix: Prefix, random: bigint, width: number, base: bigint) => {
  const host = (1n << BigInt(width - prefix.bits)) - 1n;
  return (base & ~host) | (random & host);
};

const group = fc.integer({ min: 0, max: 0xffff });
const anyV6 = fc.array(group, { minLength: 8, maxLength: 8 }).map(toBig);
/** An address in one of the refused IPv6 ranges. */
const refusedV6Value = fc
  .tuple(fc.constantFrom(...refusedV6), anyV6)
  .map(([prefix, random]) => within(prefix, random, 128, toBig(prefix.groups)));
/** An address in one of the refused IPv4 ranges, as a 32-bit number. */
const refusedV4Value = fc
  .tuple(fc.constantFrom(...refusedV4), fc.integer({ min: 0, max: 0xffff_ffff }))
  .map(([[octets, bits], random]) => {
    const base = octets.reduce((out, x, i) => out | (BigInt(x) << BigInt(24 - 8 * i)), 0n);
    return Number(within({ groups: [], bits }, BigInt(random), 32, base));
  });
const dotted = (v: number) => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join(".");

/** How one IPv6 value is spelt: everything isIP accepts for it, plus brackets and a zone. */
const spelling = fc.record({
  dottedTail: fc.boolean(),
  compress: fc.nat(),
  upper: fc.array(fc.boolean(), { minLength: 48, maxLength: 48 }),
  pad: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 8, maxLength: 8 }),
  brackets: fc.boolean(),
  zone: fc.option(fc.stringMatching(/^[0-9a-zA-Z.:-]{1,8}$/), { nil: undefined }),
});
type Spelling = typeof spelling extends fc.Arbitrary<infer T> ? T : never;

function spell(value: bigint, s: Spelling): string {
  const groups = toGroups(value);
  const hexCount = s.dottedTail ? 6 : 8;
  const hex = groups.slice(0, hexCount).map((x, i) => {
    const digits = x.toString(16);
    return "0".repeat(Math.min(s.pad[i]!, 4 - digits.length)) + digits;
  });
  // Every run of zero groups may become "::" (at most one), or none.
  const runs: [number, number][] = [];
  for (let i = 0; i < hexCount; i++) {
    for (let j = i; j < hexCount && groups[j] === 0; j++) runs.push([i, j + 1]);
  }
  const run = runs[s.compress % (runs.length + 1)];
  let text = run
    ? `${hex.slice(0, run[0]).join(":")}::${hex.slice(run[1]).join(":")}`
    : hex.join(":");
  if (s.dottedTail) {
    const tail = dotted((groups[6]! << 16) | groups[7]!);
    text = text.endsWith("::") ? text + tail : `${text}:${tail}`;
  }
  text = [...text].map((c, i) => (s.upper[i % s.upper.length] ? c.toUpperCase() : c)).join("");
  expect(isIP(text), text).toBe(6); // the spelling itself is a valid address
  if (s.zone !== undefined) text = `${text}%${s.zone}`;
  return s.brackets ? `[${text}]` : text;
}
const canonical = (value: bigint) =>
  toGroups(value)
    .map((x) => x.toString(16))
    .join(":");

describe("any spelling of an address is judged as the address", () => {
  it("a refused IPv6 address is refused, for the same reason, however it is written", () => {
    fc.assert(
      fc.property(refusedV6Value, spelling, (value, s) => {
        const reason = blockedReason(canonical(value));
        expect(reason).not.toBeNull();
        expect(blockedReason(spell(value, s))).toBe(reason);
      }),
    );
  });

  it("any IPv6 address is judged the same however it is written (public ones stay allowed)", () => {
    fc.assert(
      fc.property(anyV6, spelling, (value, s) => {
        expect(blockedReason(spell(value, s))).toBe(blockedReason(canonical(value)));
      }),
    );
  });

  it("a URL's host is judged as the address it names, whatever the spelling", () => {
    fc.assert(
      fc.property(refusedV6Value, spelling, (value, s) => {
        const text = spell(value, { ...s, brackets: false, zone: undefined });
        const reason = blockedReason(canonical(value));
        expect(blockedHost(`[${text}]`)).toBe(reason);
        expect(blockedHost(new URL(`https://[${text}]/`).hostname)).toBe(reason);
      }),
    );
  });

  it("a refused IPv4 address is refused in every IPv6 form that carries it", () => {
    const forms: [string, (v: number, r: number[]) => bigint][] = [
      ["mapped", (v) => (0xffffn << 32n) | BigInt(v)],
      ["compatible", (v) => BigInt(v)],
      ["translated", (v) => (0xffffn << 48n) | BigInt(v)],
      ["nat64", (v) => toBig(g(0x64, 0xff9b)) | BigInt(v)],
      ["nat64-local", (v, r) => toBig(g(0x64, 0xff9b, 1, r[0]!, r[1]!, r[2]!)) | BigInt(v)],
      ["6to4", (v, r) => toBig(g(0x2002, v >>> 16, v & 0xffff, r[0]!, r[1]!, r[2]!, r[3]!, r[4]!))],
      [
        "teredo-server",
        (v, r) => toBig(g(0x2001, 0, v >>> 16, v & 0xffff, r[0]!, r[1]!, r[2]!, r[3]!)),
      ],
      [
        "teredo-client",
        (v, r) => toBig(g(0x2001, 0, r[0]!, r[1]!, r[2]!, r[3]!)) | BigInt(~v >>> 0),
      ],
    ];
    fc.assert(
      fc.property(
        refusedV4Value,
        fc.constantFrom(...forms),
        fc.array(group, { minLength: 5, maxLength: 5 }),
        spelling,
        (v, [form, embed], random, s) => {
          expect(blockedReason(dotted(v))).not.toBeNull();
          const text = spell(embed(v, random), s);
          const reason = blockedReason(text);
          expect(reason, `${form} ${text}`).not.toBeNull();
          if (form === "mapped") expect(reason).toBe("ipv4_mapped");
        },
      ),
    );
  });
});
