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

/** The same for a deadline kept in a contact field named `deadline` (personalized timers). */
const DEADLINE_TAGS: readonly [string, string][] = [
  ["Mailchimp", "*|DEADLINE|*"],
  ["Klaviyo", "{{ person.deadline }}"],
  ["HubSpot", "{{ contact.deadline }}"],
  ["Customer.io", "{{ customer.deadline }}"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Braze's own syntax.
  ["Braze", "{{custom_attribute.${deadline}}}"],
];

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
}): Snippet[] {
  const { urls, width, height } = input;
  const alt = attr(`Countdown: ${input.name}`);
  const img = (src: string) =>
    `<img src="${attr(src)}" width="${width}" height="${height}" alt="${alt}" style="display:block;border:0;max-width:100%;height:auto">`;
  // An email's image is a link whose target follows the timer (running, ended, not started):
  // the same recipient query, so the click is judged by the same clock as the image.
  const emailImg = (query: string) =>
    `<a href="${attr(urls.go + query)}">${img(urls.gif + query)}</a>`;
  const personalized = input.type === "personalized";
  const tags = personalized ? DEADLINE_TAGS : RECIPIENT_TAGS;
  const param = personalized ? "deadline" : "r";
  const merge = tags
    .map(([platform, tag]) => `<!-- ${platform} -->\n${emailImg(`?${param}=${tag}`)}`)
    .join("\n");
  const perRecipient = input.type === "duration" || personalized;
  const snippets: Snippet[] = [
    {
      id: "snippet-img",
      title: "Email image",
      hint: "Paste into your email's HTML. The image shows the exact time left each time it is opened; its link leads to the timer's click URL while it runs and to the ended one after.",
      code: emailImg(""),
    },
    {
      id: "snippet-merge",
      title: personalized
        ? "Email image with each recipient's deadline"
        : "Email image per recipient",
      hint: personalized
        ? "Each recipient's deadline comes from a contact field (here named deadline) in ISO 8601 with an offset, e.g. 2026-11-27T09:00:00+01:00. Pick your platform's line."
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
  // Only evergreen and personalized timers differ per recipient.
  return perRecipient ? snippets : snippets.filter((s) => s.id !== "snippet-merge");
}
