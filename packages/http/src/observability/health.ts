import type { Store } from "@tminus/store";
import { JSON_HEADERS } from "../envelope";
import type { ApiResponse } from "../transport/exchange";

/** Where the probes are answered; `false` turns one (or both) off. */
export interface HealthOptions {
  /** Liveness: 200 while the process answers at all. Default `/healthz`. */
  liveness?: string | false;
  /** Readiness: 200 while the store answers with the current schema. Default `/readyz`. */
  readiness?: string | false;
  /** How long the readiness check waits for the store before it answers 503. Default 2000 ms. */
  timeoutMs?: number;
}

/** Why the process is not ready, as the 503's `error.details.reason` says. */
export type NotReadyReason = "shutting_down" | "store_unavailable" | "schema_mismatch";

/** The outcome of one readiness check. */
export type Readiness = { ready: true } | { ready: false; reason: NotReadyReason; cause?: unknown };

/** The error code of a 503 from the readiness probe (outside `/api/v1`, like `render_unavailable`). */
export const NOT_READY = "not_ready";

const MESSAGES: Record<NotReadyReason, string> = {
  shutting_down: "this process is shutting down; send requests elsewhere",
  store_unavailable: "the database does not answer",
  schema_mismatch: "the database schema is not the version this code needs",
};

/** The probes of one handler: their paths, the readiness check, and the shutdown switch. */
export interface Health {
  liveness: string | null;
  readiness: string | null;
  /** Whether a path (inside the handler's mount) is one of the probes. */
  handles(path: string): boolean;
  /** Answers a probe path; null for any other path or a method other than GET and HEAD. */
  answer(method: string, path: string, requestId: string): Promise<ApiResponse> | null;
  /** Checks the store now (concurrent checks share one round trip). */
  check(): Promise<Readiness>;
  /** From now on readiness answers 503 (`shutting_down`). */
  drain(): void;
}

/**
 * Liveness and readiness. Readiness asks the store (`checkReady`: a round trip and the schema
 * version) with a deadline, so a database that hangs reads as down rather than holding the
 * load balancer's probe; once a shutdown starts it answers 503 at once, so the balancer stops
 * sending before the listener closes. `onChange` hears each change of state (for the log).
 */
export function createHealth(
  store: Pick<Store, "checkReady">,
  options: HealthOptions | false | undefined,
  onChange: (now: Readiness) => void,
): Health {
  const settings: HealthOptions =
    options === false ? { liveness: false, readiness: false } : (options ?? {});
  const liveness = probePath(settings.liveness, "/healthz");
  const readiness = probePath(settings.readiness, "/readyz");
  const timeoutMs = settings.timeoutMs ?? 2000;
  let draining = false;
  let running: Promise<Readiness> | undefined;
  let last: boolean | undefined;

  const probe = async (): Promise<Readiness> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`the store did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([store.checkReady(), deadline]);
      return { ready: true };
    } catch (cause) {
      return {
        ready: false,
        reason: isSchemaError(cause) ? "schema_mismatch" : "store_unavailable",
        cause,
      };
    } finally {
      clearTimeout(timer);
    }
  };

  const check = (): Promise<Readiness> => {
    if (draining) return Promise.resolve({ ready: false, reason: "shutting_down" });
    running ??= probe().then((result) => {
      running = undefined;
      if (result.ready !== last) {
        last = result.ready;
        onChange(result);
      }
      return result;
    });
    return running;
  };

  const handles = (path: string) => path === liveness || path === readiness;

  return {
    liveness,
    readiness,
    handles,
    answer(method, path, requestId) {
      if (!handles(path) || (method !== "GET" && method !== "HEAD")) return null;
      if (path === liveness) return Promise.resolve(ok("ok", requestId));
      return check().then((result) =>
        result.ready ? ok("ready", requestId) : notReady(result.reason, requestId),
      );
    },
    check,
    drain() {
      if (draining) return;
      draining = true;
      last = false;
      onChange({ ready: false, reason: "shutting_down" });
    },
  };
}

function probePath(value: string | false | undefined, fallback: string): string | null {
  if (value === false) return null;
  const path = value ?? fallback;
  if (!path.startsWith("/")) throw new Error(`health paths must start with "/", got "${path}"`);
  return path;
}

/** Both adapters word a schema that is not theirs with "schema"; anything else is the connection. */
function isSchemaError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "schema_outdated" || code === "schema_newer") return true;
  return /schema is at version/.test(String((error as Error | null)?.message ?? ""));
}

function ok(status: "ok" | "ready", requestId: string): ApiResponse {
  return {
    status: 200,
    headers: { ...JSON_HEADERS },
    body: JSON.stringify({ data: { status }, request_id: requestId }),
  };
}

function notReady(reason: NotReadyReason, requestId: string): ApiResponse {
  return {
    status: 503,
    headers: { ...JSON_HEADERS, "retry-after": "5" },
    body: JSON.stringify({
      error: { code: NOT_READY, message: MESSAGES[reason], details: { reason } },
      request_id: requestId,
    }),
  };
}
