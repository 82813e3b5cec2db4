// A published timer's share panel: the controls (platform, contact field, width, 2x, dark mode, alt text)
// as a GET form, so that they work without script, and the snippets they make, each beside the
// live image. With script the form is a live search (client.ts): as you type, the page is
// fetched with the same query and the snippets swapped in.

import type { PublicUrls } from "@tminus/core";
import { IMAGE_SIZE } from "@tminus/core";
import { EMAIL_PLATFORMS, RECIPIENT_FIELD } from "../email-platforms";
import { html, type SafeHtml } from "../html";
import {
  ALT_MAX,
  CAMPAIGN_MAX,
  drawnWidth,
  FIELD_PATTERN,
  SHARE_FORM_MARK,
  type ShareOptions,
} from "../share-options";
import { previewImageUrl, type Snippet } from "../snippets";

/** The snippets whose code shows the email image, and so get the live image beside them. */
const WITH_IMAGE = new Set(["snippet-img", "snippet-merge", "snippet-script", "snippet-iframe"]);

/**
 * The share panel: its form (at `action`, the timer's page) and the snippets built for the
 * options it shows. `extra` (the Signed links panel) follows the per-recipient snippet.
 */
export function sharePanel(input: {
  action: string;
  urls: PublicUrls;
  snippets: readonly Snippet[];
  share: ShareOptions;
  /** The alt text in use: the one typed, or the default the field shows as its placeholder. */
  defaultAlt: string;
  perRecipient: boolean;
  personalized: boolean;
  extra: SafeHtml | string;
}): SafeHtml {
  const { share } = input;
  const preview = previewImageUrl(input.urls, share);
  const drawn = drawnWidth(share);
  const said = [
    `${share.width} px wide`,
    share.retina ? `drawn at ${drawn} px for 2x screens` : "",
    share.dark ? "with the dark picture for dark mode" : "",
    input.perRecipient ? `for ${share.platform}` : "",
    share.campaign ? `counted under the campaign “${share.campaign}”` : "",
  ].filter(Boolean);
  // The live image shows as the email would: the dark picture where the page is dark.
  const live = share.dark
    ? html`<picture><source media="(prefers-color-scheme: dark)" srcset="${preview.replace("?", "?variant=dark&")}"><img class="live" src="${preview}" width="${share.width}" alt="" loading="lazy"></picture>`
    : html`<img class="live" src="${preview}" width="${share.width}" alt="" loading="lazy">`;
  return html`<h2>Share</h2>
<form class="panel row share-controls" method="get" action="${input.action}" data-live-search="share-snippets" aria-label="Snippet options">
<input type="hidden" name="${SHARE_FORM_MARK}" value="1">
${shareControls(input)}
<div><button type="submit" class="secondary">Update snippets</button></div>
</form>
<div id="share-snippets">
<p class="hint"><span data-count>Snippets updated: ${said.join(", ")}.</span> <a href="${preview}" target="_blank" rel="noopener">Send yourself a preview</a> (opens the image in a new tab for a sample recipient; it counts no view and starts no countdown).</p>
${input.snippets.map(
  (
    s,
  ) => html`<section class="panel snippet" aria-labelledby="${s.id}-title"><h3 id="${s.id}-title">${s.title}</h3><p class="hint">${s.hint}</p>
<div class="snippet-body">${WITH_IMAGE.has(s.id) ? live : ""}<div class="snippet-code"><label class="sr-only" for="${s.id}">${s.title} code</label><textarea id="${s.id}" class="code" readonly rows="${Math.min(8, s.code.split("\n").length + 2)}">${s.code}</textarea>
<button type="button" data-copy="${s.id}" hidden>Copy</button></div></div></section>${s.id === "snippet-merge" ? input.extra : ""}`,
)}
</div>`;
}

/**
 * The share form's controls, one small block each, in the order they show: the platform and
 * contact field (per-recipient timers only), width, 2x, dark mode, alt text.
 */
function shareControls(input: {
  share: ShareOptions;
  defaultAlt: string;
  perRecipient: boolean;
  personalized: boolean;
}): SafeHtml[] {
  const { share } = input;
  const fieldHint = input.personalized
    ? "the contact field that holds each recipient's deadline or start (default COUNTDOWN_DEADLINE or COUNTDOWN_START)"
    : `the contact field that holds each recipient's id (empty: the platform's own id, or ${RECIPIENT_FIELD} where it has none)`;
  const checkbox = (id: string, name: string, value: string, on: boolean, label: string) =>
    html`<div><input id="${id}" name="${name}" type="checkbox" value="${value}"${on ? html` checked` : ""}> <label for="${id}" class="inline">${label}</label></div>`;
  const controls: SafeHtml[] = [];
  if (input.perRecipient) {
    controls.push(
      html`<div><label for="share-platform">Email platform</label><select id="share-platform" name="platform">${EMAIL_PLATFORMS.map(
        (p) => html`<option${p === share.platform ? html` selected` : ""}>${p}</option>`,
      )}</select></div>`,
      html`<div><label for="share-field">Contact field</label><input id="share-field" name="field" type="text" pattern="${FIELD_PATTERN}" maxlength="50" value="${share.field ?? ""}" aria-describedby="share-field-hint" autocomplete="off"><p class="hint" id="share-field-hint">Letters, digits and _: ${fieldHint}.</p></div>`,
    );
  }
  controls.push(
    html`<div><label for="share-width">Width in the email (px)</label><input id="share-width" name="width" type="number" class="short" min="${IMAGE_SIZE.minWidth}" max="${IMAGE_SIZE.maxWidth}" step="1" value="${share.width}"></div>`,
    checkbox("share-retina", "retina", "2", share.retina, "Sharp on retina (2x) screens"),
    checkbox(
      "share-dark",
      "dark",
      "1",
      share.dark,
      "Dark picture for dark mode (Apple Mail, Outlook for Mac)",
    ),
    html`<div><label for="share-campaign">Campaign label</label><input id="share-campaign" name="campaign" type="text" maxlength="${CAMPAIGN_MAX}" value="${share.campaign ?? ""}" aria-describedby="share-campaign-hint" autocomplete="off"><p class="hint" id="share-campaign-hint">Optional: this send's name, e.g. spring-sale. Its views and clicks show apart in the analytics (a link tracker's utm_campaign counts too).</p></div>`,
    html`<div class="grow"><label for="share-alt">Alt text</label><input id="share-alt" name="alt" type="text" maxlength="${ALT_MAX}" value="${share.alt ?? ""}" placeholder="${input.defaultAlt}" aria-describedby="share-alt-hint"><p class="hint" id="share-alt-hint">Read aloud to recipients who cannot see the image; empty: “${input.defaultAlt}”.</p></div>`,
  );
  return controls;
}
