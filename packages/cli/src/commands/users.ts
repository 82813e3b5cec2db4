import type { PasswordLink } from "@tminus/admin";
import type { Command } from "commander";
import { DB_OPTION_HELP } from "../options";
import { printResult } from "../output";
import { withAdmin } from "./keys";
import { DEFAULT_HOST, DEFAULT_PORT } from "./serve";

function linkText(link: PasswordLink): string {
  const where = link.url ?? link.path;
  // Absolute when the base URL is known (the config's base_url or --base-url); else the path,
  // with where `tminus serve` answers by default.
  const note = link.url
    ? ""
    : `  (relative: open it on the server's base URL, e.g. http://${DEFAULT_HOST}:${DEFAULT_PORT}` +
      `${link.path.split("?")[0]}?..., or pass --base-url or set base_url in --config)\n`;
  return `One-time link to set the password (expires ${link.expires_at}):\n  ${where}\n${note}`;
}

/** `tminus users create|link|list`: dashboard users of an account. */
export function registerUsers(program: Command): void {
  const users = program
    .command("users")
    .description("dashboard users: create them and hand out set-password links");
  const common = (cmd: Command) =>
    cmd
      .option("--db <file-or-url>", DB_OPTION_HELP)
      .option("--config <file>", "JSON config file (dashboard path, link lifetime)")
      .option("--base-url <url>", "public URL of the service, to print a full link");

  common(
    users
      .command("create")
      .description("add a user to an account; prints a one-time link to set the password")
      .requiredOption("--account <name>", "account the user belongs to")
      .requiredOption("--email <email>", "the user's email (their sign-in name)")
      .option("--role <role>", "owner (everything) or member (timers and usage)", "member")
      .option("--json", "print one JSON object"),
  ).action(async (opts) => {
    const made = await withAdmin(opts, (admin) =>
      admin.createUser({ account: opts.account, email: opts.email, role: opts.role }),
    );
    printResult(
      opts.json,
      made,
      ({ user, link }) =>
        `Created ${user.role} ${user.email} in account "${user.account}".\n${linkText(link)}`,
    );
  });

  common(
    users
      .command("link")
      .description("a new one-time set-password link for a user (forgotten password)")
      .requiredOption("--email <email>", "the user's email")
      .option("--json", "print one JSON object"),
  ).action(async (opts) => {
    const made = await withAdmin(opts, (admin) => admin.passwordLink(opts.email));
    printResult(opts.json, made, ({ user, link }) => `For ${user.email}:\n${linkText(link)}`);
  });

  common(
    users
      .command("list")
      .description("list an account's dashboard users")
      .requiredOption("--account <name>", "the account")
      .option("--json", "print a JSON array"),
  ).action(async (opts) => {
    const list = await withAdmin(opts, (admin) => admin.listUsers(opts.account));
    printResult(opts.json, list, (users) =>
      users.length === 0
        ? "no users\n"
        : users
            .map(
              (u) =>
                `${u.email}  ${u.role}  ${u.has_password ? "password set" : "link not used yet"}\n`,
            )
            .join(""),
    );
  });
}
