// Draws docs/images/style-*.png, the pictures of each look.style in docs/render.md, with the
// built renderer (npx -y pnpm@10 -r --filter ./packages/render build first):
//   node scripts/style-pictures.mjs
import { writeFileSync } from "node:fs";

const { renderPng } = await import("../packages/render/dist/index.js");
const { LOOK_STYLES } = await import("../packages/core/dist/index.js");

// 3 days, 4 hours, 5 minutes, 37 seconds: every ring and bar part full.
const remainingSeconds = ((3 * 24 + 4) * 60 + 5) * 60 + 37;
const out = (name) => new URL(`../docs/images/${name}.png`, import.meta.url);
for (const style of LOOK_STYLES)
  for (const variant of ["light", "dark"])
    writeFileSync(
      out(`style-${style}${variant === "dark" ? "-dark" : ""}`),
      await renderPng({ remainingSeconds, look: { style }, variant }),
    );
writeFileSync(
  out("style-words-gradient"),
  await renderPng({
    remainingSeconds,
    height: 240,
    look: {
      style: "boxes",
      background: { type: "gradient", from: "#FDE68A", to: "#F472B6", angle: 90 },
      heading: { text: "Sale ends in" },
      subheading: { text: "Free shipping on every order", font: "serif" },
      button: { label: "Shop now" },
    },
  }),
);
process.stdout.write("wrote docs/images/style-*.png\n");
