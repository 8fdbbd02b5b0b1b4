#!/bin/sh
# Installs Neovim 0.10 from Debian trixie into a private folder, without touching the system:
# test/editors/trixie-unpack.sh runs apt with its own sources list, lists and archive cache under that folder, the packages are
# unpacked there with `dpkg -x`, and a wrapper starts nvim through the folder's own dynamic loader
# (trixie's libc) so the system's bookworm libc is never mixed with trixie's libraries.
#
# Usage: test/editors/install-nvim-trixie.sh [DIR]   (default: .cache/nvim-trixie in the repo)
# Prints the wrapper's path (DIR/bin/nvim) on success. Re-running with a working DIR downloads
# nothing, so CI can cache DIR between runs. Packages come from the Debian mirror this machine's
# apt sources use (test/editors/debian-mirror.sh), or AGENT_LSP_DEBIAN_MIRROR when set.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=${1:-${AGENT_LSP_NVIM_TRIXIE_DIR:-$repo/.cache/nvim-trixie}}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
wrapper="$dir/bin/nvim"
root="$dir/root"

write_wrapper() {
  mkdir -p "$dir/bin"
  # The wrapper finds its folder at run time, so the cache can move (CI restores it elsewhere).
  cat >"$wrapper" <<'WRAPPER'
#!/bin/sh
# Starts trixie's nvim with trixie's own loader and libraries; children (the language server,
# shells) run with the system's libc because the library path is given to the loader only.
d=$(cd "$(dirname "$0")/../root" && pwd)
loader="$d/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
[ -e "$loader" ] || loader="$d/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
export VIMRUNTIME="$d/usr/share/nvim/runtime"
# LuaJIT's own modules (jit.*), where a trixie install has them.
export LUA_PATH="$d/usr/share/luajit-2.1/?.lua;;"
exec "$loader" --library-path "$d/usr/lib/x86_64-linux-gnu:$d/lib/x86_64-linux-gnu:$d/usr/lib/x86_64-linux-gnu/lua/5.1" "$d/usr/bin/nvim" "$@"
WRAPPER
  chmod +x "$wrapper"
}

# A cached install is reused as it is; only the wrapper is written again.
if [ -x "$root/usr/bin/nvim" ] && [ -e "$root/usr/lib/lib/nvim/parser" ]; then
  write_wrapper
  if "$wrapper" --headless --clean -u NONE +qa >/dev/null 2>&1; then
    echo "$wrapper"
    exit 0
  fi
fi

. "$here/trixie-unpack.sh"
trixie_unpack "$dir" install-nvim-trixie usr/bin/nvim "" neovim neovim-runtime

# nvim finds its compiled-in library folder (tree-sitter parsers) next to its executable, which
# here is the loader in usr/lib/x86_64-linux-gnu: so it looks in usr/lib/lib/nvim.
mkdir -p "$root/usr/lib/lib"
ln -sfn ../nvim "$root/usr/lib/lib/nvim"

write_wrapper
if ! "$wrapper" --headless --clean -u NONE +qa >&2; then
  echo "install-nvim-trixie: the unpacked nvim does not start" >&2
  exit 1
fi
echo "$wrapper"
