import { lookup as dnsLookup } from "node:dns/promises";
import { isIP } from "node:net";
import { type BlockedReason, blockedHost, blockedReason, normalizeHost } from "./address-policy";

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (`dns.lookup` with `all: true` by default). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver, as the operating system (and /etc/hosts) sees names. */
export const systemResolver: HostResolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Why a destination cannot be reached: its name does not resolve, or only to refused addresses. */
export class DestinationAddressError extends Error {
  readonly code: "dns_error" | "blocked_address";
  readonly reasons: BlockedReason[];
  constructor(
    code: "dns_error" | "blocked_address",
    message: string,
    reasons: BlockedReason[] = [],
  ) {
    super(message);
    this.name = "DestinationAddressError";
    this.code = code;
    this.reasons = reasons;
  }
}

/**
 * The address to connect to for `hostname`: resolved once, refused addresses dropped
 * (loopback, private, link-local, unique-local, multicast, reserved, metadata, IPv4-mapped),
 * the first that passed returned. The caller connects to exactly this address, so a second
 * resolution (DNS rebinding) cannot swap it. `allowPrivate` keeps every address (development).
 */
export async function resolveDestination(
  hostname: string,
  options: { allowPrivate: boolean; resolver?: HostResolver },
): Promise<ResolvedAddress> {
  const host = normalizeHost(hostname);
  if (!options.allowPrivate) {
    const named = blockedHost(host);
    if (named) {
      throw new DestinationAddressError("blocked_address", `${host} is a ${named} address`, [
        named,
      ]);
    }
  }
  const literal = isIP(host);
  let candidates: ResolvedAddress[];
  if (literal) candidates = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      candidates = await (options.resolver ?? systemResolver)(host);
    } catch (error) {
      throw new DestinationAddressError(
        "dns_error",
        `${host} does not resolve: ${(error as { code?: string }).code ?? (error as Error).message}`,
      );
    }
    if (candidates.length === 0) {
      throw new DestinationAddressError("dns_error", `${host} has no addresses`);
    }
  }
  if (options.allowPrivate) return candidates[0]!;
  const reasons: BlockedReason[] = [];
  for (const candidate of candidates) {
    const reason = blockedReason(candidate.address);
    if (reason === null) return candidate;
    reasons.push(reason);
  }
  throw new DestinationAddressError(
    "blocked_address",
    `${host} resolves only to refused addresses (${[...new Set(reasons)].join(", ")})`,
    reasons,
  );
}
