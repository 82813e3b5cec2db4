// What this run made on disk, so that a command that fails leaves nothing behind: a refused
// `keys create --env staging`, `serve` on a busy port or a `render --batch` of a missing file
// must not leave a new database file or folder. cli.ts undoes it when a command throws.
import { mkdirSync, rmdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";

/** Folders made by this run, each as the deepest one and the first (outermost) one made. */
const folders: Array<{ deepest: string; first: string }> = [];
/** SQLite files this run created (with their -wal, -shm and -journal companions). */
const databases: string[] = [];

/** `mkdir -p`, remembering what it made. Throws what mkdirSync throws. */
export function makeFolder(dir: string): void {
  const first = mkdirSync(dir, { recursive: true });
  if (first !== undefined) folders.push({ deepest: dir, first });
}

/** A SQLite file this run is about to create (it did not exist). */
export function rememberNewDatabase(path: string): void {
  databases.push(path);
}

/**
 * Removes what this run made: the new database files, then the folders it made, innermost
 * first and only while empty (anything else put there is left alone).
 */
export function undoCreated(): void {
  for (const path of databases.splice(0)) {
    for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(path + suffix, { force: true });
  }
  for (const { deepest, first } of folders.splice(0).reverse()) {
    for (let dir = deepest; ; dir = dirname(dir)) {
      try {
        rmdirSync(dir);
      } catch {
        break; // not empty (or gone): keep it and what holds it
      }
      if (dir === first || dirname(dir) === dir) break;
    }
  }
}
