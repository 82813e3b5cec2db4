// The sidebar, built from the files in docs/ when the site starts: a known page goes to its
// group under a short label; a page nobody has placed yet goes to "More" under its own title,
// so a new docs/*.md appears on the site without touching this file.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DefaultTheme } from "vitepress";
import { DOCS_DIR, PACKAGES } from "./repo-pages.mts";

type Item = DefaultTheme.SidebarItem;

const GROUPS: { text: string; pages: [string, string][] }[] = [
  {
    text: "Guide",
    pages: [
      ["/project/introduction", "Introduction"],
      ["/mounting", "Mounting in your app"],
      ["/configuration", "Configuration"],
      ["/cli", "Command line"],
      ["/dashboard", "Dashboard"],
      ["/deploy", "Deploying"],
    ],
  },
  {
    text: "Features",
    pages: [
      ["/render", "Rendering"],
      ["/email", "Timers in email"],
      ["/webhooks", "Webhooks"],
      ["/analytics", "Render analytics"],
    ],
  },
  {
    text: "Reference",
    pages: [
      ["/api", "HTTP API guide"],
      ["/reference/http-api", "HTTP API reference"],
      ["/reference/library/", "Library API"],
      ["/store-adapters", "Store adapters"],
    ],
  },
  {
    text: "Project",
    pages: [
      ["/project/architecture", "Architecture"],
      ["/testing", "Testing"],
      ["/project/benchmarks", "Benchmarks"],
      ["/project/contributing", "Contributing"],
      ["/project/security", "Security"],
      ["/project/changelog", "Changelog"],
    ],
  },
];

/** The sidebar of the guide pages. */
export function guideSidebar(): Item[] {
  const placed = new Set(GROUPS.flatMap((g) => g.pages.map(([link]) => link)));
  const unplaced = readdirSync(DOCS_DIR)
    .filter((f) => f.endsWith(".md") && f !== "index.md")
    .map((f) => `/${f.slice(0, -3)}`)
    .filter((link) => !placed.has(link))
    .sort()
    .map((link) => ({ text: titleOf(`${link.slice(1)}.md`), link }));
  const groups: Item[] = GROUPS.map((g) => ({
    text: g.text,
    items: g.pages.map(([link, text]) => ({ text, link })),
  }));
  if (unplaced.length > 0) groups.push({ text: "More", items: unplaced });
  groups.push({
    text: "Packages",
    collapsed: true,
    items: PACKAGES.map((p) => ({
      text: p === "cli" ? "tminus (CLI)" : `@tminus/${p}`,
      link: `/packages/${p}`,
    })),
  });
  return groups;
}

function titleOf(file: string): string {
  const heading = /^# (.+)$/m.exec(readFileSync(join(DOCS_DIR, file), "utf8"));
  return heading ? heading[1]!.replace(/`/g, "") : file;
}
