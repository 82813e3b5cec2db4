import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
// The suite as a third-party adapter imports it, `@tminus/store/conformance`, from the build.
import { runStoreSuite } from "../dist/conformance.js";
import { sqliteStore } from "../src/sqlite";

runStoreSuite("sqlite, through the built @tminus/store/conformance", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tminus-conformance-"));
  return {
    store: sqliteStore({ path: join(dir, "tminus.db") }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
