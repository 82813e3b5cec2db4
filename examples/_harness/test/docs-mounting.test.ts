// docs/mounting.md promises that every snippet runs as shown. Each whole-file snippet is
// written, unchanged, into the example folder whose framework it imports (where its packages
// resolve), started with node on a fresh database and driven like the examples. The Next.js
// snippets are the example's files; its own test builds an app from them and serves it.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { driveMountedApp, issueProductionKey } from "../mounted";

const examples = fileURLToPath(new URL("../..", import.meta.url));
const doc = readFileSync(new URL("../../../docs/mounting.md", import.meta.url), "utf8");
const blocks = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!);
const files = blocks.filter((code) => /^\/\/ server\.(mjs|cjs)/.test(code));

/** The example folder whose node_modules has what a snippet imports. */
function folderFor(code: string): string {
  for (const framework of ["express", "fastify", "hono"]) {
    if (new RegExp(`from "${framework}"|require\\("${framework}"\\)`).test(code)) return framework;
  }
  return "node-http";
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  await new Promise((r) => server.close(r));
  return port;
}

const cleanup: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

describe("docs/mounting.md: every snippet runs as shown", () => {
  it("has the whole-file snippets it promises (CommonJS, node:http, Express, Fastify, Hono)", () => {
    expect(files.map((code) => `${folderFor(code)} ${code.split("\n")[0]}`)).toEqual([
      "node-http // server.cjs (or server.js in a CommonJS package)",
      "node-http // server.mjs",
      "express // server.mjs",
      "fastify // server.mjs",
      "hono // server.mjs",
    ]);
  });

  it.each(files.map((code, i) => [i, folderFor(code), code] as const))(
    "snippet %i (%s) serves the API, the public routes and the cookie under /countdown",
    async (i, folder, code) => {
      const ext = code.startsWith("// server.cjs") ? "cjs" : "mjs";
      const file = join(examples, folder, `.mounting-snippet-${i}.${ext}`);
      writeFileSync(file, code);
      const cwd = mkdtempSync(join(tmpdir(), "tminus-snippet-"));
      cleanup.push(() => rmSync(file, { force: true }));
      cleanup.push(() => rmSync(cwd, { recursive: true, force: true }));
      const secret = issueProductionKey(join(cwd, "tminus.db"));
      const port = await freePort();
      const child: ChildProcess = spawn(process.execPath, [file], {
        cwd,
        env: { ...process.env, PORT: String(port) },
        stdio: ["ignore", "pipe", "pipe"],
      });
      cleanup.push(async () => {
        if (child.exitCode !== null) return;
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      });
      let out = "";
      await new Promise<void>((resolve, reject) => {
        const seen = (c: Buffer) => {
          out += c;
          if (out.includes(`listening on http://127.0.0.1:${port}`)) resolve();
        };
        child.stdout!.on("data", seen);
        child.stderr!.on("data", seen);
        child.once("exit", (c) => reject(new Error(`snippet exited with ${c}: ${out}`)));
      });
      await driveMountedApp(`http://127.0.0.1:${port}`, secret);
    },
  );

  it("shows the Next.js example's files as they are: route, next.config.mjs, package.json", () => {
    const route = readFileSync(
      join(examples, "nextjs", "app", "countdown", "[...path]", "route.js"),
      "utf8",
    );
    expect(blocks).toContain(route);
    expect(blocks).toContain(readFileSync(join(examples, "nextjs", "next.config.mjs"), "utf8"));
    const json = [...doc.matchAll(/```json\n([\s\S]*?)```/g)]
      .map((m) => JSON.parse(m[1]!))
      .find((pkg) => pkg.dependencies?.next !== undefined);
    const example = JSON.parse(readFileSync(join(examples, "nextjs", "package.json"), "utf8"));
    // The example has a name and a description; what Next and npm act on is the same.
    expect(json).toMatchObject({ type: "module", scripts: example.scripts });
    expect(json.dependencies).toEqual(example.dependencies);
  });
});
