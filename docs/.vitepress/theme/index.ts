// The default theme, plus the HTTP API reference component, the home page's countdown and a
// few styles of our own.
import type { Theme } from "vitepress";
import DefaultTheme from "vitepress/theme";
import { h } from "vue";
import HttpApiReference from "./HttpApiReference.vue";
import HeroCountdown from "./hero-countdown";
import "./custom.css";

export default {
  extends: DefaultTheme,
  Layout: () => h(DefaultTheme.Layout, null, { "home-hero-image": () => h(HeroCountdown) }),
  enhanceApp({ app }) {
    app.component("HttpApiReference", HttpApiReference);
  },
} satisfies Theme;
