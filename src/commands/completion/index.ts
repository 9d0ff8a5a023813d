// `mq completion bash|zsh|fish`: print a completion script generated from the live command tree.
// The scripts hold static data (no call back into node at completion time), so they are instant;
// the generators (run.ts) load only when this command runs.
import { Argument, Command } from "commander";
import type { Context } from "../../context.js";
import { ensureGlobalOptionsEverywhere } from "../../cmdutil/global-options.js";
import { describeCommand } from "../../cmdutil/top-commands.js";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

export interface CompletionOptions {
  shell: Shell;
  /** the root of the tree to describe */
  root: Command;
}

export function NewCmdCompletion(_ctx: Context, runF: (opts: CompletionOptions) => Promise<void>): Command {
  return new Command("completion")
    .description(describeCommand("completion"))
    .addArgument(new Argument("<shell>", "the shell to complete for").choices(SHELLS))
    .addHelpText(
      "after",
      "\nInstall:\n  bash  source <(mq completion bash) in ~/.bashrc, or save it as ~/.local/share/bash-completion/completions/mq\n  zsh   save it as _mq in a folder on $fpath, then restart zsh (compinit)\n  fish  save it as ~/.config/fish/completions/mq.fish",
    )
    .action(async (shell: Shell, _flags: unknown, cmd: Command) => {
      let root = cmd;
      while (root.parent) root = root.parent;
      // the CLI adds global options only along the path it runs; the scripts describe every command
      ensureGlobalOptionsEverywhere(root);
      await runF({ shell, root });
    });
}
