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

arch=$(dpkg --print-architecture)
if [ "$arch" != amd64 ]; then
  echo "install-helix-trixie: only amd64 is supported (this machine is $arch)" >&2
  exit 1
fi

. "$here/debian-mirror.sh"
mirror=$(debian_mirror)
apt_dir="$dir/apt"
mkdir -p "$apt_dir/etc/preferences.d" "$apt_dir/etc/apt.conf.d" "$apt_dir/etc/sources.list.d" \
  "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$dir/debs"
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

echo "install-helix-trixie: trixie from $mirror" >&2
# shellcheck disable=SC2086
apt-get $apt_opts -q update >&2

# Debian calls the Helix package `hx`. The closure of its hard dependencies (Depends/PreDepends
# only), as trixie resolves them; virtual names (<...>) are provided by real packages in it.
# shellcheck disable=SC2086
pkgs=$(apt-cache $apt_opts depends --recurse --no-recommends --no-suggests --no-conflicts \
  --no-breaks --no-replaces --no-enhances hx libc6 |
  grep -v '^ ' | grep -v '^<' | sort -u)
# Packages that are only install-time machinery: nothing hx loads at run time.
# shellcheck disable=SC2086
pkgs=$(printf '%s\n' $pkgs | grep -v -E '^(debconf|dpkg|perl-base|tar|install-info|sensible-utils|libdebconfclient0|base-files|debianutils)$' || true)
# shellcheck disable=SC2086
echo "install-helix-trixie: downloading $(echo $pkgs | wc -w) packages: $(echo $pkgs)" >&2

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
  echo "install-helix-trixie: no dynamic loader in the unpacked libc6" >&2
  exit 1
fi

# A library hx needs that the closure missed shows here, before the wrapper pretends to work.
missing=$("$loader" --library-path "$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu" --list "$root/usr/lib/hx/hx" | grep 'not found' || true)
if [ -n "$missing" ]; then
  echo "install-helix-trixie: hx still misses libraries:" >&2
  echo "$missing" >&2
  exit 1
fi

write_wrapper
if ! "$wrapper" --version >&2; then
  echo "install-helix-trixie: the unpacked hx does not start" >&2
  exit 1
fi
# The lists and downloaded archives are not needed to run; keep the cache small.
rm -rf "$apt_dir/state/lists" "$apt_dir/cache" "$dir/debs"
echo "$wrapper"
