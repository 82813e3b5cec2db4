// The SSRF address policy, edge by edge: the first and last address of every refused range,
// the addresses just outside it, and how a URL's host text is read before it is checked.
import { describe, expect, it } from "vitest";
import { blockedHost, blockedReason, normalizeHost } from "../../src/address-policy";

const edges: [string, ReturnType<typeof blockedReason>][] = [
  ["0.0.0.0", "reserved"],
  ["0.255.255.255", "reserved"],
  ["1.0.0.0", null],
  ["9.255.255.255", null],
  ["10.0.0.0", "private"],
  ["10.255.255.255", "private"],
  ["11.0.0.0", null],
  ["100.63.255.255", null],
  ["100.64.0.0", "private"],
  ["100.100.100.199", "private"],
  ["100.100.100.200", "metadata"],
  ["100.100.100.201", "private"],
  ["100.127.255.255", "private"],
  ["100.128.0.0", null],
  ["126.255.255.255", null],
  ["127.0.0.0", "loopback"],
  ["127.255.255.255", "loopback"],
  ["128.0.0.0", null],
  ["169.253.255.255", null],
  ["169.254.0.0", "link_local"],
  ["169.254.169.253", "link_local"],
  ["169.254.169.254", "metadata"],
  ["169.254.255.255", "link_local"],
  ["169.255.0.0", null],
  ["172.15.255.255", null],
  ["172.16.0.0", "private"],
  ["172.31.255.255", "private"],
  ["172.32.0.0", null],
  ["191.255.255.255", null],
  ["192.0.0.0", "reserved"],
  ["192.0.0.255", "reserved"],
  ["192.0.1.0", null],
  ["192.0.2.0", "reserved"],
  ["192.0.2.255", "reserved"],
  ["192.0.3.0", null],
  ["192.88.98.255", null],
  ["192.88.99.0", "reserved"],
  ["192.88.99.255", "reserved"],
  ["192.88.100.0", null],
  ["192.167.255.255", null],
  ["192.168.0.0", "private"],
  ["192.168.255.255", "private"],
  ["192.169.0.0", null],
  ["198.17.255.255", null],
  ["198.18.0.0", "reserved"],
  ["198.19.255.255", "reserved"],
  ["198.20.0.0", null],
  ["198.51.99.255", null],
  ["198.51.100.0", "reserved"],
  ["198.51.100.255", "reserved"],
  ["198.51.101.0", null],
  ["203.0.112.255", null],
  ["203.0.113.0", "reserved"],
  ["203.0.113.255", "reserved"],
  ["203.0.114.0", null],
  ["223.255.255.255", null],
  ["224.0.0.0", "multicast"],
  ["239.255.255.255", "multicast"],
  ["240.0.0.0", "reserved"],
  ["255.255.255.255", "reserved"],
  // IPv6
  ["::", "reserved"],
  ["::0.0.0.1", "loopback"],
  ["::0.0.0.2", "reserved"],
  ["fd00:ec2::0.0.2.84", "metadata"],
  ["::1", "loopback"],
  ["::2", "reserved"],
  ["::ffff:ffff", "reserved"],
  ["::1:0:0", null],
  ["::ffff:0:0", "ipv4_mapped"],
  ["::ffff:ffff:ffff", "ipv4_mapped"],
  ["::1:0:0:0", null],
  ["::fffe:ffff:ffff", null],
  ["64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff", null],
  ["64:ff9b::", "reserved"],
  ["64:ff9b::ffff:ffff", "reserved"],
  ["64:ff9b::10.0.0.1", "reserved"],
  ["64:ff9b::1:0:0", null],
  ["64:ff9b:1::", "reserved"],
  ["64:ff9b:1:ffff:ffff:ffff:ffff:ffff", "reserved"],
  ["64:ff9b:2::", null],
  ["100::", "reserved"],
  ["100::ffff:ffff:ffff:ffff", "reserved"],
  ["100:0:0:1::", null],
  ["2001::", "reserved"],
  ["2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", "reserved"],
  ["2001:200::", null],
  ["2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", null],
  ["2001:db8::", "reserved"],
  ["2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", "reserved"],
  ["2001:db8::1.2.3.4", "reserved"],
  ["2001:db9::", null],
  ["2002::", "reserved"],
  ["2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "reserved"],
  ["2003::", null],
  ["2606:4700::8.8.8.8", null],
  ["3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", null],
  ["3fff::", "reserved"],
  ["3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff", "reserved"],
  ["3fff:1000::", null],
  ["fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", null],
  ["fc00::", "unique_local"],
  ["fd00:ec2::253", "unique_local"],
  ["fd00:ec2::254", "metadata"],
  ["fd00:ec2::255", "unique_local"],
  ["fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "unique_local"],
  ["fe00::", null],
  ["fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff", null],
  ["fe80::", "link_local"],
  ["febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "link_local"],
  ["fec0::", "reserved"],
  ["feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "reserved"],
  ["ff00::", "multicast"],
  ["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "multicast"],
  ["1:2:3:4:5:6:7:8", null],
  ["1::", null],
  ["::8", "reserved"],
];

describe("address classes at the edges of every range", () => {
  it.each(edges)("%s", (address, reason) => {
    expect(blockedReason(address)).toBe(reason);
  });

  it("reads brackets, zone ids and upper case; anything else is refused as reserved", () => {
    expect(blockedReason("[fe80::1%eth0]")).toBe("link_local");
    expect(blockedReason("[2606:4700:4700::1111]")).toBe(null);
    expect(blockedReason("FE80::1")).toBe("link_local");
    expect(blockedReason("::FFFF:8.8.8.8")).toBe("ipv4_mapped");
    for (const text of ["", "1.2.3", "1.2.3.4.5", "256.0.0.1", "01.2.3.4", "::g", "1:2:3"]) {
      expect(blockedReason(text), text).toBe("reserved");
    }
  });
});

describe("a URL's host", () => {
  it("is compared without brackets, in lower case, without trailing dots", () => {
    expect(normalizeHost("[::1]")).toBe("::1");
    expect(normalizeHost("Example.COM.")).toBe("example.com");
    expect(normalizeHost("localhost..")).toBe("localhost");
    expect(normalizeHost("a.b")).toBe("a.b");
  });

  it("is refused for localhost names and blocked literals, left to DNS otherwise", () => {
    for (const host of [
      "localhost",
      "LOCALHOST.",
      "api.localhost",
      "a.b.localhost.",
      "[::1]",
      "127.0.0.1.",
      "10.1.2.3",
    ]) {
      expect(blockedHost(host), host).not.toBeNull();
    }
    expect(blockedHost("localhost")).toBe("loopback");
    expect(blockedHost("10.1.2.3")).toBe("private");
    for (const host of [
      "example.com",
      "localhost.example.com",
      "notlocalhost",
      "xlocalhost.",
      "8.8.8.8",
      "[2606:4700::1]",
    ]) {
      expect(blockedHost(host), host).toBeNull();
    }
  });
});
