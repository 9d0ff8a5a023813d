// `mq help [command...]`'s run: a topic's text, cut to the screen, or the help of the command the
// names lead to (commander's unknown-command error, with the closest name, when they lead nowhere).
// Loaded when the help command runs (cli.ts's RUN table); its flags are part of the tree cli.ts
// builds (newHelpCommand), which `mq --help` lists.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { ensureGlobalOptions } from "../../cmdutil/global-options.js";
import { closestMatches } from "../../closest.js";
import { HELP_TOPICS } from "../../help/topics.js";
import { SCREEN_ROWS, screenOf } from "../../iostreams/long-list.js";
import { fitHelpText } from "../../output/help-text.js";

export function runHelp(names: readonly string[], program: Command, ctx: Context): void {
  const topic = names.length === 1 && Object.hasOwn(HELP_TOPICS, names[0]!) ? HELP_TOPICS[names[0]!] : undefined;
  if (topic !== undefined) {
    // a topic longer than the screen is cut as the long lists are (iostreams/long-list.ts): the
    // lines the terminal holds (30 at least), and a line on stderr saying how many there are and
    // what shows them all
    const lines = topic(ctx.io.tableWidth()).trimEnd().split("\n");
    const screen = Math.max(SCREEN_ROWS, (ctx.io.height() ?? 0) - 2);
    const { rows, more } = screenOf(ctx.io, lines, "lines", `mq help ${names[0]} | less shows them all`, "first", screen);
    ctx.io.writeText(`${rows.join("\n")}\n`);
    if (more !== undefined) ctx.io.stderr.write(`${fitHelpText(more, ctx.io.messageWidth() ?? 0)}\n`);
    return;
  }
  let target = program;
  for (const name of names) {
    const sub = target.commands.find((c) => c.name() === name || c.aliases().includes(name));
    target = sub ?? unknownCommand(target, name, target === program ? Object.keys(HELP_TOPICS) : []);
  }
  ensureGlobalOptions(target).help();
}

/** commander's own unknown-command error (one line via outputError), with the closest name. */
function unknownCommand(parent: Command, name: string, topics: readonly string[]): never {
  const known = [...parent.commands.flatMap((c) => [c.name(), ...c.aliases()]), ...topics];
  const [best] = closestMatches(name, known, 1);
  return parent.error(`error: unknown command '${name}'${best ? `\n(Did you mean ${best}?)` : ""}`, {
    code: "commander.unknownCommand",
  });
}
