// Checks the built documentation site (docs/.vitepress/dist) after `vitepress build`:
//  - every internal link (href) points at a page or file that exists, and its #anchor at an
//    element id on that page; links into the HTTP API reference (drawn by Redoc in the browser)
//    are checked against docs/openapi.json instead;
//  - every resource a page loads (script, stylesheet, image, font, iframe) is the site's own:
//    nothing from a CDN or any other origin.
// VitePress's own dead-link check covers page links in the markdown, not anchors: this does.
// Exit code 1 with one line per problem.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

// `--dist <dir>` and `--openapi <file>` check another build (the script's own tests use them).
const ROOT = resolve(import.meta.dirname, "..");
const DIST = resolve(argument("--dist") ?? join(ROOT, "docs/.vitepress/dist"));
const OPENAPI = resolve(argument("--openapi") ?? join(ROOT, "docs/openapi.json"));
/** The HTTP API reference page, whose anchors Redoc makes at run time. */
const REDOC_PAGE = "reference/http-api.html";

if (!existsSync(DIST)) {
  console.error(`check-docs-links: ${relative(ROOT, DIST)} not found; run vitepress build first`);
  process.exit(1);
}

const pages = walk(DIST).filter((f) => f.endsWith(".html"));
const idsOf = new Map();
/** The anchors Redoc will draw, read from the OpenAPI document on first use. */
let redocAnchors;
const problems = [];
let links = 0;

for (const page of pages) {
  const html = stripCode(readFileSync(page, "utf8"));
  const from = relative(DIST, page).split(sep).join("/");
  for (const [, tag, attrs] of html.matchAll(/<([a-z][a-z0-9-]*)\b([^>]*)>/gi)) {
    for (const [, name, value] of attrs.matchAll(/\s(href|src|srcset)\s*=\s*"([^"]*)"/gi)) {
      const url = decodeEntities(value);
      if (loadsResource(tag.toLowerCase(), attrs, name.toLowerCase()) && isForeign(url)) {
        problems.push(`${from}: <${tag}> loads ${url} from another origin`);
        continue;
      }
      if (name.toLowerCase() === "srcset") continue;
      const problem = checkLink(page, url);
      if (problem) problems.push(`${from}: ${problem}`);
    }
  }
}

if (problems.length > 0) {
  console.error(`check-docs-links: ${problems.length} problem(s) in the built site`);
  for (const p of [...new Set(problems)].sort()) console.error(`  ${p}`);
  process.exit(1);
}
console.log(
  `check-docs-links: ${pages.length} pages, ${links} internal links and anchors, no problems`,
);

/** The problem with one internal link, or null. External links are not followed. */
function checkLink(page, url) {
  if (/^(mailto|tel|javascript|data):/i.test(url) || url === "") return null;
  if (isForeign(url)) return null;
  links++;
  const [rawPath, rawHash] = splitHash(
    url.split("?")[0] === url ? url : url.replace(/\?[^#]*/, ""),
  );
  const target = rawPath === "" ? page : resolveTarget(page, decodeURIComponent(rawPath));
  if (!target) return `broken link ${url}`;
  if (rawHash === undefined || rawHash === "" || !target.endsWith(".html")) return null;
  const hash = decodeURIComponent(rawHash);
  const rel = relative(DIST, target).split(sep).join("/");
  if (idsIn(target).has(hash)) return null;
  if (rel === REDOC_PAGE && redocAnchorExists(hash)) return null;
  return `broken anchor ${url}`;
}

/** The file a site path names: the file itself, `<path>.html` (clean URLs) or `<path>/index.html`. */
function resolveTarget(page, path) {
  const base = path.startsWith("/") ? join(DIST, path) : resolve(dirname(page), path);
  for (const candidate of [base, `${base}.html`, join(base, "index.html")]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function idsIn(file) {
  let ids = idsOf.get(file);
  if (!ids) {
    const html = readFileSync(file, "utf8");
    ids = new Set(
      [...html.matchAll(/\s(?:id|name)\s*=\s*"([^"]*)"/g)].map((m) => decodeEntities(m[1])),
    );
    idsOf.set(file, ids);
  }
  return ids;
}

/** Redoc's anchors: `tag/<tag>`, `operation/<operationId>`, `tag/<tag>/operation/<id>`, `schema/<name>`. */
function redocAnchorExists(hash) {
  redocAnchors ??= readRedocAnchors();
  const { operations, tags, schemas } = redocAnchors;
  const op = /(?:^|\/)operation\/([^/]+)$/.exec(hash);
  if (op) return operations.has(op[1]);
  const tag = /^tag\/([^/]+)$/.exec(hash);
  if (tag) return tags.has(tag[1]);
  const schema = /^schema\/([^/]+)$/.exec(hash);
  if (schema) return schemas.has(schema[1]);
  return false;
}

function readRedocAnchors() {
  const doc = JSON.parse(readFileSync(OPENAPI, "utf8"));
  const operations = new Set();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) if (op?.operationId) operations.add(op.operationId);
  }
  return {
    operations,
    tags: new Set((doc.tags ?? []).map((t) => t.name.replace(/\s+/g, "-"))),
    schemas: new Set(Object.keys(doc.components?.schemas ?? {})),
  };
}

/** Whether this attribute makes the browser fetch something as the page loads. */
function loadsResource(tag, attrs, name) {
  if (name === "src" || name === "srcset") return true;
  if (tag !== "link" || name !== "href") return false;
  const rel = /\srel\s*=\s*"([^"]*)"/i.exec(attrs)?.[1] ?? "";
  return /stylesheet|preload|modulepreload|icon|prefetch|manifest/i.test(rel);
}

function isForeign(url) {
  return /^([a-z][a-z0-9+.-]*:)?\/\//i.test(url) && !/^data:/i.test(url);
}

function splitHash(url) {
  const i = url.indexOf("#");
  return i < 0 ? [url, undefined] : [url.slice(0, i), url.slice(i + 1)];
}

/** Code blocks show markup as text; links in them are not links. */
function stripCode(html) {
  return html.replace(/<pre\b[\s\S]*?<\/pre>/gi, "");
}

function decodeEntities(text) {
  return text
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

function argument(name) {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}
