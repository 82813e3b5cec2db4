// The README's commands that scripts run as written: a fenced `sh` block right after an
// HTML comment `<!-- check:packages NAME -->`.

/**
 * The commands of the block named `name`: one per line, comments and blank lines dropped,
 * backslash continuations joined into one command. Null when the README has no such block.
 */
export function readmeBlock(text, name) {
  const marker = `<!-- check:packages ${name} -->`;
  const at = text.indexOf(marker);
  if (at === -1) return null;
  const fence = /^\s*```sh\n([\s\S]*?)^```/m.exec(text.slice(at + marker.length));
  if (fence === null) return null;
  const commands = [];
  let pending = "";
  for (const raw of fence[1].split("\n")) {
    const line = raw.replace(/\s+#.*$/, "").replace(/^#.*$/, "");
    if (line.trim() === "" && pending === "") continue;
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    commands.push((pending + line.trim()).trim());
    pending = "";
  }
  return commands.filter((c) => c !== "");
}
