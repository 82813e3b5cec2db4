// Packs every package as it would be published (`pnpm pack`: `workspace:` versions become
// real ones), into a folder: `node scripts/pack-packages.mjs [dest]`, default `packed/`.
// Until the packages are on the registry, `npm install packed/*.tgz` installs them.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));

/** Packs every package under packages/ into `dest` (emptied first); returns the tarballs. */
export function packPackages(dest) {
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  execFileSync(
    "npx",
    ["-y", "pnpm@10", "-r", "--filter", "./packages/*", "pack", "--pack-destination", dest],
    { cwd: root, stdio: ["ignore", "ignore", "inherit"] },
  );
  return readdirSync(dest)
    .filter((name) => name.endsWith(".tgz"))
    .map((name) => join(dest, name));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dest = resolve(process.argv[2] ?? join(root, "packed"));
  for (const tarball of packPackages(dest)) console.log(tarball);
}
