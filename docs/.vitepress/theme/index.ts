// The default theme, plus the HTTP API reference component and a few styles of our own.
import type { Theme } from "vitepress";
import DefaultTheme from "vitepress/theme";
import HttpApiReference from "./HttpApiReference.vue";
import "./custom.css";

export default {
  extends: DefaultTheme,
  enhanceApp({ app }) {
    app.component("HttpApiReference", HttpApiReference);
  },
} satisfies Theme;
