import type { DashboardSession, DashboardUser, UserStore } from "../contract";
import { StoreError } from "../contract";
import { mapConstraintError } from "./_errors";
import type { SqliteDatabase } from "./database";

const USER_COLUMNS = "id, account_id, email, role, password_hash, created_at, updated_at";
const SESSION_COLUMNS = "id_hash, user_id, created_at, expires_at";

/** Prepares the user, link, session and sign-in statements and returns their methods. */
export function createSqliteUserStore(db: SqliteDatabase): UserStore {
  const insertUser = db.prepare(
    `INSERT INTO users (${USER_COLUMNS}) VALUES (?, ?, ?, ?, NULL, ?, ?) RETURNING ${USER_COLUMNS}`,
  );
  const userById = db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`);
  const userByEmail = db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE email = ?`);
  const usersOf = db.prepare(
    `SELECT ${USER_COLUMNS} FROM users WHERE account_id = ? ORDER BY created_at, id`,
  );
  const userInAccount = db.prepare(
    `SELECT ${USER_COLUMNS} FROM users WHERE id = ? AND account_id = ?`,
  );
  const otherOwners = db.prepare(
    "SELECT count(*) AS n FROM users WHERE account_id = ? AND role = 'owner' AND id <> ?",
  );
  const setRole = db.prepare(
    `UPDATE users SET role = ?, updated_at = ? WHERE id = ? RETURNING ${USER_COLUMNS}`,
  );
  const dropUser = db.prepare("DELETE FROM users WHERE id = ?");
  const dropLinks = db.prepare("DELETE FROM user_password_links WHERE user_id = ?");
  const insertLink = db.prepare(
    `INSERT INTO user_password_links (token_hash, user_id, created_at, expires_at, used_at)
     VALUES (?, ?, ?, ?, NULL)`,
  );
  const liveLink = db.prepare(
    `SELECT user_id FROM user_password_links
     WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?`,
  );
  const useLink = db.prepare("UPDATE user_password_links SET used_at = ? WHERE token_hash = ?");
  const setPassword = db.prepare(
    `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ? RETURNING ${USER_COLUMNS}`,
  );
  const dropExpiredSessions = db.prepare(
    "DELETE FROM user_sessions WHERE user_id = ? AND expires_at <= ?",
  );
  const insertSession = db.prepare(
    `INSERT INTO user_sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?) RETURNING ${SESSION_COLUMNS}`,
  );
  const sessionById = db.prepare(
    `SELECT ${SESSION_COLUMNS} FROM user_sessions WHERE id_hash = ? AND expires_at > ?`,
  );
  const dropSession = db.prepare("DELETE FROM user_sessions WHERE id_hash = ?");
  const dropUserSessions = db.prepare("DELETE FROM user_sessions WHERE user_id = ?");
  const dropOldAttempts = db.prepare(
    "DELETE FROM sign_in_attempts WHERE key = ? AND window_start < ?",
  );
  const countAttempt = db.prepare(
    `INSERT INTO sign_in_attempts (key, window_start, attempts) VALUES (?, ?, 1)
     ON CONFLICT (key, window_start) DO UPDATE SET attempts = attempts + 1
     RETURNING attempts`,
  );

  const user = (row: unknown) => (row ? (row as DashboardUser) : null);

  /** Throws when `target` is the last owner of its account. */
  const keepAnOwner = (target: DashboardUser, action: string) => {
    if (target.role !== "owner") return;
    const { n } = otherOwners.get(target.account_id, target.id) as { n: number };
    if (n === 0) throw new StoreError("conflict", `cannot ${action} the account's last owner`);
  };
  const roleTx = db.transaction(
    (input: Parameters<UserStore["setUserRole"]>[0]): DashboardUser | null => {
      const target = user(userInAccount.get(input.id, input.account_id));
      if (!target) return null;
      if (input.role !== "owner") keepAnOwner(target, "demote");
      return user(setRole.get(input.role, input.now, input.id));
    },
  );
  const deleteUserTx = db.transaction((input: Parameters<UserStore["deleteUser"]>[0]) => {
    const target = user(userInAccount.get(input.id, input.account_id));
    if (!target) return false;
    keepAnOwner(target, "remove");
    dropUserSessions.run(target.id);
    dropLinks.run(target.id);
    dropUser.run(target.id);
    return true;
  });
  const linkTx = db.transaction((input: Parameters<UserStore["createPasswordLink"]>[0]) => {
    dropLinks.run(input.user_id);
    insertLink.run(input.token_hash, input.user_id, input.now, input.expires_at);
  });
  const useLinkTx = db.transaction(
    (input: Parameters<UserStore["usePasswordLink"]>[0]): DashboardUser | null => {
      const link = liveLink.get(input.token_hash, input.now) as { user_id: string } | undefined;
      if (!link) return null;
      useLink.run(input.now, input.token_hash);
      dropUserSessions.run(link.user_id);
      return user(setPassword.get(input.password_hash, input.now, link.user_id));
    },
  );
  const sessionTx = db.transaction(
    (input: Parameters<UserStore["createSession"]>[0]): DashboardSession => {
      dropExpiredSessions.run(input.user_id, input.now);
      return insertSession.get(
        input.id_hash,
        input.user_id,
        input.now,
        input.expires_at,
      ) as DashboardSession;
    },
  );
  const attemptTx = db.transaction((input: Parameters<UserStore["countSignInAttempt"]>[0]) => {
    const start = Math.floor(input.now / input.window_ms) * input.window_ms;
    dropOldAttempts.run(input.key, start);
    const { attempts } = countAttempt.get(input.key, start) as { attempts: number };
    return { allowed: attempts <= input.max, window_ends_at: start + input.window_ms };
  });

  return {
    async createUser({ id, account_id, email, role, now }) {
      try {
        return insertUser.get(id, account_id, email, role, now, now) as DashboardUser;
      } catch (error) {
        throw mapConstraintError(error, `user "${email}"`);
      }
    },
    getUser: async (id) => user(userById.get(id)),
    findUserByEmail: async (email) => user(userByEmail.get(email)),
    listUsers: async (account_id) => usersOf.all(account_id) as DashboardUser[],
    setUserRole: async (input) => roleTx.immediate(input),
    deleteUser: async (input) => deleteUserTx.immediate(input),
    async createPasswordLink(input) {
      linkTx.immediate(input);
    },
    async findPasswordLink({ token_hash, now }) {
      const link = liveLink.get(token_hash, now) as { user_id: string } | undefined;
      return link ? user(userById.get(link.user_id)) : null;
    },
    usePasswordLink: async (input) => useLinkTx.immediate(input),
    createSession: async (input) => sessionTx.immediate(input),
    async findSession({ id_hash, now }) {
      const session = sessionById.get(id_hash, now) as DashboardSession | undefined;
      if (!session) return null;
      const owner = user(userById.get(session.user_id));
      return owner ? { session, user: owner } : null;
    },
    deleteSession: async (id_hash) => dropSession.run(id_hash).changes > 0,
    deleteUserSessions: async (user_id) => dropUserSessions.run(user_id).changes,
    countSignInAttempt: async (input) => attemptTx.immediate(input),
  };
}
