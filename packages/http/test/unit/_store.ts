import type { Store } from "@tminus/store";
import { sqliteStore } from "@tminus/store/sqlite";
import type { AuthContext } from "../../src/guards/auth";
import { createAdmin, type IssuedApiKey } from "../../src/index";

/** A real SQLite store in memory and the admin API over it: no server, no files. */
export interface UnitStore {
  store: Store;
  admin: ReturnType<typeof createAdmin>;
  /** Issues a key and returns it with the AuthContext a request with it would have. */
  key(
    account: string,
    environment?: "sandbox" | "production",
  ): Promise<{ issued: IssuedApiKey; auth: AuthContext }>;
  close(): Promise<void>;
}

export function unitStore(now = () => Date.UTC(2026, 10, 23, 12)): UnitStore {
  const store = sqliteStore({ path: ":memory:" });
  const admin = createAdmin({ store, config: {}, now });
  return {
    store,
    admin,
    async key(account, environment = "production") {
      const issued = await admin.issueKey({ account, environment });
      const { hashApiKey } = await import("@tminus/admin");
      const found = await store.findApiKeyByHash(hashApiKey(issued.secret));
      if (!found) throw new Error("issued key not found");
      return { issued, auth: found };
    },
    close: () => store.close(),
  };
}
