// `mq completion SHELL`: the model of the live tree, printed as that shell's script.
import type { Command } from "commander";
import { bashScript } from "./bash.js";
import { fishScript } from "./fish.js";
import { buildModel } from "./model.js";
import { zshScript } from "./zsh.js";

export type CompletionShell = "bash" | "zsh" | "fish";

export function generateCompletion(shell: CompletionShell, root: Command): string {
  const nodes = buildModel(root);
  if (shell === "bash") return bashScript(nodes);
  if (shell === "zsh") return zshScript(nodes);
  return fishScript(nodes);
}

export { buildModel };
