// fast-check as mutation testing sees it (vitest.mutate.config.ts aliases "fast-check" here):
// every property runs at most MUTATION_RUNS times. Stryker reruns the covering tests once per
// mutant, and a recurrence mutant is covered by properties that run hundreds of cases over
// decades of calendar; a few dozen cases kill almost every mutant that hundreds would.
// The regular suite is unaffected. Tests import the default export (`import fc from "fast-check"`);
// a test that counts what its cases met reads the cap as `fc.mutationRuns` (through
// packages/core/test/_fc-runs.ts) instead of assuming the number of runs it asked for.
import { createRequire } from "node:module";

const real: typeof import("fast-check") = createRequire(import.meta.url)("fast-check");
const MUTATION_RUNS = Number(process.env.TMINUS_MUTATE_FC_RUNS ?? 25);

type Assert = typeof real.assert;
const capped = ((property: Parameters<Assert>[0], params?: Parameters<Assert>[1]) =>
  real.assert(
    property as never,
    {
      ...params,
      numRuns: Math.min(params?.numRuns ?? MUTATION_RUNS, MUTATION_RUNS),
    } as never,
  )) as Assert;

export const assert = capped;
export default { ...real, assert: capped, mutationRuns: MUTATION_RUNS };
