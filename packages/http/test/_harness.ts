import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "@tminus/store";
import { postgresStore } from "@tminus/store/postgres";
import { sqliteStore } from "@tminus/store/sqlite";
import { createTestDatabase, pgServerReason } from "../../store/test/_postgres";
import {
  createAdmin,
  createHandler,
  createNodeListener,
  type HandlerOptions,
  handleClientError,
  type IssuedApiKey,
  type TminusConfigInput,
  type TminusHandler,
} from "../src/index";
import { createResponseValidator, type ResponseValidator } from "./_openapi";

// One validator per test file: the document is built from the source once, schemas compile
// on first use.
let responseValidator: ResponseValidator | undefined;

/**
 * A real server on loopback over a real SQLite file (or a real PostgreSQL database), as a
 * user would run it.
 */
export interface TestServer {
  url: string;
  store: Store;
  /** The handler behind the server (to start a shutdown with `drain()`). */
  handler: TminusHandler;
  admin: ReturnType<typeof createAdmin>;
  dbPath: string;
  /** Sets the server's clock (ms); `null` returns to the real clock. */
  setNow(ms: number | null): void;
  key(
    environment?: "sandbox" | "production",
    account?: string,
    scopes?: string[],
  ): Promise<IssuedApiKey>;
  call(
    method: string,
    path: string,
    options?: { key?: string | IssuedApiKey; body?: unknown; headers?: Record<string, string> },
  ): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked field by field in tests.
  json: any;
  text: string;
}

export async function startTestServer(
  config: TminusConfigInput = {},
  options: {
    baseUrlIsServer?: boolean;
    /** Store on a fresh PostgreSQL database (dropped on close) instead of a SQLite file. */
    postgres?: boolean;
    /** More options of `createHandler` (metrics, logger, health...). */
    handler?: Partial<HandlerOptions>;
  } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), "tminus-http-"));
  const dbPath = join(dir, "tminus.db");
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  if (options.postgres) {
    // Never a skip: a test that asks for PostgreSQL fails without it.
    const missing = await pgServerReason();
    if (missing) throw new Error(missing);
    database = await createTestDatabase();
  }
  const store = database
    ? postgresStore({ connectionString: database.url })
    : sqliteStore({ path: dbPath });
  let fixed: number | null = null;
  const now = () => fixed ?? Date.now();
  // Listen first, so that a test can make the public URLs point at this very server.
  let listener: ReturnType<typeof createNodeListener> | undefined;
  const server: Server = createServer((req, res) => listener!(req, res));
  server.on("clientError", handleClientError);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address();
  const url = `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`;
  if (options.baseUrlIsServer) config = { ...config, base_url: url };
  const handler = createHandler({ store, config, now, onError: () => {}, ...options.handler });
  listener = createNodeListener(handler);
  const admin = createAdmin({ store, config, now });
  let accounts = 0;

  return {
    url,
    store,
    handler,
    admin,
    dbPath,
    setNow(ms) {
      fixed = ms;
    },
    key(environment = "sandbox", account, scopes) {
      return admin.issueKey({
        account: account ?? `acct-${++accounts}-${Math.random().toString(36).slice(2, 8)}`,
        environment,
        scopes,
      });
    },
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      const key = typeof options.key === "string" ? options.key : options.key?.secret;
      if (key !== undefined && headers.authorization === undefined) {
        headers.authorization = `Bearer ${key}`;
      }
      let body: string | undefined;
      if (options.body !== undefined) {
        body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
        headers["content-type"] ??= "application/json";
      }
      const res = await fetch(url + path, { method, headers, body });
      const text = await res.text();
      let json: unknown = null;
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
      // Every response must match the OpenAPI document for its operation and status.
      responseValidator ??= createResponseValidator();
      const problem = responseValidator({
        method,
        path,
        status: res.status,
        headers: res.headers,
        text,
      });
      if (problem) throw new Error(`response does not match the OpenAPI document: ${problem}`);
      return { status: res.status, headers: res.headers, json, text };
    },
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      server.closeAllConnections();
      await handler.close();
      await store.close();
      await database?.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Asserts the specification's error envelope and returns the error object. */
export function expectError(res: TestResponse, status: number, code: string) {
  if (res.status !== status || res.json?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${res.text}`);
  }
  const requestId = res.headers.get("x-request-id");
  if (!requestId || res.json.request_id !== requestId) {
    throw new Error(`error without matching X-Request-Id: ${res.text}`);
  }
  if ("data" in res.json) throw new Error("an error body must not have a data key");
  if (typeof res.json.error.message !== "string" || res.json.error.message.length === 0) {
    throw new Error("error without a message");
  }
  if (/\bat [\w.<>]+ \(|\.(ts|js|mjs|cjs):\d+/.test(res.text))
    throw new Error("stack trace leaked");
  return res.json.error as { code: string; message: string; details?: Record<string, unknown> };
}

export const fixedTimer = (over: Record<string, unknown> = {}) => ({
  name: "Launch",
  type: "fixed",
  deadline_at: "2030-01-01T00:00:00Z",
  ...over,
});

let idem = 0;
/** A fresh Idempotency-Key. */
export const newKey = () => `test-${Date.now()}-${++idem}-${Math.random().toString(36).slice(2)}`;

/**
 * Creates a timer from `body` with `key` and publishes it (unless `publish` is false), and
 * returns the API's timer object (with `urls` once published). Throws on any refusal.
 */
export async function createTimer(
  s: Pick<TestServer, "call">,
  key: IssuedApiKey | string,
  body: Record<string, unknown>,
  publish = true,
  // biome-ignore lint/suspicious/noExplicitAny: the API's timer object, read loosely by tests.
): Promise<any> {
  const created = await s.call("POST", "/api/v1/timers", {
    key,
    body,
    headers: { "idempotency-key": newKey() },
  });
  if (created.status !== 201) throw new Error(created.text);
  if (!publish) return created.json.data;
  const pub = await s.call("POST", `/api/v1/timers/${created.json.data.id}/publish`, {
    key,
    headers: { "if-match": created.json.data.revision },
  });
  if (pub.status !== 200) throw new Error(pub.text);
  return pub.json.data;
}
