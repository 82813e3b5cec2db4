import { randomUUID } from "node:crypto";
import {
  type Account,
  type ApiKeyRecord,
  type Environment,
  type Store,
  StoreError,
} from "@tminus/store";
import { type AdminConfig, limitsFor } from "./admin-config";
import { AdminError } from "./admin-error";
import { userAdmin } from "./admin-users";
import { generateApiKey } from "./api-key-format";
import { parseScopes } from "./scopes";

export { AdminError } from "./admin-error";
export type { DashboardUserView, PasswordLink } from "./admin-users";

/** A key as shown to its owner: everything but the hash. */
export interface ApiKeyView {
  id: string;
  prefix: string;
  environment: Environment;
  account: string;
  scopes: string[];
  /** Where the key is used, as its owner noted it; null when none. */
  name: string | null;
  created_at: string;
  revoked_at: string | null;
  /** When a rolled key stops working; null for a key without an end. */
  expires_at: string | null;
  /** `live`, `expiring` (rolled, still working), `revoked` or `expired`, at the time of asking. */
  status: "live" | "expiring" | "revoked" | "expired";
}

/** The result of rolling a key: the replacement (with its secret) and the key it replaces. */
export interface RolledApiKey {
  replacement: IssuedApiKey;
  rolled: ApiKeyView;
}

/** Default and longest overlap of a key rotation: how long a rolled key keeps working. */
export const ROLL_DEFAULT_MS = 24 * 3_600_000;
export const ROLL_MAX_MS = 30 * 24 * 3_600_000;

/** A newly issued key: the only time the secret is visible. */
export interface IssuedApiKey extends ApiKeyView {
  secret: string;
}

/** Longest key name. */
const KEY_NAME_MAX = 100;

/** Options of `createAdmin`: a resolved config (`@tminus/http`'s `resolveConfig` gives one). */
export interface AdminOptions<C extends AdminConfig = AdminConfig> {
  store: Store;
  config: C;
  /** Clock, for tests. */
  now?: () => number;
}

function viewKey(key: ApiKeyRecord, account: Account, now: number): ApiKeyView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: key.id,
    prefix: key.prefix,
    environment: key.environment,
    account: account.name,
    scopes: key.scopes,
    name: key.name,
    created_at: new Date(key.created_at).toISOString(),
    revoked_at: iso(key.revoked_at),
    expires_at: iso(key.expires_at),
    status:
      key.revoked_at !== null
        ? "revoked"
        : key.expires_at === null
          ? "live"
          : key.expires_at <= now
            ? "expired"
            : "expiring",
  };
}

/**
 * The operator's library API for accounts and keys (the specification puts key issuance in a
 * dashboard, outside /api/v1). The CLI's `keys` and `accounts` commands call this.
 * @example
 * const admin = createAdmin({ store, config: resolveConfig({}) });
 * const key = await admin.issueKey({ account: "acme", environment: "sandbox" });
 * console.log(key.secret); // shown once
 */
export function createAdmin<C extends AdminConfig>(options: AdminOptions<C>) {
  const { store, config } = options;
  const now = options.now ?? Date.now;

  async function requireAccount(name: string): Promise<Account> {
    const account = await store.findAccountByName(name);
    if (!account) throw new AdminError("not_found", `no account named "${name}"`);
    return account;
  }

  async function ensureAccount(name: string, plan?: string): Promise<Account> {
    const found = await store.findAccountByName(name);
    if (found) {
      if (plan && plan !== found.plan) {
        checkPlan(plan);
        return (await store.setAccountPlan(found.id, plan)) ?? found;
      }
      return found;
    }
    const chosen = plan ?? config.default_plan;
    checkPlan(chosen);
    try {
      return await store.createAccount({ id: randomUUID(), name, plan: chosen, now: now() });
    } catch (err) {
      // Another process created it between our read and write: use theirs.
      if (err instanceof StoreError && err.code === "conflict") return requireAccount(name);
      throw err;
    }
  }

  function checkPlan(plan: string): void {
    if (!config.plans[plan]) {
      throw new AdminError(
        "invalid",
        `unknown plan "${plan}" (plans: ${Object.keys(config.plans).join(", ")})`,
      );
    }
  }

  return {
    config,
    ...userAdmin({ store, config, now, requireAccount }),

    /** Creates the account if it does not exist (with `plan`), or returns it. */
    ensureAccount,

    /** All accounts. */
    listAccounts: () => store.listAccounts(),

    /**
     * Issues a key for an account (created on first use) within the plan's key limit.
     * Throws `AdminError` `limit_reached` when the environment already has the maximum.
     */
    async issueKey(input: {
      account: string;
      environment: Environment;
      plan?: string;
      scopes?: string[];
      /** A note of where the key is used (at most 100 characters). */
      name?: string;
    }): Promise<IssuedApiKey> {
      let scopes: string[];
      try {
        scopes = parseScopes(input.scopes);
      } catch (err) {
        throw new AdminError("invalid", (err as Error).message);
      }
      const name = input.name?.trim() || null;
      if (name !== null && name.length > KEY_NAME_MAX) {
        throw new AdminError("invalid", `a key's name is at most ${KEY_NAME_MAX} characters`);
      }
      const account = await ensureAccount(input.account, input.plan);
      const limits = limitsFor(config, account.plan, input.environment);
      const generated = generateApiKey(input.environment);
      try {
        const record = await store.createApiKey({
          id: randomUUID(),
          account_id: account.id,
          environment: input.environment,
          prefix: generated.prefix,
          hash: generated.hash,
          scopes,
          name,
          max_active_keys: limits.max_keys,
          now: now(),
        });
        return { ...viewKey(record, account, now()), secret: generated.secret };
      } catch (err) {
        if (err instanceof StoreError && err.code === "limit_reached") {
          throw new AdminError(
            "limit_reached",
            `account "${account.name}" already has ${limits.max_keys} live ${input.environment} key(s), the limit of its plan (${input.environment === "sandbox" ? "sandbox" : account.plan}); revoke one first`,
          );
        }
        throw err;
      }
    },

    /** Keys (live and revoked) of one account, or of every account. */
    async listKeys(
      input: { account?: string; environment?: Environment } = {},
    ): Promise<ApiKeyView[]> {
      const accounts = input.account
        ? [await requireAccount(input.account)]
        : await store.listAccounts();
      const out: ApiKeyView[] = [];
      for (const account of accounts) {
        for (const key of await store.listApiKeys(account.id, input.environment)) {
          out.push(viewKey(key, account, now()));
        }
      }
      return out;
    },

    /** Revokes a key by id or prefix; it stops working on the next request. */
    async revokeKey(idOrPrefix: string, input: { account?: string } = {}): Promise<ApiKeyView> {
      const account = input.account ? await requireAccount(input.account) : undefined;
      const revoked = await store.revokeApiKey({
        id_or_prefix: idOrPrefix,
        account_id: account?.id,
        now: now(),
      });
      if (!revoked) throw new AdminError("not_found", `no live key "${idOrPrefix}"`);
      const owner = account ?? (await store.getAccount(revoked.account_id));
      return viewKey(revoked, owner!, now());
    },

    /**
     * Rotates a key without a gap: issues its replacement (same account, environment and
     * scopes; the secret is shown once) and schedules the old key's end `expiresInMs` from now
     * (default 24 hours, at most 30 days). Works at the plan's key limit, including the
     * sandbox limit of one key: a rolled key holds no slot. Until its end the old key keeps
     * working and every answer to it carries `Tminus-Key-Expires-At`.
     */
    async rollKey(
      idOrPrefix: string,
      input: { account?: string; expiresInMs?: number } = {},
    ): Promise<RolledApiKey> {
      const expiresIn = input.expiresInMs ?? ROLL_DEFAULT_MS;
      if (!Number.isInteger(expiresIn) || expiresIn < 1000 || expiresIn > ROLL_MAX_MS) {
        throw new AdminError(
          "invalid",
          "the old key's remaining life must be from 1 second to 30 days (default 24 hours)",
        );
      }
      const account = input.account ? await requireAccount(input.account) : undefined;
      const at = now();
      let secret = "";
      let result: Awaited<ReturnType<Store["rollApiKey"]>>;
      try {
        result = await store.rollApiKey({
          id_or_prefix: idOrPrefix,
          account_id: account?.id,
          expires_at: at + expiresIn,
          now: at,
          // The old key's environment decides the replacement's prefix.
          replacement: (rolled) => {
            const generated = generateApiKey(rolled.environment);
            secret = generated.secret;
            return { id: randomUUID(), prefix: generated.prefix, hash: generated.hash };
          },
        });
      } catch (err) {
        if (err instanceof StoreError && err.code === "conflict") {
          throw new AdminError("invalid", err.message);
        }
        throw err;
      }
      if (!result) throw new AdminError("not_found", `no live key "${idOrPrefix}"`);
      const owner = account ?? (await store.getAccount(result.rolled.account_id));
      return {
        replacement: { ...viewKey(result.replacement, owner!, at), secret },
        rolled: viewKey(result.rolled, owner!, at),
      };
    },

    /** Suspends an account: every request with its keys answers `403 suspended`. */
    async suspendAccount(name: string): Promise<Account> {
      const account = await requireAccount(name);
      return (await store.setAccountStatus(account.id, "suspended"))!;
    },

    /** Reactivates a suspended account. */
    async activateAccount(name: string): Promise<Account> {
      const account = await requireAccount(name);
      return (await store.setAccountStatus(account.id, "active"))!;
    },

    /**
     * First start: when the store has no account, creates `default` with one sandbox and one
     * production key and returns them (secrets included); otherwise returns null.
     */
    async bootstrap(name = "default"): Promise<IssuedApiKey[] | null> {
      if ((await store.listAccounts()).length > 0) return null;
      let sandbox: IssuedApiKey;
      try {
        sandbox = await this.issueKey({ account: name, environment: "sandbox" });
      } catch (err) {
        // Processes started together on an empty database all get here; the sandbox key limit
        // (one) lets exactly one of them bootstrap, the others start without printing keys.
        if (err instanceof AdminError && err.code === "limit_reached") return null;
        throw err;
      }
      const production = await this.issueKey({ account: name, environment: "production" });
      return [sandbox, production];
    },
  };
}

/** The admin API returned by `createAdmin`. */
export type Admin<C extends AdminConfig = AdminConfig> = ReturnType<typeof createAdmin<C>>;
