import { type PublicUrls, signPersonalizedParams, zoneOffsetMs } from "@tminus/core";
import type { PageContext } from "../context";
import { html, type SafeHtml } from "../html";
import { todayIn } from "../timer-form";
import { inZone } from "../zone-time";

/**
 * The example recipient's value as Unix seconds (what merge tags often hold): a deadline the
 * day after tomorrow at 17:00 in the timer's zone, or a start at the last whole hour.
 */
function sampleValue(source: "deadline" | "start", zone: string, now: number): string {
  if (source === "start") return String(Math.floor(now / 3_600_000) * 3_600);
  const wall = Date.parse(`${todayIn(zone, now)}T17:00:00Z`) + 2 * 86_400_000;
  return String(Math.round((wall - zoneOffsetMs(zone, wall)) / 1000));
}

/**
 * The share panel's part for a personalized timer that accepts only signed links: what the
 * signature is, the signing secret (owners only, with a copy button) and an example link
 * signed for a sample recipient, so the person sees a working image before wiring the
 * signature into their platform.
 */
export function signedLinksPanel(
  ctx: PageContext,
  input: { urls: PublicUrls; source: "deadline" | "start"; secret: string; zone: string },
): SafeHtml {
  const value = sampleValue(input.source, input.zone, ctx.now);
  const sig = signPersonalizedParams(input.secret, { [input.source]: value });
  const query = `${input.source}=${value}&sig=${sig}`;
  const example = `${input.urls.gif}?${query}`;
  const what =
    input.source === "deadline"
      ? `a deadline of ${inZone(Number(value) * 1000, input.zone)}`
      : `a start of ${inZone(Number(value) * 1000, input.zone)}`;
  const owner = ctx.user.role === "owner";
  return html`<section class="panel snippet" aria-labelledby="signed-title"><h3 id="signed-title">Signed links</h3>
<p>This timer accepts only signed links: each recipient's image address carries their ${input.source} and <code>sig</code>, a signature of that ${input.source} made with the timer's signing secret. A recipient who edits their ${input.source} breaks the signature, and an address without one shows the fallback deadline or the ended look.</p>
<p>Most email platforms cannot compute a signature in a merge tag (Braze can). Compute it where you write the recipient's ${input.source} (your backend, or a build step before you upload contacts), store it in a contact field (COUNTDOWN_SIG), and use the per-recipient snippet above. The project's guide (docs/email.md, "Signing per recipient") shows how, in code and in a spreadsheet-to-CSV build step.</p>
${
  owner
    ? html`<details><summary>Signing secret (owners)</summary><p class="hint">Keep it on your server or in your build step: anyone with it can sign any ${input.source}.</p>
<div class="secret"><label class="sr-only" for="signing-secret">Signing secret</label><input id="signing-secret" type="text" readonly value="${input.secret}" size="50">
<button type="button" data-copy="signing-secret" hidden>Copy</button></div></details>`
    : html`<p class="hint">An owner of the account can copy the signing secret from this page.</p>`
}
<label for="signed-example">Example, signed for a sample recipient with ${what}</label>
<p class="hint" id="signed-example-hint">Open it to check that a signed image counts down; use it in a test email.</p>
<textarea id="signed-example" class="code" readonly rows="3" aria-describedby="signed-example-hint">${example}</textarea>
<button type="button" data-copy="signed-example" hidden>Copy</button> <a href="${example}" target="_blank" rel="noopener">Open the example image</a></section>`;
}
