// Help text fitted to the terminal. commander wraps an option's description only while 40 columns
// (mq asks 20) remain beside the flags, and never the text mq adds after the options (event types,
// numeric fields, exit codes, notes): at 60 columns those ran past the edge and the terminal broke
// them mid-word. Here each line still too wide is broken between words, its continuation lines
// indented under its description column (two-column lists) or two spaces in (prose). Examples are
// commands to copy and are left whole. No dependencies: `mq --help` must stay cheap to load.

const EXAMPLE = /^\s*\$ /;
// "  term   description": the description's column, when the gap comes early enough to leave room
const TWO_COLUMNS = /^(\s*\S(?:\S| (?! ))*\s{2,})\S/;

export function fitHelpText(text: string, width: number): string {
  return text
    .split("\n")
    .map((line) => (width <= 0 || fits(line, width) || EXAMPLE.test(line) ? line : wrapHelpLine(line, width)))
    .join("\n");
}

function wrapHelpLine(line: string, width: number): string {
  const lead = /^ */.exec(line)![0].length;
  const column = TWO_COLUMNS.exec(line)?.[1]!.length;
  const hang = column !== undefined && width - column >= 16 ? column : lead + 2;
  const indent = " ".repeat(hang);
  const out: string[] = [];
  let current = "";
  let first = true;
  // words with the spaces before them, so the gap of a two-column line is kept as it is
  for (const [, gap, word] of line.matchAll(/( *)(\S+)/g)) {
    const candidate = current + (current === "" && !first ? "" : gap!) + word;
    if (current !== "" && !fits(candidate, width) && current.trim() !== "") {
      out.push(current);
      current = indent + word;
      first = false;
    } else current = current === "" && !first ? indent + word : candidate;
  }
  out.push(current);
  return out.join("\n");
}

/**
 * TEXT is at most WIDTH characters (code points). Its length in UTF-16 units is never less, so most
 * lines are decided by it alone, without spreading them into an array of characters: that was
 * ~80 KB of garbage of every `mq --help`, a tenth of what its start allocates.
 */
function fits(text: string, width: number): boolean {
  return text.length <= width || [...text].length <= width;
}
