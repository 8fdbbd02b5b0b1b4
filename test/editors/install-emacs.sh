#!/bin/sh
# Installs Emacs (emacs-nox; trixie: 30) from a Debian suite into a private folder, without
# touching the system (test/editors/debian-editor.sh says how). The wrapper also points Emacs at
# its unpacked Lisp, data and dump file, since the paths compiled into the binary are the /usr
# ones of an installed package.
#
# Usage: test/editors/install-emacs.sh SUITE [DIR]   (default: .cache/emacs-SUITE in the repo)
# Prints the wrapper's path (DIR/bin/emacs) on success; a working DIR is reused as it is.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/debian-editor.sh"
editor_setup emacs emacs "$@"

ED_BIN=usr/bin/emacs-nox
ED_PACKAGES="emacs-nox emacs-el"
# Besides install-time machinery: the compiler toolchain only native compilation of new files
# would use (the tests byte-compile; the bundled Lisp is already native-compiled).
ED_EXCLUDES='emacsen-common|dpkg-dev|gcc(-[0-9]+)?|cpp(-[0-9]+)?|binutils.*|libgcc-[0-9]+-dev|libc6-dev|libc-dev-bin|linux-libc-dev|libcrypt-dev|rpcsvc-proto|libtirpc-dev|libnsl-dev|make|patch|perl|perl-modules.*|libperl.*|libdpkg-perl|bzip2|xz-utils'
ED_LIBS=""
# The Lisp of emacs-el is gzipped (installed Emacs reads .el.gz through jka-compr); every folder
# of the bundled Lisp goes on load-path, as the installed site-start would have it.
ED_ENV='v=$(cat "$d/../version")
lisp="$d/usr/share/emacs/$v/lisp"
EMACSLOADPATH=$(find "$lisp" -type d ! -name obsolete | paste -sd: -)
export EMACSLOADPATH
export EMACSDATA="$d/usr/share/emacs/$v/etc"
export EMACSDOC="$d/usr/share/emacs/$v/etc"
export EMACSPATH="$d/usr/libexec/emacs/$v/x86_64-linux-gnu"
dump=$(ls "$EMACSPATH/"emacs*.pdmp 2>/dev/null | head -n 1)'
ED_EXEC='"$d/usr/bin/emacs-nox" --dump-file="$dump"'

ed_cached() { [ -f "$ed_dir/version" ]; }
ed_works() { "$ed_wrapper" --batch -Q --eval '(princ emacs-version)'; }
# The version folder names the Emacs version the wrapper's paths use.
ed_after_unpack() {
  ls "$ed_root/usr/share/emacs" | grep -E '^[0-9]+\.[0-9]+' | head -n 1 >"$ed_dir/version"
}

editor_install
