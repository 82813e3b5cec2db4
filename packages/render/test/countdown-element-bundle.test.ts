import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { renderEmbedScript } from "../src/index";

// embed.js carries `<tminus-countdown>` as a generated bundle: it must be the bundle of the
// current element and core sources (scripts/build-embed-element.mjs --check), and embed.js must
// scope it to the service's own `/t/` URLs.
const SCRIPT = fileURLToPath(new URL("../../../scripts/build-embed-element.mjs", import.meta.url));

describe("countdown-element.generated.ts", () => {
  it("is the bundle of the current sources", async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, "--check"]);
    expect(stderr).toBe("");
    expect(stdout).toBe("");
  });

  it("is in embed.js with the service's /t/ prefix as its base", () => {
    const js = renderEmbedScript({ origin: "https://timers.example.com/cd/" });
    expect(js).toContain('customElements.define("tminus-countdown"');
    expect(js).toMatch(/\}\)\("https:\/\/timers\.example\.com\/cd\/t\/"\);\n$/);
    expect(renderEmbedScript()).toMatch(/\}\)\(null\);\n$/);
  });
});
