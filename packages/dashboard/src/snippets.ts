import type { PublicUrls, TimerDefinition } from "@tminus/core";
import {
  fieldTag,
  PERSONAL_FIELDS,
  PLATFORM_TAGS,
  RECIPIENT_FIELD,
  recipientTag,
} from "./email-platforms";
import type { ShareOptions, SnippetAlts } from "./share-options";

/** One copy-paste snippet for a published timer. */
export interface Snippet {
  id: string;
  title: string;
  hint: string;
  code: string;
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

/** The image options of a snippet's `src`: the shown width, and `scale=2` for 2x screens. */
export function imageSizeQuery(share: Pick<ShareOptions, "width" | "retina">): string {
  return `width=${share.width}${share.retina ? "&scale=2" : ""}`;
}

/**
 * The image address the share panel shows and "Send yourself a preview" opens: drawn at the
 * chosen width (and scale), for a sample recipient. Its merge tag is left unfilled on purpose:
 * the public routes render such a request as a preview and count no view, start no evergreen
 * viewer and fire no webhook (public/merge-tags.ts).
 */
export function previewImageUrl(urls: PublicUrls, share: ShareOptions): string {
  return `${urls.gif}?${imageSizeQuery(share)}&r=${encodeURIComponent(SAMPLE_RECIPIENT)}`;
}

/**
 * The snippets of a published timer: the email image (at the chosen width, drawn at twice its
 * width and height for 2x screens when asked, with its height and alt text; with a dark-mode
 * picture for mail apps that follow the reader's dark mode when asked) inside the `/go` link
 * that follows the timer, with the same recipient query as the image, the chosen platform's
 * merge-tag variant, the iframe, the script embed and the hosted link. The code is text shown
 * in a textarea (escaped there by `html`); attribute values inside it are escaped here so the
 * pasted markup is valid.
 */
export function shareSnippets(input: {
  type: string;
  urls: PublicUrls;
  /** The image's width and height as drawn (at the chosen width): the shown height keeps its proportions. */
  width: number;
  height: number;
  /** The images' alt texts (see defaultAlts); one text serves both. */
  alt: string | SnippetAlts;
  /** Platform, width, 2x, dark and contact field; a 600 px image for Mailchimp by default. */
  share?: ShareOptions;
  /** Personalized timers: what each link carries, and whether it must be signed. */
  personal?: { source: "deadline" | "start"; signed: boolean };
  /** Evergreen timers: what the shared image counts from, in words ("Thu 26 Nov, 20:30 ..."). */
  sharedStart?: string;
}): Snippet[] {
  const { urls } = input;
  const share: ShareOptions = input.share ?? {
    platform: "Mailchimp",
    width: input.width,
    retina: false,
    dark: false,
    alt: null,
    field: null,
  };
  const alts =
    typeof input.alt === "string" ? { recipient: input.alt, shared: input.alt } : input.alt;
  const width = share.width;
  const height = Math.round((input.height * width) / input.width);
  const sized = imageSizeQuery(share);
  // The <img> keeps the 1x size: with scale=2 the server draws twice the width and height,
  // and every client (Outlook included, which sizes by the attributes) shows it at 1x.
  const img = (src: string, alt: string) =>
    `<img src="${attr(src)}" width="${width}" height="${height}" alt="${attr(alt)}" style="display:block;border:0;max-width:100%;height:auto">`;
  // Mail apps that follow the reader's dark mode pick the dark picture; the others (and
  // every client without <picture>) show the <img> inside it (docs/email.md, "Dark mode").
  const picture = (src: string, alt: string) =>
    share.dark
      ? `<picture><source media="(prefers-color-scheme: dark)" srcset="${attr(src.replace("?", "?variant=dark&"))}">${img(src, alt)}</picture>`
      : img(src, alt);
  // An email's image is a link whose target follows the timer (running, ended, not started):
  // the same recipient query, so the click is judged by the same clock as the image.
  // The send's label goes on both, so its views and its clicks are counted under it.
  const label = share.campaign ? `c=${encodeURIComponent(share.campaign)}` : "";
  const emailImg = (recipient: string, alt: string) => {
    const query = [recipient, label].filter(Boolean).join("&");
    return `<a href="${attr(urls.go + (query ? `?${query}` : ""))}">${picture(`${urls.gif}?${sized}${query ? `&${query}` : ""}`, alt)}</a>`;
  };
  const personal = input.type === "personalized" ? (input.personal ?? null) : null;
  const personalized = personal !== null;
  const platform = share.platform;
  const field = share.field ?? PERSONAL_FIELDS[personal?.source ?? "deadline"];
  const query = personal
    ? `${personal.source}=${fieldTag(platform, field)}${personal.signed ? `&sig=${fieldTag(platform, PERSONAL_FIELDS.sig)}` : ""}`
    : `r=${recipientTag(platform, share.field)}`;
  const idField = share.field ?? (PLATFORM_TAGS[platform].recipientId ? null : RECIPIENT_FIELD);
  const perRecipient = input.type === "duration" || personalized;
  const evergreen = perRecipient && !personalized;
  const snippets: Snippet[] = [
    {
      id: "snippet-img",
      title: evergreen ? "Email image: everyone shares one countdown" : "Email image",
      hint: personalized
        ? `Without a recipient's ${personal.source}${personal.signed ? " and its signature" : ""} it shows the fallback deadline or the ended look: use the per-recipient image above in emails.`
        : evergreen
          ? `Everyone shares one countdown, counted from the timer's start${input.sharedStart ? ` (${input.sharedStart})` : " (its publication, or its last reset)"}, whenever they open the email: it does not start per recipient. Use the per-recipient image above to give each recipient their own.`
          : "Paste into your email's HTML. The image shows the exact time left each time it is opened; its link leads to the timer's click URL while it runs and to the ended one after.",
      code: emailImg("", evergreen ? alts.shared : alts.recipient),
    },
    {
      id: "snippet-merge",
      title: personalized
        ? `Email image with each recipient's deadline, for ${platform}`
        : `Email image per recipient, for ${platform}`,
      hint: personalized
        ? `Each recipient's ${personal.source} comes from a contact field (here ${field}) as Unix seconds or ISO 8601 with Z or an offset, e.g. 2026-11-27T08:00:00Z${personal.signed ? `, and its signature from ${PERSONAL_FIELDS.sig} (see Signed links)` : ""}.`
        : `With a recipient id, an evergreen timer counts from each recipient's first open.${idField ? ` ${platform} reads it from the contact field ${idField}.` : ""}`,
      code: emailImg(query, alts.recipient),
    },
    {
      id: "snippet-iframe",
      title: "Web page: iframe",
      hint: "A live, ticking countdown inside any web page.",
      code: `<iframe src="${attr(urls.embed)}" title="${attr(alts.recipient)}" width="${width}" height="${height}" style="border:0;max-width:100%" loading="lazy"></iframe>`,
    },
    {
      id: "snippet-script",
      title: "Web page: script embed",
      hint: "The image shows at once; the script turns it into a live countdown.",
      code: `<div data-tminus-timer="${attr(urls.embed)}">${img(`${urls.gif}?${sized}`, alts.recipient)}</div>\n<script async src="${attr(urls.embed_script)}"></script>`,
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
