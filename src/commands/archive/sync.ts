// `mq archive sync`: copy the event log of one or more repositories into the archive, from where
// the last sync stopped (the first one from --since, default the 90 days the service keeps).
import { Command, Option } from "commander";
import type { Context, OutputFormat } from "../../context.js";
import { UsageError } from "../../errors.js";
import { parseTimeWindow, TIME_VALUE_HELP } from "../../cmdutil/time.js";
import { resolveOutputFormat } from "../../cmdutil/output.js";
import { parseIntFlag } from "../../cmdutil/lists.js";
import { DEFAULT_PARALLEL, MAX_PARALLEL } from "../../api/slice-limits.js";
import { checkDataDir, checkRepositories, dataDirOption } from "./shared.js";

export interface ArchiveSyncOptions {
  /** owner/name; empty: the repository in effect (--repo, MQ_REPO, git remote, config) */
  repositories: string[];
  since?: Date;
  until?: Date;
  dataDir?: string;
  /** requests in flight (parallel time slices, several days at once) */
  parallel: number;
  format: OutputFormat;
}

interface RawFlags {
  since?: string;
  until?: string;
  dataDir?: string;
  parallel?: string;
}

export const SYNC_COLUMNS = ["repository", "added", "already_archived", "pages", "from", "to", "total"];

export function NewCmdArchiveSync(ctx: Context, runF: (opts: ArchiveSyncOptions) => Promise<void>): Command {
  return new Command("sync")
    .description("copy the event log into the archive, from where the last sync stopped; safe to interrupt and run again")
    .argument("[repos...]", "owner/name of each repository (default: --repo, $MQ_REPO, the git remote or the config)")
    .addOption(new Option("--since <time>", `start of the first sync: ${TIME_VALUE_HELP} (default: 90d, as far back as the service keeps)`))
    .addOption(new Option("--until <time>", "end of the window, covered up to it (default: 5 minutes ago, the settling delay)"))
    .addOption(
      new Option(
        "--parallel <n>",
        `requests in flight: several days at once, and parallel time slices within a day: 1 to ${MAX_PARALLEL}, 1 for one page after another (default ${DEFAULT_PARALLEL})`,
      ),
    )
    .addOption(dataDirOption())
    .action(async (repos: string[], flags: RawFlags) => {
      const opts = await parseArchiveSyncFlags(repos, flags, ctx);
      await runF(opts);
    });
}

export async function parseArchiveSyncFlags(repos: string[], flags: RawFlags, ctx: Context): Promise<ArchiveSyncOptions> {
  const repositories = await checkRepositories(repos, "repository");
  if (repositories.length > 0 && ctx.globals.repo !== undefined) {
    throw new UsageError("give the repositories either as arguments or with --repo, not both.");
  }
  const { since, until } = parseTimeWindow({ since: flags.since, until: flags.until }, ctx.now());
  if (until && until.getTime() > ctx.now().getTime())
    throw new UsageError("--until is in the future: the archive holds what has happened.");
  const parallel = flags.parallel === undefined ? DEFAULT_PARALLEL : parseIntFlag("--parallel", flags.parallel, 1, MAX_PARALLEL);
  return { repositories, since, until, dataDir: checkDataDir(flags.dataDir), parallel, format: resolveOutputFormat(ctx) };
}
