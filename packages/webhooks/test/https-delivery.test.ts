// The HTTPS path of delivery, end to end: a test certificate authority made with openssl,
// TLS receivers on loopback, and the built worker in a child process that trusts the CA
// through NODE_EXTRA_CA_CERTS (Node reads it only at start, so it has to be a new process).
import { execFile, execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Store, TimerRecord } from "@tminus/store";
import { sqliteStore } from "@tminus/store/sqlite";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateWebhookSecret } from "../src/index";

const run = promisify(execFile);
const T0 = Date.UTC(2026, 10, 23, 12);
const dist = (pkg: string, entry = "index") =>
  fileURLToPath(new URL(`../../${pkg}/dist/${entry}.js`, import.meta.url));

let dir = "";
let dbPath = "";
let store: Store;
const servers: Server[] = [];
const received: { path: string; body: string; headers: Record<string, string> }[] = [];

/** Signs a key pair for `names` (DNS names and IPs) with the test CA. */
function certificate(name: string, altNames: string) {
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const cert = join(dir, `${name}.pem`);
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, `subjectAltName=${altNames}\n`);
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];
  execFileSync("openssl", ["req", ...ec, "-keyout", key, "-out", csr, "-subj", `/CN=${name}`], {
    stdio: "ignore",
  });
  execFileSync(
    "openssl",
    ["x509", "-req", "-in", csr, "-CA", join(dir, "ca.pem"), "-CAkey", join(dir, "ca.key")].concat([
      "-CAcreateserial",
      "-out",
      cert,
      "-days",
      "2",
      "-extfile",
      ext,
    ]),
    { stdio: "ignore" },
  );
  return { key: readFileSync(key), cert: readFileSync(cert) };
}

/** An HTTPS receiver on loopback that answers 204 and records what it got. */
async function receiver(tls: { key: Buffer; cert: Buffer }): Promise<number> {
  const server = createServer(tls, (req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push({ path: req.url ?? "", body, headers: req.headers as Record<string, string> });
      res.writeHead(204).end();
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

/** A destination for `url` and a timer whose creation queues one delivery to it. */
async function queue(url: string) {
  const account = await store.createAccount({
    id: randomUUID(),
    name: `tls-${randomUUID()}`,
    plan: "starter",
    now: T0,
  });
  const secret = generateWebhookSecret();
  await store.createWebhookDestination({
    destination: {
      id: randomUUID(),
      account_id: account.id,
      environment: "production",
      url,
      description: null,
      events: ["timer.created"],
      enabled: true,
      secret,
      created_at: T0,
    },
    max_destinations: 10,
  });
  const id = randomUUID();
  await store.createTimer({
    timer: {
      id,
      account_id: account.id,
      environment: "production",
      name: "TLS",
      type: "fixed",
      status: "draft",
      created_at: T0,
      updated_at: T0,
      published_at: null,
      data: {},
    },
    allowance: { cycle_id: "2026-11", limit: 10 },
    respond: () => ({ status: 201, headers: {}, body: "{}" }),
    events: [
      {
        id: randomUUID(),
        type: "timer.created",
        occurred_at: T0,
        payload: (t: TimerRecord) => ({ type: "timer.created", data: { id: t.id } }),
      },
    ],
    now: T0,
  });
  return { account, secret };
}

/** Runs one pass of the built worker in a child process, trusting the CA when asked. */
async function workerPass(trustCa: boolean) {
  const script = `
    const { sqliteStore } = await import(${JSON.stringify(dist("store", "sqlite"))});
    const { createWebhookWorker } = await import(${JSON.stringify(dist("webhooks"))});
    const store = sqliteStore({ path: ${JSON.stringify(dbPath)} });
    const worker = createWebhookWorker({
      store,
      config: { webhooks: { allow_private_destinations: true, timeout_ms: 5000 } },
      onError: (e) => { console.error(e); process.exitCode = 1; },
    });
    await worker.runOnce();
    await store.close();`;
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  if (trustCa) env.NODE_EXTRA_CA_CERTS = join(dir, "ca.pem");
  await run(process.execPath, ["--input-type=module", "-e", script], { env });
}

async function attemptsOf(accountId: string) {
  const [delivery] = await store.listWebhookDeliveries({
    account_id: accountId,
    environment: "production",
    limit: 10,
  });
  return delivery!;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tminus-tls-"));
  dbPath = join(dir, "tminus.db");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
      .concat(["-keyout", join(dir, "ca.key"), "-out", join(dir, "ca.pem"), "-days", "2"])
      .concat(["-subj", "/CN=tminus test CA"]),
    { stdio: "ignore" },
  );
  store = sqliteStore({ path: dbPath });
});

afterAll(async () => {
  for (const s of servers) s.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("delivery over HTTPS", () => {
  it("delivers to a receiver whose certificate chains to a CA the worker trusts", async () => {
    const port = await receiver(certificate("localhost", "DNS:localhost,IP:127.0.0.1"));
    const { account, secret } = await queue(`https://localhost:${port}/tls`);
    await workerPass(true);
    const delivery = await attemptsOf(account.id);
    expect(delivery.status, JSON.stringify(delivery.attempts)).toBe("succeeded");
    const got = received.find((r) => r.path === "/tls")!;
    expect(received.filter((r) => r.path === "/tls")).toHaveLength(1);
    // The signature survives the trip: the receiver verifies it with the destination's secret.
    expect(new Webhook(secret).verify(got.body, got.headers)).toMatchObject({
      type: "timer.created",
    });
  });

  it("fails the attempt with tls_hostname_mismatch when the certificate is for another host", async () => {
    const port = await receiver(certificate("wrong.example", "DNS:wrong.example"));
    const { account } = await queue(`https://localhost:${port}/wrong-host`);
    await workerPass(true);
    const delivery = await attemptsOf(account.id);
    expect(delivery.status).toBe("pending"); // retried later, like any failed attempt
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({
      error: "tls_hostname_mismatch",
      response_status: null,
    });
    expect(received.some((r) => r.path === "/wrong-host")).toBe(false);
  });

  it("fails with tls_untrusted_certificate when the worker does not trust the CA", async () => {
    const port = await receiver(certificate("localhost-2", "DNS:localhost,IP:127.0.0.1"));
    const { account } = await queue(`https://localhost:${port}/untrusted`);
    await workerPass(false);
    const delivery = await attemptsOf(account.id);
    expect(delivery.attempts[0]).toMatchObject({ error: "tls_untrusted_certificate" });
    expect(received.some((r) => r.path === "/untrusted")).toBe(false);
  });
});
