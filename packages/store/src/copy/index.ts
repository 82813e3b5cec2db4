// `tminus copy`, `backup` and `restore`: the table knowledge lives here, beside the schemas;
// the CLI drives it.
export { backupSqlite, type SqliteBackupResult } from "./backup";
export {
  CopyError,
  type CopyErrorCode,
  type CopyOptions,
  type CopyProgressEvent,
  type CopyReport,
  copyDatabase,
  DEFAULT_COPY_BATCH,
} from "./copy";
export type { CopyEndpoint, CopyProgress, TableProgress } from "./endpoint";
export { type PostgresCopyEndpointOptions, postgresCopyEndpoint } from "./postgres-endpoint";
export type { CopyRow, CopyValue } from "./rows";
export { type SqliteCopyEndpointOptions, sqliteCopyEndpoint } from "./sqlite-endpoint";
export {
  compareSummaries,
  summarizeTables,
  type TableComparison,
  type TableSummary,
} from "./summarize";
export {
  COPY_TABLES,
  type CopyColumn,
  type CopyColumnType,
  type CopyTable,
  UNCOPIED_TABLES,
} from "./tables";
