// The home page's picture: a countdown to the next 1 January (UTC), ticking in the browser.
// The server renders dashes, so the static page never shows a stale time.
import { computed, defineComponent, h, onMounted, onUnmounted, ref } from "vue";

const LABELS = ["days", "hours", "minutes", "seconds"] as const;
const SIZES = [86_400, 3_600, 60, 1] as const;

/** Days, hours, minutes and seconds from `now` until the next 1 January, UTC. */
export function untilNewYear(now: number): string[] {
  const year = new Date(now).getUTCFullYear() + 1;
  let left = Math.max(0, Math.floor((Date.UTC(year, 0, 1) - now) / 1000));
  return SIZES.map((size, i) => {
    const n = Math.floor(left / size);
    left -= n * size;
    return String(n).padStart(i === 0 ? 3 : 2, "0");
  });
}

export default defineComponent({
  name: "HeroCountdown",
  setup() {
    const now = ref<number | null>(null);
    let timer: ReturnType<typeof setInterval> | undefined;
    onMounted(() => {
      now.value = Date.now();
      timer = setInterval(() => {
        now.value = Date.now();
      }, 1000);
    });
    onUnmounted(() => clearInterval(timer));
    const parts = computed(() =>
      now.value === null ? LABELS.map(() => "--") : untilNewYear(now.value),
    );
    return () =>
      h(
        "figure",
        { class: "hero-countdown", "aria-label": "A countdown to the next 1 January, UTC" },
        [
          h(
            "div",
            { class: "cells" },
            LABELS.map((label, i) =>
              h("div", { class: "cell", key: label }, [
                h("span", { class: "value" }, parts.value[i]),
                h("span", { class: "label" }, label),
              ]),
            ),
          ),
          h("figcaption", null, "until 1 January, UTC"),
        ],
      );
  },
});
