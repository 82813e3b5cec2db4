// README, ARCHITECTURE, CONTRIBUTING, SECURITY, bench/README and the changelogs as pages.
import { repoPagesIn } from "../.vitepress/repo-pages.mts";

export default {
  watch: ["../../*.md", "../../bench/README.md", "../../packages/*/CHANGELOG.md"],
  paths: () => repoPagesIn("project"),
};
