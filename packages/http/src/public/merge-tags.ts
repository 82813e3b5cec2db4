// Unfilled merge tags. A test send, a preview in the platform's editor or a broken field leaves
// the platform's placeholder in the image URL as typed: `r=*|UNIQID|*` instead of a contact
// id. Taken as a recipient, it would start an evergreen countdown for a "viewer" that is every
// test send at once, count views and fire webhooks; so the public routes render a preview
// instead. A real value (a contact id, an address, a UUID, Unix seconds, an ISO date-time)
// never holds these delimiters: the recipient id alphabet is `A-Z a-z 0-9 . _ ~ @ + -`.

import type { ApiRequest } from "../transport/exchange";

/** One platform's placeholder syntax. */
export interface MergeTagSyntax {
  /** Platforms that write their placeholders this way. */
  platforms: string;
  /** Matches a value that still holds such a placeholder. */
  pattern: RegExp;
  /** A placeholder as the platform documents it. */
  example: string;
  /** Where the syntax is documented. */
  source: string;
}

/**
 * Placeholder syntaxes of the email platforms, each with its documentation. A value matching
 * any one was not filled in. Delimiters that only a template uses match anywhere in the value;
 * the weaker ones (`%NAME%`, `[Name]`) only as the whole value.
 */
export const MERGE_TAG_SYNTAXES: readonly MergeTagSyntax[] = [
  {
    platforms: "Mailchimp",
    // `*|FNAME|Friend|*` carries a fallback between the pipes.
    pattern: /\*\|.*\|\*/,
    example: "*|UNIQID|*",
    source: "https://mailchimp.com/help/all-the-merge-tags-cheat-sheet/",
  },
  {
    // Liquid, Handlebars, Jinja/HubL, Twig and Django templates all print with {{ }} and run
    // statements in {% %}; an unclosed or half-substituted tag still carries one delimiter.
    platforms:
      "Klaviyo, HubSpot (HubL), SendGrid, Customer.io, Braze, Iterable, Brevo, Mailjet, MailerSend, Shopify (Liquid)",
    pattern: /\{\{|\}\}|\{%|%\}/,
    example: "{{ person.email }}",
    source:
      "https://shopify.github.io/liquid/basics/introduction/ ; https://developers.hubspot.com/docs/cms/hubl ; https://dev.mailjet.com/template-language/reference/",
  },
  {
    // Personalization strings outside AMPscript blocks are wrapped in two percent signs each side.
    platforms: "Salesforce Marketing Cloud (AMPscript)",
    pattern: /%%[^%]*%%|%%\[|\]%%|%%=|=%%/,
    example: "%%emailaddr%%",
    source:
      "https://developer.salesforce.com/docs/marketing/marketing-cloud/guide/personalizationStringsAMPscript",
  },
  {
    platforms: "MailerSend (simple personalization), Copernica (Smarty)",
    pattern: /\{\$[^}]*\}/,
    example: "{$email}",
    source:
      "https://www.mailersend.com/help/how-to-use-variables ; https://github.com/CopernicaMarketingSoftware/Documentation/blob/master/Publisher/en/personalization-variables.md",
  },
  {
    // Braze's attribute form inside a Liquid tag, and template-literal leftovers.
    platforms: "Braze (attribute syntax), Actito, JavaScript template literals",
    pattern: /\$\{[^}]*\}/,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Braze's syntax, not a template.
    example: "${user_id}",
    source:
      "https://www.braze.com/docs/user_guide/personalization_and_dynamic_content/liquid/ ; https://cdn3.actito.com/fe/actito-documentation/docs/Personalizing_an_E-mail_campaign",
  },
  {
    platforms: "Salesforce Account Engagement (Pardot)",
    pattern: /\{![^}]*\}/,
    example: "{!Recipient.Id}",
    source: "https://cf-newsletrix.pages.dev/blog/newsletter-personalisation-token-guide.html",
  },
  {
    platforms: "Mailjet (v1 template language), Constant Contact",
    pattern: /\[\[[^\]]*\]\]/,
    example: '[[data:id:""]]',
    source: "https://dev.mailjet.com/template-language/reference/",
  },
  {
    platforms: "ActiveCampaign",
    pattern: /^%[A-Za-z][A-Za-z0-9_-]*%$/,
    example: "%SUBSCRIBERID%",
    source: "https://activecampaign.design/docs/patterns/personalization",
  },
  {
    platforms: "Campaign Monitor, Sendy, MailWizz-style [TAG]",
    pattern: /^\[[A-Za-z][\w ]*(,\s*fallback=[^\]]*)?\]$/,
    example: "[email,fallback=]",
    source:
      "https://help.oneclickpolitics.com/hc/en-us/articles/228081588-How-do-I-personalize-a-campaign ; https://www.christopherbolt.com/support/knowledgebase/42/Campaign-tags-and-filters.html",
  },
  {
    platforms: "Flexmail",
    pattern: /^#[A-Za-z][\w-]*#$/,
    example: "#email#",
    source: "https://en.support.flexmail.eu/article/383-personalise-with-placeholders",
  },
];

/** The public URL parameters a platform fills per recipient. */
export const PERSONALIZED_PARAMS: readonly string[] = ["r", "deadline", "start"];

/** Percent escapes a platform or a proxy left in a value: `%7B%7B` is `{{`. */
const ESCAPED = /%[0-9A-Fa-f]{2}/;

function matchesSyntax(value: string): boolean {
  return MERGE_TAG_SYNTAXES.some((syntax) => syntax.pattern.test(value));
}

/**
 * Whether a recipient value is a merge tag the email platform did not fill in: empty (or
 * blank), or holding any platform's placeholder syntax, as is or URL-encoded once more.
 * @example isUnfilledMergeTag("*|UNIQID|*") // true
 * @example isUnfilledMergeTag("ann@shop.example") // false
 */
export function isUnfilledMergeTag(value: string): boolean {
  if (value.trim() === "") return true;
  if (matchesSyntax(value)) return true;
  // Stryker disable next-line ConditionalExpression: equivalent, decoding a value without escapes gives it back; this only skips the work.
  if (!ESCAPED.test(value)) return false;
  try {
    return matchesSyntax(decodeURIComponent(value));
  } catch {
    // A lone `%` that is not an escape: the value is what it is.
    return false;
  }
}

/**
 * The first of `r`, `deadline`, `start` in the request's query that is an unfilled merge tag,
 * or null: the request is a test send and gets a preview.
 */
export function unfilledMergeTagParam(req: Pick<ApiRequest, "query">): string | null {
  for (const name of PERSONALIZED_PARAMS) {
    const value = req.query.get(name);
    if (value !== null && isUnfilledMergeTag(value)) return name;
  }
  return null;
}
