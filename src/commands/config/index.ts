// `mq config get|set|unset|list`: the settings in the config file. Tokens live in the same file
// but are managed by `mq auth` and never listed here.
import { Command } from "commander";
import type { Context } from "../../context.js";
// light: plain data, no conf
import { CONFIG_KEY_HELP } from "../../config/keys.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

export type ConfigAction = "get" | "set" | "unset" | "list";

export interface ConfigOptions {
  action: ConfigAction;
  key?: string;
  value?: string;
}

export function NewCmdConfig(_ctx: Context, runF: (opts: ConfigOptions) => Promise<void>): Command {
  return new Command("config")
    .description(describeCommand("config"))
    .addHelpText(
      "after",
      "\nKeys:\n  api-url   API base URL without /v1 (default https://api.mergify.com)\n  repo      default repository, owner/name\n  output    table, json, ndjson or csv\n  color     auto, always or never\n  timeout   request timeout in seconds (default 30)",
    )
    .addCommand(
      new Command("get")
        .description("print the value of a key (nothing when unset)")
        .argument("<key>", "api-url, repo, output, color or timeout")
        .action((key: string) => runF({ action: "get", key })),
    )
    .addCommand(
      new Command("set")
        .description("set a key; the value is checked first")
        .argument("<key>", "api-url, repo, output, color or timeout")
        .argument("<value>", "the new value, checked against what the key takes (below)")
        .addHelpText(
          "after",
          `\nValues:\n${Object.entries(CONFIG_KEY_HELP)
            .map(([k, v]) => `  ${k.padEnd(9)}${v}`)
            .join("\n")}`,
        )
        .action((key: string, value: string) => runF({ action: "set", key, value })),
    )
    .addCommand(
      new Command("unset")
        .description("remove a key")
        .argument("<key>", "api-url, repo, output, color or timeout")
        .action((key: string) => runF({ action: "unset", key })),
    )
    .addCommand(
      new Command("list")
        .description("print every key that is set, as key=value (tokens are never shown)")
        .action(() => runF({ action: "list" })),
    );
}
