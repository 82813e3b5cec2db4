// examples/compose (the deployment of docs/deploy.md) is checked against the CLI: every
// `command:` is a tminus invocation whose flags exist, and the pieces fit together (database
// URL, load balancer upstreams, roles).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { parseDatabaseTarget } from "../src/database";
import { loadConfig } from "../src/options";
import { createProgram } from "../src/program";

const examplePath = (name: string) =>
  fileURLToPath(new URL(`../../../examples/compose/${name}`, import.meta.url));
const example = (name: string) => readFileSync(examplePath(name), "utf8");

interface Service {
  image?: string;
  build?: string;
  command?: string[] | string;
  environment?: Record<string, string>;
  depends_on?: string[] | Record<string, { condition: string }>;
  ports?: string[];
  healthcheck?: { test: string[] };
}

const compose = parse(example("compose.yaml"), { merge: true }) as {
  services: Record<string, Service>;
};
const services = compose.services;
const tminusServices = Object.entries(services).filter(([, s]) => s.build === ".");
const args = (s: Service) => (typeof s.command === "string" ? s.command.split(/\s+/) : s.command!);

/** Parses `tminus <argv>` with the real command definitions; actions are not run. */
async function parseWithCli(argv: string[]): Promise<Command> {
  const program = createProgram();
  let matched: Command | undefined;
  const prepare = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput({ writeErr: () => {}, writeOut: () => {} });
    cmd.action(function (this: Command) {
      matched = this;
    });
    for (const sub of cmd.commands) prepare(sub);
  };
  prepare(program);
  await program.parseAsync(["node", "tminus", ...argv]);
  if (!matched) throw new Error(`no command ran for ${argv.join(" ")}`);
  return matched;
}

describe("examples/compose", () => {
  it("the checker refuses flags the CLI does not have (so the checks below can fail)", async () => {
    await expect(parseWithCli(["serve", "--no-such-flag"])).rejects.toThrow(/unknown option/);
    await expect(parseWithCli(["wörker"])).rejects.toThrow();
    const serve = await parseWithCli(["serve", "--no-worker", "--port=1"]);
    expect(serve.opts()).toMatchObject({ worker: false, port: "1" });
  });

  it("every tminus command in compose.yaml is a valid invocation of the CLI", async () => {
    expect(tminusServices.length).toBeGreaterThanOrEqual(4);
    for (const [name, service] of tminusServices) {
      const cmd = await parseWithCli(args(service)).catch((err: Error) => {
        throw new Error(`service ${name}: ${err.message}`);
      });
      expect(cmd.name(), name).toMatch(/^(serve|worker|migrate)$/);
    }
  });

  it("runs two HTTP-only API processes, one worker and one migration before them", async () => {
    const roles = await Promise.all(
      tminusServices.map(async ([name, s]) => {
        const cmd = await parseWithCli(args(s));
        return { name, command: cmd.name(), opts: cmd.opts(), service: s };
      }),
    );
    const apis = roles.filter((r) => r.command === "serve");
    const workers = roles.filter((r) => r.command === "worker");
    const migrations = roles.filter((r) => r.command === "migrate");
    expect(apis).toHaveLength(2);
    expect(workers).toHaveLength(1);
    expect(migrations).toHaveLength(1);
    for (const r of apis) expect(r.opts).toMatchObject({ worker: false, host: "0.0.0.0" });
    // Each API process is probed on its readiness path, on the port it listens on.
    for (const r of apis) {
      const probe = r.service.healthcheck?.test.join(" ");
      expect(probe, r.name).toContain(`http://127.0.0.1:${r.opts.port}/readyz`);
    }
    // Processes that do not migrate start only after the migration succeeded.
    for (const r of [...apis, ...workers]) {
      expect(r.opts.migrate).toBe(false);
      expect(r.service.depends_on).toMatchObject({
        [migrations[0]!.name]: { condition: "service_completed_successfully" },
      });
    }
    // Everything shares one base URL: the load balancer's published address.
    const lbPort = services.lb!.ports![0]!.split(":")[0];
    for (const r of [...apis, ...workers]) {
      expect(r.opts.baseUrl).toBe(`http://localhost:${lbPort}`);
    }
    // The load balancer spreads over exactly the API processes, on the port they listen on.
    const upstreams = [...example("nginx.conf").matchAll(/^\s*server\s+([\w-]+):(\d+);/gm)];
    expect(upstreams.map((m) => m[1]).sort()).toEqual(apis.map((r) => r.name).sort());
    for (const m of upstreams) {
      expect(apis.find((r) => r.name === m[1])!.opts.port).toBe(m[2]);
    }
  });

  it("every process points at the postgres service with its credentials", () => {
    const pg = services.postgres!;
    expect(pg.image).toMatch(/^postgres:\d+/);
    for (const [name, s] of tminusServices) {
      const target = parseDatabaseTarget(undefined, s.environment ?? {});
      expect(target.kind, name).toBe("postgres");
      const url = new URL((target as { url: string }).url);
      expect(url.hostname).toBe("postgres");
      expect(url.username).toBe(pg.environment!.POSTGRES_USER);
      expect(url.password).toBe(pg.environment!.POSTGRES_PASSWORD);
      expect(url.pathname).toBe(`/${pg.environment!.POSTGRES_DB}`);
    }
  });

  it("the image runs the tminus CLI of this version", () => {
    const dockerfile = example("Dockerfile");
    const { version } = JSON.parse(
      readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8"),
    );
    expect(dockerfile).toContain(`tminus@${version}`);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["tminus"\]$/m);
    // The config file the processes read is valid for this version, with the same base URL.
    expect(loadConfig(examplePath("config.json")).base_url).toBe("http://localhost:8080");
  });
});
