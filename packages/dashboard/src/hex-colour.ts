// Colours as a marketer types them: "#1D4ED8", "1d4ed8" or the short "#abc"; the colour
// pickers and the API speak "#rrggbb".

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** A colour as typed ("1d4ed8", "#abc") as `#rrggbb`; the text itself when it is not one. */
export function normalizeHex(text: string): string {
  const match = HEX.exec(text.trim());
  if (!match) return text.trim();
  const digits = match[1]!.length === 3 ? [...match[1]!].map((d) => d + d).join("") : match[1]!;
  return `#${digits.toLowerCase()}`;
}

/** Whether `text` is a colour `normalizeHex` understands. */
export function isHexColour(text: string): boolean {
  return HEX.test(text.trim());
}
