import { EMBED_SCRIPT_PATH, PUBLIC_PREFIX, publicUrls } from "@tminus/core";
import { describe, expect, it } from "vitest";

// docs/api.md "Public URLs": /t/{id}, /t/{id}/embed, /t/{id}/countdown.gif,
// /t/{id}/countdown.png, /t/{id}/go and /embed.js, under the origin plus any mount prefix.
describe("publicUrls", () => {
  it("builds every public URL of a timer under the base URL", () => {
    expect(publicUrls("https://shop.example/countdown", "tmr_1")).toEqual({
      page: "https://shop.example/countdown/t/tmr_1",
      embed: "https://shop.example/countdown/t/tmr_1/embed",
      gif: "https://shop.example/countdown/t/tmr_1/countdown.gif",
      png: "https://shop.example/countdown/t/tmr_1/countdown.png",
      go: "https://shop.example/countdown/t/tmr_1/go",
      embed_script: "https://shop.example/countdown/embed.js",
    });
    expect(PUBLIC_PREFIX).toBe("/t/");
    expect(EMBED_SCRIPT_PATH).toBe("/embed.js");
  });
});
