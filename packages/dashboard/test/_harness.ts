// The HTTP package's test server with the dashboard mounted, as `tminus serve` runs it.
import type { TminusConfigInput } from "@tminus/http";
import { startTestServer as startApiServer } from "../../http/test/_harness";
import { dashboard } from "../src/index";

export * from "../../http/test/_harness";

/** A real server on loopback over a real SQLite file, the dashboard mounted beside the API. */
export function startTestServer(
  config: TminusConfigInput = {},
  options: Parameters<typeof startApiServer>[1] = {},
): ReturnType<typeof startApiServer> {
  return startApiServer(config, {
    ...options,
    handler: { mounts: [dashboard()], ...options?.handler },
  });
}
