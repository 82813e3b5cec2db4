// Every vitest project loads this first. Property tests run a fixed number of times
// and fast-check prints the seed and path of a failure, so a CI failure replays with
// `FC_SEED=<seed> FC_PATH=<path> npx vitest run <file> -t <name>` (docs/testing.md).
import fc from "fast-check";

const seed = process.env.FC_SEED;
const path = process.env.FC_PATH;
const runs = process.env.FC_NUM_RUNS;

fc.configureGlobal({
  // A test's own numRuns wins; FC_NUM_RUNS only changes the default, for a longer local hunt.
  numRuns: runs ? Number(runs) : 100,
  ...(seed ? { seed: Number(seed) } : {}),
  ...(path ? { path } : {}),
  // Replaying a path needs the very same run, shrinking included; then stop at once.
  ...(path ? { endOnFailure: true } : {}),
});
