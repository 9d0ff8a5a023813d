// The fish script: one helper walks the command line to find the command path (cached per
// command line, since fish evaluates every condition), and `complete` lines describe the tree.
import { flagRules, HEADER_NOTE, mergeRules } from "./common.js";
import type { NodeSpec, OptionSpec } from "./model.js";

/** Single-quoted for fish (only \ and ' are special inside). */
function fq(word: string): string {
  if (/^[A-Za-z0-9_.,:/@%+=-]+$/.test(word)) return word;
  return `'${word.replace(/[\\']/g, "\\$&")}'`;
}

/** A list for `complete -a`, which fish expands: glob characters escaped. */
function candidates(words: readonly string[]): string {
  return fq(words.map((w) => w.replace(/[*?\\]/g, "\\$&")).join(" "));
}

export function fishScript(nodes: readonly NodeSpec[]): string {
  const out: string[] = [];
  out.push(
    "# fish completion for mq",
    `# ${HEADER_NOTE.replace("SHELL", "fish")}`,
    "# Install: save this file as ~/.config/fish/completions/mq.fish",
    "",
  );

  out.push(
    "# __mq_sub PATH WORD: the subcommand WORD names below PATH, if any",
    "function __mq_sub --argument-names path word",
    '    switch "$path|$word"',
  );
  for (const n of nodes) {
    if (n.subcommands.length === 0) continue;
    out.push(`        case ${n.subcommands.map((s) => fq(`${n.path}|${s.name}`)).join(" ")}`, "            echo $word");
    for (const s of n.subcommands) {
      if (s.aliases.length > 0)
        out.push(`        case ${s.aliases.map((a) => fq(`${n.path}|${a}`)).join(" ")}`, `            echo ${fq(s.name)}`);
    }
  }
  out.push("    end", "end", "");

  out.push(
    "# __mq_takes_value PATH FLAG: whether FLAG of PATH reads the next word as its value",
    "function __mq_takes_value --argument-names path flag",
    '    switch "$path|$flag"',
  );
  for (const group of mergeRules(flagRules(nodes, (o) => (o.takesValue ? true : undefined)))) {
    const pats = group.keys.flatMap((k) => (k.paths === "*" ? [fq(`*|${k.flag}`)] : k.paths.map((p) => fq(`${p}|${k.flag}`))));
    out.push(`        case ${pats.join(" ")}`, "            return 0");
  }
  out.push("    end", "    return 1", "end", "");

  out.push(MAIN, "");

  out.push("complete -c mq -f", "");
  out.push("# subcommands");
  for (const n of nodes) {
    for (const s of n.subcommands) {
      out.push(`complete -c mq -n ${fq(`__mq_arg "${n.path}" 0`)} -a ${fq(s.name)} -d ${fq(s.description)}`);
    }
  }
  out.push("", "# positional arguments");
  for (const n of nodes) {
    n.args.forEach((choices, i) => {
      if (choices.length > 0) out.push(`complete -c mq -n ${fq(`__mq_arg "${n.path}" ${i}`)} -a ${candidates(choices)}`);
    });
  }
  out.push("", "# flags");
  // one complete line per option (not per flag): group the options by their spec and the paths that have them
  const options = new Map<string, { option: OptionSpec; paths: string[] }>();
  for (const n of nodes) {
    for (const o of n.options) {
      const key = JSON.stringify(o);
      const entry = options.get(key) ?? { option: o, paths: [] };
      entry.paths.push(n.path);
      options.set(key, entry);
    }
  }
  for (const { option, paths } of options.values()) {
    const parts = ["complete -c mq"];
    if (paths.length < nodes.length) parts.push(`-n ${fq(`__mq_at ${paths.map((p) => `"${p}"`).join(" ")}`)}`);
    for (const f of option.flags) parts.push(f.startsWith("--") ? `-l ${fq(f.slice(2))}` : `-s ${fq(f.slice(1))}`);
    if (option.takesValue) parts.push(option.files ? "-r -F" : "-x");
    if (option.values.length > 0) parts.push(`-a ${candidates(option.values)}`);
    parts.push(`-d ${fq(option.description)}`);
    out.push(parts.join(" "));
  }
  return out.join("\n") + "\n";
}

const MAIN = String.raw`# __mq_state: the number of positional arguments and the command path (two lines), for the
# words before the cursor; cached, since fish evaluates every condition on each completion
function __mq_state
    set -l line (commandline -pc)
    if test "$line" = "$__mq_state_line"
        printf '%s\n' $__mq_state_value
        return
    end
    set -l path ''
    set -l skip 0
    set -l npos 0
    set -l dd 0
    for w in (commandline -opc)[2..-1]
        if test $skip = 1
            set skip 0
            continue
        end
        if test $dd = 0; and string match -q -- '-*' $w
            if test "$w" = --
                set dd 1
            else if not string match -q -- '*=*' $w; and __mq_takes_value "$path" $w
                set skip 1
            end
            continue
        end
        if test $npos = 0
            set -l sub (__mq_sub "$path" $w)
            if test -n "$sub"
                set path (string trim -- "$path $sub")
                continue
            end
        end
        set npos (math $npos + 1)
    end
    set -g __mq_state_line $line
    set -g __mq_state_value $npos "$path"
    printf '%s\n' $npos "$path"
end

# __mq_at PATH...: the command being typed is one of PATH...
function __mq_at
    set -l state (__mq_state)
    contains -- "$state[2]" $argv
end

# __mq_arg PATH N: the command being typed is PATH and N positional arguments precede the cursor
function __mq_arg --argument-names path n
    set -l state (__mq_state)
    test "$state[2]" = "$path" -a "$state[1]" = "$n"
end`;
