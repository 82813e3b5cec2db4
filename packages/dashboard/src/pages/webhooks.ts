import { ApiError } from "@tminus/http";
import { WEBHOOK_CHANGE_EVENTS, WEBHOOK_EVENT_TYPES } from "@tminus/store";
import { dataOf, listOf } from "../api-call";
import type { PageContext } from "../context";
import { html, type SafeHtml } from "../html";
import { csrfField, page, when } from "../layout";
import { htmlResponse, redirect } from "../responses";
import { plural } from "../words";
import { flashPanel, noticeOf, ownersOnly, type PageRoute, redirectWithFlash } from "./route";

interface Destination {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  secret?: string;
  created_at: string;
}

interface Delivery {
  id: string;
  event: { type: string; timer_id: string | null; occurred_at: string };
  destination_id: string;
  status: string;
  attempt_count: number;
  next_retry_at: string | null;
  attempts: {
    attempt: number;
    trigger: string;
    started_at: string;
    duration_ms: number;
    response_status: number | null;
    error: string | null;
  }[];
}

interface Rule {
  id: string;
  destination_id: string;
  events: string[];
  offset_seconds: number | null;
}

const NOTICES: Record<string, string> = {
  disabled: "Destination disabled: nothing is sent to it until you enable it.",
  enabled: "Destination enabled.",
  replayed: "Replay queued: the event is sent again as a new delivery.",
  deleted: "Destination deleted.",
};

const ID = "(?<id>[0-9a-f-]{36})";

/** A one-time secret panel (a new destination or a rotated secret). */
function secretPanel(title: string, secret: string): SafeHtml {
  return html`<section class="panel" aria-labelledby="secret-title"><h2 id="secret-title">${title}</h2>
<p>Copy the signing secret now: it is shown only once. Your endpoint verifies each request's signature with it (Standard Webhooks).</p>
<div class="secret"><label class="sr-only" for="secret">Signing secret</label><input id="secret" type="text" readonly value="${secret}" size="50">
<button type="button" data-copy="secret" hidden>Copy</button></div></section>`;
}

/** How many timers a page looks through for the rules that send to a destination. */
const RULE_SCAN_TIMERS = 100;

/**
 * How many rules send to each destination, from the rules of the account's timers (there is
 * no listing by destination); `complete` is false when there were more timers than scanned.
 */
interface RuleCounts {
  counts: Map<string, number>;
  complete: boolean;
}

async function rulesByDestination(ctx: PageContext): Promise<RuleCounts> {
  const timers = listOf<{ id: string }>(
    await ctx.api({ method: "GET", path: "/timers", query: { limit: String(RULE_SCAN_TIMERS) } }),
  );
  const counts = new Map<string, number>();
  for (const t of timers.items) {
    const rules = listOf<Rule>(
      await ctx.api({
        method: "GET",
        path: `/timers/${t.id}/webhook-rules`,
        query: { limit: "100" },
      }),
    ).items;
    for (const r of rules) counts.set(r.destination_id, (counts.get(r.destination_id) ?? 0) + 1);
  }
  return { counts, complete: timers.next === null };
}

/** Whether a destination receives nothing at all: no events of its own, and no rule. */
function receivesNothing(d: Destination, rules: RuleCounts | null): boolean {
  return d.events.length === 0 && rules !== null && rules.complete && !rules.counts.get(d.id);
}

/** What a destination receives, in words: its own events, rules, or (said plainly) nothing. */
function receives(d: Destination, rules: RuleCounts | null): SafeHtml {
  if (d.events.length) return html`${d.events.join(", ")}`;
  const n = rules?.counts.get(d.id) ?? 0;
  if (n > 0) return html`<span class="hint">only by rule (${plural(n, "rule")})</span>`;
  if (receivesNothing(d, rules)) {
    return html`<span class="hint">No events for every timer and no timer's rule sends to it: tick events for it, or add a rule on a timer's page.</span>`;
  }
  return html`<span class="hint">only by rule</span>`;
}

async function webhooksPage(ctx: PageContext, extra: { error?: string; status?: number } = {}) {
  const destinations = listOf<Destination>(
    await ctx.api({ method: "GET", path: "/webhook-destinations", query: { limit: "100" } }),
  ).items;
  const rules = destinations.some((d) => d.events.length === 0)
    ? await rulesByDestination(ctx)
    : null;
  const made = flashPanel(ctx, "destination", "rotated");
  // A refused "add" keeps what was typed.
  const typed =
    ctx.req.method === "POST" && ctx.rest === "/webhooks/destinations"
      ? ctx.form
      : new URLSearchParams();
  const q = ctx.req.query;
  const status = q.get("status") ?? "";
  const deliveries = listOf<Delivery>(
    await ctx.api({
      method: "GET",
      path: "/webhook-deliveries",
      query: { status, limit: "25", cursor: q.get("cursor") ?? undefined },
    }),
  );
  const urlOf = new Map(destinations.map((d) => [d.id, d.url]));
  const post = (
    path: string,
    label: string,
    opts: { danger?: boolean; confirm?: string; body?: SafeHtml } = {},
  ) =>
    html`<form class="inline" method="post" action="${ctx.envPath(path)}"${opts.confirm ? html` data-confirm="${opts.confirm}"` : ""}>${csrfField(ctx)}${opts.body ?? ""}<button type="submit" class="${opts.danger ? "danger" : "secondary"}">${label}</button></form>`;
  const content = html`${made ? secretPanel(made.kind === "rotated" ? "New signing secret" : "Destination added", made.secret ?? "") : ""}
<h2>Destinations</h2>
<div class="table"><table><caption class="sr-only">Webhook destinations</caption><thead><tr><th scope="col">URL</th><th scope="col">Status</th><th scope="col" class="opt">Events for every timer</th><th scope="col">Actions</th></tr></thead>
<tbody>${
    destinations.length
      ? destinations.map(
          (
            d,
          ) => html`<tr><td><code>${d.url}</code>${d.description ? html`<br><span class="hint">${d.description}</span>` : ""}</td>
<td><span class="badge ${d.enabled ? "live" : "disabled"}">${d.enabled ? "enabled" : (d.disabled_reason ?? "disabled")}</span>${receivesNothing(d, rules) ? html`<br><strong class="warn-text">Receives nothing</strong>` : ""}</td>
<td class="opt">${receives(d, rules)}</td>
<td><div class="actions">${post(`/webhooks/destinations/${d.id}/rotate`, "Rotate secret", { confirm: "Make a new signing secret? The old one keeps working for a while, so you can switch." })}
${post(`/webhooks/destinations/${d.id}/${d.enabled ? "disable" : "enable"}`, d.enabled ? "Disable" : "Enable")}
${post(`/webhooks/destinations/${d.id}/delete`, "Delete", {
  danger: true,
  confirm: `Delete ${d.url}? Its rules go with it, and pending deliveries to it fail.`,
  body: html`<label class="check"><input type="checkbox" name="confirm" value="yes" required> <span>Delete it and its rules</span></label>`,
})}</div></td></tr>`,
        )
      : html`<tr><td colspan="4">No destinations yet.</td></tr>`
  }</tbody></table></div>
<h2>Add a destination</h2>
<form class="panel" method="post" action="${ctx.envPath("/webhooks/destinations")}">${csrfField(ctx)}
<label for="d-url">URL</label><input id="d-url" name="url" type="url" required placeholder="https://example.com/hooks/tminus" value="${typed.get("url") ?? ""}">
<label for="d-description">Description</label><input id="d-description" name="description" type="text" maxlength="200" value="${typed.get("description") ?? ""}">
<fieldset><legend>Events for every timer (optional)</legend><p class="hint">Time-based events (ended, threshold) are set per timer, on the timer's page.</p>
<div class="checks">${WEBHOOK_CHANGE_EVENTS.map((e) => html`<label class="check"><input type="checkbox" name="events" value="${e}"${typed.getAll("events").includes(e) ? html` checked` : ""}> ${e}</label>`)}</div></fieldset>
<button type="submit">Add destination</button></form>
<h2>Deliveries</h2>
<form class="row" method="get" action="${ctx.envPath("/webhooks")}"><div><label for="f-status">Status</label><select id="f-status" name="status"><option value="">Any</option>
${["pending", "succeeded", "failed"].map((s) => html`<option value="${s}"${s === status ? html` selected` : ""}>${s}</option>`)}</select></div><div><button type="submit">Filter</button></div></form>
<div class="table"><table><caption class="sr-only">Webhook deliveries, newest first</caption><thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col" class="opt">Destination</th><th scope="col">Attempts</th><th scope="col">Replay</th></tr></thead>
<tbody>${
    deliveries.items.length
      ? deliveries.items.map(
          (
            d,
          ) => html`<tr><td>${d.event.type}<br><span class="hint">${when(d.event.occurred_at)}</span></td><td><span class="badge ${d.status}">${d.status}</span></td>
<td class="opt"><code>${urlOf.get(d.destination_id) ?? d.destination_id}</code></td>
<td><details><summary>${plural(d.attempt_count, "attempt")}</summary><ul>${d.attempts.map(
            (a) =>
              html`<li>#${a.attempt} ${when(a.started_at)}: ${a.response_status ?? a.error ?? "no answer"} (${Math.round(a.duration_ms)} ms)</li>`,
          )}</ul>${d.next_retry_at ? html`<p class="hint">Next retry ${when(d.next_retry_at)}</p>` : ""}</details></td>
<td>${d.status === "pending" ? "" : post(`/webhooks/deliveries/${d.id}/replay`, "Replay")}</td></tr>`,
        )
      : html`<tr><td colspan="5">No deliveries${status ? ` ${status}` : ""} yet.</td></tr>`
  }</tbody></table></div>
${deliveries.next ? html`<nav class="pager" aria-label="Pages"><a href="${ctx.envPath(`/webhooks?${new URLSearchParams([...(status ? [["status", status]] : []), ["cursor", deliveries.next]])}`)}">Older deliveries</a></nav>` : ""}`;
  return htmlResponse(
    extra.status ?? 200,
    page(ctx, {
      title: "Webhooks",
      section: "/webhooks",
      content,
      notice: noticeOf(ctx, NOTICES),
      error: extra.error,
    }),
  );
}

/** Runs a change and comes back to the page; a refusal of the API is shown on the page. */
async function change(ctx: PageContext, run: () => Promise<ApiResponseLike>) {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return webhooksPage(ctx, { error: error.message, status: error.status });
  }
}
type ApiResponseLike = Awaited<ReturnType<typeof webhooksPage>>;

/** The webhook rules of one timer, with the form to add one (owners; on the timer's page). */
export async function timerRulesSection(ctx: PageContext, timerId: string): Promise<SafeHtml> {
  if (ctx.user.role !== "owner") return html``;
  const rules = listOf<Rule>(
    await ctx.api({
      method: "GET",
      path: `/timers/${timerId}/webhook-rules`,
      query: { limit: "100" },
    }),
  ).items;
  const destinations = listOf<Destination>(
    await ctx.api({ method: "GET", path: "/webhook-destinations", query: { limit: "100" } }),
  ).items;
  const urlOf = new Map(destinations.map((d) => [d.id, d.url]));
  const refused = flashPanel(ctx, "rule-refused");
  const chosen = refused?.events?.split(",") ?? [];
  return html`<h2 id="rules">Webhook rules</h2>
${refused ? html`<p class="error" role="alert">The rule was not added: ${refused.message}</p>` : ""}
<div class="table rules"><table><caption class="sr-only">Webhook rules of this timer</caption><thead><tr><th scope="col">Destination</th><th scope="col">Events</th><th scope="col">Action</th></tr></thead>
<tbody>${
    rules.length
      ? rules.map(
          (
            r,
          ) => html`<tr><td><code>${urlOf.get(r.destination_id) ?? r.destination_id}</code></td><td>${r.events.join(", ")}${r.offset_seconds !== null ? ` (${Math.round(r.offset_seconds / 60)} min before)` : ""}</td>
<td><form method="post" action="${ctx.envPath(`/timers/${timerId}/rules/${r.id}/delete`)}">${csrfField(ctx)}<button class="secondary" type="submit">Remove</button></form></td></tr>`,
        )
      : html`<tr><td colspan="3">No rules: this timer sends only the events its destinations take for every timer.</td></tr>`
  }</tbody></table></div>
${
  destinations.length
    ? html`<form class="panel" method="post" action="${ctx.envPath(`/timers/${timerId}/rules`)}">${csrfField(ctx)}
<label for="r-destination">Send to</label><select id="r-destination" name="destination_id">${destinations.map((d) => html`<option value="${d.id}"${d.id === refused?.destination_id ? html` selected` : ""}>${d.url}</option>`)}</select>
<fieldset><legend>Events</legend><div class="checks">${WEBHOOK_EVENT_TYPES.filter(
        (e) => e !== "timer.created",
      ).map(
        (e) =>
          html`<label class="check"><input type="checkbox" name="events" value="${e}"${chosen.includes(e) ? html` checked` : ""}> ${e}</label>`,
      )}</div></fieldset>
<label for="r-offset">Minutes before the end (timer.threshold only)</label><input id="r-offset" name="offset_minutes" type="number" min="1" value="${refused?.offset_minutes ?? ""}">
<p><button type="submit">Add rule</button></p></form>`
    : html`<p class="hint">Add a destination on the <a href="${ctx.envPath("/webhooks")}">Webhooks</a> page first.</p>`
}`;
}

/** Webhooks (owners): destinations (add, rotate, disable, delete), deliveries, replays; rules. */
export const webhookRoutes: readonly PageRoute[] = ownersOnly([
  { method: "GET", pattern: /^\/webhooks$/, handle: (ctx) => webhooksPage(ctx) },
  {
    method: "POST",
    pattern: /^\/webhooks\/destinations$/,
    handle: (ctx) =>
      change(ctx, async () => {
        const description = ctx.form.get("description") ?? "";
        const made = dataOf<Destination>(
          await ctx.api({
            method: "POST",
            path: "/webhook-destinations",
            body: {
              url: ctx.form.get("url") ?? "",
              ...(description ? { description } : {}),
              events: ctx.form.getAll("events"),
            },
          }),
        );
        return redirectWithFlash(ctx, ctx.envPath("/webhooks"), {
          kind: "destination",
          secret: made.secret ?? "",
        });
      }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/webhooks/destinations/${ID}/(?<action>rotate|disable|enable)$`),
    handle: (ctx, { id, action }) =>
      change(ctx, async () => {
        if (action === "rotate") {
          const rotated = dataOf<Destination>(
            await ctx.api({ method: "POST", path: `/webhook-destinations/${id}/rotate-secret` }),
          );
          return redirectWithFlash(ctx, ctx.envPath("/webhooks"), {
            kind: "rotated",
            secret: rotated.secret ?? "",
          });
        }
        await ctx.api({
          method: "PATCH",
          path: `/webhook-destinations/${id}`,
          body: { enabled: action === "enable" },
        });
        return redirect(`${ctx.envPath("/webhooks")}?notice=${action}d`);
      }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/webhooks/destinations/${ID}/delete$`),
    handle: (ctx, { id }) =>
      change(ctx, async () => {
        if (ctx.form.get("confirm") !== "yes") {
          return webhooksPage(ctx, { error: "Tick the box to confirm the deletion.", status: 400 });
        }
        await ctx.api({ method: "DELETE", path: `/webhook-destinations/${id}` });
        return redirect(`${ctx.envPath("/webhooks")}?notice=deleted`);
      }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/webhooks/deliveries/${ID}/replay$`),
    handle: (ctx, { id }) =>
      change(ctx, async () => {
        await ctx.api({ method: "POST", path: `/webhook-deliveries/${id}/replay` });
        return redirect(`${ctx.envPath("/webhooks")}?notice=replayed`);
      }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/timers/${ID}/rules$`),
    async handle(ctx, { id }) {
      const minutes = Number(ctx.form.get("offset_minutes"));
      const events = ctx.form.getAll("events");
      try {
        await ctx.api({
          method: "POST",
          path: `/timers/${id}/webhook-rules`,
          body: {
            destination_id: ctx.form.get("destination_id") ?? "",
            events,
            ...(minutes > 0 ? { offset_seconds: Math.round(minutes * 60) } : {}),
          },
        });
      } catch (error) {
        if (!(error instanceof ApiError) || error.status >= 500 || error.code === "not_found")
          throw error;
        // Back to the timer's page with the refusal and what was chosen (its own flash).
        return redirectWithFlash(ctx, ctx.envPath(`/timers/${id}`), {
          kind: "rule-refused",
          message: error.message,
          destination_id: ctx.form.get("destination_id") ?? "",
          events: events.join(","),
          offset_minutes: ctx.form.get("offset_minutes") ?? "",
        });
      }
      return redirect(`${ctx.envPath(`/timers/${id}`)}?notice=saved`);
    },
  },
  {
    method: "POST",
    pattern: new RegExp(`^/timers/${ID}/rules/(?<rule>[0-9a-f-]{36})/delete$`),
    async handle(ctx, { id, rule }) {
      await ctx.api({ method: "DELETE", path: `/timers/${id}/webhook-rules/${rule}` });
      return redirect(`${ctx.envPath(`/timers/${id}`)}?notice=saved`);
    },
  },
]);
