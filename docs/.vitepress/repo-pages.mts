// Markdown files that live outside docs/ (the repository's README, ARCHITECTURE,
// CONTRIBUTING, SECURITY, the package READMEs and changelogs, bench/README) shown as pages
// of the site, and the link rewriting that lets them, and docs/, point at each other.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root and the site's source folder. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const DOCS_DIR = join(REPO_ROOT, "docs");

/** Where the repository is browsed on GitHub: links to code and examples go there. */
export const REPO_URL = "https://github.com/tminus-dev/tminus";
const REPO_BRANCH = "main";

/** The published packages, in layering order (the library reference follows it too). */
export const PACKAGES = ["core", "store", "render", "webhooks", "http", "cli"] as const;

interface RepoPage {
  /** The page's route under docs/, without `.md`. */
  route: string;
  /** Its source file(s), relative to the repository's root. */
  sources: string[];
}

const PROJECT_PAGES: RepoPage[] = [
  { route: "project/introduction", sources: ["README.md"] },
  { route: "project/architecture", sources: ["ARCHITECTURE.md"] },
  { route: "project/contributing", sources: ["CONTRIBUTING.md"] },
  { route: "project/security", sources: ["SECURITY.md"] },
  { route: "project/benchmarks", sources: ["bench/README.md"] },
  {
    route: "project/changelog",
    sources: PACKAGES.map((p) => `packages/${p}/CHANGELOG.md`),
  },
];

const PACKAGE_PAGES: RepoPage[] = PACKAGES.map((p) => ({
  route: `packages/${p}`,
  sources: [`packages/${p}/README.md`],
}));

const ALL_PAGES = [...PROJECT_PAGES, ...PACKAGE_PAGES];

/** The dynamic-route params of one folder (`project` or `packages`), with each page's text. */
export function repoPagesIn(folder: "project" | "packages") {
  return ALL_PAGES.filter((p) => p.route.startsWith(`${folder}/`))
    .filter((p) => p.sources.every((s) => existsSync(join(REPO_ROOT, s))))
    .map((p) => ({
      params: { page: p.route.slice(folder.length + 1) },
      content: pageContent(p),
    }));
}

/** The site page that shows a repository file (or a folder's README), if there is one. */
export function sitePageOf(repoPath: string): string | null {
  const rel = relative(REPO_ROOT, repoPath).split(sep).join("/");
  for (const page of ALL_PAGES) {
    if (page.sources.length !== 1) continue;
    const source = page.sources[0]!;
    if (source === rel || source === `${rel}/README.md`) return page.route;
  }
  return null;
}

/** A repository file's address on GitHub. */
export function githubUrlOf(repoPath: string): string {
  const rel = relative(REPO_ROOT, repoPath).split(sep).join("/");
  const kind = statSync(repoPath).isDirectory() ? "tree" : "blob";
  return `${REPO_URL}/${kind}/${REPO_BRANCH}/${rel}`;
}

function pageContent(page: RepoPage): string {
  const at = join(DOCS_DIR, dirname(page.route));
  if (page.sources.length === 1) return relink(read(page.sources[0]!), page.sources[0]!, at);
  // The changelog: every package's CHANGELOG.md, one level down under one title.
  const parts = page.sources.map((s) =>
    relink(read(s), s, at).replace(/^(#{1,5}) /gm, (_m, hashes: string) => `${hashes}# `),
  );
  return [
    "# Changelog",
    "",
    "Every published package's CHANGELOG.md, newest version first. The packages are versioned",
    "together (see [versions and changesets](./contributing.md#versions-and-changesets)).",
    "",
    ...parts,
  ].join("\n");
}

function read(source: string): string {
  return readFileSync(join(REPO_ROOT, source), "utf8");
}

/**
 * Rewrites the relative links of a file written for its place in the repository so that they
 * resolve from the page's place under docs/ (the markdown plugin then decides what each
 * target becomes). Fenced code is left alone.
 */
function relink(text: string, source: string, pageDir: string): string {
  const from = dirname(join(REPO_ROOT, source));
  let fenced = false;
  return text
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      if (fenced) return line;
      return line.replace(/\]\(([^)\s]+)\)/g, (whole, target: string) => {
        if (/^([a-z][a-z0-9+.-]*:|#|\/)/i.test(target)) return whole;
        const [path = "", hash] = target.split("#");
        const moved = relative(pageDir, resolve(from, path)).split(sep).join("/") || ".";
        return `](${moved}${hash === undefined ? "" : `#${hash}`})`;
      });
    })
    .join("\n");
}
