#!/bin/sh
# Fails when the tests left files outside the clone and the temp folders: .ci/run takes a
# snapshot before `npm test` and checks after it. Watched: the entries of `/`, of the home and its
# XDG folders, and of the folder holding the clone (what appeared there since the snapshot), and
# a `.agent-lsp` folder created or changed in a system folder, the home or beside the clone
# (agent-lsp's state, as a server started outside any project would leave it).
#
# Usage: test/stray-files.sh snapshot FILE    (FILE: where the snapshot goes)
#        test/stray-files.sh check FILE       (exit 1, naming each stray file)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
clone=$(cd "$here/.." && pwd)
home=${HOME:-/root}

# The folders whose direct entries are watched (those that exist).
watched() {
  parent=$(dirname "$clone")
  # A clone that lives in the temporary folder has the tests' own temporary files beside it:
  # those are temp folders, not strays, so its parent is watched only when it is not one.
  case $parent in /tmp | /var/tmp | "${TMPDIR:-/tmp}") parent= ;; esac
  for d in / "$home" "$home/.config" "$home/.local" "$home/.local/state" "$home/.local/share" "$home/.cache" $parent; do
    [ -d "$d" ] && echo "$d"
  done | sort -u
}

# Every watched folder's entries, one path a line.
entries() {
  watched | while IFS= read -r d; do
    ls -A "$d" 2>/dev/null | while IFS= read -r e; do
      case $d in /) echo "/$e" ;; *) echo "$d/$e" ;; esac
    done
  done | sort -u
}

# `.agent-lsp` folders newer than FILE in the places a server could be started outside a project
# (system folders, the home, beside the clone), except in the clone and the temp folders.
state_folders() {
  for d in /etc /usr /var /opt /srv /mnt /media /home "$home" "$(dirname "$clone")"; do
    [ -d "$d" ] && echo "$d"
  done | sort -u | while IFS= read -r d; do
    find "$d" -xdev \( -path /var/tmp -o -path "$clone" -o -path /tmp -o -path "${TMPDIR:-/tmp}" \
      -o -name node_modules -o -name .git \) -prune -o -name .agent-lsp -newer "$1" -print 2>/dev/null || true
  done
}

case ${1:-} in
  snapshot)
    entries >"$2"
    ;;
  check)
    stray=$( { entries | comm -13 "$2" -; state_folders "$2"; } | sort -u)
    if [ -n "$stray" ]; then
      echo "stray-files: the tests left these outside the clone and the temp folders:" >&2
      echo "$stray" | sed 's/^/  /' >&2
      exit 1
    fi
    echo "stray-files: nothing outside the clone and the temp folders"
    ;;
  *)
    echo "usage: test/stray-files.sh snapshot|check FILE" >&2
    exit 2
    ;;
esac
