// `mq config get|set|unset|list`: the settings in the config file. Tokens live in the same file
// but are managed by `mq auth` and never listed here.
import { Command } from "commander";
import type { Context } from "../../context.js";
import { UsageError } from "../../errors.js";
// light: plain data, no conf
import { CONFIG_KEY_HELP } from "../../config/keys.js";

export type ConfigAction = "get" | "set" | "unset" | "list";

export interface ConfigOptions {
  action: ConfigAction;
  key?: string;
  value?: string;
}

export function NewCmdConfig(ctx: Context, runF?: (opts: ConfigOptions) => Promise<void>): Command {
  const run = (opts: ConfigOptions) => (runF ?? ((o) => runConfig(o, ctx)))(opts);
  return new Command("config")
    .description("read and change settings: api-url, repo, output, color, timeout")
    .addHelpText(
      "after",
      "\nKeys:\n  api-url   API base URL without /v1 (default https://api.mergify.com)\n  repo      default repository, owner/name\n  output    table, json, ndjson or csv\n  color     auto, always or never\n  timeout   request timeout in seconds (default 30)",
    )
    .addCommand(
      new Command("get")
        .description("print the value of a key (nothing when unset)")
        .argument("<key>", "api-url, repo, output, color or timeout")
        .action((key: string) => run({ action: "get", key })),
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
        .action((key: string, value: string) => run({ action: "set", key, value })),
    )
    .addCommand(
      new Command("unset")
        .description("remove a key")
        .argument("<key>", "api-url, repo, output, color or timeout")
        .action((key: string) => run({ action: "unset", key })),
    )
    .addCommand(
      new Command("list")
        .description("print every key that is set, as key=value (tokens are never shown)")
        .action(() => run({ action: "list" })),
    );
}

export async function runConfig(opts: ConfigOptions, ctx: Context): Promise<void> {
  const { CONFIG_KEYS, isConfigKey, checkConfigValue } = await import("../../config/keys.js");
  const out = ctx.io.stdout;
  if (opts.action === "list") {
    const values = (await ctx.config()).list();
    const { exportAll } = await import("../../output/exporter.js");
    const settings = CONFIG_KEYS.filter((key) => values[key] !== undefined).map((key) => ({ key, value: values[key] }));
    // settings are key=value lines in every format but json, which gets the file's object
    await exportAll(
      ctx.globals.output === "json" ? "json" : "table",
      ctx.io,
      {
        document: () => values,
        table: () => ({
          async write(items) {
            for (const { key, value } of items) out.write(`${key}=${value}\n`);
          },
          async end() {},
        }),
      },
      () => settings,
    );
    return;
  }
  const key = opts.key ?? "";
  if (/^(token|tokens)$/i.test(key)) {
    // never echo a value given here: it is probably a token
    throw new UsageError("tokens are not config keys", "use mq auth login --with-token to store one, mq auth token to print it");
  }
  if (!isConfigKey(key)) throw new UsageError(`unknown config key '${key}': allowed keys are ${CONFIG_KEYS.join(", ")}`);
  if (opts.action === "set") {
    const checked = checkConfigValue(key, opts.value ?? "");
    if (!checked.ok) throw new UsageError(`bad value for ${key}: ${checked.message}`);
    (await ctx.config()).set(key, checked.value);
    return;
  }
  const config = await ctx.config();
  if (opts.action === "unset") config.unset(key);
  else {
    const value = config.get(key);
    if (value !== undefined) out.write(`${value}\n`);
  }
}
