import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

// The docs build's link check, run as CI runs it (a process) on small built sites.
const SCRIPT = fileURLToPath(new URL("../scripts/check-docs-links.mjs", import.meta.url));
const run = promisify(execFile);
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A built site: its files by path, and a two-operation OpenAPI document beside it. */
function site(files: Record<string, string>): { dist: string; openapi: string } {
  const root = mkdtempSync(join(tmpdir(), "tminus-docs-links-"));
  made.push(root);
  const dist = join(root, "dist");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dist, path)), { recursive: true });
    writeFileSync(join(dist, path), text);
  }
  const openapi = join(root, "openapi.json");
  writeFileSync(
    openapi,
    JSON.stringify({
      tags: [{ name: "Timers" }],
      paths: {
        "/timers": { get: { operationId: "listTimers" }, post: { operationId: "createTimer" } },
      },
    }),
  );
  return { dist, openapi };
}

async function check(s: { dist: string; openapi: string }) {
  try {
    const { stdout } = await run("node", [SCRIPT, "--dist", s.dist, "--openapi", s.openapi]);
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, out: failed.stderr };
  }
}

const page = (body: string) => `<!doctype html><html><head></head><body>${body}</body></html>`;

describe("check-docs-links", () => {
  it("passes a site whose links, anchors and resources all resolve", async () => {
    const result = await check(
      site({
        "index.html": page(
          '<a href="/api.html#rate-limits">a</a><a href="api#envelope">clean URL</a>' +
            '<a href="guide/">folder</a><a href="#top">here</a><span id="top"></span>' +
            '<a href="https://example.com/x#y">outside</a><img src="/assets/a.png">' +
            '<a href="reference/http-api.html#operation/createTimer">op</a>' +
            '<a href="reference/http-api.html#tag/Timers">tag</a>' +
            '<pre><a href="/not-a-link-in-code.html">x</a></pre>',
        ),
        "api.html": page('<h2 id="rate-limits">Rate limits</h2><h2 id="envelope">E</h2>'),
        "guide/index.html": page("guide"),
        "reference/http-api.html": page('<div id="app"></div>'),
        "assets/a.png": "png",
      }),
    );
    expect(result.out).toContain("4 pages");
    expect(result.code).toBe(0);
  });

  it("fails on a missing page, a missing anchor, an unknown operation and a foreign resource", async () => {
    const result = await check(
      site({
        "index.html": page(
          '<a href="/missing.html">m</a><a href="/api.html#nope">a</a>' +
            '<a href="reference/http-api.html#operation/deleteEverything">op</a>' +
            '<script src="https://cdn.example/lib.js"></script>' +
            '<link rel="stylesheet" href="//fonts.example/f.css">',
        ),
        "api.html": page('<h2 id="rate-limits">Rate limits</h2>'),
        "reference/http-api.html": page(""),
      }),
    );
    expect(result.code).toBe(1);
    expect(result.out).toContain("index.html: broken link /missing.html");
    expect(result.out).toContain("index.html: broken anchor /api.html#nope");
    expect(result.out).toContain(
      "broken anchor reference/http-api.html#operation/deleteEverything",
    );
    expect(result.out).toContain("<script> loads https://cdn.example/lib.js from another origin");
    expect(result.out).toContain("<link> loads //fonts.example/f.css from another origin");
    expect(result.out).toContain("5 problem(s)");
  });
});
