import { runInNewContext, Script } from "node:vm";
import {
  type CountdownPageInput,
  countdownCsp,
  RenderError,
  renderEmbed,
  renderEmbedScript,
  renderHostedPage,
  webFontFile,
} from "@tminus/render";
import { describe, expect, it } from "vitest";

const NOW = Date.UTC(2026, 10, 27, 8, 0, 0);
const XSS = "<img src=x onerror=alert(1)>";

function input(patch: Partial<CountdownPageInput> = {}): CountdownPageInput {
  return {
    name: "Black Friday",
    now: NOW,
    status: { remaining: { total_seconds: 93_784 }, state: "running", target_at: NOW + 93_784_000 },
    ...patch,
  };
}

/** The text of the element with this id (no nested elements inside). */
function textOf(html: string, id: string): string | undefined {
  return new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html)?.[1];
}

describe("hosted page", () => {
  it("is a complete document with the name, role=timer and a spoken alternative", () => {
    const html = renderHostedPage(input());
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("<title>Black Friday</title>");
    expect(html).toContain('<h1 class="tm-name" dir="auto">Black Friday</h1>');
    expect(html).toMatch(/role="timer" aria-live="polite" aria-atomic="true"/);
    // Server-rendered digits: what a browser without JavaScript keeps showing.
    expect(html).toContain('data-unit="days">1<');
    expect(html).toContain('data-unit="hours">02<');
    expect(html).toContain('data-unit="minutes">03<');
    expect(html).toContain('data-unit="seconds">04<');
    expect(html).toContain('data-label="days">day<');
    // Minutes precision for screen readers, rounded up like the display.
    expect(textOf(html, "tm-spoken")).toBe("1 day, 2 hours, 4 minutes");
    // The visual digits are hidden from assistive technology, the sentence is not.
    expect(html).toMatch(/id="tm-row" aria-hidden="true"/);
  });

  it("escapes every user-supplied string, in text and in attributes", () => {
    const html = renderHostedPage(
      input({
        name: XSS,
        look: { separator: '">', labels: { days: "<b>", hours: '"x' }, locale: "en" },
        ended: {
          text: `"><script>alert(1)</script>`,
          image_url: "https://cdn.example.com/a.png?x=\"y'",
        },
      }),
    );
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<b>");
    expect(html).not.toContain('"x<');
    expect(html).not.toContain("<script>alert");
    // Inside the JSON block nothing can close the script element.
    const json = /<script type="application\/json" id="tm-data">([\s\S]*?)<\/script>/.exec(
      html,
    )![1]!;
    expect(json).not.toMatch(/<|>/);
    expect(JSON.parse(json).endedText).toBe(`"><script>alert(1)</script>`);
    // Exactly two script elements: the JSON data and the inline program.
    expect(html.match(/<script/g)).toHaveLength(2);
    // The image URL is one attribute value, quotes and all.
    expect(html).toContain('src="https://cdn.example.com/a.png?x=&quot;y&#39;"');
  });

  it("loads nothing from elsewhere: no external scripts or styles, fonts only from urls.fonts", () => {
    const html = renderHostedPage(input());
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).not.toMatch(/@import|@font-face|url\(/);
    // The one link is the favicon, a data URI.
    expect([...html.matchAll(/<link[^>]*>/g)].map((m) => m[0])).toEqual([
      expect.stringMatching(/^<link rel="icon" type="image\/svg\+xml" href="data:image\/svg\+xml,/),
    ]);
    const fonts = "https://timers.example.com/t/assets/fonts/";
    for (const font of ["sans", "mono", "serif"] as const) {
      const served = renderHostedPage(input({ look: { font }, urls: { fonts } }));
      const urls = [...served.matchAll(/url\("([^"]+)"\)/g)].map((m) => m[1]!);
      // Two weights of every subset, each as woff2 and woff.
      expect(urls.length).toBeGreaterThanOrEqual(16);
      for (const url of urls) {
        expect(url.startsWith(fonts)).toBe(true);
        const file = webFontFile(url.slice(fonts.length));
        expect(file?.body.byteLength).toBeGreaterThan(1000);
        expect(file?.contentType).toBe(url.endsWith(".woff2") ? "font/woff2" : "font/woff");
      }
      expect(served).toContain(`font-family:"tminus-${font}", `);
    }
    expect(countdownCsp("r4nd0mN0nce", { fonts })).toContain(
      "font-src https://timers.example.com;",
    );
  });

  it("serves only the font files it links to, by exact name", () => {
    const latin = /url\("[^"]*\/(inter-[\d.]+-latin-700\.woff2)"\)/.exec(
      renderHostedPage(input({ urls: { fonts: "https://x.example/f/" } })),
    )![1]!;
    const file = webFontFile(latin)!;
    // A WOFF2 file starts with "wOF2".
    expect(Buffer.from(file.body.subarray(0, 4)).toString("latin1")).toBe("wOF2");
    for (const name of [
      "../package.json",
      "inter-latin-700.woff2",
      latin.replace(/[\d.]+/, "0.0.1"),
      latin.replace("700", "900"),
      `${latin}/`,
      "",
    ])
      expect(webFontFile(name)).toBeNull();
  });

  it("has Open Graph and Twitter card tags with the image, every value escaped", () => {
    const html = renderHostedPage(
      input({
        name: `${XSS}"'`,
        urls: {
          page: "https://timers.example.com/t/1",
          image: 'https://timers.example.com/t/1/countdown.png?width=1200&x="y',
        },
      }),
    );
    const meta = (key: string) =>
      new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1];
    expect(meta("og:title")).toBe("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;");
    expect(meta("twitter:title")).toBe(meta("og:title"));
    expect(meta("og:url")).toBe("https://timers.example.com/t/1");
    expect(meta("og:image")).toBe(
      "https://timers.example.com/t/1/countdown.png?width=1200&amp;x=&quot;y",
    );
    expect(meta("twitter:image")).toBe(meta("og:image"));
    expect(meta("twitter:card")).toBe("summary_large_image");
    expect(meta("og:description")).toBe("1 day, 2 hours, 4 minutes");
    expect(html).not.toContain("<img src=x");
    // Without the URLs there is nothing to point a preview at.
    expect(renderHostedPage(input())).not.toContain("og:");
    expect(() => renderHostedPage(input({ urls: { image: "javascript:alert(1)" } }))).toThrow(
      RenderError,
    );
    expect(() => renderHostedPage(input({ urls: { fonts: "https://x.example/f" } }))).toThrow(
      /urls.fonts must end in/,
    );
  });

  it("has a favicon in the brand colour, else the accent colour", () => {
    const icon = (html: string) =>
      decodeURIComponent(
        /<link rel="icon" [^>]*href="data:image\/svg\+xml,([^"]*)"/.exec(html)![1]!,
      );
    expect(icon(renderHostedPage(input()))).toContain('fill="#2563EB"');
    const branded = icon(renderHostedPage(input({ look: { brand_color: "#ff5a1f" } })));
    expect(branded).toContain('fill="#FF5A1F"');
    expect(branded).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^<]*>/);
  });

  it("shows the call to action in the brand colour with readable text, on the hosted page only", () => {
    const look = {
      brand_color: "#FFE600",
      cta: { url: 'https://shop.example.com/?a=1&b="2"', label: `Shop ${XSS}` },
    };
    const html = renderHostedPage(input({ look }));
    expect(html).toContain(
      '<a class="tm-cta" href="https://shop.example.com/?a=1&amp;b=&quot;2&quot;" rel="noopener" dir="auto">Shop &lt;img src=x onerror=alert(1)&gt;</a>',
    );
    // Yellow takes dark text; the band across the top is the brand colour too.
    expect(html).toContain("--tm-cta-bg:#FFE600;--tm-cta-fg:#111827;");
    expect(html).toContain(".tm-page{box-shadow:inset 0 6px 0 #FFE600}");
    expect(renderHostedPage(input({ look: { brand_color: "#1E40AF" } }))).toContain(
      "--tm-cta-fg:#FFFFFF;",
    );
    // No brand colour: no band, and the button takes the accent colour.
    const plain = renderHostedPage(
      input({ look: { cta: { url: "http://a.example/", label: "Go" } } }),
    );
    expect(plain).toContain('href="http://a.example/"');
    expect(plain).toContain("--tm-cta-bg:#2563EB;");
    expect(plain).not.toContain("box-shadow");
    expect(renderEmbed(input({ look }))).not.toContain('tm-cta"');
    expect(() =>
      renderHostedPage(input({ look: { cta: { url: "javascript:alert(1)", label: "x" } } })),
    ).toThrow(RenderError);
  });

  it("puts the CSP nonce on the inline script and style", () => {
    const html = renderHostedPage(input({ nonce: "r4nd0mN0nce" }));
    expect(html).toContain('<style nonce="r4nd0mN0nce">');
    expect(html).toContain('<script nonce="r4nd0mN0nce">');
    expect(countdownCsp("r4nd0mN0nce")).toContain("script-src 'nonce-r4nd0mN0nce'");
    expect(countdownCsp("r4nd0mN0nce")).toContain("frame-ancestors 'none'");
    expect(countdownCsp("r4nd0mN0nce", { embed: true })).toContain("frame-ancestors *");
    expect(() => renderHostedPage(input({ nonce: '"><x' }))).toThrow(RenderError);
  });

  it("shows the ended text (and goes to the redirect) once ended", () => {
    const html = renderHostedPage(
      input({
        status: { remaining: { total_seconds: 0 }, state: "ended", target_at: NOW - 1000 },
        ended: { text: "Over", redirect_url: "https://shop.example.com/next" },
      }),
    );
    expect(html).toMatch(/id="tm-row" aria-hidden="true" hidden/);
    expect(html).toMatch(/id="tm-ended" aria-hidden="true">/);
    expect(textOf(html, "tm-spoken")).toBe("Over");
    expect(html).toContain(
      '<meta http-equiv="refresh" content="0;url=https://shop.example.com/next">',
    );
  });

  it("never links a non-https ended image or redirect", () => {
    const html = renderHostedPage(
      input({ ended: { image_url: "javascript:alert(1)", redirect_url: "http://x.example" } }),
    );
    expect(html).not.toContain("javascript:");
    expect(html).not.toContain("http://x.example");
  });

  it("switches colours for dark mode only when the look has dark colours", () => {
    expect(renderHostedPage(input())).not.toContain("prefers-color-scheme");
    const dark = renderHostedPage(input({ look: { dark: { background_color: "#000000" } } }));
    expect(dark).toContain("@media (prefers-color-scheme: dark){:root{--tm-bg:#000000;");
  });

  it("labels in the look's language, with its plural forms", () => {
    const html = renderHostedPage(
      input({
        look: { locale: "pl" },
        status: {
          remaining: { total_seconds: 5 * 86_400 + 22 * 3600 },
          state: "running",
          target_at: NOW + 1,
        },
      }),
    );
    expect(html).toContain('data-label="days">dni<');
    expect(html).toContain('data-label="hours">godziny<');
    expect(html).toContain('<html lang="pl">');
  });

  it("keeps every user string in an isolate of its own, and out of the title's direction", () => {
    const RLO = "\u202E";
    const html = renderHostedPage(
      input({
        name: `Sale ${RLO}sdne`,
        look: { separator: `${RLO}:`, labels: { days: `${RLO}yad`, hours: "\u2067h\u2069" } },
        ended: { text: `${RLO}revo`, image_url: "https://cdn.example.com/over.png" },
      }),
    );
    expect(html).toContain('alt="revo"');
    // dir="auto" makes each element an isolate: a direction control inside it ends
    // with it, and its base direction comes from its own text.
    expect(html).toContain(`<h1 class="tm-name" dir="auto">Sale ${RLO}sdne</h1>`);
    expect(html).toContain(`<span class="tm-sep" dir="auto" data-before="1">${RLO}:</span>`);
    expect(html).toContain(`<span class="tm-label" dir="auto" data-label="days">${RLO}yad</span>`);
    expect(html).toContain(`<span class="tm-ended-text" dir="auto">${RLO}revo</span>`);
    expect(html).toMatch(/id="tm-spoken" dir="auto"/);
    // Outside an element nothing contains them: every user text element is one.
    const outside = html.replace(/<(h1|span)[^>]*dir="auto"[^>]*>[^<]*<\/\1>/g, "");
    const json = /<script type="application\/json" id="tm-data">[\s\S]*?<\/script>/;
    expect(outside.replace(json, "")).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    // A title cannot hold an element: the controls are dropped there.
    expect(html).toContain("<title>Sale sdne</title>");
    expect(renderEmbed(input({ name: `${RLO}x\u2066y` }))).toContain("<title>xy</title>");
  });

  it("refuses bad input with a RenderError naming the field", () => {
    expect(() => renderHostedPage(input({ name: 5 as never }))).toThrow(/name/);
    expect(() => renderHostedPage(input({ look: { text_color: "red" } }))).toThrow(
      /look.text_color/,
    );
    expect(() => renderHostedPage(input({ now: Number.NaN }))).toThrow(/now/);
  });
});

describe("embed", () => {
  it("is the countdown alone, escaped, reporting its height to the parent", () => {
    const html = renderEmbed(input({ name: XSS, look: { transparent: true } }));
    expect(html).not.toContain("<h1");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("<title>&lt;img src=x onerror=alert(1)&gt;</title>");
    expect(html).toContain('"mode":"embed"');
    expect(html).toContain("background:transparent");
    expect(html).toMatch(/role="timer"/);
  });

  it("never redirects the page it is a guest on", () => {
    const html = renderEmbed(
      input({
        status: { remaining: { total_seconds: 0 }, state: "ended", target_at: NOW },
        ended: { redirect_url: "https://shop.example.com/next" },
      }),
    );
    expect(html).not.toContain("http-equiv");
    expect(html).toContain('"redirect":null');
  });
});

/** A DOM just big enough for the inline script: elements by id, text and hidden flags. */
function fakePage(html: string, localClock: number) {
  const el = (id: string) => {
    const m = new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(html);
    return {
      id,
      textContent: m?.[1] ?? "",
      hidden: new RegExp(`id="${id}"[^>]* hidden`).test(html),
    };
  };
  const json = /<script type="application\/json" id="tm-data">([\s\S]*?)<\/script>/.exec(html)![1]!;
  const units = [...html.matchAll(/data-unit="(\w+)">(\w*)</g)].map((m) => ({
    unit: m[1],
    textContent: m[2],
  }));
  const labels = [...html.matchAll(/data-label="(\w+)">([^<]*)</g)].map((m) => ({
    textContent: m[2],
  }));
  const groups = [...html.matchAll(/<span class="tm-group"( hidden)?>/g)].map((m) => ({
    hidden: m[1] !== undefined,
  }));
  const befores = [...html.matchAll(/data-before="(\d+)"( hidden)?>/g)].map((m) => ({
    hidden: m[2] !== undefined,
    getAttribute: (name: string) => (name === "data-before" ? m[1]! : null),
  }));
  const lists: Record<string, unknown[]> = {
    "[data-unit]": units,
    "[data-label]": labels,
    ".tm-group": groups,
    "[data-before]": befores,
  };
  const row = {
    ...el("tm-row"),
    querySelectorAll: (q: string) => lists[q] ?? [],
  };
  const nodes: Record<string, unknown> = {
    "tm-data": { textContent: json },
    "tm-row": row,
    "tm-ended": el("tm-ended"),
    "tm-spoken": el("tm-spoken"),
    "tm-embed": { getBoundingClientRect: () => ({ height: 179.4 }) },
  };
  let clock = localClock;
  const timers: Array<{ at: number; fn: () => void }> = [];
  const messages: unknown[] = [];
  const window: Record<string, unknown> = { addEventListener: () => {}, postMessage: () => {} };
  window["parent"] = { postMessage: (m: unknown) => messages.push(m) };
  const context = {
    document: {
      getElementById: (id: string) => nodes[id] ?? null,
      documentElement: { scrollHeight: 180 },
    },
    window,
    location: {
      replace: (url: string) => messages.push({ redirect: url }),
      reload: () => messages.push("reload"),
    },
    Intl,
    JSON,
    Math,
    String,
    Date: { now: () => clock },
    setTimeout: (fn: () => void, ms: number) => timers.push({ at: clock + ms, fn }),
  };
  return {
    run: (script: string) => runInNewContext(script, context),
    /** Lets `ms` of local time pass, firing due timers in order. */
    advance(ms: number) {
      const until = clock + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > until) break;
        timers.shift();
        clock = next.at;
        next.fn();
      }
      clock = until;
    },
    units,
    labels,
    groups,
    befores,
    spoken: nodes["tm-spoken"] as { textContent: string },
    row,
    ended: nodes["tm-ended"] as { hidden: boolean },
    messages,
  };
}

function clientScript(html: string): string {
  return /<script(?: nonce="[^"]*")?>\n([\s\S]*?)\n<\/script>/.exec(html)![1]!;
}

describe("hidden leading zero units on the page (issue 37)", () => {
  const at = (total: number, hide = true) =>
    input({
      look: { hide_leading_zero_units: hide },
      status: {
        remaining: { total_seconds: total },
        state: "running",
        target_at: NOW + total * 1000,
      },
    });
  /** What shows: each group's digits, unless hidden, and how many separators show. */
  const visible = (page: ReturnType<typeof fakePage>) => ({
    digits: page.units
      .filter((_, i) => !page.groups[i]!.hidden)
      .map((u) => u.textContent)
      .join(":"),
    separators: page.befores.filter((b) => !b.hidden).length,
  });

  it("are hidden in the markup, and hide as they reach zero while the page ticks", () => {
    const html = renderHostedPage(at(3_602));
    expect(html).toMatch(
      /<span class="tm-group" hidden><span class="tm-digits" data-unit="days">0</,
    );
    const page = fakePage(html, NOW);
    page.run(clientScript(html));
    expect(visible(page)).toEqual({ digits: "01:00:02", separators: 2 });
    page.advance(2_100); // just past the second boundary the script wakes at
    expect(visible(page)).toEqual({ digits: "01:00:00", separators: 2 });
    page.advance(1_000);
    expect(visible(page)).toEqual({ digits: "59:59", separators: 1 });
  });

  it("show every unit without the option", () => {
    const html = renderHostedPage(at(3_602, false));
    expect(html).not.toContain(' hidden><span class="tm-digits"');
    const page = fakePage(html, NOW);
    page.run(clientScript(html));
    expect(visible(page)).toEqual({ digits: "0:01:00:02", separators: 3 });
  });

  it("leave the fitted row as wide as what shows", () => {
    const css = (hide: boolean) =>
      /calc\(\(100cqi - 4px\) \/ ([\d.]+)\)/.exec(renderHostedPage(at(3_602, hide)))![1]!;
    expect(Number(css(true))).toBeLessThan(Number(css(false)));
  });
});

describe("the inline script", () => {
  it("parses as JavaScript, and so does the embed script", () => {
    const html = renderHostedPage(input());
    expect(() => new Script(clientScript(html))).not.toThrow();
    expect(() => new Script(renderEmbedScript({ origin: "https://t.example.com" }))).not.toThrow();
  });

  it("ticks from the server's time even when the viewer's clock is an hour wrong", () => {
    const html = renderHostedPage(
      input({
        status: { remaining: { total_seconds: 65 }, state: "running", target_at: NOW + 64_500 },
      }),
    );
    // The page arrives with the local clock one hour fast.
    const page = fakePage(html, NOW + 3_600_000);
    page.run(clientScript(html));
    const shown = () => page.units.map((u) => u.textContent).join(":");
    expect(shown()).toBe("0:00:01:05");
    page.advance(520); // just past the target's second boundary
    expect(shown()).toBe("0:00:01:04");
    page.advance(4000);
    expect(shown()).toBe("0:00:01:00");
    expect(page.spoken.textContent).toBe("1 minute");
    page.advance(1000);
    expect(shown()).toBe("0:00:00:59");
    expect(page.labels[3]!.textContent).toBe("seconds");
    // The spoken text moves in steps of ten seconds in the last minute, not every second.
    expect(page.spoken.textContent).toBe("1 minute");
    page.advance(8000);
    expect(shown()).toBe("0:00:00:51");
    expect(page.spoken.textContent).toBe("1 minute");
    page.advance(1000);
    expect(page.spoken.textContent).toBe("50 seconds");
    page.advance(49_000);
    expect(shown()).toBe("0:00:00:01");
    expect(page.labels[3]!.textContent).toBe("second");
    page.advance(1000);
    expect(page.row.hidden).toBe(true);
    expect(page.ended.hidden).toBe(false);
    expect(page.spoken.textContent).toBe("Ended");
  });

  it("stays put while paused", () => {
    const html = renderHostedPage(
      input({
        status: { remaining: { total_seconds: 65 }, state: "paused", target_at: NOW + 65_000 },
      }),
    );
    const page = fakePage(html, NOW);
    page.run(clientScript(html));
    page.advance(10_000);
    expect(page.units.map((u) => u.textContent).join(":")).toBe("0:00:01:05");
  });

  it("redirects the hosted page at the end", () => {
    const html = renderHostedPage(
      input({
        status: { remaining: { total_seconds: 2 }, state: "running", target_at: NOW + 2000 },
        ended: { redirect_url: "https://shop.example.com/next" },
      }),
    );
    const page = fakePage(html, NOW);
    page.run(clientScript(html));
    page.advance(2100);
    expect(page.messages).toContainEqual({ redirect: "https://shop.example.com/next" });
  });

  it("in an embed, tells the parent page its height", () => {
    const html = renderEmbed(input());
    const page = fakePage(html, NOW);
    page.run(clientScript(html));
    expect(page.messages).toContainEqual({ type: "tminus:height", height: 180 });
  });
});

describe("embed script", () => {
  it("frames only http(s) URLs of the configured origin", () => {
    const js = renderEmbedScript({ origin: "https://timers.example.com/anything" });
    expect(js).toContain('var ORIGIN = "https://timers.example.com";');
    expect(js).toContain('var BASE = "https://timers.example.com/anything/t/";');
    expect(js).toContain("div[data-tminus-timer]");
    expect(js).toContain('url.protocol !== "https:" && url.protocol !== "http:"');
    expect(() => renderEmbedScript({ origin: "javascript:alert(1)" })).toThrow();
  });

  it("replaces each div with an iframe of its URL, only for timers under the base URL", () => {
    const divs = [
      {
        attrs: { "data-tminus-timer": "https://timers.example.com/cd/t/1/embed" } as Record<
          string,
          string
        >,
        children: [] as unknown[],
      },
      {
        attrs: { "data-tminus-timer": "javascript:alert(1)" } as Record<string, string>,
        children: [] as unknown[],
      },
      {
        attrs: { "data-tminus-timer": "https://evil.example.com/x" } as Record<string, string>,
        children: [] as unknown[],
      },
      {
        // Same origin, outside the mount: the shop's own pages are not ours to frame.
        attrs: { "data-tminus-timer": "https://timers.example.com/account" } as Record<
          string,
          string
        >,
        children: [] as unknown[],
      },
    ];
    const made: Array<Record<string, unknown>> = [];
    const context = {
      URL,
      Number,
      Math,
      parseInt,
      window: { addEventListener: () => {} },
      document: {
        baseURI: "https://shop.example.com/",
        readyState: "complete",
        querySelectorAll: () =>
          divs.map((d) => ({
            getAttribute: (n: string) => d.attrs[n] ?? null,
            setAttribute: (n: string, v: string) => {
              d.attrs[n] = v;
            },
            get firstChild() {
              return d.children[0] ?? null;
            },
            removeChild: () => d.children.shift(),
            appendChild: (c: unknown) => d.children.push(c),
          })),
        createElement: () => {
          const frame: Record<string, unknown> = {
            style: {},
            setAttribute: (n: string, v: string) => (frame[n] = v),
          };
          made.push(frame);
          return frame;
        },
      },
    };
    runInNewContext(renderEmbedScript({ origin: "https://timers.example.com/cd/" }), context);
    expect(made).toHaveLength(1);
    expect(made[0]!["src"]).toBe("https://timers.example.com/cd/t/1/embed");
    expect(divs[0]!.children).toHaveLength(1);
    expect(divs[1]!.children).toHaveLength(0);
  });
});
