// The unfilled merge tag recognizer: every platform's placeholders as their documentation
// writes them are tags; real recipient values (ids, addresses, UUIDs, seconds, dates) never are.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isUnfilledMergeTag,
  MERGE_TAG_SYNTAXES,
  unfilledMergeTagParam,
} from "../../src/public/merge-tags";

// What a test send leaves in the URL, platform by platform (the syntax of each documented at
// the source in MERGE_TAG_SYNTAXES).
const TAGS: ReadonlyArray<[platform: string, tag: string]> = [
  ["Mailchimp", "*|UNIQID|*"],
  ["Mailchimp", "*|EMAIL|*"],
  ["Mailchimp", "*|URL:COUNTDOWN_DEADLINE|*"],
  ["Mailchimp", "*|FNAME|Friend|*"],
  ["Klaviyo", "{{ email }}"],
  ["Klaviyo", "{{ person.KlaviyoID }}"],
  ["Klaviyo", "{{ person.COUNTDOWN_DEADLINE|default:'' }}"],
  ["HubSpot", "{{contact.email}}"],
  ["HubSpot", "{{ contact.hs_object_id }}"],
  ["SendGrid", "{{contact_id}}"],
  ["SendGrid", "{{{countdown_deadline}}}"],
  ["Customer.io", "{{ customer.id }}"],
  ["Customer.io", "{{customer.countdown_deadline}}"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Braze's syntax, not a template.
  ["Braze", "{{${user_id}}}"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Braze's syntax, not a template.
  ["Braze", "{{custom_attribute.${countdown_deadline}}}"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Braze's syntax, not a template.
  ["Braze", "${user_id}"],
  ["Liquid", "{% if customer %}{{ customer.id }}{% endif %}"],
  ["Liquid, half substituted", "{{ customer.id"],
  ["Iterable", "{{userId}}"],
  ["Salesforce Marketing Cloud", "%%emailaddr%%"],
  ["Salesforce Marketing Cloud", "%%_subscriberkey%%"],
  ["Salesforce Marketing Cloud", "%%=v(@deadline)=%%"],
  ["Salesforce Marketing Cloud", "%%[ set @x = 1 ]%%"],
  ["Pardot", "{!Recipient.Id}"],
  ["MailerSend", "{$email}"],
  ["Copernica", "{$profile.id}"],
  ["Mailjet v1", "[[id]]"],
  ["Mailjet v1", '[[data:countdown_deadline:""]]'],
  ["ActiveCampaign", "%SUBSCRIBERID%"],
  ["ActiveCampaign", "%EMAIL%"],
  ["Campaign Monitor", "[email,fallback=]"],
  ["Campaign Monitor", "[Dateofbirth,fallback=]"],
  ["MailWizz", "[SUBSCRIBER_UID]"],
  ["Flexmail", "#email#"],
  ["empty", ""],
  ["blank", "   "],
  ["encoded once more", "%7B%7B%20email%20%7D%7D"],
  ["encoded once more", "%2A%7CUNIQID%7C%2A"],
];

// Real values a sender puts in r, deadline or start.
const REAL: readonly string[] = [
  "ann@shop.example",
  "ann+promo@shop.example",
  "a1b2c3",
  "0123456789",
  "01HZX3J6N8QY2V7W5K4T9R0M1P",
  "7c9e6679-7425-40de-944b-e07fc1f0ae5e",
  "1796115600",
  "-1",
  "2026-12-01T09:00:00Z",
  "2026-12-01T09:00:00+01:00",
  "2026-12-01T09:00:00 01:00",
  "user_42.test~x",
  "100%",
  "50%25",
  // Escapes that do not decode (a lone % after one, bytes that are not UTF-8): left as they are.
  "50%25%",
  "%C3%28",
];

describe("unfilled merge tags", () => {
  it.each(TAGS)("%s: %s is a tag", (_platform, tag) => {
    expect(isUnfilledMergeTag(tag)).toBe(true);
  });

  it.each(REAL)("%s is a real value", (value) => {
    expect(isUnfilledMergeTag(value)).toBe(false);
  });

  it("every syntax in the table is exercised by a tag, and cites a source", () => {
    for (const syntax of MERGE_TAG_SYNTAXES) {
      expect(
        TAGS.some(([, tag]) => syntax.pattern.test(tag)),
        syntax.platforms,
      ).toBe(true);
      expect(syntax.pattern.test(syntax.example), syntax.example).toBe(true);
      expect(syntax.source).toMatch(/^https:\/\//);
    }
  });

  it("never takes a UUID, an email address or a number for a tag", () => {
    // Addresses as a recipient id can be: RFC 5322 allows `{`, `|` or `%` in a local part, but
    // `r` takes only `A-Z a-z 0-9 . _ ~ @ + -`, and no platform's contact id holds more.
    const real = fc.oneof(
      fc.uuid(),
      fc.emailAddress().filter((address) => /^[A-Za-z0-9._~@+-]{1,128}$/.test(address)),
      fc.integer().map(String),
      fc.bigInt({ min: 0n, max: 10n ** 20n }).map(String),
      fc
        .date({ min: new Date(0), max: new Date(253402300799000), noInvalidDate: true })
        .map((d) => d.toISOString()),
      fc.stringMatching(/^[A-Za-z0-9._~@+-]{1,128}$/),
    );
    fc.assert(
      fc.property(real, (value) => !isUnfilledMergeTag(value)),
      { numRuns: 2000 },
    );
  });

  it("looks at r, deadline and start, and nothing else", () => {
    const query = (q: string) => ({ query: new URLSearchParams(q) });
    expect(unfilledMergeTagParam(query("r=*|UNIQID|*"))).toBe("r");
    expect(unfilledMergeTagParam(query("r=ann&deadline={{ person.deadline }}"))).toBe("deadline");
    expect(unfilledMergeTagParam(query("start=&sig=abc"))).toBe("start");
    expect(unfilledMergeTagParam(query("r=ann&utm_source={{campaign}}&sig="))).toBeNull();
    expect(unfilledMergeTagParam(query(""))).toBeNull();
  });
});
