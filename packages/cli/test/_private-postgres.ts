// A PostgreSQL server of the test's own (initdb and pg_ctl in a temp folder, on a free port),
// for tests that stop the database under a running tminus. The shared server on 5432 is
// never stopped: other tests run on it.
import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * Where Debian puts the server's programs: the newest `/usr/lib/postgresql/<version>/bin`
 * (15 on this machine and in CI); TMINUS_PG_BIN overrides.
 */
export const PG_BIN = process.env.TMINUS_PG_BIN ?? newestPgBin();

function newestPgBin(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return join(root, versions[0] ?? "15", "bin");
}

/** Why no private server can be made here, or null. */
export function privatePostgresReason(): string | null {
  if (!existsSync(join(PG_BIN, "initdb")) || !existsSync(join(PG_BIN, "pg_ctl"))) {
    return `no initdb/pg_ctl in ${PG_BIN} (apt-get install postgresql-15, or set TMINUS_PG_BIN)`;
  }
  return null;
}

/** A private cluster: its URL, and switches to stop and start it. */
export interface PrivatePostgres {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/**
 * Makes and starts a cluster with trust authentication for user `postgres`. initdb refuses
 * to run as root, so under root the programs run as the `postgres` system user (which owns
 * the folder).
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), "tminus-pg-"));
  const data = join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: gid } = await run("id", ["-g", "postgres"]);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const pg = (program: string, args: string[]) =>
    asRoot
      ? run("runuser", ["-u", "postgres", "--", join(PG_BIN, program), ...args])
      : run(join(PG_BIN, program), args);
  await pg("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = async () => {
    await pg("pg_ctl", [
      "-D",
      data,
      "-o",
      options,
      "-l",
      join(dir, "log"),
      "-w",
      "-t",
      "30",
      "start",
    ]);
  };
  const stop = async () => {
    await pg("pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
  };
  await start();
  let running = true;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await stop();
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) await stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
