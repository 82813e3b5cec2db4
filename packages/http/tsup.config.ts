import { defineConfig } from "tsup";
import { libraryBuild } from "../../tsup.base";

// `@tminus/http/fastify` is its own entry: only Fastify users load it (and Fastify's types).
export default defineConfig(
  libraryBuild({ entry: { index: "src/index.ts", fastify: "src/front-ends/fastify.ts" } }),
);
