# Sourced by the hook scripts, with `here` set to their directory: sets `runtime` to the
# JavaScript runtime that runs them, or to nothing after one line on stderr.
#
# Bun: $BUN, else `bun` on PATH, else this package's node_modules, else the node_modules
# this package is installed in (node_modules/cc-search/hooks → node_modules/.bin); then
# Node. Only shell builtins run here: no subshell, no external command.

# Reads stdin to its end, so the writer never meets a closed pipe (not a terminal).
drain_stdin() {
  [ -t 0 ] && return 0
  while IFS= read -r _line; do :; done 2>/dev/null
  return 0
}

# Sets `found` to the executable named $1: a path as given, else searched on $PATH.
find_executable() {
  found=
  case $1 in
    '') return 1 ;;
    */*) [ -f "$1" ] && [ -x "$1" ] && found=$1 ;;
    *)
      saved_ifs=$IFS
      IFS=:
      set -f
      for dir in $PATH; do
        [ -n "$dir" ] || dir=.
        if [ -f "$dir/$1" ] && [ -x "$dir/$1" ]; then
          found=$dir/$1
          break
        fi
      done
      set +f
      IFS=$saved_ifs
      ;;
  esac
  [ -n "$found" ]
}

if find_executable "${BUN:-}" ||
  find_executable bun ||
  find_executable "$here/../node_modules/.bin/bun" ||
  find_executable "$here/../../.bin/bun" ||
  find_executable node; then
  runtime=$found
else
  runtime=
  echo "cc-search: neither bun nor node found (set BUN to the path of bun)" >&2
fi

# Runs the hook's JavaScript file $1 under the runtime, in place of this shell; without a
# runtime, drains stdin and exits 0 (a hook never fails).
exec_hook() {
  if [ -z "$runtime" ]; then
    drain_stdin
    exit 0
  fi
  # Never wait on a terminal; a closed stdin must not become whatever file opens first.
  if [ -t 0 ] || ! { true <&0; } 2>/dev/null; then
    exec "$runtime" "$1" </dev/null
  fi
  exec "$runtime" "$1"
}
