import { type Admin, createAdmin } from "@tminus/admin";
import type { MountHost } from "@tminus/http";
import type { Environment, Store, TimerRecord } from "@tminus/store";

/**
 * The one seam between the dashboard's pages and the data the API has no operation for:
 * members and keys (the admin API, `createAdmin`), the dashboard's own sign-in records, saved
 * looks, daily request counts and a timer's stored definition (for previews). Everything else
 * a page shows comes from the API's operations (`ctx.api`). No page holds the store.
 */
export interface DashboardAdmin {
  /** Members and keys, as `tminus keys` and `tminus users` manage them, at this instant. */
  at(now: number): Admin;
  /** Sign-in, sessions and set-password links. */
  sessions: Pick<Store, SessionMethod>;
  /** Users, keys and the request log, read to scope a page's action to its account. */
  records: Pick<Store, "getUser" | "listApiKeys" | "listRequestLog" | "countRequestsByDay">;
  /** Looks saved under a name, per account and environment. */
  looks: Pick<Store, "listLooks" | "saveLook" | "deleteLook">;
  /** A timer's stored record (definition and look), from the API's read cache. */
  timer(accountId: string, environment: Environment, id: string): Promise<TimerRecord | null>;
  /**
   * An uploaded image's bytes for the preview (the API serves no file's bytes); null when it
   * is not an image of this account and environment.
   */
  imageData(accountId: string, environment: Environment, id: string): Promise<Uint8Array | null>;
}

type SessionMethod =
  | "createSession"
  | "findSession"
  | "deleteSession"
  | "deleteUserSessions"
  | "findPasswordLink"
  | "usePasswordLink"
  | "countSignInAttempt"
  | "findUserByEmail"
  | "getAccount";

/** The seam over what the handler offers its mounts. */
export function createDashboardAdmin(host: MountHost): DashboardAdmin {
  const { store, config } = host;
  const bound = <K extends keyof Store>(...names: K[]): Pick<Store, K> =>
    Object.fromEntries(
      names.map((name) => [name, (store[name] as (...args: unknown[]) => unknown).bind(store)]),
    ) as Pick<Store, K>;
  return {
    at: (now) => createAdmin({ store, config, now: () => now }),
    sessions: bound(
      "createSession",
      "findSession",
      "deleteSession",
      "deleteUserSessions",
      "findPasswordLink",
      "usePasswordLink",
      "countSignInAttempt",
      "findUserByEmail",
      "getAccount",
    ),
    records: bound("getUser", "listApiKeys", "listRequestLog", "countRequestsByDay"),
    looks: bound("listLooks", "saveLook", "deleteLook"),
    timer: async (accountId, environment, id) =>
      (await host.services()).cache.getTimer(accountId, environment, id),
    imageData: async (accountId, environment, id) => {
      const asset = await store.getAsset(accountId, environment, id);
      if (asset?.kind !== "image") return null;
      return store.getAssetData(accountId, environment, id);
    },
  };
}
