#!/bin/sh
# Claude Code's SessionStart hook: reads (and ignores) the hook's JSON on stdin, starts a
# refresh of the project's index ($CLAUDE_PROJECT_DIR, else the current directory) in a
# detached background process, and returns at once. The background process writes to
# <data root>/logs/session-start.log.
#
# Runs session-start.js (next to this script, symbolic links followed) under Bun (see
# runtime.sh). Never fails: the exit status is 0, stdout stays empty (Claude Code would
# add it to the conversation), and a failure to start is one line on stderr.

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
exec_hook "$here/session-start.js"
