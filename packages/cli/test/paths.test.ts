import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import omggif from "omggif";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invocationDir } from "../src/paths";
import { cleanEnv, runBin } from "./_bin";

// Relative paths resolve from where the user ran the command, also through `pnpm tminus`,
// which runs the bin in the workspace root with INIT_CWD set to the user's folder.
const workspace = fileURLToPath(new URL("../../..", import.meta.url));
const run = promisify(execFile);
let dir = "";

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "tminus-paths-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tminus = runBin;

/** What `pnpm tminus <args>` gives the bin: the workspace root as cwd, the user's folder in INIT_CWD. */
function pnpmEnv(userDir: string, args: string[]): NodeJS.ProcessEnv {
  return cleanEnv({
    INIT_CWD: userDir,
    npm_lifecycle_event: "tminus",
    npm_lifecycle_script: `node packages/cli/dist/cli.js ${args.join(" ")}`,
  });
}

const deadline = ["--deadline", "2026-11-27T09:00:00Z", "--now", "2026-11-25T10:11:12Z"];

function isGif(path: string): boolean {
  return new omggif.GifReader(readFileSync(path)).numFrames() === 60;
}

describe("relative paths", () => {
  it("render --out, --timer and --look are relative to the folder the bin was run in", async () => {
    const user = join(dir, "plain");
    mkdirSync(user);
    writeFileSync(
      join(user, "timer.json"),
      JSON.stringify({ type: "fixed", name: "t", deadline_at: "2026-11-27T09:00:00Z" }),
    );
    writeFileSync(join(user, "look.json"), JSON.stringify({ theme: "dark" }));
    const args = ["render", "--timer", "timer.json", "--look", "look.json", "--out", "x.gif"];
    const result = await tminus([...args, "--now", "2026-11-25T10:11:12Z"], user);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(join(user, "x.gif"));
    expect(isGif(join(user, "x.gif"))).toBe(true);
  });

  it("under `pnpm tminus` (INIT_CWD), every relative path is the user's, not the workspace's", async () => {
    const user = join(dir, "through-pnpm");
    mkdirSync(user);
    writeFileSync(join(user, "config.json"), JSON.stringify({}));
    const render = ["render", ...deadline, "--out", "countdown.gif"];
    const rendered = await tminus(render, workspace, pnpmEnv(user, render));
    expect(rendered.stderr).toBe("");
    expect(isGif(join(user, "countdown.gif"))).toBe(true);
    expect(existsSync(join(workspace, "countdown.gif"))).toBe(false);

    // --db and --config: the database file appears in the user's folder.
    const keys = ["keys", "create", "--db", "data/t.db", "--config", "config.json"];
    const created = await tminus(
      [...keys, "--account", "acme", "--env", "sandbox"],
      workspace,
      pnpmEnv(user, keys),
    );
    expect(created.stderr).toBe("");
    expect(existsSync(join(user, "data", "t.db"))).toBe(true);
    expect(existsSync(join(workspace, "data"))).toBe(false);

    // A missing config file is named where it was looked for.
    const missing = ["keys", "list", "--db", "data/t.db", "--config", "nope.json"];
    const listed = await tminus(missing, workspace, pnpmEnv(user, missing));
    expect(listed.stderr).toContain(join(user, "nope.json"));
  });

  it("the real `pnpm --dir <workspace> tminus` from another folder writes where it was run", async () => {
    const user = join(dir, "real-pnpm");
    mkdirSync(user);
    const pnpm = await run(
      "npx",
      [
        "-y",
        "pnpm@10",
        "--silent",
        "--dir",
        workspace,
        "tminus",
        "render",
        ...deadline,
        "--out",
        "real.gif",
      ],
      { cwd: user, env: cleanEnv() },
    );
    expect(pnpm.stdout).toContain(join(user, "real.gif"));
    expect(isGif(join(user, "real.gif"))).toBe(true);
  }, 60_000);

  it("an inherited INIT_CWD is ignored when the package script runs something else", async () => {
    // `npm test` runs vitest, which runs tminus with a cwd of its own: that cwd counts.
    const user = join(dir, "inherited");
    const elsewhere = join(dir, "elsewhere");
    mkdirSync(user);
    mkdirSync(elsewhere);
    const env = cleanEnv({
      INIT_CWD: elsewhere,
      npm_lifecycle_event: "test",
      npm_lifecycle_script: "vitest run",
    });
    const result = await tminus(["render", ...deadline, "--out", "y.gif"], user, env);
    expect(result.stderr).toBe("");
    expect(existsSync(join(user, "y.gif"))).toBe(true);
    expect(existsSync(join(elsewhere, "y.gif"))).toBe(false);
  });
});

describe("invocationDir", () => {
  const self = "/repo/node_modules/tminus/dist/cli.js";
  const argv = ["/usr/bin/node", self];
  const at = (script: string | undefined, event = "x") =>
    invocationDir(
      { INIT_CWD: "/user", npm_lifecycle_event: event, npm_lifecycle_script: script },
      "/repo",
      argv,
    );

  it("takes INIT_CWD when the script runs tminus, directly or through a runner", () => {
    for (const script of [
      "tminus",
      "tminus render --out a.gif",
      "npx tminus render",
      "npx -y tminus render",
      "pnpm exec tminus",
      "yarn tminus",
      "node_modules/.bin/tminus serve",
      "node node_modules/tminus/dist/cli.js render",
      undefined,
    ]) {
      expect(at(script), String(script)).toBe("/user");
    }
  });

  it("keeps the working directory otherwise", () => {
    for (const script of ["vitest run", "node build.mjs", "node other/cli.js", "make && tminus"]) {
      expect(at(script), script).toBe("/repo");
    }
    expect(invocationDir({ INIT_CWD: "/user" }, "/repo", argv)).toBe("/repo");
    expect(invocationDir({ npm_lifecycle_event: "x" }, "/repo", argv)).toBe("/repo");
    expect(invocationDir({}, "/repo", argv)).toBe("/repo");
  });
});
