import {
  createAdmin as createAdminOver,
  type AdminOptions as ResolvedAdminOptions,
} from "@tminus/admin";
import { resolveConfig, type TminusConfig, type TminusConfigInput } from "./config";

/** Options of `createAdmin`: the config may be unresolved, or left out for the defaults. */
export interface AdminOptions extends Omit<ResolvedAdminOptions<TminusConfig>, "config"> {
  config?: TminusConfig | TminusConfigInput;
}

/**
 * `@tminus/admin`'s `createAdmin` over a config resolved here, so callers of `@tminus/http`
 * keep passing a config file's object (or nothing) as before.
 * @example
 * const admin = createAdmin({ store });
 * const key = await admin.issueKey({ account: "acme", environment: "sandbox" });
 */
export function createAdmin(options: AdminOptions) {
  return createAdminOver({ ...options, config: resolveConfig(options.config) });
}

/** The admin API returned by `createAdmin`. */
export type Admin = ReturnType<typeof createAdmin>;
