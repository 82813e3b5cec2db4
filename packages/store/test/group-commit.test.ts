// The SQLite group commit on a real file: writers one at a time never wait for company, many
// at once share commits (and wait for company once they stream), and every job's effect is on
// disk before its promise resolves.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { groupCommit } from "../src/sqlite/_group-commit";
import { applyPragmas, openDatabase } from "../src/sqlite/database";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "tminus-group-commit-"));
  dirs.push(dir);
  const path = join(dir, "db");
  const db = openDatabase(path);
  applyPragmas(db);
  db.exec("CREATE TABLE t (n INTEGER NOT NULL)");
  const commits: { jobs: number; waited: boolean }[] = [];
  const write = groupCommit(db, { onCommit: (jobs, waited) => commits.push({ jobs, waited }) });
  const insert = db.prepare("INSERT INTO t (n) VALUES (?)");
  // A second connection sees only what was committed.
  const reader = openDatabase(path);
  const count = () => (reader.prepare("SELECT count(*) AS c FROM t").get() as { c: number }).c;
  return { db, reader, write, insert, commits, count };
}

describe("group commit", () => {
  it("commits a client's writes made one at a time one by one, without waiting", async () => {
    const s = setup();
    for (let i = 0; i < 50; i++) {
      await s.write(() => s.insert.run(i));
      expect(s.count()).toBe(i + 1);
    }
    expect(s.commits).toHaveLength(50);
    expect(s.commits.every((c) => c.jobs === 1 && !c.waited)).toBe(true);
    s.db.close();
    s.reader.close();
  });

  it("lets 16 concurrent writers share commits, waiting a turn for company while they stream", async () => {
    const s = setup();
    let written = 0;
    const writer = async (w: number) => {
      for (let i = 0; i < 40; i++) {
        await s.write(() => s.insert.run(w * 1000 + i));
        written++;
        // Resolved only once committed: a second connection sees at least this many.
        expect(s.count()).toBeGreaterThanOrEqual(written);
        // A client's think time: its next write comes in a later turn.
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await Promise.all(Array.from({ length: 16 }, (_, w) => writer(w)));
    expect(s.count()).toBe(640);
    const jobs = s.commits.reduce((sum, c) => sum + c.jobs, 0);
    expect(jobs).toBe(640);
    expect(s.commits.length).toBeLessThan(640 / 4);
    expect(s.commits.some((c) => c.waited)).toBe(true);
    s.db.close();
    s.reader.close();
  });
});
