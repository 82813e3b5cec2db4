// The package layering of ARCHITECTURE.md, enforced: each package may import only the
// packages listed for it, every @tminus import in a package's sources is declared in its
// package.json, and no package declares one it may not have. Inside a package, the folders
// of `src/` stack one way too: no first-level folder imports another that imports it back,
// directly or round a circle (files directly in `src/` aside). dpdm (run beside this) checks that no file imports another in a circle,
// type-only imports included.
//
// `node scripts/check-layers.mjs [root]`: the repository at `root` (default: this one).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(process.argv[2] ?? fileURLToPath(new URL("..", import.meta.url)));

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
/**
 * Circles among the first-level folders of `src` (two folders that import each other are the
 * shortest), each as its imports, one file per step. Relative imports only: another package is
 * the layering's business, and files directly in `src/` (the entry, the handler) may use any
 * folder.
 */
function folderCycles(src) {
  const edges = new Map();
  for (const file of sources(src)) {
    const [from, ...inFolder] = relative(src, file).split(sep);
    if (inFolder.length === 0) continue;
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']*)["']/g)) {
      const [to, ...rest] = relative(src, resolve(dirname(file), m[1])).split(sep);
      if (rest.length === 0 || to === from || to === "..") continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from).has(to))
        edges.get(from).set(to, `${relative(src, file)} imports ${m[1]}`);
    }
  }
  const cycles = [];
  const state = new Map();
  const path = [];
  const visit = (folder) => {
    state.set(folder, "open");
    path.push(folder);
    for (const [to] of edges.get(folder) ?? []) {
      if (state.get(to) === "open") {
        const circle = [...path.slice(path.indexOf(to)), to];
        cycles.push(circle.slice(1).map((next, i) => edges.get(circle[i]).get(next)));
      } else if (!state.has(to)) visit(to);
    }
    path.pop();
    state.set(folder, "done");
  };
  for (const folder of [...edges.keys()].sort()) if (!state.has(folder)) visit(folder);
  return cycles;
}

for (const dir of readdirSync(join(root, "packages"))) {
  const src = join(root, "packages", dir, "src");
  if (!statSync(src, { throwIfNoEntry: false })?.isDirectory()) continue;
  for (const steps of folderCycles(src))
    problems.push(
      `packages/${dir}/src: folders import each other in a circle: ${steps.join("; ")}`,
    );
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  process.exit(1);
}
console.log(
  "layers: every package imports only what it may, and declares it; the folders of each src stack one way",
);
