// Flags and checks the archive subcommands share.
import { Option } from "commander";
import { UsageError } from "../../errors.js";
import { checkRepoArgument } from "../../validators.js";

export const DATA_DIR_HELP = "the archive's folder (default: $MQ_DATA_DIR, else $XDG_DATA_HOME/mq, else ~/.local/share/mq)";

export function dataDirOption(): Option {
  return new Option("--data-dir <dir>", DATA_DIR_HELP);
}

export function checkDataDir(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === "") throw new UsageError("--data-dir is empty: give a folder, or leave it out for the default.");
  return value;
}

/** owner/name values given as arguments, checked like --repo. */
export async function checkRepositories(values: readonly string[], what: string): Promise<string[]> {
  const out: string[] = [];
  for (const raw of values) {
    const checked = checkRepoArgument(raw.trim());
    if (!checked.ok) throw new UsageError(`${what}: ${checked.message}.`);
    const name = `${checked.value.owner}/${checked.value.name}`;
    if (!out.some((r) => r.toLowerCase() === name.toLowerCase())) out.push(name);
  }
  return out;
}
