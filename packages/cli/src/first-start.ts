import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { IssuedApiKey, Logger } from "@tminus/http";
import { userPath } from "./paths";

/** The name of the secrets file a first start writes when no `--keys-file` is given. */
export const KEYS_FILE_NAME = "tminus-first-start-keys.txt";

/**
 * Where a first start writes the new keys' secrets when the log stream is not for people:
 * `--keys-file`, else beside the SQLite file (a folder the process can write), else the folder
 * tminus was run in.
 */
export function keysFilePath(
  flag: string | undefined,
  database: { kind: string; path: string },
): string {
  if (flag !== undefined) return userPath(flag);
  if (database.kind === "sqlite" && database.path !== ":memory:") {
    return join(dirname(database.path), KEYS_FILE_NAME);
  }
  return userPath(KEYS_FILE_NAME);
}

/** The first-start banner of a terminal: the two secrets, once, and a request to try. */
export function firstStartBanner(
  keys: IssuedApiKey[],
  url: string,
  dashboardPath: string | null,
): string {
  const [sandbox, production] = keys;
  return (
    `\nCreated account "default" with two API keys. The secrets are shown ONCE; store them now.\n` +
    `  sandbox     ${sandbox!.secret}\n` +
    `  production  ${production!.secret}\n\n` +
    `Try it:\n  curl -H "Authorization: Bearer ${sandbox!.secret}" ${url}/api/v1/usage\n\n` +
    (dashboardPath !== null
      ? `Dashboard: ${url}${dashboardPath} (add a user: tminus users create --account default --email you@example.com --role owner)\n\n`
      : "")
  );
}

/**
 * Writes the first start's secrets to `file`, readable by its owner only, and logs where (the
 * keys' prefixes, never their secrets): a log stream goes to aggregators and other people,
 * which a secret must not. The file is created, never overwritten (`wx`): an older one may
 * still hold secrets nobody has stored yet. When it cannot be written the keys exist without a
 * known secret, so the event says how to replace them.
 */
export function writeFirstStartKeys(
  logger: Logger,
  file: string,
  keys: IssuedApiKey[],
  url: string,
  dashboardPath: string | null,
): boolean {
  const prefixes = Object.fromEntries(keys.map((key) => [key.environment, key.prefix]));
  try {
    writeFileSync(
      file,
      `${firstStartBanner(keys, url, dashboardPath).trimStart()}Store them, then delete this file.\n`,
      { flag: "wx", mode: 0o600 },
    );
  } catch (error) {
    logger.error(
      {
        event: "first_start_keys_unwritten",
        account: "default",
        keys_file: file,
        prefixes,
        reason: (error as Error).message,
      },
      `first start: created account "default" with two API keys, but could not write their secrets to ${file} (${(error as Error).message}); revoke them (tminus keys revoke <prefix>) and issue new ones (tminus keys create)`,
    );
    return false;
  }
  logger.warn(
    { event: "first_start_keys", account: "default", keys_file: file, prefixes },
    `first start: created account "default" with two API keys; their secrets are in ${file} (mode 0600): store them, then delete the file`,
  );
  return true;
}
