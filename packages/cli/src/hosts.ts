import { hostname, networkInterfaces } from "node:os";
import {
  AllowedHostsError,
  allowedHostsCheck,
  LOOPBACK_HOSTS,
  type TminusConfig,
} from "@tminus/http";
import { CliError } from "./errors";

/** `--allowed-hosts a,b`: the entries, checked now, so a typo fails before anything starts. */
export function parseAllowedHosts(value: string): string[] {
  const entries = value
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (entries.length === 0) throw new CliError("--allowed-hosts needs at least one host name");
  try {
    allowedHostsCheck(entries);
  } catch (error) {
    if (error instanceof AllowedHostsError) throw new CliError(`--allowed-hosts: ${error.message}`);
    throw error;
  }
  return entries;
}

/** Whether `host` (a `--host` value) binds every interface. */
function wildcard(host: string): boolean {
  return host === "0.0.0.0" || host === "::" || host === "[::]" || host === "";
}

/**
 * The hosts `tminus serve` answers for when neither `--base-url` nor `--allowed-hosts` (nor the
 * config's `base_url` or `allowed_hosts`) says: the loopback names and the address it listens
 * on; on a wildcard bind, every address of the machine's interfaces and its host name.
 */
export function defaultAllowedHosts(listenHost: string): string[] {
  const hosts = new Set(LOOPBACK_HOSTS);
  if (wildcard(listenHost)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const { address, family } of addresses ?? []) {
        hosts.add(family === "IPv6" ? `[${address.replace(/%.*$/, "")}]` : address);
      }
    }
    hosts.add(hostname().toLowerCase());
  } else {
    hosts.add(
      listenHost.includes(":") && !listenHost.startsWith("[") ? `[${listenHost}]` : listenHost,
    );
  }
  return [...hosts];
}

/**
 * The config `serve` runs with: `--allowed-hosts` over the config's `allowed_hosts`, then the
 * defaults when no base URL fixes the host; `--trust-proxy` turns the config's `trust_proxy` on.
 */
export function servedHosts(
  config: TminusConfig,
  flags: { allowedHosts: string[] | undefined; trustProxy: boolean; listenHost: string },
): TminusConfig {
  let allowed = flags.allowedHosts ?? config.allowed_hosts;
  if (allowed === null && config.base_url === null) allowed = defaultAllowedHosts(flags.listenHost);
  return { ...config, allowed_hosts: allowed, trust_proxy: flags.trustProxy || config.trust_proxy };
}
