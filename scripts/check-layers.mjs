// The package layering of ARCHITECTURE.md, enforced: each package may import only the
// packages listed for it, every @tminus import in a package's sources is declared in its
// package.json, and no package declares one it may not have. dpdm (run beside this) checks
// that no file imports another in a circle, type-only imports included.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** What sits below http: the packages http (and everything above it) may import. */
const BELOW_HTTP = [
  "@tminus/admin",
  "@tminus/observability",
  "@tminus/webhooks",
  "@tminus/render",
  "@tminus/store",
  "@tminus/core",
];

/** Who may import whom: one way, top to bottom. */
export const ALLOWED = {
  tminus: ["@tminus/dashboard", "@tminus/http", ...BELOW_HTTP],
  "@tminus/dashboard": ["@tminus/http", ...BELOW_HTTP.filter((p) => p !== "@tminus/webhooks")],
  "@tminus/http": BELOW_HTTP,
  "@tminus/admin": ["@tminus/store", "@tminus/core"],
  "@tminus/observability": ["@tminus/webhooks", "@tminus/store", "@tminus/core"],
  "@tminus/webhooks": ["@tminus/store", "@tminus/core"],
  "@tminus/render": ["@tminus/core"],
  "@tminus/store": [],
  "@tminus/core": [],
};

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|tsx|mts)$/.test(name) ? [path] : [];
  });
}

const problems = [];
for (const dir of readdirSync(join(root, "packages"))) {
  const pkgFile = join(root, "packages", dir, "package.json");
  const pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
  const allowed = ALLOWED[pkg.name];
  if (!allowed) {
    problems.push(`${pkg.name}: not in the layering table of scripts/check-layers.mjs`);
    continue;
  }
  const declared = new Set(
    Object.keys({
      ...pkg.dependencies,
      ...pkg.peerDependencies,
      ...pkg.optionalDependencies,
    }).filter((name) => name.startsWith("@tminus/") || name === "tminus"),
  );
  for (const name of declared) {
    if (!allowed.includes(name))
      problems.push(`${pkg.name} depends on ${name}, which it may not import`);
  }
  for (const file of sources(join(root, "packages", dir, "src"))) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(
      /(?:from|import)\s*\(?\s*["'](@tminus\/[a-z-]+|tminus)(?:\/[^"']*)?["']/g,
    )) {
      const target = m[1];
      if (target === pkg.name) continue;
      const where = file.slice(root.length);
      if (!allowed.includes(target))
        problems.push(`${where} imports ${target}, which ${pkg.name} may not import`);
      else if (!declared.has(target))
        problems.push(`${where} imports ${target}, not declared in ${pkg.name}'s package.json`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log("layers: every package imports only what it may, and declares it");
