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

arch=$(dpkg --print-architecture)
if [ "$arch" != amd64 ]; then
  echo "install-emacs-trixie: only amd64 is supported (this machine is $arch)" >&2
  exit 1
fi

apt_dir="$dir/apt"
mkdir -p "$apt_dir/etc/preferences.d" "$apt_dir/etc/apt.conf.d" "$apt_dir/etc/sources.list.d" \
  "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$dir/debs"
# The machine's own Debian mirror (or AGENT_LSP_DEBIAN_MIRROR), so local mirrors and proxies work.
. "$here/debian-mirror.sh"
mirror=$(debian_mirror)
# The trixie archive key ships in bookworm's debian-archive-keyring.
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" >"$apt_dir/etc/sources.list"
: >"$apt_dir/status"

# Every apt setting that could read or write system state points into $apt_dir instead:
# the system's sources, pins and dpkg status stay out of the resolution.
apt_opts="-o Dir::Etc::sourcelist=$apt_dir/etc/sources.list
 -o Dir::Etc::sourceparts=$apt_dir/etc/sources.list.d
 -o Dir::Etc::preferences=$apt_dir/etc/preferences
 -o Dir::Etc::preferencesparts=$apt_dir/etc/preferences.d
 -o Dir::State=$apt_dir/state
 -o Dir::State::status=$apt_dir/status
 -o Dir::Cache=$apt_dir/cache
 -o APT::Architecture=$arch
 -o APT::Architectures=$arch
 -o Acquire::Languages=none
 -o Debug::NoLocking=1
 -o APT::Sandbox::User=root"

# shellcheck disable=SC2086
apt-get $apt_opts -q update >&2

# The closure of emacs-nox's hard dependencies (Depends/PreDepends only), as trixie resolves
# them. Virtual names (<...>) are provided by real packages that the closure also holds.
# shellcheck disable=SC2086
pkgs=$(apt-cache $apt_opts depends --recurse --no-recommends --no-suggests --no-conflicts \
  --no-breaks --no-replaces --no-enhances emacs-nox emacs-el libc6 |
  grep -v '^ ' | grep -v '^<' | sort -u)
# Install-time machinery, and the compiler toolchain only native compilation of new files
# would use (the tests byte-compile; the bundled Lisp is already native-compiled).
# shellcheck disable=SC2086
pkgs=$(printf '%s\n' $pkgs | grep -v -E '^(debconf|dpkg|perl-base|tar|install-info|sensible-utils|libdebconfclient0|base-files|debianutils|emacsen-common|dpkg-dev|gcc(-[0-9]+)?|cpp(-[0-9]+)?|binutils.*|libgcc-[0-9]+-dev|libc6-dev|libc-dev-bin|linux-libc-dev|libcrypt-dev|rpcsvc-proto|libtirpc-dev|libnsl-dev|make|patch|perl|perl-modules.*|libperl.*|libdpkg-perl|bzip2|xz-utils)$' || true)
# shellcheck disable=SC2086
echo "install-emacs-trixie: downloading $(echo $pkgs | wc -w) packages: $(echo $pkgs)" >&2

# shellcheck disable=SC2086
(cd "$dir/debs" && apt-get $apt_opts -q download $pkgs >&2)

rm -rf "$root"
mkdir -p "$root"
for deb in "$dir"/debs/*.deb; do
  dpkg -x "$deb" "$root"
done

loader="$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
[ -e "$loader" ] || loader="$root/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
if [ ! -e "$loader" ]; then
  echo "install-emacs-trixie: no dynamic loader in the unpacked libc6" >&2
  exit 1
fi
libpath="$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu"

# A library emacs needs that the closure missed shows here, before the wrapper pretends to work.
missing=$("$loader" --library-path "$libpath" --list "$root/usr/bin/emacs-nox" | grep 'not found' || true)
if [ -n "$missing" ]; then
  echo "install-emacs-trixie: emacs still misses libraries:" >&2
  echo "$missing" >&2
  exit 1
fi

# The Lisp of emacs-el is gzipped (installed Emacs reads .el.gz through jka-compr; byte-compile
# warnings name lines of these sources). The version folder names the Emacs version.
ls "$root/usr/share/emacs" | grep -E '^[0-9]+\.[0-9]+' | head -n 1 >"$dir/version"

write_wrapper
if ! works; then
  "$wrapper" --batch -Q --eval '(princ emacs-version)' >&2 || true
  echo "install-emacs-trixie: the unpacked emacs does not start" >&2
  exit 1
fi
# The lists and downloaded archives are not needed to run; keep the cache small.
rm -rf "$apt_dir/state/lists" "$apt_dir/cache" "$dir/debs"
echo "$wrapper"
