// `mq config`'s run: read, check and write the settings of the config file. Loaded when `mq config`
// runs (cli.ts).
import type { Context } from "../../context.js";
import { UsageError } from "../../errors.js";
import { CONFIG_KEYS, checkConfigValue, isConfigKey } from "../../config/keys.js";
import { exportAll } from "../../output/exporter.js";
import type { ConfigOptions } from "./index.js";

export async function runConfig(opts: ConfigOptions, ctx: Context): Promise<void> {
  const out = ctx.io.stdout;
  if (opts.action === "list") {
    const values = (await ctx.config()).list();
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
