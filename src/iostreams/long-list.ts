// Long lists on a terminal, one rule for every command (mq logs, mq prs, mq queue, mq archive
// status): a screen of the newest or most relevant rows, then a line on stderr saying how many
// more there are and the flag that shows them. A pipe or a file gets every row.
import type { IOStreams } from "./iostreams.js";

/** The rows a list shows on a terminal when no --limit (or --all) is given. */
export const SCREEN_ROWS = 30;

/** The rows to show: what --limit asked, else a screen on a terminal's table, else every row. */
export function screenLimit(io: Pick<IOStreams, "isStdoutTerminal">, limit: number | undefined, table: boolean): number | undefined {
  if (limit !== undefined) return limit;
  return table && io.isStdoutTerminal() ? SCREEN_ROWS : undefined;
}

/** "the newest 30 of 2,366 queue stays" when rows were left out, else "2,366 queue stays". */
export function shownOf(shown: number, total: number, what: string, order = "newest"): string {
  const n = (k: number) => k.toLocaleString("en-US");
  return shown < total ? `the ${order} ${n(shown)} of ${n(total)} ${what}` : `${n(total)} ${what}`;
}
