// The zsh script: the same walk as the bash one, with descriptions for subcommands and flags
// (_describe) and zsh's own quoting of values (compadd quotes the * of action.queue.*).
import { arrayAssign, casePatterns, flagRules, HEADER_NOTE, mergeRules, shq, splitCommonOptions, subcommandCases } from "./common.js";
import type { NodeSpec } from "./model.js";

type ValueRule = { values: readonly string[]; kind: "" | "files" | "list" };

/** "name:description" for _describe (a colon in the name is escaped). */
function described(name: string, description: string): string {
  return `${name.replace(/:/g, "\\:")}:${description}`;
}

export function zshScript(nodes: readonly NodeSpec[]): string {
  const out: string[] = [];
  out.push(
    "#compdef mq",
    "# zsh completion for mq",
    `# ${HEADER_NOTE.replace("SHELL", "zsh")}`,
    "# Install: save this file as _mq in a folder on $fpath (before compinit runs), or add",
    "# `source <(mq completion zsh)` to ~/.zshrc after compinit.",
    "",
  );

  out.push("# __mq_sub PATH WORD: the subcommand WORD names below PATH, in __mq_s (empty if none)", "__mq_sub() {", '  case "$1|$2" in');
  for (const c of subcommandCases(nodes)) out.push(`    (${c.pattern}) __mq_s=${c.name === null ? "$2" : shq(c.name)} ;;`);
  out.push("    (*) __mq_s= ;;", "  esac", "}", "");

  out.push("# __mq_subs PATH: the subcommands of PATH as name:description, in __mq_r", "__mq_subs() {", '  case "$1" in');
  for (const n of nodes) {
    if (n.subcommands.length === 0) continue;
    out.push(`    (${shq(n.path)})`, "      __mq_r=(");
    for (const s of n.subcommands) out.push(`        ${shq(described(s.name, s.description))}`);
    out.push("      ) ;;");
  }
  out.push("    (*) __mq_r=() ;;", "  esac", "}", "");

  const { common, own } = splitCommonOptions(nodes);
  out.push(
    "# __mq_flags PATH: the flags of PATH as flag:description (its own, then the global ones), in __mq_r",
    "__mq_flags() {",
    '  case "$1" in',
  );
  for (const n of nodes) {
    const entries = own(n).flatMap((o) => o.flags.map((f) => shq(described(f, o.description))));
    if (entries.length === 0) out.push(`    (${shq(n.path)}) __mq_r=() ;;`);
    else out.push(`    (${shq(n.path)})`, "      __mq_r=(", ...entries.map((e) => `        ${e}`), "      ) ;;");
  }
  out.push("    (*) __mq_r=() ;;", "  esac", "  __mq_r+=(");
  for (const o of common) for (const f of o.flags) out.push(`    ${shq(described(f, o.description))}`);
  out.push("  )", "}", "");

  out.push(
    "# __mq_takes_value PATH FLAG: whether FLAG of PATH reads the next word as its value",
    "__mq_takes_value() {",
    '  case "$1|$2" in',
  );
  for (const group of mergeRules(flagRules(nodes, (o) => (o.takesValue ? true : undefined)))) {
    out.push(`    (${casePatterns(group.keys)}) return 0 ;;`);
  }
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
    out.push(`    (${casePatterns(group.keys)}) ${arrayAssign("__mq_r", group.value.values, "    ")}${kind} ;;`);
  }
  out.push("    (*) __mq_r=() ;;", "  esac", "}", "");

  out.push("# __mq_args PATH N: the values of the Nth positional argument of PATH, in __mq_r", "__mq_args() {", '  case "$1|$2" in');
  for (const n of nodes) {
    n.args.forEach((choices, i) => {
      if (choices.length > 0) out.push(`    (${shq(`${n.path}|${i}`)}) ${arrayAssign("__mq_r", choices, "    ")} ;;`);
    });
  }
  out.push("    (*) __mq_r=() ;;", "  esac", "}", "");

  out.push(MAIN);
  return out.join("\n") + "\n";
}

// "%{" stands for "${" (which a template literal would interpolate)
const MAIN = String.raw`_mq() {
  local cur=$words[CURRENT] w mqpath= flag= skip=0 npos=0 dd=0 i __mq_s= __mq_kind=
  local -a __mq_r
  # the command path: subcommand names, skipping flags and the values they read
  for ((i = 2; i < CURRENT; i++)); do
    w=$words[i]
    if ((skip)); then
      skip=0
      continue
    fi
    if ((!dd)) && [[ $w == -* ]]; then
      if [[ $w == -- ]]; then
        dd=1
      elif [[ $w != *=* ]] && __mq_takes_value "$mqpath" "$w"; then
        skip=1
      fi
      continue
    fi
    if ((npos == 0)); then
      __mq_sub "$mqpath" "$w"
      if [[ -n $__mq_s ]]; then
        mqpath=%{mqpath:+$mqpath }$__mq_s
        continue
      fi
    fi
    npos=$((npos + 1))
  done

  if ((skip)); then
    flag=$words[CURRENT-1]
  elif ((!dd)) && [[ $cur == -*=* ]]; then
    flag=%{cur%%=*}
    compset -P '*='
  fi
  if [[ -n $flag ]]; then
    __mq_values "$mqpath" "$flag"
    if [[ $__mq_kind == files ]]; then
      _files
      return
    fi
    [[ $__mq_kind == list ]] && compset -P '*,'
    compadd -- "%{__mq_r[@]}"
    return
  fi
  if ((!dd)) && [[ $cur == -* ]]; then
    __mq_flags "$mqpath"
    _describe -t options option __mq_r
    return
  fi
  if ((npos == 0)); then
    __mq_subs "$mqpath"
    if ((%{#__mq_r})); then
      _describe -t commands command __mq_r
      return
    fi
  fi
  __mq_args "$mqpath" $npos
  compadd -- "%{__mq_r[@]}"
}

# autoloaded from $fpath: complete now; sourced: register
if [[ "$funcstack[1]" == _mq ]]; then
  _mq "$@"
else
  compdef _mq mq
fi`.replaceAll("%{", "${");
