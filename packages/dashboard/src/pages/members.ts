import { AdminError, type PasswordLink } from "@tminus/admin";
import type { UserRole } from "@tminus/store";
import type { PageContext } from "../context";
import { html, type SafeHtml } from "../html";
import { csrfField, page, when } from "../layout";
import { htmlResponse, redirect } from "../responses";
import {
  type FlashPanel,
  flashPanel,
  noticeOf,
  ownersOnly,
  type PageRoute,
  redirectWithFlash,
} from "./route";

const NOTICES: Record<string, string> = {
  role: "Role changed. It applies from the member's next page.",
  removed: "Member removed and signed out everywhere.",
};

const ID = "(?<id>[0-9a-f-]{36})";

const ROLES: readonly { value: UserRole; label: string }[] = [
  { value: "member", label: "Member: timers and usage" },
  { value: "owner", label: "Owner: everything, including keys, webhooks and members" },
];

function adminOf(ctx: PageContext) {
  return ctx.admin.at(ctx.now);
}

/** The link as the invited person opens it: on this server's public address. */
function linkUrl(ctx: PageContext, link: PasswordLink): string {
  return link.url ?? `${ctx.place.baseUrl.replace(/\/+$/, "")}${link.path}`;
}

/** Post/redirect/get: the members page shows the new link once, from the flash. */
function redirectWithLink(
  ctx: PageContext,
  input: { email: string; link: PasswordLink; invited: boolean },
) {
  return redirectWithFlash(ctx, ctx.envPath("/members"), {
    kind: input.invited ? "invite" : "link",
    email: input.email,
    url: linkUrl(ctx, input.link),
    expires_at: input.link.expires_at,
  });
}

function linkPanel(panel: FlashPanel): SafeHtml {
  const input = {
    email: panel.email ?? "",
    invited: panel.kind === "invite",
    url: panel.url ?? "",
    expires_at: panel.expires_at ?? null,
  };
  return html`<section class="panel" aria-labelledby="link-title"><h2 id="link-title">${input.invited ? "Invitation" : "New link"} for ${input.email}</h2>
<p>Send this link to ${input.email} yourself (no email is sent). It sets their password once and expires ${when(input.expires_at)}; it is shown only now.${input.invited ? "" : " Any earlier link of theirs has stopped working."}</p>
<div class="secret"><label class="sr-only" for="secret">Set-password link for ${input.email}</label>
<input id="secret" type="text" readonly value="${input.url}" size="60">
<button type="button" data-copy="secret" hidden>Copy</button></div></section>`;
}

/** The members page: the account's users, the invite form, and (once) a new link. */
async function membersPage(
  ctx: PageContext,
  extra: { error?: string; status?: number; email?: string } = {},
) {
  const made = flashPanel(ctx, "invite", "link");
  const users = await adminOf(ctx).listUsers(ctx.account.name);
  const owners = users.filter((u) => u.role === "owner").length;
  const rows = users.map((u) => {
    const self = u.id === ctx.user.id;
    const last = u.role === "owner" && owners === 1;
    return html`<tr><td>${u.email}${self ? html` <span class="hint">(you)</span>` : ""}</td>
<td><form class="role" method="post" action="${ctx.envPath(`/members/${u.id}/role`)}">${csrfField(ctx)}
<label class="sr-only" for="role-${u.id}">Role of ${u.email}</label><select id="role-${u.id}" name="role">${ROLES.map((r) => html`<option value="${r.value}"${r.value === u.role ? html` selected` : ""}>${r.value}</option>`)}</select>
<button class="secondary" type="submit">Change<span class="sr-only"> role of ${u.email}</span></button></form>${last ? html`<span class="hint">the only owner</span>` : ""}</td>
<td><span class="badge ${u.has_password ? "live" : "pending"}">${u.has_password ? "active" : "invited"}</span></td>
<td>${when(u.created_at)}</td>
<td><div class="actions"><form class="inline" method="post" action="${ctx.envPath(`/members/${u.id}/link`)}">${csrfField(ctx)}<button class="secondary" type="submit">New link<span class="sr-only"> for ${u.email}</span></button></form>
<form class="inline" method="post" action="${ctx.envPath(`/members/${u.id}/remove`)}" data-confirm="Remove ${u.email}? They are signed out at once and can no longer sign in.">${csrfField(ctx)}
<label class="check"><input type="checkbox" name="confirm" value="yes" required> <span>Remove ${self ? "me" : "them"}</span></label>
<button class="danger" type="submit">Remove<span class="sr-only"> ${u.email}</span></button></form></div></td></tr>`;
  });
  const content = html`${made ? linkPanel(made) : ""}
<p>People who sign in to ${ctx.account.name}'s dashboard. Owners may do everything, including API keys, webhooks and members; members work with timers and usage. Members are the same in Production and Sandbox.</p>
<div class="table"><table><caption class="sr-only">Members of ${ctx.account.name}</caption><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Added</th><th scope="col">Actions</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<h2>Invite someone</h2>
<form class="panel" method="post" action="${ctx.envPath("/members")}">${csrfField(ctx)}
<label for="invite-email">Email</label><input id="invite-email" name="email" type="email" required maxlength="320" autocomplete="off" value="${extra.email ?? ""}">
<fieldset><legend>Role</legend>${ROLES.map((r, i) => html`<label class="check"><input type="radio" name="role" value="${r.value}"${i === 0 ? html` checked` : ""}> ${r.label}</label>`)}</fieldset>
<button type="submit">Invite</button>
<p class="hint">You get a one-time link to hand over; it sets their password and signs them in. Operators can do the same with <code>tminus users create</code>.</p></form>`;
  return htmlResponse(
    extra.status ?? 200,
    page(ctx, {
      title: "Members",
      section: "/members",
      content,
      notice: noticeOf(ctx, NOTICES),
      error: extra.error,
    }),
  );
}

/** An expected refusal (bad email, last owner, gone user) shown on the page. */
async function refused(ctx: PageContext, error: unknown, email?: string) {
  if (!(error instanceof AdminError)) throw error;
  const status = error.code === "conflict" ? 409 : error.code === "not_found" ? 404 : 400;
  const message =
    error.code === "conflict"
      ? "An account needs at least one owner. Make another member an owner first."
      : error.message.charAt(0).toUpperCase() + error.message.slice(1);
  return membersPage(ctx, { error: `${message}.`.replace(/\.\.$/, "."), status, email });
}

/** The account's user `id`, or null: a user of another account is not on this page. */
async function ownUser(ctx: PageContext, id: string) {
  const user = await ctx.admin.records.getUser(id);
  return user && user.account_id === ctx.account.id ? user : null;
}

/** Members (owners): list, invite with a one-time link, change roles, remove. */
export const memberRoutes: readonly PageRoute[] = ownersOnly([
  { method: "GET", pattern: /^\/members$/, handle: (ctx) => membersPage(ctx) },
  {
    method: "POST",
    pattern: /^\/members$/,
    async handle(ctx) {
      const email = (ctx.form.get("email") ?? "").trim();
      try {
        const { user, link } = await adminOf(ctx).createUser({
          account: ctx.account.name,
          email,
          role: ctx.form.get("role") === "owner" ? "owner" : "member",
        });
        return redirectWithLink(ctx, { email: user.email, link, invited: true });
      } catch (error) {
        return refused(ctx, error, email);
      }
    },
  },
  {
    method: "POST",
    pattern: new RegExp(`^/members/${ID}/role$`),
    async handle(ctx, { id }) {
      const role = ctx.form.get("role");
      try {
        const user = await adminOf(ctx).setUserRole({
          account: ctx.account.name,
          id: id!,
          role: (role ?? "") as UserRole,
        });
        // Demoting yourself: this page is now another owner's.
        if (user.id === ctx.user.id && user.role !== "owner") return redirect(ctx.envPath());
      } catch (error) {
        return refused(ctx, error);
      }
      return redirect(`${ctx.envPath("/members")}?notice=role`);
    },
  },
  {
    method: "POST",
    pattern: new RegExp(`^/members/${ID}/link$`),
    async handle(ctx, { id }) {
      const user = await ownUser(ctx, id!);
      if (!user) return membersPage(ctx, { error: "No such member.", status: 404 });
      const { link } = await adminOf(ctx).passwordLink(user.email);
      return redirectWithLink(ctx, { email: user.email, link, invited: false });
    },
  },
  {
    method: "POST",
    pattern: new RegExp(`^/members/${ID}/remove$`),
    async handle(ctx, { id }) {
      if (ctx.form.get("confirm") !== "yes") {
        return membersPage(ctx, { error: "Tick the box to confirm the removal.", status: 400 });
      }
      try {
        await adminOf(ctx).removeUser({ account: ctx.account.name, id: id! });
      } catch (error) {
        return refused(ctx, error);
      }
      if (id === ctx.user.id) return redirect(`${ctx.place.path}/sign-in`);
      return redirect(`${ctx.envPath("/members")}?notice=removed`);
    },
  },
]);
