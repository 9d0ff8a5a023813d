// The bash script: data as case statements (no associative arrays, so bash 3.2 on macOS works),
// and one function that walks the words typed so far to find the command, then offers its
// subcommands, its flags, a flag's values or a positional argument's values.
import { arrayAssign, casePatterns, flagRules, HEADER_NOTE, mergeRules, shq, splitCommonOptions, subcommandCases } from "./common.js";
import type { NodeSpec } from "./model.js";

type ValueRule = { values: readonly string[]; kind: "" | "files" | "list" };

export function bashScript(nodes: readonly NodeSpec[]): string {
  const out: string[] = [];
  out.push(
    "# bash completion for mq",
    `# ${HEADER_NOTE.replace("SHELL", "bash")}`,
    "# Install: add `source <(mq completion bash)` to ~/.bashrc, or save this file as",
    "# ~/.local/share/bash-completion/completions/mq (or /etc/bash_completion.d/mq).",
    "",
  );

  out.push("# __mq_sub PATH WORD: the subcommand WORD names below PATH, in __mq_s (empty if none)", "__mq_sub() {", '  case "$1|$2" in');
  for (const c of subcommandCases(nodes)) out.push(`    ${c.pattern}) __mq_s=${c.name === null ? "$2" : shq(c.name)} ;;`);
  out.push("    *) __mq_s= ;;", "  esac", "}", "");

  out.push("# __mq_subs PATH: the subcommands of PATH, in __mq_r", "__mq_subs() {", '  case "$1" in');
  for (const n of nodes) {
    if (n.subcommands.length > 0)
      out.push(
        `    ${shq(n.path)}) ${arrayAssign(
          "__mq_r",
          n.subcommands.map((s) => s.name),
          "    ",
        )} ;;`,
      );
  }
  out.push("    *) __mq_r=() ;;", "  esac", "}", "");

  const { common, own } = splitCommonOptions(nodes);
  out.push("# __mq_flags PATH: the flags of PATH (its own, then the global ones), in __mq_r", "__mq_flags() {", '  case "$1" in');
  for (const n of nodes) {
    out.push(
      `    ${shq(n.path)}) ${arrayAssign(
        "__mq_r",
        own(n).flatMap((o) => o.flags),
        "    ",
      )} ;;`,
    );
  }
  out.push(
    "    *) __mq_r=() ;;",
    "  esac",
    `  ${arrayAssign(
      "__mq_r+",
      common.flatMap((o) => o.flags),
      "  ",
    )}`,
    "}",
    "",
  );

  out.push(
    "# __mq_takes_value PATH FLAG: whether FLAG of PATH reads the next word as its value",
    "__mq_takes_value() {",
    '  case "$1|$2" in',
  );
  const takes = mergeRules(flagRules(nodes, (o) => (o.takesValue ? true : undefined)));
  for (const group of takes) out.push(`    ${casePatterns(group.keys)}) return 0 ;;`);
  out.push("  esac", "  return 1", "}", "");

  out.push(
    "# __mq_values PATH FLAG: the values of FLAG of PATH, in __mq_r; __mq_kind is files (complete",
    "# file names) or list (comma-separated values)",
    "__mq_values() {",
    "  __mq_kind=",
    '  case "$1|$2" in',
  );
  const values = mergeRules(
    flagRules<ValueRule>(nodes, (o) =>
      o.values.length > 0 || o.files ? { values: o.values, kind: o.files ? "files" : o.commaList ? "list" : "" } : undefined,
    ),
  );
  for (const group of values) {
    const kind = group.value.kind ? `; __mq_kind=${group.value.kind}` : "";
    out.push(`    ${casePatterns(group.keys)}) ${arrayAssign("__mq_r", group.value.values, "    ")}${kind} ;;`);
  }
  out.push("    *) __mq_r=() ;;", "  esac", "}", "");

  out.push("# __mq_args PATH N: the values of the Nth positional argument of PATH, in __mq_r", "__mq_args() {", '  case "$1|$2" in');
  for (const n of nodes) {
    n.args.forEach((choices, i) => {
      if (choices.length > 0) out.push(`    ${shq(`${n.path}|${i}`)}) ${arrayAssign("__mq_r", choices, "    ")} ;;`);
    });
  }
  out.push("    *) __mq_r=() ;;", "  esac", "}", "");

  out.push(MAIN);
  return out.join("\n") + "\n";
}

// "%{" stands for "${" (which a template literal would interpolate)
const MAIN = String.raw`# __mq_add HEAD PREFIX: COMPREPLY gets HEAD+word for each word of __mq_r that starts with PREFIX;
# a * is escaped so that the shell does not expand a family glob such as action.queue.*
__mq_add() {
  local w
  for w in "%{__mq_r[@]}"; do
    [[ $w == "$2"* ]] || continue
    w=$1$w
    COMPREPLY+=("%{w//\*/\\*}")
  done
}

_mq() {
  local cur w i j path= flag= prefix head= skip=0 npos=0 dd=0 merge=0 __mq_s= __mq_kind=
  local -a words=() __mq_r=()
  # COMP_WORDBREAKS splits --flag=value into three words: join them back
  for ((j = 0; j <= COMP_CWORD; j++)); do
    w=%{COMP_WORDS[j]}
    if ((merge)); then
      words[%{#words[@]} - 1]+=$w
      merge=0
    elif [[ $w == "=" && %{#words[@]} -gt 1 && %{words[%{#words[@]} - 1]} == -* ]]; then
      words[%{#words[@]} - 1]+="="
      merge=1
    else
      words+=("$w")
    fi
  done
  cur=%{words[%{#words[@]} - 1]}

  # the command path: subcommand names, skipping flags and the values they read
  for ((i = 1; i < %{#words[@]} - 1; i++)); do
    w=%{words[i]}
    if ((skip)); then
      skip=0
      continue
    fi
    if ((!dd)) && [[ $w == -* ]]; then
      if [[ $w == -- ]]; then
        dd=1
      elif [[ $w != *=* ]] && __mq_takes_value "$path" "$w"; then
        skip=1
      fi
      continue
    fi
    if ((npos == 0)); then
      __mq_sub "$path" "$w"
      if [[ -n $__mq_s ]]; then
        path=%{path:+$path }$__mq_s
        continue
      fi
    fi
    npos=$((npos + 1))
  done

  COMPREPLY=()
  prefix=$cur
  if ((skip)); then
    flag=%{words[%{#words[@]} - 2]}
  elif ((!dd)) && [[ $cur == -*=* ]]; then
    flag=%{cur%%=*}
    prefix=%{cur#*=}
  fi
  if [[ -n $flag ]]; then
    __mq_values "$path" "$flag"
    if [[ $__mq_kind == files ]]; then
      while IFS= read -r w; do COMPREPLY+=("$w"); done < <(compgen -f -- "$prefix")
      return 0
    fi
    if [[ $__mq_kind == list && $prefix == *,* ]]; then
      head=%{prefix%,*},
      prefix=%{prefix##*,}
    fi
    __mq_add "$head" "$prefix"
    return 0
  fi
  if ((!dd)) && [[ $cur == -* ]]; then
    __mq_flags "$path"
  else
    __mq_r=()
    ((npos == 0)) && __mq_subs "$path"
    ((%{#__mq_r[@]} == 0)) && __mq_args "$path" "$npos"
  fi
  __mq_add "" "$cur"
  return 0
}

complete -F _mq mq`.replaceAll("%{", "${");
