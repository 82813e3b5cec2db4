import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

// The architecture check's folder rule (issue 42), run as CI runs it (a process) on small
// repositories: the folders of a package's src stack one way, files directly in src aside.
const SCRIPT = fileURLToPath(new URL("../scripts/check-layers.mjs", import.meta.url));
const run = promisify(execFile);
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A repository with one package, `@tminus/core`, whose src holds `files`. */
function repo(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "tminus-layers-"));
  made.push(root);
  const pkg = join(root, "packages", "core");
  mkdirSync(join(pkg, "src"), { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@tminus/core" }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(pkg, "src", path)), { recursive: true });
    writeFileSync(join(pkg, "src", path), text);
  }
  return root;
}

async function check(root: string): Promise<{ code: number; out: string }> {
  return run(process.execPath, [SCRIPT, root]).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (error: { code: number; stderr: string }) => ({ code: error.code, out: error.stderr }),
  );
}

describe("scripts/check-layers.mjs, folders", () => {
  it("passes this repository", async () => {
    const { code, out } = await check(fileURLToPath(new URL("..", import.meta.url)));
    expect(out).toContain("the folders of each src stack one way");
    expect(code).toBe(0);
  });

  it("passes folders that import one way, and files in src itself that import any", async () => {
    const root = repo({
      "index.ts": 'export * from "./api/route";\nexport * from "./docs/tags";\n',
      "handler.ts": 'import { route } from "./api/route";\nexport const h = route;\n',
      "api/route.ts":
        'import { tag } from "../docs/tags";\nimport "../handler";\nexport const route = tag;\n',
      "docs/tags.ts": 'export const tag = "t";\n',
    });
    expect(await check(root)).toMatchObject({ code: 0 });
  });

  it("fails on two folders that import each other, naming an import of each way", async () => {
    const root = repo({
      "api/route.ts": 'import { tag } from "../docs/tags";\nexport const route = tag;\n',
      "docs/tags.ts": 'export const tag = "t";\n',
      "docs/document.ts":
        'import type { route } from "../api/route";\nexport type R = typeof route;\n',
    });
    const { code, out } = await check(root);
    expect(code).toBe(1);
    expect(out).toContain(
      "packages/core/src: folders import each other in a circle: api/route.ts imports ../docs/tags; docs/document.ts imports ../api/route",
    );
  });

  it("fails on a circle through three folders", async () => {
    const root = repo({
      "a/one.ts": 'export { two } from "../b/two";\n',
      "b/two.ts": 'export const two = await import("../c/three");\n',
      "c/three.ts": 'import {\n  one,\n} from "../a/one";\nexport const three = one;\n',
    });
    const { code, out } = await check(root);
    expect(code).toBe(1);
    expect(out).toMatch(
      /a\/one\.ts imports \.\.\/b\/two; b\/two\.ts imports \.\.\/c\/three; c\/three\.ts imports \.\.\/a\/one/,
    );
  });
});
