import {
  type DashboardSession,
  type DashboardUser,
  StoreError,
  type UserRole,
  type UserStore,
} from "../contract";
import type { Db, Query } from "./_db";
import { mapConstraintError } from "./_errors";
import { ms } from "./_sql";

const USER_COLUMNS = "id, account_id, email, role, password_hash, created_at, updated_at";
const SESSION_COLUMNS = "id_hash, user_id, created_at, expires_at";

interface UserRow {
  id: string;
  account_id: string;
  email: string;
  role: UserRole;
  password_hash: string | null;
  created_at: string;
  updated_at: string;
}

interface SessionRow {
  id_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

function toUser(row: UserRow): DashboardUser {
  return { ...row, created_at: ms(row.created_at), updated_at: ms(row.updated_at) };
}

function toSession(row: SessionRow): DashboardSession {
  return {
    id_hash: row.id_hash,
    user_id: row.user_id,
    created_at: ms(row.created_at),
    expires_at: ms(row.expires_at),
  };
}

/**
 * The account's user `id` (null when there is none); with `action`, throws `conflict` when
 * that user is the account's last owner. Call under the account's row lock.
 */
async function ownerCheck(
  query: Query,
  id: string,
  account_id: string,
  action: "demote" | "remove" | null,
): Promise<UserRow | null> {
  const { rows } = await query<UserRow & { owners: number }>(
    `SELECT ${USER_COLUMNS},
       (SELECT count(*)::int FROM users o WHERE o.account_id = $2 AND o.role = 'owner') AS owners
     FROM users WHERE id = $1 AND account_id = $2`,
    [id, account_id],
  );
  const row = rows[0];
  if (!row) return null;
  if (action && row.role === "owner" && row.owners <= 1) {
    throw new StoreError("conflict", `cannot ${action} the account's last owner`);
  }
  return row;
}

/** The user, link, session and sign-in methods of the PostgreSQL adapter. */
export function createPostgresUserStore(db: Db): UserStore {
  const oneUser = async (sql: string, values: unknown[]) => {
    const { rows } = await db.query<UserRow>(sql, values);
    return rows[0] ? toUser(rows[0]) : null;
  };
  return {
    async createUser({ id, account_id, email, role, now }) {
      try {
        return (await oneUser(
          `INSERT INTO users (${USER_COLUMNS}) VALUES ($1, $2, $3, $4, NULL, $5, $5)
           RETURNING ${USER_COLUMNS}`,
          [id, account_id, email, role, now],
        ))!;
      } catch (error) {
        throw mapConstraintError(error, `user "${email}"`);
      }
    },
    getUser: (id) => oneUser(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]),
    findUserByEmail: (email) =>
      oneUser(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [email]),
    async listUsers(account_id) {
      const { rows } = await db.query<UserRow>(
        `SELECT ${USER_COLUMNS} FROM users WHERE account_id = $1 ORDER BY created_at, id`,
        [account_id],
      );
      return rows.map(toUser);
    },
    setUserRole: ({ id, account_id, role, now }) =>
      db.transaction(async (query) => {
        // The account's row lock serializes role changes and removals: two racing demotions
        // of the last two owners cannot both see the other one still an owner.
        await query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [account_id]);
        const target = await ownerCheck(query, id, account_id, role === "owner" ? null : "demote");
        if (!target) return null;
        const { rows } = await query<UserRow>(
          `UPDATE users SET role = $1, updated_at = $2 WHERE id = $3 RETURNING ${USER_COLUMNS}`,
          [role, now, id],
        );
        return rows[0] ? toUser(rows[0]) : null;
      }),
    deleteUser: ({ id, account_id }) =>
      db.transaction(async (query) => {
        await query("SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE", [account_id]);
        const target = await ownerCheck(query, id, account_id, "remove");
        if (!target) return false;
        await query("DELETE FROM user_sessions WHERE user_id = $1", [id]);
        await query("DELETE FROM user_password_links WHERE user_id = $1", [id]);
        await query("DELETE FROM users WHERE id = $1", [id]);
        return true;
      }),
    async createPasswordLink({ token_hash, user_id, expires_at, now }) {
      // One statement: the user's earlier links go as the new one arrives.
      await db.query(
        `WITH dropped AS (DELETE FROM user_password_links WHERE user_id = $2)
         INSERT INTO user_password_links (token_hash, user_id, created_at, expires_at, used_at)
         VALUES ($1, $2, $3, $4, NULL)`,
        [token_hash, user_id, now, expires_at],
      );
    },
    findPasswordLink: ({ token_hash, now }) =>
      oneUser(
        `SELECT ${USER_COLUMNS.split(", ")
          .map((c) => `u.${c}`)
          .join(", ")}
         FROM user_password_links l JOIN users u ON u.id = l.user_id
         WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > $2`,
        [token_hash, now],
      ),
    usePasswordLink: ({ token_hash, password_hash, now }) =>
      db.transaction(async (query) => {
        // The UPDATE takes the link's row lock: a racing use waits, then sees used_at set.
        const { rows } = await query<{ user_id: string }>(
          `UPDATE user_password_links SET used_at = $2
           WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id`,
          [token_hash, now],
        );
        const link = rows[0];
        if (!link) return null;
        await query("DELETE FROM user_sessions WHERE user_id = $1", [link.user_id]);
        const updated = await query<UserRow>(
          `UPDATE users SET password_hash = $1, updated_at = $2 WHERE id = $3
           RETURNING ${USER_COLUMNS}`,
          [password_hash, now, link.user_id],
        );
        return updated.rows[0] ? toUser(updated.rows[0]) : null;
      }),
    async createSession({ id_hash, user_id, expires_at, now }) {
      const { rows } = await db.query<SessionRow>(
        `WITH expired AS (DELETE FROM user_sessions WHERE user_id = $2 AND expires_at <= $3)
         INSERT INTO user_sessions (${SESSION_COLUMNS}) VALUES ($1, $2, $3, $4)
         RETURNING ${SESSION_COLUMNS}`,
        [id_hash, user_id, now, expires_at],
      );
      return toSession(rows[0]!);
    },
    async findSession({ id_hash, now }) {
      const { rows } = await db.query<SessionRow & { [k: `u_${string}`]: unknown }>(
        `SELECT s.id_hash, s.user_id, s.created_at, s.expires_at,
           u.account_id AS u_account_id, u.email AS u_email, u.role AS u_role,
           u.password_hash AS u_password_hash, u.created_at AS u_created_at,
           u.updated_at AS u_updated_at
         FROM user_sessions s JOIN users u ON u.id = s.user_id
         WHERE s.id_hash = $1 AND s.expires_at > $2`,
        [id_hash, now],
      );
      const row = rows[0];
      if (!row) return null;
      return {
        session: toSession(row),
        user: toUser({
          id: row.user_id,
          account_id: row.u_account_id as string,
          email: row.u_email as string,
          role: row.u_role as UserRole,
          password_hash: row.u_password_hash as string | null,
          created_at: row.u_created_at as string,
          updated_at: row.u_updated_at as string,
        }),
      };
    },
    async deleteSession(id_hash) {
      const { rowCount } = await db.query("DELETE FROM user_sessions WHERE id_hash = $1", [
        id_hash,
      ]);
      return (rowCount ?? 0) > 0;
    },
    async deleteUserSessions(user_id) {
      const { rowCount } = await db.query("DELETE FROM user_sessions WHERE user_id = $1", [
        user_id,
      ]);
      return rowCount ?? 0;
    },
    async countSignInAttempt({ key, window_ms, max, now }) {
      const start = Math.floor(now / window_ms) * window_ms;
      // An upsert is atomic per row: concurrent attempts each get their own count.
      const { rows } = await db.query<{ attempts: number }>(
        `WITH old AS (DELETE FROM sign_in_attempts WHERE key = $1 AND window_start < $2)
         INSERT INTO sign_in_attempts (key, window_start, attempts) VALUES ($1, $2, 1)
         ON CONFLICT (key, window_start)
           DO UPDATE SET attempts = sign_in_attempts.attempts + 1
         RETURNING attempts`,
        [key, start],
      );
      return { allowed: rows[0]!.attempts <= max, window_ends_at: start + window_ms };
    },
  };
}
