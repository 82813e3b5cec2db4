import fc from "fast-check";

/**
 * How many cases `fc.assert(property, params)` runs: `params.numRuns`, or fewer under
 * mutation testing, whose fast-check (vitest.mutate.fast-check.ts) caps every property and
 * says by how much (`mutationRuns`). A test that counts what its cases met scales its
 * expectations by this, never by the number it asked for.
 */
export function runsOf(params: { numRuns: number }): number {
  const cap = (fc as { mutationRuns?: number }).mutationRuns;
  return Math.min(params.numRuns, cap ?? params.numRuns);
}
