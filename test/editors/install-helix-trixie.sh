#!/bin/sh
# Installs Helix 25.01 from Debian trixie (package `hx`) into a private folder, without touching
# the system: apt runs with its own sources list, lists and archive cache under that folder, the
# packages are unpacked there with `dpkg -x`, and a wrapper starts hx through the folder's own
# dynamic loader (trixie's libc), so the system's older libc is never mixed with trixie's.
#
# Packages come from the Debian mirror this machine's apt sources use (test/editors/debian-mirror.sh),
# or AGENT_LSP_DEBIAN_MIRROR when set, so the script works wherever apt does, local mirrors too.
#
# Usage: test/editors/install-helix-trixie.sh [DIR]   (default: .cache/helix-trixie in the repo)
# Prints the wrapper's path (DIR/bin/hx) on success. Re-running with a working DIR downloads
# nothing, so CI can cache DIR between runs.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=${1:-${AGENT_LSP_HELIX_TRIXIE_DIR:-$repo/.cache/helix-trixie}}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
wrapper="$dir/bin/hx"
root="$dir/root"

write_wrapper() {
  mkdir -p "$dir/bin"
  # The wrapper finds its folder at run time, so the cache can move (CI restores it elsewhere).
  cat >"$wrapper" <<'WRAPPER'
#!/bin/sh
# Starts trixie's hx with trixie's own loader and libraries; children (language servers, shells)
# run with the system's libc because the library path is given to the loader only.
d=$(cd "$(dirname "$0")/../root" && pwd)
loader="$d/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
[ -e "$loader" ] || loader="$d/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
# hx looks for its runtime next to its executable, which here is the loader: name it instead.
# Debian ships no tree-sitter grammars (no highlighting); languages and LSP work without them.
export HELIX_RUNTIME="$d/usr/lib/hx/runtime"
exec "$loader" --library-path "$d/usr/lib/x86_64-linux-gnu:$d/lib/x86_64-linux-gnu" "$d/usr/lib/hx/hx" "$@"
WRAPPER
  chmod +x "$wrapper"
}

# A cached install is reused as it is; only the wrapper is written again.
if [ -x "$root/usr/lib/hx/hx" ]; then
  write_wrapper
  if "$wrapper" --version >/dev/null 2>&1; then
    echo "$wrapper"
    exit 0
  fi
fi

# Debian calls the Helix package `hx`.
. "$here/trixie-unpack.sh"
trixie_unpack "$dir" install-helix-trixie usr/lib/hx/hx "" hx

write_wrapper
if ! "$wrapper" --version >&2; then
  echo "install-helix-trixie: the unpacked hx does not start" >&2
  exit 1
fi
echo "$wrapper"
