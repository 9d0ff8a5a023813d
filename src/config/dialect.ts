// Which dialect mq speaks, resolved from the command line, the environment, the config file and the
// API URL. Apart from config/resolve.ts: it reads the dialect tables (both descriptions of the API),
// which a run that never looks at the dialect (help, auth status, config) does not load.
import { DIALECTS, dialectForUrl, isDialectName, DIALECT_NAMES, type Dialect } from "../api/dialects/index.js";
import { UsageError } from "../errors.js";
import { nonEmpty, resolveApiUrl, type ConfigSources } from "./resolve.js";

export interface DialectChoice {
  dialect: Dialect;
  /** "--dialect", "MQ_DIALECT", "config", "API URL", "--offline" */
  source: string;
}

/**
 * Which side of the API mq speaks: --dialect, else MQ_DIALECT, else the config key `dialect`, else
 * the API URL's (the real service's host speaks mergify; any other URL, the bundled server's
 * included, speaks the contract). With --offline and nothing forced, the bundled server speaks the
 * contract, its default.
 */
export async function resolveDialect(ctx: ConfigSources): Promise<DialectChoice> {
  if (ctx.globals.dialect !== undefined) return { dialect: DIALECTS[ctx.globals.dialect], source: "--dialect" };
  const env = nonEmpty(ctx.env.MQ_DIALECT);
  if (env !== undefined) {
    if (!isDialectName(env)) throw new UsageError(`MQ_DIALECT: '${env}' is not allowed; allowed values: ${DIALECT_NAMES.join(", ")}`);
    return { dialect: DIALECTS[env], source: "MQ_DIALECT" };
  }
  const fromConfig = (await ctx.config()).get("dialect");
  if (fromConfig !== undefined && isDialectName(fromConfig)) return { dialect: DIALECTS[fromConfig], source: "config" };
  if (ctx.globals.offline) return { dialect: DIALECTS.spec, source: "--offline" };
  const api = await resolveApiUrl(ctx);
  return { dialect: DIALECTS[dialectForUrl(api.url)], source: `API URL ${api.url}` };
}
