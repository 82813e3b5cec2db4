// Preload for a benchmarked `tminus serve` (`node --require ./bench/count-commits.cjs ...`):
// counts better-sqlite3's COMMITs and timer INSERTs in the process and writes
// "count-commits <commits> <creates>" to stderr on SIGUSR2, so a bench can tell how many
// creates shared each group commit.
const Module = require("node:module");

const counts = { commits: 0, creates: 0 };
const load = Module.prototype.require;
let patched = false;
Module.prototype.require = function (id, ...rest) {
  const mod = load.call(this, id, ...rest);
  if (!patched && id === "better-sqlite3") {
    patched = true;
    const db = new mod(":memory:");
    const Statement = Object.getPrototypeOf(db.prepare("select 1"));
    db.close();
    const run = Statement.run;
    Statement.run = function (...args) {
      if (this.source === "COMMIT") counts.commits++;
      else if (this.source.startsWith("INSERT INTO timers ")) counts.creates++;
      return run.apply(this, args);
    };
  }
  return mod;
};
process.on("SIGUSR2", () =>
  process.stderr.write(`count-commits ${counts.commits} ${counts.creates}\n`),
);
