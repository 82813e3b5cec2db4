// Who fetched an email image (docs/analytics.md, "Human opens, proxies and prefetches"): a
// table of real User-Agent strings, each with where it was seen, and properties over the rest.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { clientFamily } from "../src/public/client-family";
import { requestSource } from "../src/public/request-source";

const DD = "https://github.com/matomo-org/device-detector/blob/master";
const ROWS: {
  ua: string;
  source: ReturnType<typeof requestSource>;
  family: ReturnType<typeof clientFamily>;
  seen: string;
}[] = [
  {
    ua: "Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)",
    source: "proxy",
    family: "gmail",
    seen: `${DD}/Tests/fixtures/bots.yml ("Gmail Image Proxy")`,
  },
  {
    ua: "YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html",
    source: "proxy",
    family: "yahoo",
    seen: `${DD}/Tests/fixtures/bots.yml ("Yahoo! Mail Proxy")`,
  },
  {
    ua: "Mozilla/5.0 SeznamEmailProxy/2.0.174",
    source: "proxy",
    family: "other",
    seen: `${DD}/Tests/fixtures/bots.yml ("Seznam Email Proxy")`,
  },
  {
    ua: "RamblerMail/6.0 (incompatible; ImageProxy/6.0)",
    source: "proxy",
    family: "other",
    seen: `${DD}/Tests/fixtures/bots.yml ("RamblerMail Image Proxy")`,
  },
  {
    ua: "Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/55.0.2883.87 Safari/537.36 (via secureurl.fwdcdn.com - mail.ukr.net proxy)",
    source: "proxy",
    family: "other",
    seen: `${DD}/Tests/fixtures/bots.yml ("UkrNet Mail Proxy")`,
  },
  {
    ua: "Mozilla/5.0",
    source: "prefetch",
    family: "apple_mail",
    seen: "https://www.mailgun.com/blog/product/bot-detection/ (Apple Mail Privacy Protection)",
  },
  {
    ua: "Microsoft Office/16.0 (Microsoft Outlook 16.0.12329; Pro), Mozilla/4.0 (compatible; ms-office; MSOffice 16)",
    source: "human",
    family: "outlook",
    seen: `${DD}/Tests/Parser/Client/fixtures/pim.yml (Microsoft Outlook)`,
  },
  {
    ua: "Microsoft Office/14.0 (Windows NT 6.1; Microsoft Outlook 14.0.6106; Pro; ms-office; MSOffice 14)",
    source: "human",
    family: "outlook",
    seen: `${DD}/Tests/fixtures/desktop.yml (Microsoft Outlook)`,
  },
  {
    ua: "Outlook-iOS/709.2042344.prod.iphone (3.21.0)",
    source: "human",
    family: "outlook",
    seen: `${DD}/Tests/Parser/Client/fixtures/pim.yml (Microsoft Outlook)`,
  },
  {
    ua: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
    source: "human",
    family: "apple_mail",
    seen: `${DD}/Tests/Parser/Client/fixtures/browser.yml (WebKit without a browser token)`,
  },
  {
    ua: "Mail/1816 CFNetwork/673.0.3 Darwin/13.0.0 (x86_64) (Macmini5%2C1)",
    source: "human",
    family: "other",
    seen: `${DD}/Tests/fixtures/desktop.yml (Apple Mail)`,
  },
  {
    ua: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.5 Safari/605.1.15",
    source: "human",
    family: "other",
    seen: `${DD}/Tests/Parser/Client/fixtures/browser.yml (Safari)`,
  },
];

describe("requestSource", () => {
  it.each(ROWS)("$ua -> $source ($seen)", ({ ua, source, family }) => {
    expect(requestSource(ua, true)).toBe(source);
    // The family and the source are read from the same string, each by its own rules.
    expect(clientFamily(ua, true)).toBe(family);
  });

  it("pages and embeds are opened in browsers: human, whatever the agent; no agent is human", () => {
    fc.assert(
      fc.property(fc.string(), (ua) => {
        expect(requestSource(ua, false)).toBe("human");
      }),
    );
    expect(requestSource(null, true)).toBe("human");
    expect(requestSource("", true)).toBe("human");
  });

  it("a proxy's token decides wherever it appears; the bare Mozilla/5.0 alone is a prefetch", () => {
    const tokens = fc.constantFrom(
      "GoogleImageProxy",
      "YahooMailProxy",
      "yahoomailproxy",
      "SeznamEmailProxy",
    );
    const filler = fc.stringMatching(/^[a-z0-9 ;/().]{0,40}$/);
    fc.assert(
      fc.property(filler, tokens, filler, (before, token, after) => {
        expect(requestSource(`${before}${token}${after}`, true)).toBe("proxy");
      }),
    );
    expect(requestSource("  Mozilla/5.0 ", true)).toBe("prefetch");
    fc.assert(
      fc.property(filler, (extra) => {
        fc.pre(extra.trim() !== "");
        // Anything more than the bare token is some client's own agent.
        expect(requestSource(`Mozilla/5.0 ${extra}`, true)).toBe("human");
      }),
    );
  });
});
