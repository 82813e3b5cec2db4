import { publicUrls } from "@tminus/core";
import { describe, expect, it } from "vitest";
import { EMAIL_PLATFORMS, type EmailPlatform } from "../../src/share-options";
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
      Klaviyo: "r={{ person.id }}",
      HubSpot: "r={{ contact.hs_object_id }}",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Braze's syntax, not a template.
      Braze: "r={{${user_id}}}",
      "Salesforce Marketing Cloud": "r=%%_subscriberkey%%",
      "Customer.io": "r={{ customer.id }}",
      SendGrid: "r={{RECIPIENT_ID}}",
      Brevo: "r={{ contact.RECIPIENT_ID }}",
    };
    for (const platform of EMAIL_PLATFORMS) {
      const [first] = shareSnippets({
        type: "duration",
        urls,
        width: 600,
        height: 160,
        alt: 'Ends "Friday" <soon> & more',
        share: { platform, width: 300, retina: true, alt: null, field: null },
      });
      expect(first!.id).toBe("snippet-merge");
      expect(first!.code).toContain(`?width=600&amp;${tags[platform].replace(/&/g, "&amp;")}`);
      expect(first!.code).toContain('width="300" height="80"');
      expect(first!.code).toContain('alt="Ends &quot;Friday&quot; &lt;soon> &amp; more"');
    }
  });
});
