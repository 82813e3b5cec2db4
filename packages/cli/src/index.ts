export {
  type DatabaseTarget,
  DEFAULT_POOL_SIZE,
  type MigrateResult,
  migrateDatabase,
  type OpenedDatabase,
  type OpenOptions,
  openDatabase,
  parseDatabaseTarget,
} from "./database";
export { CliError, DEFAULT_DB, loadConfig, openStore } from "./options";
export { type RunningServer, type StartServerOptions, startServer } from "./server";
export { type RunningWorker, type StartWorkerOptions, startWorker } from "./worker";
