import type { PublicUrls, TimerDefinition } from "@tminus/core";
import { drawnWidth, type EmailPlatform, type ShareOptions } from "./share-options";

/** One copy-paste snippet for a published timer. */
export interface Snippet {
  id: string;
  title: string;
  hint: string;
  code: string;
}

/** A platform's built-in recipient id, or null when it has none (a contact field holds one). */
const RECIPIENT_TAGS: Readonly<Record<EmailPlatform, string | null>> = {
  Mailchimp: "*|UNIQID|*",
  Klaviyo: "{{ person.id }}",
  HubSpot: "{{ contact.hs_object_id }}",
  // Braze's Liquid writes attributes as ${name}: literal text here, not a template.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Braze's own syntax.
  Braze: "{{${user_id}}}",
  "Salesforce Marketing Cloud": "%%_subscriberkey%%",
  "Customer.io": "{{ customer.id }}",
  SendGrid: null,
  Brevo: null,
};

/** The contact field a recipient id is read from on platforms without a built-in id. */
export const RECIPIENT_FIELD = "RECIPIENT_ID";

/**
 * A platform's merge tag for a value kept in a contact field: the recipient's deadline or
 * start and its signature (the fields docs/email.md names), or an id. Field names are
 * checked by the share panel (letters, digits, `_`), so they need no quoting here.
 */
function fieldTag(platform: EmailPlatform, field: string): string {
  const lower = field.toLowerCase();
  switch (platform) {
    case "Mailchimp":
      return `*|${field.toUpperCase()}|*`;
    case "Klaviyo":
      return `{{ person.${field} }}`;
    case "HubSpot":
      return `{{ contact.${lower} }}`;
    case "Braze":
      return `{{custom_attribute.\${${lower}}}}`;
    case "Salesforce Marketing Cloud":
      return `%%${field}%%`;
    case "Customer.io":
      return `{{ customer.${lower} }}`;
    case "SendGrid":
      return `{{${field}}}`;
    case "Brevo":
      return `{{ contact.${field.toUpperCase()} }}`;
  }
}

/** The recipient-id merge tag the share panel writes for a platform and an optional field. */
export function recipientTag(platform: EmailPlatform, field: string | null): string {
  return field
    ? fieldTag(platform, field)
    : (RECIPIENT_TAGS[platform] ?? fieldTag(platform, RECIPIENT_FIELD));
}

function attr(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/** What each link of a personalized timer carries and whether it is signed (none for other types). */
export function personalOf(
  definition: TimerDefinition,
): { source: "deadline" | "start"; signed: boolean } | undefined {
  if (definition.type !== "personalized") return undefined;
  const { source, require_signature } = definition.personalization;
  return { source, signed: require_signature };
}

/** A recipient value that is clearly a sample: an unfilled tag, so no viewer is counted. */
export const SAMPLE_RECIPIENT = "{{sample_recipient}}";

/**
 * The image address the share panel shows and "Send yourself a preview" opens: drawn at the
 * chosen width, for a sample recipient. Its merge tag is left unfilled on purpose: the public
 * routes render such a request as a preview and count no view, start no evergreen viewer
 * and fire no webhook (public/merge-tags.ts).
 */
export function previewImageUrl(urls: PublicUrls, share: ShareOptions): string {
  return `${urls.gif}?width=${drawnWidth(share)}&r=${encodeURIComponent(SAMPLE_RECIPIENT)}`;
}

/**
 * The snippets of a published timer: the email image (at the chosen width, drawn twice as wide
 * for 2x screens when asked, with its height and alt text) inside the `/go` link that follows
 * the timer, with the same recipient query as the image, the chosen platform's merge-tag
 * variant, the iframe, the script embed and the hosted link. The code is text shown in a
 * textarea (escaped there by `html`); attribute values inside it are escaped here so the
 * pasted markup is valid.
 */
export function shareSnippets(input: {
  type: string;
  urls: PublicUrls;
  /** The 600 px image's own width and height: the shown height keeps its proportions. */
  width: number;
  height: number;
  /** The image's alt text (see defaultAlt). */
  alt: string;
  /** Platform, width, 2x and contact field; a 600 px image for Mailchimp by default. */
  share?: ShareOptions;
  /** Personalized timers: what each link carries, and whether it must be signed. */
  personal?: { source: "deadline" | "start"; signed: boolean };
}): Snippet[] {
  const { urls } = input;
  const share: ShareOptions = input.share ?? {
    platform: "Mailchimp",
    width: input.width,
    retina: false,
    alt: null,
    field: null,
  };
  const width = share.width;
  const height = Math.round((input.height * width) / input.width);
  const alt = attr(input.alt);
  const sized = `width=${drawnWidth(share)}`;
  const img = (src: string) =>
    `<img src="${attr(src)}" width="${width}" height="${height}" alt="${alt}" style="display:block;border:0;max-width:100%;height:auto">`;
  // An email's image is a link whose target follows the timer (running, ended, not started):
  // the same recipient query, so the click is judged by the same clock as the image.
  const emailImg = (query: string) =>
    `<a href="${attr(urls.go + (query ? `?${query}` : ""))}">${img(`${urls.gif}?${sized}${query ? `&${query}` : ""}`)}</a>`;
  const personal = input.type === "personalized" ? (input.personal ?? null) : null;
  const personalized = personal !== null;
  const platform = share.platform;
  const field =
    share.field ?? (personal?.source === "start" ? "COUNTDOWN_START" : "COUNTDOWN_DEADLINE");
  const query = personal
    ? `${personal.source}=${fieldTag(platform, field)}${personal.signed ? `&sig=${fieldTag(platform, "COUNTDOWN_SIG")}` : ""}`
    : `r=${recipientTag(platform, share.field)}`;
  const idField = share.field ?? (RECIPIENT_TAGS[platform] ? null : RECIPIENT_FIELD);
  const perRecipient = input.type === "duration" || personalized;
  const snippets: Snippet[] = [
    {
      id: "snippet-img",
      title:
        perRecipient && !personalized
          ? "Email image: everyone shares one countdown"
          : "Email image",
      hint: personalized
        ? `Without a recipient's ${personal.source}${personal.signed ? " and its signature" : ""} it shows the fallback deadline or the ended look: use the per-recipient image above in emails.`
        : perRecipient
          ? "Everyone shares one countdown: it starts at the first open by anyone, not per recipient. Use the per-recipient image above to give each recipient their own."
          : "Paste into your email's HTML. The image shows the exact time left each time it is opened; its link leads to the timer's click URL while it runs and to the ended one after.",
      code: emailImg(""),
    },
    {
      id: "snippet-merge",
      title: personalized
        ? `Email image with each recipient's deadline, for ${platform}`
        : `Email image per recipient, for ${platform}`,
      hint: personalized
        ? `Each recipient's ${personal.source} comes from a contact field (here ${field}) as Unix seconds or ISO 8601 with Z, e.g. 2026-11-27T08:00:00Z${personal.signed ? ", and its signature from COUNTDOWN_SIG (see Signed links)" : ""}.`
        : `With a recipient id, an evergreen timer counts from each recipient's first open.${idField ? ` ${platform} reads it from the contact field ${idField}.` : ""}`,
      code: emailImg(query),
    },
    {
      id: "snippet-iframe",
      title: "Web page: iframe",
      hint: "A live, ticking countdown inside any web page.",
      code: `<iframe src="${attr(urls.embed)}" title="${alt}" width="${width}" height="${height}" style="border:0;max-width:100%" loading="lazy"></iframe>`,
    },
    {
      id: "snippet-script",
      title: "Web page: script embed",
      hint: "The image shows at once; the script turns it into a live countdown.",
      code: `<div data-tminus-timer="${attr(urls.embed)}">${img(`${urls.gif}?${sized}`)}</div>\n<script async src="${attr(urls.embed_script)}"></script>`,
    },
    {
      id: "snippet-link",
      title: "Hosted page",
      hint: "A page of its own, to link from anywhere.",
      code: urls.page,
    },
  ];
  // Only evergreen and personalized timers differ per recipient, and there the per-recipient
  // image is the one to use: a personalized image is only right with the recipient's value,
  // and a plain evergreen image is one countdown shared by everyone. So that one comes first.
  if (!perRecipient) return snippets.filter((s) => s.id !== "snippet-merge");
  return [snippets[1]!, snippets[0]!, ...snippets.slice(2)];
}
