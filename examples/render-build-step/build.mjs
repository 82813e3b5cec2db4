// Renders a campaign's email images into dist/ at build time: light and dark,
// 1x and 2x animated GIFs, a still PNG for clients that want no animation, and
// the HTML to paste into the email. Run: SEND_AT=2026-11-26T08:00:00Z npm run build
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { computeStatus, emptyClock, parseOffsetDateTime, validateTimerCreate } from "@tminus/core";
import { createImageRenderer } from "@tminus/render";

const here = new URL(".", import.meta.url);
const dist = new URL("dist/", here);

const result = validateTimerCreate(
  JSON.parse(readFileSync(new URL("campaign.json", here), "utf8")),
);
if (!result.ok) throw new Error(`campaign.json: ${result.issues[0].message}`);
const timer = result.value;

// The images show the time left when the email goes out, not when it is built.
const sendAt = process.env.SEND_AT ? parseOffsetDateTime(process.env.SEND_AT) : Date.now();
if (sendAt === null) throw new Error("SEND_AT must be an ISO 8601 date-time with Z or an offset");
const status = computeStatus(
  { definition: timer, clock: { ...emptyClock(), published_at: sendAt } },
  sendAt,
);

const images = createImageRenderer();
const base = {
  remainingSeconds: status.remaining.total_seconds,
  running: status.state === "running",
  look: timer.look,
  ended: timer.ended,
};
mkdirSync(dist, { recursive: true });
const written = [];
const write = (name, bytes) => {
  writeFileSync(new URL(name, dist), bytes);
  written.push(`${name} (${bytes.length} bytes)`);
};
for (const variant of ["light", "dark"])
  for (const scale of [1, 2])
    write(`countdown-${variant}@${scale}x.gif`, await images.gif({ ...base, variant, scale }));
write("countdown.png", await images.png(base));

// A 2x GIF shown at 600x160 stays sharp on retina screens; clients that follow
// prefers-color-scheme (Apple Mail, iOS) pick the dark one.
const alt = `${timer.name}: ${status.ended ? timer.ended.text : "countdown"}`.replace(
  /[&<>"]/g,
  (c) => `&#${c.charCodeAt(0)};`,
);
const snippet = `<picture>
  <source srcset="countdown-dark@2x.gif" media="(prefers-color-scheme: dark)">
  <img src="countdown-light@2x.gif" width="600" height="160" alt="${alt}" style="display:block;max-width:100%;height:auto">
</picture>
`;
writeFileSync(new URL("snippet.html", dist), snippet);
process.stdout.write(
  `rendered for ${new Date(sendAt).toISOString()}, ${base.remainingSeconds} s left:\n  ${written.join("\n  ")}\n`,
);
