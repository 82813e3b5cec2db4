import { expect } from "vitest";
import type { TestServer } from "./_harness";

/** A browser-like client of the dashboard: a cookie jar and the page's CSRF token. */
export interface DashboardClient {
  cookies: Map<string, string>;
  get(path: string): Promise<Response & { body_text: string }>;
  post(
    path: string,
    form: Record<string, string | string[]>,
    options?: { csrf?: string | null; origin?: string | null },
  ): Promise<Response & { body_text: string }>;
  /** The CSRF token of the last page fetched. */
  csrf: string;
}

/** A fresh client of the test server (no cookies). */
export function dashboardClient(s: Pick<TestServer, "url">): DashboardClient {
  const cookies = new Map<string, string>();
  const client: DashboardClient = {
    cookies,
    csrf: "",
    async get(path) {
      return request("GET", path);
    },
    async post(path, form, options = {}) {
      const body = new URLSearchParams();
      const csrf = options.csrf === undefined ? client.csrf : options.csrf;
      if (csrf !== null) body.set("_csrf", csrf);
      for (const [k, v] of Object.entries(form)) {
        for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
      }
      return request("POST", path, body.toString(), options.origin);
    },
  };
  async function request(method: string, path: string, body?: string, origin?: string | null) {
    const headers: Record<string, string> = {
      cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; "),
    };
    if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
    if (method === "POST" && origin !== null) headers.origin = origin ?? s.url;
    const res = await fetch(s.url + path, { method, headers, body, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/Max-Age=0/.test(line)) cookies.delete(name);
      else cookies.set(name, value);
    }
    const text = await res.text();
    const token = /name="_csrf" value="([0-9a-f]{64})"/.exec(text);
    if (token) client.csrf = token[1]!;
    return Object.assign(res, { body_text: text });
  }
  return client;
}

/**
 * Creates a dashboard user for a new account (with a production key, so the account exists)
 * and signs them in through their one-time link. Returns the signed-in client.
 */
export async function signedInUser(
  s: TestServer,
  role: "owner" | "member" = "owner",
  password = "correct horse battery staple",
): Promise<{ client: DashboardClient; account: string; email: string; password: string }> {
  const key = await s.key("production");
  const email = `${role}-${Math.random().toString(36).slice(2, 10)}@example.com`;
  const { link } = await s.admin.createUser({ account: key.account, email, role });
  const client = dashboardClient(s);
  const form = await client.get(link.path);
  expect(form.status).toBe(200);
  const token = new URL(link.path, s.url).searchParams.get("token")!;
  const done = await client.post("/dashboard/set-password", {
    token,
    password,
    confirm: password,
  });
  expect(done.status).toBe(303);
  expect(client.cookies.has("tminus_session")).toBe(true);
  const home = await client.get("/dashboard/production");
  expect(home.status).toBe(200);
  return { client, account: key.account, email, password };
}
