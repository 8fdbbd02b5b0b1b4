#!/bin/sh
# Installs Neovim from a Debian suite (trixie: 0.10, sid: 0.12) into a private folder, without
# touching the system (test/editors/debian-editor.sh says how).
#
# Usage: test/editors/install-nvim.sh SUITE [DIR]   (default: .cache/nvim-SUITE in the repo)
# Prints the wrapper's path (DIR/bin/nvim) on success; a working DIR is reused as it is.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/debian-editor.sh"
editor_setup nvim nvim "$@"

ED_BIN=usr/bin/nvim
ED_PACKAGES="neovim neovim-runtime"
ED_EXCLUDES=""
# LuaJIT's Lua C modules, where the suite has them.
ED_LIBS=usr/lib/x86_64-linux-gnu/lua/5.1
ED_ENV='export VIMRUNTIME="$d/usr/share/nvim/runtime"
# LuaJIT'"'"'s own modules (jit.*), where the suite has them.
export LUA_PATH="$d/usr/share/luajit-2.1/?.lua;;"'
ED_EXEC='"$d/usr/bin/nvim"'
# In a terminal, nvim 0.10+ starts its UI's server by running its own executable again with
# --embed; here that executable is the loader, which knows no --embed. So a terminal session
# (tmux-driven tests, a person) gets that server started by hand, headless on a private socket,
# and this process attaches the terminal to it with --remote-ui.
ED_MAIN='tui=yes
for a in "$@"; do
  case $a in --headless | --embed | --version | -v | --help | -h | --api-info | -l | -es | -Es | --remote* | --server | --listen) tui=no ;; esac
done
if [ "$tui" = yes ] && [ -t 0 ] && [ -t 1 ]; then
  sock=$(mktemp -u "${TMPDIR:-/tmp}/agent-lsp-nvim-tui.XXXXXX")
  "$loader" --library-path "$libs" "$d/usr/bin/nvim" --headless --listen "$sock" "$@" &
  server=$!
  while [ ! -S "$sock" ] && kill -0 "$server" 2>/dev/null; do sleep 0.05; done
  "$loader" --library-path "$libs" "$d/usr/bin/nvim" --remote-ui --server "$sock"
  wait "$server"
  exit $?
fi'

ed_cached() { [ -e "$ed_root/usr/lib/lib/nvim/parser" ]; }
ed_works() { "$ed_wrapper" --headless --clean -u NONE +qa; }
# nvim finds its compiled-in library folder (tree-sitter parsers) next to its executable, which
# here is the loader in usr/lib/x86_64-linux-gnu: so it looks in usr/lib/lib/nvim.
ed_after_unpack() {
  mkdir -p "$ed_root/usr/lib/lib"
  ln -sfn ../nvim "$ed_root/usr/lib/lib/nvim"
}

editor_install
