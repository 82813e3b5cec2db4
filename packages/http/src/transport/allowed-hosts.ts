/**
 * The hosts a handler answers for when it builds its URLs from the request (no `base_url`).
 * Without such a list, a request with `Host: attacker.example` gets `Location`, `urls` and
 * stored webhook URLs on attacker.example. An entry is a name (`timers.example.com`, any port),
 * a name and port (`localhost:8787`, that port only), an IPv6 address in brackets (`[::1]`),
 * or a domain with a leading dot (`.example.com`: it and every name under it).
 */
export type HostCheck = (host: string) => boolean;

// A DNS name or IPv4 address, or an IPv6 address in brackets; an optional port.
const ENTRY = /^(\.?[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/;

/** An entry of the allowed hosts that is not a host name, `name:port` or `.domain`. */
export class AllowedHostsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AllowedHostsError";
  }
}

/**
 * Compiles `entries` into a check of a URL's `host` (`name` or `name:port`, as `new URL().host`
 * gives it: lower case, default ports left out). Throws {@link AllowedHostsError} on an entry
 * that is not a host, so a typo fails at start rather than refusing every request.
 */
export function allowedHostsCheck(entries: readonly string[]): HostCheck {
  const exact = new Set<string>();
  const anyPort = new Set<string>();
  const domains: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    const m = ENTRY.exec(entry);
    const port = m?.[2] === undefined ? undefined : Number(m[2]);
    if (!m || (port !== undefined && port > 65535)) {
      throw new AllowedHostsError(
        `allowed host "${raw}" is not a host name, name:port, [IPv6] or .domain`,
      );
    }
    const name = m[1]!;
    if (name.startsWith(".")) {
      if (port !== undefined) throw new AllowedHostsError(`allowed domain "${raw}" takes no port`);
      domains.push(name);
    } else if (port === undefined) anyPort.add(name);
    else exact.add(`${name}:${port}`);
  }
  return (host) => {
    const value = host.toLowerCase();
    if (exact.has(value)) return true;
    const name = value.replace(/:\d+$/, "");
    if (anyPort.has(name)) return true;
    return domains.some((domain) => name.endsWith(domain) || name === domain.slice(1));
  };
}

/** The names that always reach this machine itself: allowed by `tminus serve` by default. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];
