// What the completion scripts know, read from the live commander tree: every visible command
// (with its aliases), every visible option (with its flags, whether it takes a value, and its
// values when they come from a known set), and the choices of positional arguments. The shell
// generators only print this model, so a flag added to a command shows up in completion once
// the scripts are regenerated (`npm run completions`).
import type { Command, Option } from "commander";
import { ARGUMENT_VALUES, OPTION_VALUES } from "./values.js";

export interface OptionSpec {
  /** as typed: "-o", "--output" */
  readonly flags: readonly string[];
  readonly takesValue: boolean;
  /** the values to offer after the flag; empty when the value is open */
  readonly values: readonly string[];
  /** the value is a file name */
  readonly files: boolean;
  /** the value may be a comma-separated list: complete after the last comma */
  readonly commaList: boolean;
  readonly description: string;
}

export interface SubcommandSpec {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly description: string;
}

export interface NodeSpec {
  /** the command path below mq: "" for mq itself, "stats failure-rate" */
  readonly path: string;
  readonly description: string;
  readonly subcommands: readonly SubcommandSpec[];
  readonly options: readonly OptionSpec[];
  /** the values to offer for each positional argument (empty: open) */
  readonly args: ReadonlyArray<readonly string[]>;
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function optionSpec(option: Option): OptionSpec {
  const flags = [option.short, option.long].filter((f): f is string => Boolean(f));
  const takesValue = option.required || option.optional;
  const known = option.long ? OPTION_VALUES[option.long] : undefined;
  const values = takesValue ? (option.argChoices ?? known?.values ?? []) : [];
  return {
    flags,
    takesValue,
    values,
    files: takesValue && values.length === 0 && /<[^>]*(file|path|dir)[^>]*>|\[[^\]]*(file|path|dir)[^\]]*\]/i.test(option.flags),
    commaList: takesValue && Boolean(known?.commaList),
    description: oneLine(option.description ?? ""),
  };
}

function visibleSubcommands(cmd: Command): Command[] {
  // visibleCommands also lists commander's implicit `help` command; only real ones are walked
  const visible = new Set(cmd.createHelp().visibleCommands(cmd));
  return cmd.commands.filter((c) => visible.has(c));
}

/** Every command of the tree, parents before children, in the order commander lists them. */
export function buildModel(root: Command): NodeSpec[] {
  const nodes: NodeSpec[] = [];
  const visit = (cmd: Command, path: string): void => {
    const subs = visibleSubcommands(cmd);
    nodes.push({
      path,
      description: oneLine(cmd.description()),
      subcommands: subs.map((s) => ({ name: s.name(), aliases: s.aliases(), description: oneLine(s.description()) })),
      options: cmd.createHelp().visibleOptions(cmd).map(optionSpec),
      args: cmd.registeredArguments.map((a, i) => a.argChoices ?? ARGUMENT_VALUES[path]?.[i] ?? []),
    });
    for (const sub of subs) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(root, "");
  return mirrorHelpCommand(nodes);
}

/** `mq help <command...>` completes the command tree itself: "help stats" offers the stats subcommands. */
function mirrorHelpCommand(nodes: NodeSpec[]): NodeSpec[] {
  const help = nodes.find((n) => n.path === "help");
  if (!help || help.subcommands.length > 0) return nodes;
  const described = nodes.filter((n) => n.path !== "help" && !n.path.startsWith("help "));
  const mirrored = described.map(
    (n): NodeSpec => ({
      path: n.path === "" ? "help" : `help ${n.path}`,
      description: n.path === "" ? help.description : n.description,
      subcommands: n.path === "" ? n.subcommands.filter((s) => s.name !== "help") : n.subcommands,
      options: help.options,
      args: [],
    }),
  );
  return [...nodes.filter((n) => n.path !== "help"), ...mirrored];
}
