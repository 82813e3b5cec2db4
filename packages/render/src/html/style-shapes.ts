// Each look.style's shape as CSS declarations for a unit's digits (and label), sized in em of
// the digits. One source for the hosted page and the embed (styles.ts) and for
// `<tminus-countdown>`'s shadow stylesheet (element/element-style.ts), so the two never draw a
// style differently. Both set --tm-bg, --tm-fg, --tm-accent and --tm-tint around the digits, and
// --p (the unit's share left, 0..1) on them every second; nothing here may import more than the
// element's bundle can carry.

/** The fill of boxes and the empty part of rings and bars: a little accent on the background. */
export const STYLE_TINT = "color-mix(in srgb,var(--tm-accent) 18%,var(--tm-bg))";

/** The styles that draw each unit's share left from --p: rings and bars. */
export const SHARE_STYLES: ReadonlySet<string> = new Set(["circles", "bar"]);

/** The declarations `style` gives a unit's digits and label; none for rounded and plain. */
export function styleShape(style: string): { digits?: string; label?: string } {
  switch (style) {
    case "minimal":
      return { label: "color:var(--tm-accent)" };
    case "boxes":
      return {
        digits:
          "background:var(--tm-tint);border-radius:.14em;padding:.06em .16em;margin-bottom:.06em",
      };
    case "outlined":
      return {
        digits:
          "border:max(1px,.04em) solid var(--tm-accent);border-radius:.14em;padding:.06em .16em;margin-bottom:.06em",
      };
    case "flip":
      return {
        digits:
          "background:linear-gradient(var(--tm-fg) calc(50% - .0125em),var(--tm-bg) 0 calc(50% + .0125em),var(--tm-fg) 0);color:var(--tm-bg);border-radius:.12em;padding:.04em .12em;letter-spacing:.06em;margin-bottom:.06em",
      };
    case "circles":
      return {
        digits:
          "display:flex;align-items:center;justify-content:center;min-width:2.3em;min-height:2.3em;padding:.2em;border-radius:50%;margin-bottom:.06em;" +
          "background:radial-gradient(closest-side,var(--tm-bg) calc(100% - .16em),transparent calc(100% - .15em)),conic-gradient(var(--tm-accent) calc(var(--p,0)*1turn),var(--tm-tint) 0)",
      };
    case "bar":
      return {
        digits:
          "padding-bottom:.14em;margin-bottom:.06em;background:linear-gradient(90deg,var(--tm-accent) calc(var(--p,0)*100%),var(--tm-tint) 0) bottom/100% .08em no-repeat",
      };
    default:
      return {};
  }
}

/**
 * The rules drawing `style`, each scoped under `.tm-s-<style>`: `digits` and `label` are the
 * selectors of a unit's digits and label in the caller's markup.
 */
export function styleShapeRules(style: string, digits: string, label: string): string[] {
  const shape = styleShape(style);
  const rules: string[] = [];
  if (shape.digits) rules.push(`.tm-s-${style} ${digits}{${shape.digits}}`);
  if (shape.label) rules.push(`.tm-s-${style} ${label}{${shape.label}}`);
  return rules;
}
