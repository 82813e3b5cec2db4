// The README's install commands, which `pnpm check:packages` runs as written in CI: the blocks
// exist, the "everything" one gives every tarball, and the PostgreSQL one names every @tminus
// package its packages depend on (npm finds a tarball's @tminus/* dependencies only among the
// tarballs of the same command: a missing one is `npm error 404 @tminus/admin`). This checks
// in milliseconds what check:packages finds out in minutes.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script, without declarations.
import { readmeBlock } from "../scripts/readme-blocks.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const readme = readFileSync(join(root, "README.md"), "utf8");

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
}
const manifests = new Map<string, Manifest>(
  readdirSync(join(root, "packages")).map((dir) => {
    const pkg = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8"));
    return [pkg.name, pkg];
  }),
);

/** The tarball file name pnpm pack gives a package, without its version. */
const tarballOf = (name: string) => `${name.replace(/^@/, "").replace("/", "-")}-`;

/** `names` and every workspace package they depend on, transitively. */
function closure(names: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const [dep, range] of Object.entries(manifests.get(name)?.dependencies ?? {})) {
      if (range.startsWith("workspace:")) visit(dep);
    }
  };
  names.forEach(visit);
  return seen;
}

describe("README.md: the install from the packed tarballs", () => {
  it("has the blocks check:packages runs", () => {
    expect(readmeBlock(readme, "pack")).toContain("npx -y pnpm@10 pack:packages");
    expect(readmeBlock(readme, "everything")?.[0]).toMatch(/^npm install "\$T"\/\*\.tgz(\s|$)/);
    expect(readmeBlock(readme, "postgres")?.[0]).toMatch(/^npm install /);
    expect(readmeBlock(readme, "missing")).toBeNull();
  });

  it("the PostgreSQL install names every @tminus package the ones it installs depend on", () => {
    const command = readmeBlock(readme, "postgres")![0]!;
    const given = [...command.matchAll(/"\$T"\/([a-z0-9-]+)-\*\.tgz/g)].map((m) => m[1]!);
    const names = [...manifests.keys()].filter((name) =>
      given.some((file) => `${file}-` === tarballOf(name)),
    );
    expect(names).toHaveLength(given.length);
    expect(names).toContain("@tminus/http");
    expect([...closure(names)].sort()).toEqual([...names].sort());
    // No renderer, no native module: what makes it the PostgreSQL-only install.
    expect(closure(names).has("@tminus/render")).toBe(false);
    expect(command).toMatch(/\spg(\s|$)/);
    expect(command).not.toContain("better-sqlite3");
  });

  it("the closure check can fail: @tminus/http alone lacks its dependencies", () => {
    const lone = closure(["@tminus/http"]);
    expect(lone.has("@tminus/admin")).toBe(true);
    expect(lone.has("@tminus/observability")).toBe(true);
    expect(closure(["tminus"]).has("@tminus/dashboard")).toBe(true);
  });
});
