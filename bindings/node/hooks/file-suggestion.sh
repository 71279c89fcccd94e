#!/bin/sh
# Claude Code's `fileSuggestion` command: reads {"query": "..."} on stdin and prints up to
# 15 paths of the project ($CLAUDE_PROJECT_DIR, else the current directory), one a line.
#
# Runs file-suggestion.js (next to this script, symbolic links followed) under Bun (see
# runtime.sh). A terminal or a closed descriptor on stdin reads as empty input: the
# project's top-ranked files. Never fails: whatever goes wrong (input that is not the
# hook's JSON among it), stdout stays empty, the exit status is 0 and the reason is one
# line on stderr. Only shell builtins run on the way to Bun.

self=$0
hops=0
while [ -h "$self" ] && [ "$hops" -lt 40 ]; do
  hops=$((hops + 1))
  link=$(readlink "$self") || break
  case $link in
    /*) self=$link ;;
    *) self=${self%/*}/$link ;;
  esac
done
case $self in
  */*) here=${self%/*} ;;
  *) here=. ;;
esac

. "$here/runtime.sh"
exec_hook "$here/file-suggestion.js"
