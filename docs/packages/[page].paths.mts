// Each package's README as a page.
import { repoPagesIn } from "../.vitepress/repo-pages.mts";

export default {
  watch: ["../../packages/*/README.md"],
  paths: () => repoPagesIn("packages"),
};
