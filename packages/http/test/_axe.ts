import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

// axe-core in a real page, for the dashboard's browser tests: 0 serious or critical.
const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Runs axe-core on the page; returns its serious and critical violations. */
export async function axe(p: Page): Promise<string[]> {
  // evaluate runs outside the page's CSP (which allows no inline or foreign script).
  await p.evaluate(AXE);
  const result = await p.evaluate(async () => {
    const run = (
      window as unknown as {
        axe: {
          run(): Promise<{
            violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe.run;
    const r = await run();
    return r.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
  return result;
}
