#!/bin/sh
# Installs Helix from a Debian suite (package `hx`; trixie: 25.01, sid: 25.07) into a private
# folder, without touching the system (test/editors/debian-editor.sh says how).
#
# Usage: test/editors/install-helix.sh SUITE [DIR]   (default: .cache/helix-SUITE in the repo)
# Prints the wrapper's path (DIR/bin/hx) on success; a working DIR is reused as it is.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/debian-editor.sh"
editor_setup helix hx "$@"

ED_BIN=usr/lib/hx/hx
ED_PACKAGES=hx
ED_EXCLUDES=""
ED_LIBS=""
# hx looks for its runtime next to its executable, which here is the loader: name it instead.
# Debian ships no tree-sitter grammars (no highlighting); languages and LSP work without them.
ED_ENV='export HELIX_RUNTIME="$d/usr/lib/hx/runtime"'
ED_EXEC='"$d/usr/lib/hx/hx"'

ed_works() { "$ed_wrapper" --version; }

editor_install
