import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { DestinationAddressError, type HostResolver, resolveDestination } from "./resolve";
import { parseRetryAfter } from "./retry";

/** How many bytes of a response body an attempt keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/** What one POST to a destination gave. */
export interface SendResult {
  /** The HTTP status, or null when no response arrived. */
  status: number | null;
  /** The first 1 KB of the body (UTF-8; a cut character becomes U+FFFD). */
  body: string | null;
  /** Why there is no usable answer: `timeout`, `connection_refused`, `blocked_address`, ... */
  error: string | null;
  /** The response's Retry-After in ms, when it had one. */
  retry_after_ms: number | null;
  duration_ms: number;
}

/** Options of `sendWebhook`. */
export interface SendOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Connection to response, in ms; past it the attempt is a `timeout`. */
  timeoutMs: number;
  /** Skip the SSRF address check (development, tests). */
  allowPrivate: boolean;
  /** Name resolution; the system resolver by default. */
  resolver?: HostResolver;
  now?: () => number;
}

/**
 * POSTs one webhook. The host is resolved once and checked (resolve.ts), and the connection
 * goes to exactly that address through a custom `lookup`, so DNS rebinding cannot swap it;
 * TLS still verifies the certificate against the host name. Redirects are never followed
 * (node:http does not follow them): a 3xx is a failed attempt like any non-2xx. Never throws.
 */
export async function sendWebhook(options: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 1000) / 1000;
  const fail = (error: string): SendResult => ({
    status: null,
    body: null,
    error,
    retry_after_ms: null,
    duration_ms: elapsed(),
  });
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    return fail("invalid_url");
  }
  // One deadline for the whole attempt, resolution included.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  try {
    const target = await Promise.race([
      resolveDestination(url.hostname, {
        allowPrivate: options.allowPrivate,
        resolver: options.resolver,
      }),
      new Promise<never>((_, reject) =>
        controller.signal.addEventListener("abort", () => reject(new TimeoutError())),
      ),
    ]);
    const response = await post(url, target, options, controller.signal);
    return {
      ...response,
      error: null,
      retry_after_ms:
        response.status === 429 || response.status === 503
          ? parseRetryAfter(response.retryAfter, (options.now ?? Date.now)())
          : null,
      duration_ms: elapsed(),
    };
  } catch (error) {
    return fail(errorCode(error));
  } finally {
    clearTimeout(timer);
  }
}

class TimeoutError extends Error {
  readonly code = "timeout";
}

function post(
  url: URL,
  target: { address: string; family: 4 | 6 },
  options: SendOptions,
  signal: AbortSignal,
): Promise<{ status: number; body: string; retryAfter: string | undefined }> {
  // Every connection goes to the checked address, whatever name the socket layer asks for.
  const lookup: LookupFunction = (_hostname, opts, callback) => {
    if ((opts as { all?: boolean }).all) {
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    } else callback(null, target.address, target.family);
  };
  const body = Buffer.from(options.body);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[|\]$/g, ""),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        // A fresh connection per attempt: a pooled socket could lead to another address.
        agent: false,
        lookup,
        signal,
        headers: {
          ...options.headers,
          "content-type": "application/json",
          "content-length": String(body.length),
          "user-agent": "tminus-webhooks/1",
        },
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const finish = () => {
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
          resolve({
            status: res.statusCode ?? 0,
            body: excerpt.toString("utf8"),
            retryAfter: res.headers["retry-after"],
          });
        };
        res.on("data", (chunk: Buffer) => {
          if (kept >= RESPONSE_EXCERPT_BYTES) return;
          chunks.push(chunk);
          kept += chunk.length;
          // The rest of a large body is not needed: stop reading it.
          if (kept >= RESPONSE_EXCERPT_BYTES) {
            finish();
            res.destroy();
          }
        });
        res.on("end", finish);
        res.on("error", (error) => (kept >= RESPONSE_EXCERPT_BYTES ? undefined : reject(error)));
      },
    );
    req.on("error", (error) =>
      reject(signal.aborted ? new TimeoutError() : (error as Error & { code?: string })),
    );
    req.end(body);
  });
}

/** Certificate chains that do not lead to a trusted authority. */
const UNTRUSTED = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
]);

/** A short, stable name for why an attempt got no answer. */
function errorCode(error: unknown): string {
  if (error instanceof TimeoutError) return "timeout";
  if (error instanceof DestinationAddressError) return error.code;
  const code = (error as { code?: string } | null)?.code ?? "";
  if (code === "ECONNREFUSED") return "connection_refused";
  if (code === "ECONNRESET" || code === "EPIPE") return "connection_reset";
  if (code === "ETIMEDOUT" || code === "ABORT_ERR") return "timeout";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "dns_error";
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "unreachable";
  // The two TLS failures an operator can act on get names of their own.
  if (code === "ERR_TLS_CERT_ALTNAME_INVALID") return "tls_hostname_mismatch";
  if (UNTRUSTED.has(code)) return "tls_untrusted_certificate";
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME_MISMATCH/.test(code)) return "tls_error";
  if (code === "HPE_INVALID_CONSTANT" || code.startsWith("HPE_")) return "invalid_response";
  return "network_error";
}
