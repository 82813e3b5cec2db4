export { CliError, DEFAULT_DB, loadConfig, openStore } from "./options";
export { type RunningServer, type StartServerOptions, startServer } from "./server";
