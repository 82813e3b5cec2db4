// Screenshots of the built documentation site in Chromium, at phone and desktop width, with
// the checks a person would make looking at them: nothing scrolls sideways at 390 px, and no
// page asks another origin for anything. Serves docs/.vitepress/dist itself (no dev server).
//   node scripts/docs-screenshots.mjs [--out artifacts/docs]
// Needs `pnpm docs:build` first and Chromium at CHROMIUM_PATH (default /usr/bin/chromium).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, relative, resolve, sep } from "node:path";
import { chromium } from "playwright-core";

const ROOT = resolve(import.meta.dirname, "..");
const DIST = join(ROOT, "docs/.vitepress/dist");
const outArg = process.argv.indexOf("--out");
const OUT = resolve(ROOT, outArg > 0 ? process.argv[outArg + 1] : "artifacts/docs");

const PAGES = [
  { name: "home", path: "/" },
  { name: "guide", path: "/mounting.html" },
  { name: "api-guide", path: "/api.html" },
  { name: "http-api", path: "/reference/http-api.html", ready: ".api-content" },
  {
    name: "http-api-operation",
    path: "/reference/http-api.html#operation/createTimer",
    ready: "[data-section-id='operation/createTimer']",
  },
  { name: "library", path: "/reference/library/http.html" },
];
const WIDTHS = [
  { width: 390, height: 844, colorScheme: "light" },
  { width: 1280, height: 800, colorScheme: "light" },
  { width: 390, height: 844, colorScheme: "dark" },
  { width: 1280, height: 800, colorScheme: "dark" },
];
const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
};

/** The path of every page of the built site. */
function allPages() {
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return walk(DIST)
    .filter((file) => file.endsWith(".html") && !file.endsWith("404.html"))
    .map((file) => `/${relative(DIST, file).split(sep).join("/")}`);
}

if (!existsSync(DIST)) {
  console.error("docs-screenshots: build the site first (pnpm docs:build)");
  process.exit(1);
}

const server = createServer((req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname));
  let file = join(DIST, path);
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
  if (!existsSync(file) && existsSync(`${file}.html`)) file = `${file}.html`;
  if (!file.startsWith(DIST) || !existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
  res.end(readFileSync(file));
});
await new Promise((done) => server.listen(0, "127.0.0.1", done));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
mkdirSync(OUT, { recursive: true });
const problems = [];
try {
  for (const viewport of WIDTHS) {
    const { colorScheme, ...size } = viewport;
    const context = await browser.newContext({ viewport: size, colorScheme });
    const suffix = `${colorScheme === "dark" ? "dark-" : ""}${size.width}`;
    const page = await context.newPage();
    const foreign = new Set();
    page.on("request", (request) => {
      if (!/^(data|blob):/.test(request.url()) && !request.url().startsWith(origin)) {
        foreign.add(request.url());
      }
    });
    // A request the page's Content-Security-Policy refused never left the browser.
    page.on("requestfailed", (request) => {
      const reason = request.failure()?.errorText ?? "";
      if (reason === "csp" || reason === "net::ERR_BLOCKED_BY_CSP") foreign.delete(request.url());
    });
    page.on("pageerror", (error) => problems.push(`script error: ${error.message}`));
    for (const target of PAGES) {
      await page.goto(`${origin}${target.path}`, { waitUntil: "networkidle" });
      if (target.ready) await page.waitForSelector(target.ready, { timeout: 60_000 });
      await page.waitForTimeout(300);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      if (overflow > 0) {
        problems.push(`${target.path} at ${suffix} px scrolls sideways by ${overflow} px`);
      }
      const file = join(OUT, `${target.name}-${suffix}.png`);
      await page.screenshot({ path: file });
      console.log(`${file}${overflow > 0 ? ` (overflow ${overflow} px)` : ""}`);
    }
    // Local search: the index is built into the site; a query finds the guide's section.
    await page.goto(`${origin}/`, { waitUntil: "networkidle" });
    await page.keyboard.press("Control+k");
    await page.locator(".VPLocalSearchBox input").fill("idempotency key");
    const hit = page.locator(".VPLocalSearchBox .result").first();
    await hit.waitFor({ timeout: 10_000 }).catch(() => problems.push("search found nothing"));
    const shot = join(OUT, `search-${suffix}.png`);
    await page.screenshot({ path: shot });
    console.log(shot);
    // Every other page at phone width: no screenshot, but no sideways scrolling either.
    if (size.width < 500) {
      for (const path of allPages()) {
        await page.goto(`${origin}${path}`, { waitUntil: "load" });
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        if (overflow > 0)
          problems.push(`${path} at ${suffix} px scrolls sideways by ${overflow} px`);
      }
    }
    for (const url of foreign) problems.push(`loaded from another origin: ${url}`);
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
if (problems.length > 0) {
  console.error(`docs-screenshots: ${problems.length} problem(s)`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log("docs-screenshots: no sideways scrolling, nothing loaded from another origin");
