import type { ApiRequest, AuthContext, RouteResult } from "@tminus/http";
import type { Account, DashboardUser, Environment } from "@tminus/store";
import type { DashboardAdmin } from "./admin";
import type { ApiCall } from "./api-call";
import type { Flash } from "./flash";

/** Where the dashboard lives in URLs: path only (links) and absolute (snippets, the CLI). */
export interface DashboardPlace {
  /** The dashboard's path under the mount prefix, e.g. `/countdown/dashboard`. */
  path: string;
  /** The public base URL of the service (origin and mount prefix). */
  baseUrl: string;
}

/** A file sent with a multipart form: its name on the sender's disk and its bytes. */
export interface UploadedFile {
  name: string;
  data: Uint8Array;
}

/** A signed-in request, as every page handler receives it. */
export interface PageContext {
  req: ApiRequest;
  now: number;
  place: DashboardPlace;
  user: DashboardUser;
  account: Account;
  environment: Environment;
  /** The path after the environment, e.g. `/timers/0190...` ("" on the overview). */
  rest: string;
  /** The CSRF token every form of the page carries. */
  csrf: string;
  /** Members, keys, sessions, looks: what the API has no operation for (see admin.ts). */
  admin: DashboardAdmin;
  auth: AuthContext;
  /** The submitted form of a POST (urlencoded or multipart), empty for GET. */
  form: URLSearchParams;
  /** The files of a multipart POST, by field name (the upload form's). */
  files: ReadonlyMap<string, UploadedFile>;
  /** Calls an /api/v1 operation as this user in this environment. */
  api(call: ApiCall): Promise<RouteResult>;
  /** A dashboard path in this environment, e.g. `envPath("/timers")`. */
  envPath(path?: string): string;
  /** The one-time panel carried from a form post to the page it redirects to. */
  flash: Flash;
}
