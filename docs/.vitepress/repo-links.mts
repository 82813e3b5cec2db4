// A markdown-it plugin: a relative link that leaves docs/ becomes a link to the page showing
// that file (README, CONTRIBUTING, a package README...) or to the file on GitHub. A target
// that does not exist in the repository is a broken link: it is recorded, and the build fails.
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { MarkdownRenderer } from "vitepress";
import { DOCS_DIR, githubUrlOf, sitePageOf } from "./repo-pages.mts";

/** Broken links found while rendering, as `page: target` (pages render more than once). */
export const brokenRepoLinks = new Set<string>();

const EXTERNAL = /^([a-z][a-z0-9+.-]*:|\/\/)/i;

/** Registers the rewrite in front of VitePress's own link handling. */
export function repoLinks(md: MarkdownRenderer): void {
  const next = md.renderer.rules.link_open!;
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const href = token.attrGet("href");
    if (href && env?.relativePath) {
      const rewritten = rewrite(href, env.relativePath);
      if (rewritten !== href) token.attrSet("href", rewritten);
    }
    return next(tokens, idx, options, env, self);
  };
}

function rewrite(href: string, relativePath: string): string {
  if (EXTERNAL.test(href) || href.startsWith("#") || href.startsWith("/")) return href;
  const [path = "", hash] = href.split("#");
  const pageDir = dirname(join(DOCS_DIR, relativePath));
  const target = resolve(pageDir, decodeURIComponent(path));
  const inDocs = target === DOCS_DIR || target.startsWith(DOCS_DIR + sep);
  if (inDocs) return href;
  const suffix = hash === undefined ? "" : `#${hash}`;
  const page = sitePageOf(target);
  if (page) {
    const link = relative(pageDir, join(DOCS_DIR, `${page}.md`))
      .split(sep)
      .join("/");
    return `${link.startsWith(".") ? link : `./${link}`}${suffix}`;
  }
  if (!existsSync(target)) {
    brokenRepoLinks.add(`${relativePath}: ${href}`);
    return href;
  }
  return `${githubUrlOf(target)}${suffix}`;
}
