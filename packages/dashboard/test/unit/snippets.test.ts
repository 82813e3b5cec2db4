import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { computeStatus, emptyClock, publicUrls, validateTimerCreate } from "@tminus/core";
import { describe, expect, it } from "vitest";
import {
  EMAIL_PLATFORMS,
  type EmailPlatform,
  mergeTagTableMarkdown,
  PLATFORM_TAGS,
} from "../../src/email-platforms";
import { defaultAlts } from "../../src/share-options";
import { shareSnippets } from "../../src/snippets";

// docs/email.md "Links that follow the timer": every email image snippet is wrapped in the
// timer's /go link, with the image's own recipient query.
describe("shareSnippets", () => {
  const urls = publicUrls("https://shop.example/countdown", "0190aaaa-0000-7000-8000-000000000001");
  const pairs = (code: string) =>
    [...code.matchAll(/<a href="([^"]+)"><img src="([^"]+)"/g)].map((m): [string, string] => [
      m[1]!,
      m[2]!,
    ]);

  for (const type of ["fixed", "duration", "personalized"]) {
    it(`${type}: each email image sits in a /go link with the same query`, () => {
      // A personalized timer's snippets say what each link carries (its deadline, here).
      const personal =
        type === "personalized" ? { source: "deadline" as const, signed: true } : undefined;
      const snippets = shareSnippets({
        alt: "Countdown to Fri 27 Nov",
        type,
        urls,
        width: 600,
        height: 160,
        personal,
      });
      const email = snippets.filter((s) => s.id === "snippet-img" || s.id === "snippet-merge");
      expect(email.length).toBe(type === "fixed" ? 1 : 2);
      for (const snippet of email) {
        const links = pairs(snippet.code);
        // One link per <img>, never a bare image.
        expect(links.length).toBe(snippet.code.split("<img ").length - 1);
        expect(links.length).toBeGreaterThan(0);
        for (const [href, src] of links) {
          expect(href.startsWith(urls.go)).toBe(true);
          expect(src.startsWith(urls.gif)).toBe(true);
          // The image also says its drawn width; the click needs only the recipient.
          const recipient = src.slice(urls.gif.length).replace(/^\?width=\d+(&amp;)?/, "?");
          expect(href.slice(urls.go.length) || "?").toBe(recipient);
        }
      }
      const merge = email.find((s) => s.id === "snippet-merge");
      if (merge) {
        const param = type === "personalized" ? "deadline" : "r";
        expect(pairs(merge.code).every(([href]) => href.includes(`?${param}=`))).toBe(true);
        // A signed link keeps its signature in the click's query too.
        if (personal)
          expect(pairs(merge.code).every(([href]) => /[?&;]sig=/.test(href))).toBe(true);
      }
    });
  }

  it("writes each platform's merge tag, the chosen width and 2x, and escapes the alt text", () => {
    const tags: Record<EmailPlatform, string> = {
      Mailchimp: "r=*|UNIQID|*",
      Klaviyo: "r={{person.KlaviyoID}}",
      HubSpot: "r={{contact.hs_object_id}}",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Braze's syntax, not a template.
      Braze: "r={{${user_id}}}",
      "Salesforce Marketing Cloud": "r=%%_subscriberkey%%",
      "Customer.io": "r={{customer.cio_id}}",
      SendGrid: "r={{RECIPIENT_ID}}",
      Brevo: "r={{contact.RECIPIENT_ID}}",
    };
    for (const platform of EMAIL_PLATFORMS) {
      const [first] = shareSnippets({
        type: "duration",
        urls,
        width: 600,
        height: 160,
        alt: 'Ends "Friday" <soon> & more',
        share: { platform, width: 300, retina: true, dark: false, alt: null, field: null },
      });
      expect(first?.id).toBe("snippet-merge");
      // 2x: drawn at twice the width and height (scale=2), shown at the 1x size.
      expect(first?.code).toContain(
        `?width=300&amp;scale=2&amp;${tags[platform].replace(/&/g, "&amp;")}`,
      );
      expect(first?.code).toContain('width="300" height="80"');
      expect(first?.code).toContain('alt="Ends &quot;Friday&quot; &lt;soon> &amp; more"');
    }
  });

  it("with dark mode, adds the dark picture for mail apps in dark mode around the same <img>", () => {
    const [first] = shareSnippets({
      type: "fixed",
      urls,
      width: 600,
      height: 160,
      alt: "Countdown",
      share: {
        platform: "Mailchimp",
        width: 600,
        retina: true,
        dark: true,
        alt: null,
        field: null,
      },
    });
    expect(first?.code).toBe(
      `<a href="${urls.go}"><picture><source media="(prefers-color-scheme: dark)" srcset="${urls.gif}?variant=dark&amp;width=600&amp;scale=2"><img src="${urls.gif}?width=600&amp;scale=2" width="600" height="160" alt="Countdown" style="display:block;border:0;max-width:100%;height:auto"></picture></a>`,
    );
  });

  it("a campaign label goes on the image and its link, after the recipient query", () => {
    const share = {
      platform: "Mailchimp" as const,
      width: 600,
      retina: false,
      dark: false,
      alt: null,
      field: null,
      campaign: "spring sale & more",
    };
    const [merge, plain] = shareSnippets({
      type: "duration",
      urls,
      width: 600,
      height: 160,
      alt: "Countdown",
      share,
    });
    const label = "c=spring%20sale%20%26%20more";
    expect(pairs(merge!.code)).toEqual([
      [
        `${urls.go}?r=*|UNIQID|*&amp;${label}`,
        `${urls.gif}?width=600&amp;r=*|UNIQID|*&amp;${label}`,
      ],
    ]);
    expect(pairs(plain!.code)).toEqual([
      [`${urls.go}?${label}`, `${urls.gif}?width=600&amp;${label}`],
    ]);
    // Without a label, nothing is added.
    const [none] = shareSnippets({
      type: "fixed",
      urls,
      width: 600,
      height: 160,
      alt: "Countdown",
      share: { ...share, campaign: null },
    });
    expect(none!.code).not.toMatch(/[?;]c=/);
  });

  it("an evergreen timer's shared image has its own alt text, saying what it counts from", () => {
    const [merge, shared] = shareSnippets({
      type: "duration",
      urls,
      width: 600,
      height: 160,
      alt: { recipient: "per recipient", shared: "from Thu 26 Nov" },
      sharedStart: "Thu 26 Nov, 20:30 Berlin time",
    });
    expect(merge?.code).toContain('alt="per recipient"');
    expect(shared?.code).toContain('alt="from Thu 26 Nov"');
    expect(shared?.hint).toContain(
      "counted from the timer's start (Thu 26 Nov, 20:30 Berlin time)",
    );
  });
});

describe("the merge-tag table", () => {
  it("docs/email.md shows exactly the table the share panel writes from", () => {
    const docs = join(import.meta.dirname, "../../../../docs/email.md");
    const text = readFileSync(docs, "utf8");
    const marked = /(<!-- merge-tags:start[^>]*-->\n)([\s\S]*?)(\n<!-- merge-tags:end -->)/;
    // TMINUS_WRITE_DOCS=1 npx vitest run packages/dashboard/test/unit/snippets.test.ts rewrites it.
    if (process.env.TMINUS_WRITE_DOCS === "1") {
      writeFileSync(
        docs,
        text.replace(marked, (_, a, _b, c) => `${a}${mergeTagTableMarkdown()}${c}`),
      );
    }
    expect(marked.exec(readFileSync(docs, "utf8"))?.[2]).toBe(mergeTagTableMarkdown());
  });

  it("every platform cites its own documentation", () => {
    const hosts: Record<EmailPlatform, RegExp> = {
      Mailchimp: /mailchimp\.com$/,
      Klaviyo: /klaviyo\.com$/,
      HubSpot: /hubspot\.com$/,
      Braze: /braze\.com$/,
      "Salesforce Marketing Cloud": /salesforce\.com$/,
      "Customer.io": /customer\.io$/,
      SendGrid: /twilio\.com$/,
      Brevo: /brevo\.com$/,
    };
    for (const platform of EMAIL_PLATFORMS) {
      expect(PLATFORM_TAGS[platform].sources.length).toBeGreaterThan(0);
      for (const url of PLATFORM_TAGS[platform].sources)
        expect(new URL(url).hostname, `${platform}: ${url}`).toMatch(hosts[platform]);
    }
  });
});

describe("default alt texts", () => {
  const now = Date.parse("2026-11-24T09:00:00Z");
  const at = (body: Record<string, unknown>) => {
    const checked = validateTimerCreate({ name: "x", timezone: "Europe/Berlin", ...body });
    if (!checked.ok) throw new Error(checked.issues[0]!.message);
    const definition = checked.value;
    return { definition, status: computeStatus({ definition, clock: emptyClock() }, now) };
  };

  it("say nothing that turns false: a rule, not its next date; a length from one's own open", () => {
    const weekly = at({
      type: "recurring",
      recurrence: {
        rrule: "FREQ=WEEKLY;BYDAY=MO,FR;BYHOUR=17;BYMINUTE=0",
        dtstart: "2026-11-01T17:00",
      },
    });
    expect(defaultAlts(weekly).recipient).toBe(
      "Countdown to the next one: every Monday and Friday at 17:00 Berlin time",
    );
    expect(defaultAlts(weekly).recipient).not.toMatch(/\d{1,2} (Nov|Dec)/);
    const evergreen = at({ type: "duration", duration_seconds: 53 * 3600 });
    expect(defaultAlts(evergreen, "Thu 26 Nov, 20:30 Berlin time (19:30 UTC)")).toEqual({
      recipient: "Countdown: 2 days 5 hours from when you first open this email",
      shared: "Countdown: 2 days 5 hours from Thu 26 Nov, 20:30 Berlin time",
    });
    const fixed = at({ type: "fixed", deadline_at: "2026-11-27T16:00:00Z" });
    expect(defaultAlts(fixed).recipient).toBe("Countdown to Fri 27 Nov, 17:00 Berlin time");
  });
});
