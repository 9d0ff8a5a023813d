# Stand-ins for the zsh completion system's builtins: they print the candidates that
# match $PREFIX (with $IPREFIX), as compadd would offer them.
compdef() { : }
compadd() {
  [[ $1 == -- ]] && shift
  local w
  for w in "$@"; do [[ ${w[1,${#PREFIX}]} == "$PREFIX" ]] && print -r -- "$IPREFIX$w"; done
  return 0
}
_describe() {
  local name=${@[-1]} e
  for e in ${(P)name}; do
    e=${e%%:*}
    [[ ${e[1,${#PREFIX}]} == "$PREFIX" ]] && print -r -- "$IPREFIX$e"
  done
  return 0
}
compset() {
  [[ $1 == -P ]] || return 1
  local m=${(M)PREFIX##${~2}}
  [[ -n $m ]] || return 1
  IPREFIX+=$m
  PREFIX=${PREFIX[$(( ${#m} + 1 )),-1]}
}
_files() { print -r -- '<files>' }
