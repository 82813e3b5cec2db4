import {
  type CopyEndpoint,
  CopyError,
  postgresCopyEndpoint,
  sqliteCopyEndpoint,
} from "@tminus/store/copy";
import {
  createPool,
  type DatabaseTarget,
  describePostgresError,
  parseDatabaseTarget,
} from "./database";
import { CliError } from "./errors";

/** One side of `tminus copy`, `backup` or `restore`, opened from its flag's value. */
export interface OpenedEndpoint {
  endpoint: CopyEndpoint;
  target: DatabaseTarget;
  /** Any failure while using it, as one line naming this side. */
  describe(error: unknown): CliError;
  close(): Promise<void>;
}

/**
 * Opens `--from` / `--to` / `--db` (a SQLite path or a `postgres://` URL) for copying or
 * verifying. A source must exist: copying from a mistyped path must not create an empty file.
 */
export async function openCopyEndpoint(
  value: string,
  flag: string,
  options: { mustExist: boolean; role: string },
): Promise<OpenedEndpoint> {
  let target: DatabaseTarget;
  try {
    target = parseDatabaseTarget(value);
  } catch (error) {
    throw error instanceof CliError
      ? new CliError(error.message.replace(/^--db:/, `${flag}:`))
      : error;
  }
  if (target.kind === "sqlite") {
    const { path } = target;
    const describe = (error: unknown) =>
      error instanceof CliError
        ? error
        : new CliError(`SQLite database ${path}: ${oneLine(error)}`);
    try {
      const endpoint = described(
        sqliteCopyEndpoint({ path, mustExist: options.mustExist }),
        describe,
      );
      return { endpoint, target, describe, close: () => endpoint.close() };
    } catch (error) {
      throw describe(error);
    }
  }
  const postgres = target;
  const pool = await createPool(postgres, { role: options.role, poolSize: 2 });
  const describe = (error: unknown) => describePostgresError(error, postgres);
  const endpoint = described(postgresCopyEndpoint({ pool, label: postgres.label }), describe);
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => {});
    throw describe(error);
  }
  return {
    endpoint,
    target,
    describe,
    async close() {
      await endpoint.close().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}

/**
 * The endpoint with every failure of a driver turned into one line naming its database, so
 * the command can tell a failing source from a failing target. The copy's own refusals
 * (`CopyError`) pass through as they are.
 */
function described(endpoint: CopyEndpoint, describe: (error: unknown) => CliError): CopyEndpoint {
  return new Proxy(endpoint, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        try {
          return await value.apply(target, args);
        } catch (error) {
          throw error instanceof CopyError ? error : describe(error);
        }
      };
    },
  });
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " ");
}
