# Shared by the install-*-trixie.sh scripts (sourced, not run): unpacks a Debian trixie package
# and the closure of its hard dependencies into a private folder, without touching the system.
# apt runs with its own sources list, lists and archive cache under that folder; the packages
# are unpacked with `dpkg -x`; the caller then writes a wrapper that starts the program through
# the folder's own dynamic loader (trixie's libc), so the system's libc is never mixed with
# trixie's libraries.
#
# Usage (after setting `here` to the folder of the calling script):
#   . "$here/trixie-unpack.sh"
#   trixie_unpack DIR NAME BINARY "EXTRA_EXCLUDES" PACKAGE...
# DIR: the private folder (the packages go to DIR/root); NAME: the script's name for messages;
# BINARY: the program, relative to DIR/root, whose libraries are checked; EXTRA_EXCLUDES: more
# package names (an extended regular expression, alternatives joined by |) not to unpack.

# Packages that are only install-time machinery: nothing a program loads at run time.
TRIXIE_MACHINERY='debconf|dpkg|perl-base|tar|install-info|sensible-utils|libdebconfclient0|base-files|debianutils'

trixie_unpack() {
  t_dir=$1 t_name=$2 t_bin=$3 t_extra=$4
  shift 4
  t_arch=$(dpkg --print-architecture)
  if [ "$t_arch" != amd64 ]; then
    echo "$t_name: only amd64 is supported (this machine is $t_arch)" >&2
    return 1
  fi
  t_apt="$t_dir/apt"
  mkdir -p "$t_apt/etc/preferences.d" "$t_apt/etc/apt.conf.d" "$t_apt/etc/sources.list.d" \
    "$t_apt/state/lists/partial" "$t_apt/cache/archives/partial" "$t_dir/debs"
  # The machine's own Debian mirror (or AGENT_LSP_DEBIAN_MIRROR), so local mirrors and proxies work.
  . "$here/debian-mirror.sh"
  t_mirror=$(debian_mirror)
  # The trixie archive key ships in bookworm's debian-archive-keyring.
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $t_mirror trixie main" >"$t_apt/etc/sources.list"
  : >"$t_apt/status"
  # Every apt setting that could read or write system state points into $t_apt instead: the
  # system's sources, pins and dpkg status stay out of the resolution.
  t_opts="-o Dir::Etc::sourcelist=$t_apt/etc/sources.list
 -o Dir::Etc::sourceparts=$t_apt/etc/sources.list.d
 -o Dir::Etc::preferences=$t_apt/etc/preferences
 -o Dir::Etc::preferencesparts=$t_apt/etc/preferences.d
 -o Dir::State=$t_apt/state
 -o Dir::State::status=$t_apt/status
 -o Dir::Cache=$t_apt/cache
 -o APT::Architecture=$t_arch
 -o APT::Architectures=$t_arch
 -o Acquire::Languages=none
 -o Debug::NoLocking=1
 -o APT::Sandbox::User=root"
  echo "$t_name: trixie from $t_mirror" >&2
  # shellcheck disable=SC2086
  apt-get $t_opts -q update >&2
  # The closure of the hard dependencies (Depends/PreDepends only), as trixie resolves them.
  # Virtual names (<...>) are provided by real packages that the closure also holds.
  # shellcheck disable=SC2086
  t_pkgs=$(apt-cache $t_opts depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances "$@" libc6 |
    grep -v '^ ' | grep -v '^<' | sort -u)
  # shellcheck disable=SC2086
  t_pkgs=$(printf '%s\n' $t_pkgs | grep -v -E "^($TRIXIE_MACHINERY${t_extra:+|$t_extra})\$" || true)
  # shellcheck disable=SC2086
  echo "$t_name: downloading $(echo $t_pkgs | wc -w) packages: $(echo $t_pkgs)" >&2
  # shellcheck disable=SC2086
  (cd "$t_dir/debs" && apt-get $t_opts -q download $t_pkgs >&2)
  rm -rf "$t_dir/root"
  mkdir -p "$t_dir/root"
  for t_deb in "$t_dir"/debs/*.deb; do
    dpkg -x "$t_deb" "$t_dir/root"
  done
  trixie_check_libraries "$t_dir/root" "$t_name" "$t_bin" || return 1
  # The lists and downloaded archives are not needed to run; keep the cache small.
  rm -rf "$t_apt/state/lists" "$t_apt/cache" "$t_dir/debs"
}

# Fails, naming them, when the unpacked BINARY misses libraries the closure did not bring:
# better here than a wrapper that pretends to work.
trixie_check_libraries() {
  c_root=$1 c_name=$2 c_bin=$3
  c_loader="$c_root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
  [ -e "$c_loader" ] || c_loader="$c_root/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
  if [ ! -e "$c_loader" ]; then
    echo "$c_name: no dynamic loader in the unpacked libc6" >&2
    return 1
  fi
  c_libs="$c_root/usr/lib/x86_64-linux-gnu:$c_root/lib/x86_64-linux-gnu:$c_root/usr/lib/x86_64-linux-gnu/lua/5.1"
  c_missing=$("$c_loader" --library-path "$c_libs" --list "$c_root/$c_bin" | grep 'not found' || true)
  if [ -n "$c_missing" ]; then
    echo "$c_name: $c_bin still misses libraries:" >&2
    echo "$c_missing" >&2
    return 1
  fi
}
