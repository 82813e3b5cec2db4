import { AdminError, SCOPES } from "@tminus/admin";
import type { PageContext } from "../context";
import { html } from "../html";
import { csrfField, page, when } from "../layout";
import { htmlResponse, redirect } from "../responses";
import { flashPanel, noticeOf, ownersOnly, type PageRoute, redirectWithFlash } from "./route";

const NOTICES = { revoked: "The key is revoked. Requests with it are refused from now on." };

function adminOf(ctx: PageContext) {
  return ctx.admin.at(ctx.now);
}

/** The keys page: the list, the create form, and (once) a new secret. */
async function keysPage(ctx: PageContext, extra: { error?: string; status?: number } = {}) {
  const created = flashPanel(ctx, "key");
  const keys = await adminOf(ctx).listKeys({
    account: ctx.account.name,
    environment: ctx.environment,
  });
  const lastUsed = await Promise.all(
    keys.map(async (k) => {
      const [latest] = await ctx.admin.records.listRequestLog({
        account_id: ctx.account.id,
        environment: ctx.environment,
        key_id: k.id,
        limit: 1,
      });
      return latest?.created_at ?? null;
    }),
  );
  const rows = keys.map(
    (
      k,
      i,
    ) => html`<tr><td>${k.name ? html`${k.name}<br>` : ""}<code>${k.prefix}</code></td><td>${k.scopes.join(", ")}</td>
<td><span class="badge ${k.status}">${k.status}</span></td><td class="opt">${when(k.created_at)}</td><td class="opt">${when(lastUsed[i] ?? null)}</td>
<td>${
      k.status === "live" || k.status === "expiring"
        ? html`<form method="post" action="${ctx.envPath(`/keys/${k.id}/revoke`)}" data-confirm="Revoke ${k.prefix}? Every request with it will be refused.">
${csrfField(ctx)}<label class="check"><input type="checkbox" name="confirm" value="yes" required> I understand it stops working now</label>
<button class="danger" type="submit">Revoke</button></form>`
        : ""
    }</td></tr>`,
  );
  const secret = created
    ? html`<section class="panel" aria-labelledby="new-key"><h2 id="new-key">Your new key</h2>
<p>Copy it now: it is shown only once and cannot be recovered.</p>
<div class="secret"><label class="sr-only" for="secret">Secret of ${created.prefix}</label>
<input id="secret" type="text" readonly value="${created.secret}" size="60">
<button type="button" data-copy="secret" hidden>Copy</button></div></section>`
    : "";
  const content = html`${secret}
<div class="table"><table><caption class="sr-only">API keys</caption><thead><tr><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Status</th><th scope="col" class="opt">Created</th><th scope="col" class="opt">Last used</th><th scope="col">Action</th></tr></thead>
<tbody>${rows.length ? rows : html`<tr><td colspan="6">No keys in ${ctx.environment} yet.</td></tr>`}</tbody></table></div>
<h2>Create a key</h2>
<form class="panel" method="post" action="${ctx.envPath("/keys")}">${csrfField(ctx)}
<label for="key-name">Name <span class="hint">(where it is used, for you)</span></label><input id="key-name" name="name" type="text" maxlength="100" placeholder="Newsletter integration" value="${ctx.form.get("name") ?? ""}">
<fieldset><legend>Scopes</legend><p class="hint">Leave all unticked for a key that may do everything.</p><div class="checks">
${SCOPES.map((s) => html`<label class="check"><input type="checkbox" name="scope" value="${s}"${ctx.form.getAll("scope").includes(s) ? html` checked` : ""}> ${s}</label>`)}</div></fieldset>
<button type="submit">Create ${ctx.environment} key</button></form>
<h2>Rotating a key</h2>
<p>To replace a key without downtime: create a new key, deploy it where the old one is used, check that requests arrive with the new prefix (Usage, request log), then revoke the old key. From the command line, <code>tminus keys roll</code> does this with an overlap during which both keys work.</p>`;
  return htmlResponse(
    extra.status ?? 200,
    page(ctx, {
      title: "API keys",
      section: "/keys",
      content,
      notice: noticeOf(ctx, NOTICES),
      error: extra.error,
    }),
  );
}

/** API keys (owners): list, create with scopes, revoke with a confirmation. */
export const keyRoutes: readonly PageRoute[] = ownersOnly([
  { method: "GET", pattern: /^\/keys$/, handle: (ctx) => keysPage(ctx) },
  {
    method: "POST",
    pattern: /^\/keys$/,
    async handle(ctx) {
      try {
        const key = await adminOf(ctx).issueKey({
          account: ctx.account.name,
          environment: ctx.environment,
          scopes: ctx.form.getAll("scope"),
          name: ctx.form.get("name") ?? undefined,
        });
        return redirectWithFlash(ctx, ctx.envPath("/keys"), {
          kind: "key",
          secret: key.secret,
          prefix: key.prefix,
        });
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        return keysPage(ctx, {
          error: error.message,
          status: error.code === "limit_reached" ? 409 : 400,
        });
      }
    },
  },
  {
    method: "POST",
    pattern: /^\/keys\/(?<id>[0-9a-f-]{36})\/revoke$/,
    async handle(ctx, { id }) {
      if (ctx.form.get("confirm") !== "yes") {
        return keysPage(ctx, { error: "Tick the box to confirm the revocation.", status: 400 });
      }
      // Scoped to the account, and to this environment's keys: a key of the other
      // environment is not on this page and not revoked from it.
      const own = await ctx.admin.records.listApiKeys(ctx.account.id, ctx.environment);
      if (!own.some((k) => k.id === id))
        return keysPage(ctx, { error: "No such live key.", status: 404 });
      try {
        await adminOf(ctx).revokeKey(id!, { account: ctx.account.name });
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        return keysPage(ctx, { error: error.message, status: 404 });
      }
      return redirect(`${ctx.envPath("/keys")}?notice=revoked`);
    },
  },
]);
