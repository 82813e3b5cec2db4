// The email platforms the share panel writes merge tags for (written without spaces, which
// every one of these template languages allows: a URL, and a srcset above all, holds none): each one's tag for its own
// recipient id and for a contact field, with the page of that platform's documentation that
// says so. The share panel's snippets and the table in docs/email.md are both made from this
// one table (a test keeps the docs equal to `mergeTagTableMarkdown()`), so they cannot
// disagree.

/** The email platforms the share panel writes merge tags for, in the order of its list. */
export const EMAIL_PLATFORMS = [
  "Mailchimp",
  "Klaviyo",
  "HubSpot",
  "Braze",
  "Salesforce Marketing Cloud",
  "Customer.io",
  "SendGrid",
  "Brevo",
] as const;

/** One of the email platforms. */
export type EmailPlatform = (typeof EMAIL_PLATFORMS)[number];

/** How a platform writes its merge tags, and where its documentation says so. */
export interface PlatformTags {
  /** The platform's built-in recipient id, or null when it has none (a contact field holds one). */
  recipientId: string | null;
  /** The tag of a contact field named `field` (letters, digits and `_`). */
  field(field: string): string;
  /** The platform's documentation of the id tag (when it has one) and of field tags. */
  sources: readonly string[];
}

/** Each platform's tags, with the documentation they come from. */
export const PLATFORM_TAGS: Readonly<Record<EmailPlatform, PlatformTags>> = {
  Mailchimp: {
    // The contact's unique id; fields are merge tags in upper case.
    recipientId: "*|UNIQID|*",
    field: (f) => `*|${f.toUpperCase()}|*`,
    sources: [
      "https://mailchimp.com/help/all-the-merge-tags-cheat-sheet/",
      "https://mailchimp.com/developer/marketing/docs/merge-fields/",
    ],
  },
  Klaviyo: {
    // person.id is the external id ($id), empty on profiles made without one; KlaviyoID is
    // the profile id every profile has.
    recipientId: "{{person.KlaviyoID}}",
    field: (f) => `{{person.${f}}}`,
    sources: [
      "https://help.klaviyo.com/hc/en-us/articles/115005247088",
      "https://help.klaviyo.com/hc/en-us/articles/360053679071",
    ],
  },
  HubSpot: {
    // The record id; a property is read by its internal name, which is lower case.
    recipientId: "{{contact.hs_object_id}}",
    field: (f) => `{{contact.${f.toLowerCase()}}}`,
    sources: [
      "https://developers.hubspot.com/docs/cms/hubl/variables",
      "https://knowledge.hubspot.com/properties/hubspots-default-contact-properties",
    ],
  },
  Braze: {
    // Braze's Liquid writes attributes as ${name}: literal text here, not a template.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Braze's own syntax.
    recipientId: "{{${user_id}}}",
    field: (f) => `{{custom_attribute.\${${f.toLowerCase()}}}}`,
    sources: [
      "https://www.braze.com/docs/user_guide/personalization_and_dynamic_content/liquid/supported_personalization_tags/",
      "https://braze.com/docs/user_guide/messaging/design_and_edit/personalize/sources/user_profile/",
    ],
  },
  "Salesforce Marketing Cloud": {
    recipientId: "%%_subscriberkey%%",
    field: (f) => `%%${f}%%`,
    sources: [
      "https://developer.salesforce.com/docs/marketing/marketing-cloud/guide/personalizationStringsAMPscript",
    ],
  },
  "Customer.io": {
    // cio_id is set by Customer.io on every person; `id` only where the workspace uses one.
    recipientId: "{{customer.cio_id}}",
    field: (f) => `{{customer.${f.toLowerCase()}}}`,
    sources: [
      "https://docs.customer.io/messaging/people/reserved-attributes/",
      "https://docs.customer.io/journeys/liquid-tag-list",
    ],
  },
  SendGrid: {
    // Marketing Campaigns has no id tag of its own: a custom field holds one.
    recipientId: null,
    field: (f) => `{{${f}}}`,
    sources: ["https://www.twilio.com/docs/sendgrid/ui/managing-contacts/custom-fields"],
  },
  Brevo: {
    // No id tag of its own either; attributes are upper case.
    recipientId: null,
    field: (f) => `{{contact.${f.toUpperCase()}}}`,
    sources: ["https://help.brevo.com/hc/en-us/articles/4402386448530"],
  },
};

/** The contact field a recipient id is read from on platforms without a built-in id. */
export const RECIPIENT_FIELD = "RECIPIENT_ID";

/** The contact fields a personalized timer's links read, as docs/email.md names them. */
export const PERSONAL_FIELDS = {
  deadline: "COUNTDOWN_DEADLINE",
  start: "COUNTDOWN_START",
  sig: "COUNTDOWN_SIG",
} as const;

/** A platform's merge tag for a value kept in a contact field. */
export function fieldTag(platform: EmailPlatform, field: string): string {
  return PLATFORM_TAGS[platform].field(field);
}

/** The recipient-id merge tag the share panel writes for a platform and an optional field. */
export function recipientTag(platform: EmailPlatform, field: string | null): string {
  return field
    ? fieldTag(platform, field)
    : (PLATFORM_TAGS[platform].recipientId ?? fieldTag(platform, RECIPIENT_FIELD));
}

/** The merge-tag table of docs/email.md, made from {@link PLATFORM_TAGS}. */
export function mergeTagTableMarkdown(): string {
  const code = (text: string) => `\`${text.replaceAll("|", "\\|")}\``;
  const rows = EMAIL_PLATFORMS.map((platform) => {
    const tags = PLATFORM_TAGS[platform];
    const id = recipientTag(platform, null);
    const personal = `BASE?deadline=${fieldTag(platform, PERSONAL_FIELDS.deadline)}&sig=${fieldTag(platform, PERSONAL_FIELDS.sig)}`;
    const sources = tags.sources.map((url, i) => `[${i + 1}](${url})`).join(" ");
    const idNote = tags.recipientId === null ? ` (a ${RECIPIENT_FIELD} field)` : "";
    return `| ${platform} | ${code(`BASE?r=${id}`)}${idNote} | ${code(personal)} | ${sources} |`;
  });
  return [
    "| platform | evergreen (`r`) | personalized (`deadline` + `sig`) | documentation |",
    "|---|---|---|---|",
    ...rows,
  ].join("\n");
}
