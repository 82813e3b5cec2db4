import { DEFAULT_ENDED, DEFAULT_LOOK } from "@tminus/core";
import { describe, expect, it } from "vitest";
import { clickTarget, endedImageRedirect, redirectTo } from "../../src/public/go";

const PAGE = "https://timers.example/t/1";
const look = {
  ...DEFAULT_LOOK,
  click_url: "https://a.example/run",
  not_started_click_url: "https://a.example/soon",
};
const ended = { ...DEFAULT_ENDED, click_url: "https://a.example/over" };

describe("clickTarget", () => {
  it("picks the state's URL: paused counts as running", () => {
    const target = (state: "not_started" | "running" | "paused" | "ended") =>
      clickTarget({ look, ended }, { state }, PAGE);
    expect(target("not_started")).toBe("https://a.example/soon");
    expect(target("running")).toBe("https://a.example/run");
    expect(target("paused")).toBe("https://a.example/run");
    expect(target("ended")).toBe("https://a.example/over");
  });

  it("falls back to the hosted page, also for looks stored before the fields existed", () => {
    const { click_url: _a, not_started_click_url: _b, ...old } = DEFAULT_LOOK;
    for (const l of [DEFAULT_LOOK, old as typeof DEFAULT_LOOK])
      for (const state of ["not_started", "running", "ended"] as const)
        expect(clickTarget({ look: l, ended: DEFAULT_ENDED }, { state }, PAGE)).toBe(PAGE);
  });
});

describe("redirectTo", () => {
  it("writes a stored text as the URL parser does: a header never carries raw text", () => {
    const res = redirectTo("https://bücher.example/a b\n?x=ü");
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("https://xn--bcher-kva.example/a%20b?x=%C3%BC");
    expect(res.headers["cache-control"]).toBe("no-store");
  });
});

describe("endedImageRedirect", () => {
  it("redirects only an ended timer that has an ended image", () => {
    const withImage = { ended: { ...DEFAULT_ENDED, image_url: "https://a.example/i.png" } };
    expect(endedImageRedirect(withImage, { ended: true })?.headers.location).toBe(
      "https://a.example/i.png",
    );
    expect(endedImageRedirect(withImage, { ended: false })).toBeNull();
    expect(endedImageRedirect({ ended: DEFAULT_ENDED }, { ended: true })).toBeNull();
  });
});
