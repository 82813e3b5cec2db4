import { randomUUID } from "node:crypto";
import {
  type Account,
  type DashboardUser,
  type Store,
  StoreError,
  type UserRole,
} from "@tminus/store";
import type { AdminConfig } from "./admin-config";
import { AdminError } from "./admin-error";
import { randomToken, sha256Hex } from "./tokens";

/** A dashboard user as shown to the operator: never the password hash. */
export interface DashboardUserView {
  id: string;
  account: string;
  email: string;
  role: UserRole;
  /** Whether the user has set a password (used their link). */
  has_password: boolean;
  created_at: string;
}

/** A one-time link to set a password: works once, until `expires_at`. */
export interface PasswordLink {
  /** Path under the server's base URL, e.g. `/dashboard/set-password?token=...`. */
  path: string;
  /** The full URL when `base_url` is configured; null otherwise (the path is relative). */
  url: string | null;
  expires_at: string;
}

const EMAIL = /^[^\s@<>"]{1,64}@[^\s@<>"]{1,189}\.[^\s@<>"]{1,63}$/;

/** What the users' part of `createAdmin` works with. */
interface UserAdminParts {
  store: Store;
  config: AdminConfig;
  now(): number;
  requireAccount(name: string): Promise<Account>;
}

/**
 * The dashboard users of `createAdmin`: add, link, change roles, remove, list. Spread into the
 * admin API, so `tminus users` and the dashboard's members page share one implementation.
 */
export function userAdmin({ store, config, now, requireAccount }: UserAdminParts) {
  async function issueLink(user: DashboardUser): Promise<PasswordLink> {
    const settings = config.dashboard;
    const token = randomToken();
    const expires = now() + settings.link_hours * 3_600_000;
    await store.createPasswordLink({
      token_hash: sha256Hex(token),
      user_id: user.id,
      expires_at: expires,
      now: now(),
    });
    const path = `${settings.path}/set-password?token=${token}`;
    return {
      path,
      url: config.base_url === null ? null : config.base_url + path,
      expires_at: new Date(expires).toISOString(),
    };
  }

  async function lastOwnerGuard<T>(change: () => Promise<T>): Promise<T> {
    return change().catch((err: unknown) => {
      throw err instanceof StoreError && err.code === "conflict"
        ? new AdminError(
            "conflict",
            "an account needs at least one owner: make another user an owner first",
          )
        : err;
    });
  }

  return {
    /**
     * Adds a dashboard user to an account and returns a one-time link to set their password
     * (no email is sent: hand the link over). A second user with the same email is refused.
     */
    async createUser(input: {
      account: string;
      email: string;
      role: UserRole;
    }): Promise<{ user: DashboardUserView; link: PasswordLink }> {
      const email = input.email.trim().toLowerCase();
      if (!EMAIL.test(email))
        throw new AdminError("invalid", `"${input.email}" is not an email address`);
      if (input.role !== "owner" && input.role !== "member") {
        throw new AdminError("invalid", `--role must be owner or member, got "${input.role}"`);
      }
      const account = await requireAccount(input.account);
      let user: DashboardUser;
      try {
        user = await store.createUser({
          id: randomUUID(),
          account_id: account.id,
          email,
          role: input.role,
          now: now(),
        });
      } catch (err) {
        if (err instanceof StoreError && err.code === "conflict") {
          throw new AdminError("invalid", `a user with the email ${email} already exists`);
        }
        throw err;
      }
      return { user: viewUser(user, account), link: await issueLink(user) };
    },

    /** A new one-time set-password link for a user (earlier links stop working). */
    async passwordLink(email: string): Promise<{ user: DashboardUserView; link: PasswordLink }> {
      const user = await store.findUserByEmail(email.trim().toLowerCase());
      if (!user) throw new AdminError("not_found", `no dashboard user with the email ${email}`);
      const account = (await store.getAccount(user.account_id))!;
      return { user: viewUser(user, account), link: await issueLink(user) };
    },

    /**
     * Gives a user of the account another role. Demoting the account's last owner is refused
     * (`AdminError` `conflict`); an unknown user is `not_found`.
     */
    async setUserRole(input: {
      account: string;
      id: string;
      role: UserRole;
    }): Promise<DashboardUserView> {
      if (input.role !== "owner" && input.role !== "member") {
        throw new AdminError("invalid", `the role must be owner or member, got "${input.role}"`);
      }
      const account = await requireAccount(input.account);
      const user = await lastOwnerGuard(() =>
        store.setUserRole({ id: input.id, account_id: account.id, role: input.role, now: now() }),
      );
      if (!user) throw new AdminError("not_found", "no such user in this account");
      return viewUser(user, account);
    },

    /**
     * Removes a user of the account; their sessions and links end with them. Removing the
     * account's last owner is refused (`AdminError` `conflict`).
     */
    async removeUser(input: { account: string; id: string }): Promise<void> {
      const account = await requireAccount(input.account);
      const removed = await lastOwnerGuard(() =>
        store.deleteUser({ id: input.id, account_id: account.id }),
      );
      if (!removed) throw new AdminError("not_found", "no such user in this account");
    },

    /** The dashboard users of an account. */
    async listUsers(accountName: string): Promise<DashboardUserView[]> {
      const account = await requireAccount(accountName);
      return (await store.listUsers(account.id)).map((u) => viewUser(u, account));
    },
  };
}

function viewUser(user: DashboardUser, account: Account): DashboardUserView {
  return {
    id: user.id,
    account: account.name,
    email: user.email,
    role: user.role,
    has_password: user.password_hash !== null,
    created_at: new Date(user.created_at).toISOString(),
  };
}
