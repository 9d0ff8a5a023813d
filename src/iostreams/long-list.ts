// Long lists on a terminal, one rule for every command (mq logs, mq prs, mq queue, mq archive
// status): a screen of the newest or most relevant rows, then a line on stderr saying how many
// more there are and the flag that shows them. A pipe or a file gets every row.
import type { IOStreams } from "./iostreams.js";
import { formatCount } from "./human.js";

/** The rows a list shows on a terminal when no --limit (or --all) is given. */
export const SCREEN_ROWS = 30;

/** The rows to show: what --limit asked, else a screen on a terminal's table, else every row. */
export function screenLimit(io: Pick<IOStreams, "isStdoutTerminal">, limit: number | undefined, table: boolean): number | undefined {
  if (limit !== undefined) return limit;
  return table && io.isStdoutTerminal() ? SCREEN_ROWS : undefined;
}

/** What a table with no --limit prints after a screen of rows: -o table in a pipe is every row. */
export const ALL_ROWS_HINT = "-o table | less shows them all";

/**
 * A screen of ROWS on a terminal (stdout), with the line under them saying how many there are and
 * what shows the rest; every row, and no line, elsewhere or when they fit. SCREEN: the rows a
 * screen holds (SCREEN_ROWS for a table's rows).
 */
export function screenOf<T>(
  io: Pick<IOStreams, "isStdoutTerminal">,
  rows: readonly T[],
  what: string,
  how = ALL_ROWS_HINT,
  order = "first",
  screen = SCREEN_ROWS,
): { rows: readonly T[]; more?: string } {
  if (!io.isStdoutTerminal() || rows.length <= screen) return { rows };
  return { rows: rows.slice(0, screen), more: `${shownOf(screen, rows.length, what, order)}; ${how}` };
}

/** "the newest 30 of 2,366 queue stays" when rows were left out, else "2,366 queue stays". */
export function shownOf(shown: number, total: number, what: string, order = "newest"): string {
  const n = formatCount;
  return shown < total ? `the ${order} ${n(shown)} of ${n(total)} ${what}` : `${n(total)} ${what}`;
}
