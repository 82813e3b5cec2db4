// Fonts and images: upload one (a multipart form, sent on to POST /assets as base64 JSON),
// see them, delete one. The builder's font list offers the fonts.
import { ApiError, type ApiResponse } from "@tminus/http";
import { dataOf, listOf } from "../api-call";
import type { PageContext } from "../context";
import { html } from "../html";
import { csrfField, page, when } from "../layout";
import { htmlResponse, redirect } from "../responses";
import { noticeOf, type PageRoute } from "./route";

/** An uploaded file as GET /assets describes it. */
export interface AssetItem {
  id: string;
  kind: "font" | "image";
  name: string;
  format: string;
  bytes: number;
  width: number | null;
  height: number | null;
  font_family: string | null;
  created_at: string;
}

const NOTICES: Record<string, string> = {
  uploaded: "Uploaded.",
  deleted: "Deleted. Timers that used it show their built-in font from now on.",
};

const ID = "(?<id>[0-9a-f-]{36})";

/** The environment's files (at most 100: the default limit is 50). */
export async function listAssets(ctx: PageContext, kind?: "font" | "image"): Promise<AssetItem[]> {
  return listOf<AssetItem>(
    await ctx.api({ method: "GET", path: "/assets", query: { limit: "100", kind } }),
  ).items;
}

/** A font's name as people choose it: its own family name, else its file's. */
export function fontLabel(font: Pick<AssetItem, "name" | "font_family">): string {
  return font.font_family || font.name;
}

function size(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

async function assetsPage(ctx: PageContext, extra: { error?: string; status?: number } = {}) {
  const items = await listAssets(ctx);
  const notice = noticeOf(ctx, NOTICES);
  const limits =
    "Fonts: TTF, OTF or WOFF, up to 2 MB, with the digits 0-9. Images: PNG or JPEG, up to 2 MB and 4,096 pixels a side.";
  const content = html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ""}
${extra.error ? html`<p class="error" role="alert">Not uploaded: ${extra.error}</p>` : ""}
<h2>Upload</h2>
<form class="panel" method="post" action="${ctx.envPath("/assets")}" enctype="multipart/form-data">${csrfField(ctx)}
<fieldset><legend>Kind</legend><div class="checks"><label class="check"><input type="radio" name="kind" value="font" checked> Font</label>
<label class="check"><input type="radio" name="kind" value="image"> Background image</label></div></fieldset>
<label for="a-file">File</label><p class="hint" id="a-file-hint">${limits}</p>
<input id="a-file" name="file" type="file" required accept=".ttf,.otf,.woff,.png,.jpg,.jpeg,font/ttf,font/otf,font/woff,image/png,image/jpeg" aria-describedby="a-file-hint">
<p><button type="submit">Upload</button></p></form>
<h2>Your files</h2>
<div class="table"><table><caption class="sr-only">Uploaded fonts and images, newest first</caption><thead><tr><th scope="col">Name</th><th scope="col">Kind</th><th scope="col" class="opt">Size</th><th scope="col" class="opt">Uploaded</th><th scope="col">Action</th></tr></thead>
<tbody>${
    items.length
      ? items.map(
          (
            a,
          ) => html`<tr><td>${a.kind === "font" ? html`<strong>${fontLabel(a)}</strong><br><span class="hint">${a.name}</span>` : html`<strong>${a.name}</strong><br><span class="hint">${a.width} × ${a.height} px</span>`}</td>
<td>${a.kind === "font" ? "Font" : "Image"} <span class="hint">${a.format.toUpperCase()}</span></td>
<td class="opt">${size(a.bytes)}</td><td class="opt">${when(a.created_at)}</td>
<td><form method="post" action="${ctx.envPath(`/assets/${a.id}/delete`)}" data-confirm="${`Delete ${a.name}? Timers that use it show their built-in font instead.`}">${csrfField(ctx)}<button type="submit" class="danger">Delete<span class="sr-only"> ${a.name}</span></button></form></td></tr>`,
        )
      : html`<tr><td colspan="5">No fonts or images yet. A font you upload shows up in the builder's font list.</td></tr>`
  }</tbody></table></div>`;
  return htmlResponse(
    extra.status ?? 200,
    page(ctx, { title: "Fonts and images", section: "/assets", content }),
  );
}

/** Runs a change; a refusal the API explains shows the page again with its message. */
async function change(ctx: PageContext, run: () => Promise<ApiResponse>): Promise<ApiResponse> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return assetsPage(ctx, { error: error.message, status: error.status });
  }
}

/** Fonts and images: the list, the upload form, deleting one. */
export const assetRoutes: readonly PageRoute[] = [
  { method: "GET", pattern: /^\/assets$/, handle: (ctx) => assetsPage(ctx) },
  {
    method: "POST",
    pattern: /^\/assets$/,
    handle: (ctx) =>
      change(ctx, async () => {
        const file = ctx.files.get("file");
        if (!file || file.data.byteLength === 0)
          return assetsPage(ctx, { error: "choose a file first", status: 400 });
        const kind = ctx.form.get("kind") === "image" ? "image" : "font";
        dataOf(
          await ctx.api({
            method: "POST",
            path: "/assets",
            body: {
              kind,
              name: file.name.slice(0, 200) || "upload",
              data: Buffer.from(file.data).toString("base64"),
            },
          }),
        );
        return redirect(ctx.envPath("/assets?notice=uploaded"));
      }),
  },
  {
    method: "POST",
    pattern: new RegExp(`^/assets/${ID}/delete$`),
    handle: (ctx, { id }) =>
      change(ctx, async () => {
        await ctx.api({ method: "DELETE", path: `/assets/${id}` });
        return redirect(ctx.envPath("/assets?notice=deleted"));
      }),
  },
];
