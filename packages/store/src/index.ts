/**
 * @tminus/store: the async persistence contract of tminus (`Store`). The adapters are entries
 * of their own, so an application loads (and installs) only the driver it uses:
 * `@tminus/store/sqlite` (better-sqlite3) and `@tminus/store/postgres` (pg), both optional
 * peers. `test/store-suite.ts` ships as `@tminus/store/conformance`, the suite every adapter
 * passes. `@tminus/store/copy` holds what `tminus copy`, `backup` and `restore` use.
 */

export * from "./contract";
export { uuidv7, uuidv7Time } from "./ids";
