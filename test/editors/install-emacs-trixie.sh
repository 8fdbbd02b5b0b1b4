#!/bin/sh
# Installs Emacs 30 (emacs-nox) from Debian trixie into a private folder, without touching the
# system: apt runs with its own sources list, lists and archive cache under that folder, the
# packages are unpacked there with `dpkg -x`, and a wrapper starts emacs through the folder's own
# dynamic loader (trixie's libc) so the system's bookworm libc is never mixed with trixie's
# libraries. The wrapper also points Emacs at its unpacked Lisp, data and dump file, since the
# paths compiled into the binary are the /usr ones of an installed package.
#
# Usage: test/editors/install-emacs-trixie.sh [DIR]   (default: .cache/emacs-trixie in the repo)
# Prints the wrapper's path (DIR/bin/emacs) on success. Re-running with a working DIR downloads
# nothing, so CI can cache DIR between runs. Packages come from the Debian mirror this machine's
# apt sources use (test/editors/debian-mirror.sh), or AGENT_LSP_DEBIAN_MIRROR when set.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=${1:-${AGENT_LSP_EMACS_TRIXIE_DIR:-$repo/.cache/emacs-trixie}}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
wrapper="$dir/bin/emacs"
root="$dir/root"

write_wrapper() {
  mkdir -p "$dir/bin"
  # The wrapper finds its folder at run time, so the cache can move (CI restores it elsewhere).
  cat >"$wrapper" <<'WRAPPER'
#!/bin/sh
# Starts trixie's emacs with trixie's own loader and libraries; children (the language servers,
# shells) run with the system's libc because the library path is given to the loader only.
d=$(cd "$(dirname "$0")/../root" && pwd)
loader="$d/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
[ -e "$loader" ] || loader="$d/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
v=$(cat "$d/../version")
lisp="$d/usr/share/emacs/$v/lisp"
# Every folder of the bundled Lisp, as the installed site-start would have it on load-path.
EMACSLOADPATH=$(find "$lisp" -type d ! -name obsolete | paste -sd: -)
export EMACSLOADPATH
export EMACSDATA="$d/usr/share/emacs/$v/etc"
export EMACSDOC="$d/usr/share/emacs/$v/etc"
export EMACSPATH="$d/usr/libexec/emacs/$v/x86_64-linux-gnu"
dump=$(ls "$EMACSPATH/"emacs*.pdmp 2>/dev/null | head -n 1)
exec "$loader" --library-path "$d/usr/lib/x86_64-linux-gnu:$d/lib/x86_64-linux-gnu" "$d/usr/bin/emacs-nox" --dump-file="$dump" "$@"
WRAPPER
  chmod +x "$wrapper"
}

works() {
  "$wrapper" --batch -Q --eval '(princ emacs-version)' 2>/dev/null | grep -q '^30\.'
}

# A cached install is reused as it is; only the wrapper is written again.
if [ -x "$root/usr/bin/emacs-nox" ] && [ -f "$dir/version" ]; then
  write_wrapper
  if works; then
    echo "$wrapper"
    exit 0
  fi
fi

# Besides install-time machinery: the compiler toolchain only native compilation of new files
# would use (the tests byte-compile; the bundled Lisp is already native-compiled).
. "$here/trixie-unpack.sh"
trixie_unpack "$dir" install-emacs-trixie usr/bin/emacs-nox \
  'emacsen-common|dpkg-dev|gcc(-[0-9]+)?|cpp(-[0-9]+)?|binutils.*|libgcc-[0-9]+-dev|libc6-dev|libc-dev-bin|linux-libc-dev|libcrypt-dev|rpcsvc-proto|libtirpc-dev|libnsl-dev|make|patch|perl|perl-modules.*|libperl.*|libdpkg-perl|bzip2|xz-utils' \
  emacs-nox emacs-el

# The Lisp of emacs-el is gzipped (installed Emacs reads .el.gz through jka-compr; byte-compile
# warnings name lines of these sources). The version folder names the Emacs version.
ls "$root/usr/share/emacs" | grep -E '^[0-9]+\.[0-9]+' | head -n 1 >"$dir/version"

write_wrapper
if ! works; then
  "$wrapper" --batch -Q --eval '(princ emacs-version)' >&2 || true
  echo "install-emacs-trixie: the unpacked emacs does not start" >&2
  exit 1
fi
echo "$wrapper"
