// The documentation site: VitePress over docs/ (the markdown stays where it is and reads
// the same on GitHub), the HTTP API reference from docs/openapi.json (Redoc, bundled), the
// library reference from the types (TypeDoc, written to reference/library/ before a build).
import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { defineConfig } from "vitepress";
import { brokenRepoLinks, repoLinks } from "./repo-links.mts";
import { DOCS_DIR, REPO_URL } from "./repo-pages.mts";
import { guideSidebar } from "./sidebar.mts";

/**
 * GitHub's heading anchors (lowercase; punctuation other than `-` and `_` dropped; each space
 * a `-`), so a link like `api.md#rate-limits` works both on GitHub and on the site.
 */
function githubSlug(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

const LIBRARY_DIR = join(DOCS_DIR, "reference/library");

/** One sidebar entry per package entry point that TypeDoc wrote, named by its title. */
function librarySidebar() {
  if (!existsSync(LIBRARY_DIR)) return [];
  const entries = readdirSync(LIBRARY_DIR)
    .filter((f) => f.endsWith(".md") && f !== "index.md")
    .map((f) => ({
      text: /^# (.+)$/m.exec(readFileSync(join(LIBRARY_DIR, f), "utf8"))?.[1] ?? f,
      link: `/reference/library/${f.slice(0, -3)}`,
    }));
  return entries.sort((a, b) => a.text.localeCompare(b.text));
}

export default defineConfig({
  title: "tminus",
  description: "Countdown timers as a library: the API, email GIFs, pages, webhooks.",
  lang: "en",
  lastUpdated: false,
  cleanUrls: false,
  // A broken link between pages fails the build (anchors: scripts/check-docs-links.mjs).
  ignoreDeadLinks: false,
  head: [
    ["link", { rel: "icon", href: "data:," }],
    // No page loads images or fonts from another origin: Redoc's side menu would fetch its
    // vendor's logo from a CDN; the policy blocks that (the menu then shows the text only).
    [
      "meta",
      {
        "http-equiv": "Content-Security-Policy",
        content: "img-src 'self' data: blob:; font-src 'self' data:",
      },
    ],
  ],
  markdown: {
    anchor: { slugify: githubSlug },
    config(md) {
      md.use(repoLinks);
      // Inline code is shown as written: merge tags like `{{ person.id }}` are not Vue's.
      const codeInline = md.renderer.rules.code_inline!;
      md.renderer.rules.code_inline = (tokens, idx, options, env, self) => {
        tokens[idx]!.attrSet("v-pre", "");
        return codeInline(tokens, idx, options, env, self);
      };
    },
  },
  themeConfig: {
    nav: [
      { text: "Guide", link: "/project/introduction", activeMatch: "^/(?!reference/)" },
      { text: "HTTP API", link: "/reference/http-api", activeMatch: "^/reference/http-api" },
      { text: "Library", link: "/reference/library/", activeMatch: "^/reference/library/" },
    ],
    sidebar: guideSidebar().map((group) =>
      group.text === "Reference"
        ? {
            ...group,
            items: group.items!.map((item) =>
              item.link === "/reference/library/"
                ? { ...item, collapsed: true, items: librarySidebar() }
                : item,
            ),
          }
        : group,
    ),
    outline: { level: [2, 3] },
    search: { provider: "local" },
    socialLinks: [{ icon: "github", link: REPO_URL }],
    footer: { message: "MIT licensed." },
  },
  buildEnd(site) {
    // The document itself, linked from the guide as openapi.json.
    copyFileSync(join(DOCS_DIR, "openapi.json"), join(site.outDir, "openapi.json"));
    if (brokenRepoLinks.size > 0) {
      throw new Error(`links to files that do not exist:\n  ${[...brokenRepoLinks].join("\n  ")}`);
    }
  },
});
