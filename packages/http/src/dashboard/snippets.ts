import type { PublicUrls } from "@tminus/core";

/** One copy-paste snippet for a published timer. */
export interface Snippet {
  id: string;
  title: string;
  hint: string;
  code: string;
}

/**
 * Merge tags of common email platforms for a recipient's id: an evergreen (duration) timer
 * counts from each recipient's first open, told apart by `r`.
 */
const RECIPIENT_TAGS: readonly [string, string][] = [
  ["Mailchimp", "*|UNIQID|*"],
  ["Klaviyo", "{{ person.id }}"],
  ["HubSpot", "{{ contact.hs_object_id }}"],
  ["Customer.io", "{{ customer.id }}"],
  // Braze's Liquid writes attributes as ${name}: literal text here, not a template.
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Braze's own syntax.
  ["Braze", "{{${user_id}}}"],
];

/**
 * The same for a value kept in a contact field (personalized timers): the recipient's
 * deadline or start, and its signature, in the fields docs/email.md names.
 */
function fieldTag(platform: string, field: string): string {
  const lower = field.toLowerCase();
  switch (platform) {
    case "Mailchimp":
      return `*|${field}|*`;
    case "Klaviyo":
      return `{{ person.${field} }}`;
    case "HubSpot":
      return `{{ contact.${lower} }}`;
    case "Customer.io":
      return `{{ customer.${lower} }}`;
    default:
      return `{{custom_attribute.\${${lower}}}}`;
  }
}

const PLATFORMS = ["Mailchimp", "Klaviyo", "HubSpot", "Customer.io", "Braze"] as const;

function attr(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

/**
 * The snippets of a published timer: the email image (with its real width, height and an alt
 * text) inside the `/go` link that follows the timer, with the same recipient query as the
 * image, merge-tag variants, the iframe, the script embed and the hosted link. The code is
 * text shown in a textarea (escaped there by `html`); attribute values inside it are escaped
 * here so the pasted markup is valid.
 */
export function shareSnippets(input: {
  name: string;
  type: string;
  urls: PublicUrls;
  width: number;
  height: number;
  /** Personalized timers: what each link carries, and whether it must be signed. */
  personal?: { source: "deadline" | "start"; signed: boolean };
}): Snippet[] {
  const { urls, width, height } = input;
  const alt = attr(`Countdown: ${input.name}`);
  const img = (src: string) =>
    `<img src="${attr(src)}" width="${width}" height="${height}" alt="${alt}" style="display:block;border:0;max-width:100%;height:auto">`;
  // An email's image is a link whose target follows the timer (running, ended, not started):
  // the same recipient query, so the click is judged by the same clock as the image.
  const emailImg = (query: string) =>
    `<a href="${attr(urls.go + query)}">${img(urls.gif + query)}</a>`;
  const personal = input.type === "personalized" ? (input.personal ?? null) : null;
  const personalized = personal !== null;
  const field = personal?.source === "start" ? "COUNTDOWN_START" : "COUNTDOWN_DEADLINE";
  const query = (platform: string) =>
    personal
      ? `${personal.source}=${fieldTag(platform, field)}${personal.signed ? `&sig=${fieldTag(platform, "COUNTDOWN_SIG")}` : ""}`
      : `r=${RECIPIENT_TAGS.find(([p]) => p === platform)![1]}`;
  const merge = PLATFORMS.map(
    (platform) => `<!-- ${platform} -->\n${emailImg(`?${query(platform)}`)}`,
  ).join("\n");
  const perRecipient = input.type === "duration" || personalized;
  const snippets: Snippet[] = [
    {
      id: "snippet-img",
      title: "Email image",
      hint: personalized
        ? `Without a recipient's ${personal.source}${personal.signed ? " and its signature" : ""} it shows the fallback deadline or the ended look: use the per-recipient image above in emails.`
        : "Paste into your email's HTML. The image shows the exact time left each time it is opened; its link leads to the timer's click URL while it runs and to the ended one after.",
      code: emailImg(""),
    },
    {
      id: "snippet-merge",
      title: personalized
        ? "Email image with each recipient's deadline"
        : "Email image per recipient",
      hint: personalized
        ? `Each recipient's ${personal.source} comes from a contact field (here ${field}) as Unix seconds or ISO 8601 with Z, e.g. 2026-11-27T08:00:00Z${personal.signed ? ", and its signature from COUNTDOWN_SIG (see Signed links)" : ""}. Pick your platform's line.`
        : "With a recipient id, an evergreen timer counts from each recipient's first open. Pick your platform's line.",
      code: merge,
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
      code: `<div data-tminus-timer="${attr(urls.embed)}">${img(urls.gif)}</div>\n<script async src="${attr(urls.embed_script)}"></script>`,
    },
    {
      id: "snippet-link",
      title: "Hosted page",
      hint: "A page of its own, to link from anywhere.",
      code: urls.page,
    },
  ];
  // Only evergreen and personalized timers differ per recipient; a personalized timer's
  // image is only right with the recipient's value, so that one comes first.
  if (!perRecipient) return snippets.filter((s) => s.id !== "snippet-merge");
  return personalized ? [snippets[1]!, snippets[0]!, ...snippets.slice(2)] : snippets;
}
