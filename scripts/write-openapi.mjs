// Writes docs/openapi.json from the built @tminus/http package: the same document the service
// serves at GET /api/v1/openapi.json (with a server URL template instead of one base_url).
// Run `pnpm openapi` after `pnpm build` whenever a route changes; a test fails while the
// committed file differs from the document the code builds.
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildOpenApiDocument } from "../packages/http/dist/index.js";

const target = fileURLToPath(new URL("../docs/openapi.json", import.meta.url));
writeFileSync(target, `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
