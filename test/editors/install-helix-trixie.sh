#!/bin/sh
# Installs Helix 25.01 from Debian trixie (package `hx`) into a private folder, without touching
# the system: apt runs with its own sources list, lists and archive cache under that folder, the
# packages are unpacked there with `dpkg -x`, and a wrapper starts hx through the folder's own
# dynamic loader (trixie's libc), so the system's older libc is never mixed with trixie's.
#
# The Debian mirror is the one this machine's apt already uses (AGENT_LSP_DEBIAN_MIRROR overrides),
# so the script works wherever apt does, behind a local mirror or proxy too.
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

# Prints "URI SUITE" for every enabled binary source of the machine's apt, one-line (.list) and
# deb822 (.sources) formats alike.
apt_source_pairs() {
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -r "$f" ] || continue
    # deb [option=value ...] URI SUITE COMPONENT...
    awk '$1 == "deb" {
      i = 2
      if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
      print $i, $(i + 1)
    }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] || continue
    awk '
      function flush(  n, m, i, j, u, s) {
        if ((" " types " ") ~ / deb / && enabled != "no") {
          n = split(uris, u, " "); m = split(suites, s, " ")
          for (i = 1; i <= n; i++) for (j = 1; j <= m; j++) print u[i], s[j]
        }
        types = uris = suites = enabled = ""
      }
      function value() { sub(/^[^:]*:[ \t]*/, ""); return $0 }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      tolower($1) == "types:" { types = value(); next }
      tolower($1) == "uris:" { uris = value(); next }
      tolower($1) == "suites:" { suites = value(); next }
      tolower($1) == "enabled:" { enabled = tolower(value()); next }
      END { flush() }' "$f"
  done
}

# The Debian archive this machine's apt uses: the first source serving a Debian release suite
# (not the security archive, whose layout differs, nor third-party repositories).
debian_mirror() {
  if [ -n "${AGENT_LSP_DEBIAN_MIRROR:-}" ]; then
    echo "${AGENT_LSP_DEBIAN_MIRROR%/}"
    return 0
  fi
  uri=$(apt_source_pairs | awk '$1 !~ /security/ &&
    $2 ~ /^(sid|unstable|testing|stable|oldstable|oldoldstable|buster|bullseye|bookworm|trixie|forky)(-updates|-backports|-proposed-updates)?$/ {
      print $1; exit }')
  if [ -z "$uri" ]; then
    echo "install-helix-trixie: no Debian archive in /etc/apt/sources.list, sources.list.d/*.list or *.sources; set AGENT_LSP_DEBIAN_MIRROR" >&2
    return 1
  fi
  echo "${uri%/}"
}

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
