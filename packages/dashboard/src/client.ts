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

  // Copy buttons: data-copy names the element whose value (or text) is copied. One listener
  // for the page, so that rows a live search swaps in copy too.
  const showCopyButtons = (root: ParentNode) => {
    for (const b of root.querySelectorAll<HTMLButtonElement>("button[data-copy]")) b.hidden = false;
  };
  showCopyButtons(document);
  document.addEventListener("click", async (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>(
      "button[data-copy]",
    );
    if (!button) return;
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

  // Search as you type: a GET form with data-live-search fetches its own page for what is
  // typed and swaps in the element it names (the results), keeping the address in step.
  const search = document.querySelector<HTMLFormElement>("form[data-live-search]");
  if (search) {
    let pending: ReturnType<typeof setTimeout> | undefined;
    let latest = 0;
    const run = async () => {
      const params = new URLSearchParams();
      for (const [name, value] of new FormData(search)) {
        if (typeof value === "string" && value !== "") params.append(name, value);
      }
      const address = `${search.action}${params.size ? `?${params}` : ""}`;
      const ticket = ++latest;
      const response = await fetch(address, { credentials: "same-origin" });
      if (ticket !== latest || !response.ok) return;
      const found = new DOMParser().parseFromString(await response.text(), "text/html");
      const id = search.dataset.liveSearch ?? "";
      const fresh = found.getElementById(id);
      const shown = document.getElementById(id);
      if (!fresh || !shown) return;
      shown.replaceWith(fresh);
      showCopyButtons(fresh);
      history.replaceState(null, "", address);
      search.dataset.searched = String(ticket);
      announce(fresh.querySelector("[data-count]")?.textContent ?? "");
    };
    const soon = () => {
      clearTimeout(pending);
      pending = setTimeout(run, 200);
    };
    search.addEventListener("input", soon);
    search.addEventListener("change", soon);
    search.addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(pending);
      run();
    });
  }

  // The list's thumbnails stay live: redrawn every minute while the page is in view.
  if (document.querySelector("td.thumb img")) {
    setInterval(() => {
      if (document.hidden) return;
      for (const img of document.querySelectorAll<HTMLImageElement>("td.thumb img")) {
        const url = new URL(img.src);
        url.searchParams.set("at", String(Date.now()));
        img.src = url.toString();
      }
    }, 60_000);
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
  // A form that cannot be drawn (the page came back with a problem) shows no broken image.
  image?.addEventListener("error", () => {
    image.hidden = true;
  });
  // What fills the image: the gradient's fields or the image list, for the chosen kind only.
  const showBackground = () => {
    const kind = builder.querySelector<HTMLSelectElement>("#background_kind")?.value;
    for (const section of builder.querySelectorAll<HTMLElement>("[data-background-section]")) {
      const on = section.dataset.backgroundSection === kind;
      section.hidden = !on;
      for (const field of section.querySelectorAll<HTMLInputElement>("input,select")) {
        field.disabled = !on;
      }
    }
  };
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
      image.hidden = false;
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
  // A new recurring timer starts today in its own zone: the date follows the zone field until
  // the person picks a day. "Now" is the server's (the page says when it was drawn).
  const zone = builder.querySelector<HTMLInputElement>("#timezone");
  const start = builder.querySelector<HTMLInputElement>("#starts_on[data-today]");
  const drawnAt = Number(builder.dataset.now) - performance.now();
  const followZone = () => {
    if (!zone || !start || !("today" in start.dataset)) return;
    try {
      start.value = new Intl.DateTimeFormat("en-CA", {
        timeZone: zone.value.trim(),
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
      }).format(drawnAt + performance.now());
    } catch {
      // Not a time zone (yet): the date stays, the preview names the problem.
    }
  };
  start?.addEventListener("input", () => {
    delete start.dataset.today;
  });
  // A new timer's zone is the browser's (the server cannot know it): set once, on arrival.
  if (zone && "browserZone" in zone.dataset) {
    // Only a zone the API takes (the list's): browsers may say "UTC" or an old link's name.
    let own = Intl.DateTimeFormat().resolvedOptions().timeZone ?? "";
    if (/^(Etc\/)?(UTC|GMT|UCT|Universal|Zulu)$/.test(own)) own = "Etc/UTC";
    const listed = [...(zone.list?.options ?? [])].some((o) => o.value === own);
    if (listed) zone.value = own;
    followZone();
  }

  // Colours: the hex field is the one sent; its picker follows it and sets it. A hex that is
  // no colour is said next to the field (the server refuses it the same way).
  const hexOf = (text: string) => {
    const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim());
    if (!m) return null;
    const d = m[1] ?? "";
    return `#${(d.length === 3 ? [...d].map((c) => c + c).join("") : d).toLowerCase()}`;
  };
  const syncPicker = (field: HTMLInputElement) => {
    const picker = builder.querySelector<HTMLInputElement>(`#${field.id}-picker`);
    const hex = hexOf(field.value);
    if (picker && hex) picker.value = hex;
    let note = builder.querySelector<HTMLElement>(`#${field.id}-live-problem`);
    // An optional colour left empty takes its default (the hint says which).
    if (hex || ("optional" in field.dataset && field.value.trim() === "")) {
      field.removeAttribute("aria-invalid");
      note?.remove();
      return;
    }
    field.setAttribute("aria-invalid", "true");
    if (!note) {
      note = document.createElement("p");
      note.className = "field-error";
      note.id = `${field.id}-live-problem`;
      field.closest(".colour")?.append(note);
      field.setAttribute(
        "aria-describedby",
        `${field.getAttribute("aria-describedby") ?? ""} ${note.id}`,
      );
    }
    const label = builder.querySelector(`label[for=${field.id}]`)?.textContent ?? "Colour";
    note.textContent = `${label}: "${field.value}" is not a colour: type it as #RRGGBB (like #1d4ed8) or pick one.`;
  };
  for (const picker of builder.querySelectorAll<HTMLInputElement>("input[data-colour-for]")) {
    const field = builder.querySelector<HTMLInputElement>(`#${picker.dataset.colourFor}`);
    if (!field) continue;
    picker.hidden = false;
    picker.addEventListener("input", () => {
      field.value = picker.value;
      syncPicker(field);
    });
    field.addEventListener("input", () => syncPicker(field));
  }

  // The base theme's colours: switching the theme moves pickers that still show the old
  // theme's colours to the new one's (picked colours stay: they override the theme).
  const theme = builder.querySelector<HTMLSelectElement>("#theme");
  const palettes = JSON.parse(theme?.dataset.palettes ?? "{}") as Record<
    string,
    Record<string, string>
  >;
  let themeShown = theme?.value ?? "";
  const followTheme = () => {
    if (!theme || theme.value === themeShown) return;
    const before = palettes[themeShown];
    const after = palettes[theme.value];
    themeShown = theme.value;
    if (!before || !after) return;
    const pickers = Object.keys(after).map((name) =>
      builder.querySelector<HTMLInputElement>(`#${name}`),
    );
    const untouched = pickers.every(
      (p) => p && p.value.toLowerCase() === (before[p.id] ?? "").toLowerCase(),
    );
    if (!untouched) return;
    for (const p of pickers) {
      if (!p) continue;
      p.value = (after[p.id] ?? p.value).toLowerCase();
      syncPicker(p);
    }
  };

  // On a narrow screen the preview sticks to the top: a field that gets the focus under it is
  // scrolled down into sight, and so is the focused field when the preview grows over it (its
  // new image arrives after the focus moved).
  const preview = document.querySelector<HTMLElement>(".builder .preview");
  const uncover = (field: HTMLElement) => {
    if (!preview || getComputedStyle(preview).position !== "sticky") return;
    const cover = preview.getBoundingClientRect();
    const box = field.getBoundingClientRect();
    if (cover.bottom <= 0 || box.top >= cover.bottom + 8 || box.bottom <= cover.top) return;
    // Beside the preview (a wide screen, where it also sticks) the field is not covered:
    // scrolling then would move a checkbox from under the pointer between press and release.
    if (box.right <= cover.left || box.left >= cover.right) return;
    window.scrollBy({ top: box.top - cover.bottom - 16, behavior: "instant" });
  };
  builder.addEventListener("focusin", (event) => uncover(event.target as HTMLElement));
  if (preview && typeof ResizeObserver === "function") {
    new ResizeObserver(() => {
      const field = document.activeElement;
      if (field instanceof HTMLElement && builder.contains(field)) uncover(field);
    }).observe(preview);
  }

  // A note said only while its field is empty ("Fallback deadline: left empty, ...").
  const notesWhileEmpty = () => {
    for (const note of builder.querySelectorAll<HTMLElement>("[data-while-empty]")) {
      const field = builder.querySelector<HTMLInputElement>(`#${note.dataset.whileEmpty}`);
      note.hidden = !!field && field.value.trim() !== "";
    }
  };
  notesWhileEmpty();

  builder.addEventListener("input", (event) => {
    if (event.target === zone) followZone();
    notesWhileEmpty();
    schedule();
  });
  builder.addEventListener("change", (event) => {
    if (event.target === zone) followZone();
    notesWhileEmpty();
    followTheme();
    showType();
    showBackground();
    schedule();
  });
  showType();
  showBackground();
  refresh();
}

/** The script served at `<dashboard>/assets/app.js`. */
export const DASHBOARD_JS = `(${dashboardClient.toString()})();\n`;
