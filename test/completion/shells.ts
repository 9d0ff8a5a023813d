// Drive the generated completion scripts in real shells: bash through COMP_WORDS/COMP_CWORD and
// the completion function, zsh through a stub of compadd/_describe/compset (the completion
// system itself needs a terminal), fish through `complete -C`.
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureGlobalOptionsEverywhere } from "../../src/cmdutil/global-options.js";
import { buildProgram } from "../../src/cli.js";
import { generateCompletion, type CompletionShell } from "../../src/commands/completion/generate.js";
import { testContext } from "../helpers/context.js";
import { tempDir } from "../helpers/tmp.js";

export function hasShell(name: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${name}`]).status === 0;
}

const scripts = new Map<CompletionShell, string>();

/** The script generated from the live tree, written to a temp file. */
export function scriptFile(shell: CompletionShell): string {
  let file = scripts.get(shell);
  if (!file) {
    file = join(tempDir("mq-completion-"), `mq.${shell}`);
    writeFileSync(file, generateCompletion(shell, programWithGlobals()));
    scripts.set(shell, file);
  }
  return file;
}

const posix = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;

/**
 * COMPREPLY for the words as bash splits them (COMP_WORDBREAKS makes `--type=x` three words:
 * "--type", "=", "x"); the last word is the one being completed.
 */
export function bashComplete(words: string[]): string[] {
  const line = words.join(" ").replace(/ = ?/g, "=");
  const program = [
    `source ${posix(scriptFile("bash"))}`,
    `COMP_WORDS=(${words.map(posix).join(" ")})`,
    `COMP_CWORD=${words.length - 1}`,
    `COMP_LINE=${posix(line)}`,
    `COMP_POINT=${line.length}`,
    "_mq mq",
    `printf '%s\\n' "\${COMPREPLY[@]}"`,
  ].join("\n");
  const out = execFileSync("bash", ["--norc", "--noprofile", "-c", program], { encoding: "utf8" });
  return out.split("\n").filter((l) => l !== "");
}

const ZSH_STUBS = fileURLToPath(new URL("./zsh-stubs.zsh", import.meta.url));

/** The candidates zsh would be given for the words (the last one is being completed). */
export function zshComplete(words: string[]): string[] {
  const program = [
    `source ${posix(ZSH_STUBS)}`,
    `source ${posix(scriptFile("zsh"))}`,
    `words=(${words.map(posix).join(" ")})`,
    `CURRENT=${words.length}`,
    "PREFIX=$words[CURRENT]",
    "IPREFIX=",
    "_mq",
  ].join("\n");
  const out = execFileSync("zsh", ["-f", "-c", program], { encoding: "utf8" });
  return out.split("\n").filter((l) => l !== "");
}

/** What fish offers for the command line (without descriptions). */
export function fishComplete(line: string): string[] {
  const program = `source ${posix(scriptFile("fish"))}; complete -C ${posix(line)}`;
  const out = execFileSync("fish", ["--no-config", "-c", program], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.split("\t")[0]!);
}

/** the whole tree, as the completion command sees it (its flag modules load once, at import) */
const wholeTree = await buildProgram(testContext());

function programWithGlobals() {
  ensureGlobalOptionsEverywhere(wholeTree);
  return wholeTree;
}
