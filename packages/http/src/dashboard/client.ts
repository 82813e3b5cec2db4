// The dashboard's progressive enhancement, run in the browser. Every page works without it
// (forms post, links navigate); with it: copy buttons, the builder's live preview, sections
// of the builder shown for the chosen type only, and confirmations. This function is never
// called on the server: its source is served as the script (see DASHBOARD_JS), so it must not
// refer to anything outside itself.

function dashboardClient(): void {
  const announce = (text: string) => {
    const region = document.getElementById("live");
    if (region) region.textContent = text;
  };

  // Copy buttons: data-copy names the element whose value (or text) is copied.
  for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    button.hidden = false;
    button.addEventListener("click", async () => {
      const source = document.getElementById(button.dataset.copy ?? "");
      if (!source) return;
      const text =
        source instanceof HTMLInputElement || source instanceof HTMLTextAreaElement
          ? source.value
          : (source.textContent ?? "");
      try {
        await navigator.clipboard.writeText(text);
      } catch {
        if (source instanceof HTMLInputElement || source instanceof HTMLTextAreaElement) {
          source.select();
          document.execCommand("copy");
        }
      }
      const label = button.textContent;
      button.textContent = "Copied";
      announce("Copied to the clipboard");
      setTimeout(() => {
        button.textContent = label;
      }, 1500);
    });
  }

  // Forms that ask first (revoke, delete, rotate): data-confirm is the question.
  for (const form of document.querySelectorAll<HTMLFormElement>("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm ?? "Are you sure?")) event.preventDefault();
    });
  }

  // The timer builder: show the chosen type's fields, and keep the preview in step.
  const builder = document.querySelector<HTMLFormElement>("form[data-preview]");
  if (!builder) return;
  const image = document.getElementById("preview-image") as HTMLImageElement | null;
  const status = document.getElementById("preview-status");
  const showType = () => {
    const chosen = builder.querySelector<HTMLInputElement>("input[name=type]:checked");
    for (const section of builder.querySelectorAll<HTMLElement>("[data-type-section]")) {
      const on = !chosen || (section.dataset.typeSection ?? "").split(" ").includes(chosen.value);
      section.hidden = !on;
      for (const field of section.querySelectorAll<HTMLInputElement>("input,select,textarea")) {
        field.disabled = !on;
      }
    }
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shown: string | undefined;
  let asked = 0;
  const refresh = async () => {
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(builder)) {
      if (name !== "_csrf" && name !== "idempotency_key" && typeof value === "string") {
        params.append(name, value);
      }
    }
    const ticket = ++asked;
    const response = await fetch(`${builder.dataset.preview}?${params}`, {
      credentials: "same-origin",
    });
    if (ticket !== asked) return; // a newer preview is on its way
    if (!response.ok) {
      const problem = (await response.json().catch(() => null)) as { message?: string } | null;
      if (status) status.textContent = problem?.message ?? "The preview could not be drawn.";
      builder.dataset.previewState = "error";
      return;
    }
    const blob = await response.blob();
    if (image) {
      if (shown) URL.revokeObjectURL(shown);
      shown = URL.createObjectURL(blob);
      image.src = shown;
    }
    if (status) status.textContent = response.headers.get("tminus-preview-summary") ?? "";
    builder.dataset.previewState = String(ticket);
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  };
  builder.addEventListener("input", schedule);
  builder.addEventListener("change", () => {
    showType();
    schedule();
  });
  showType();
  refresh();
}

/** The script served at `<dashboard>/assets/app.js`. */
export const DASHBOARD_JS = `(${dashboardClient.toString()})();\n`;
