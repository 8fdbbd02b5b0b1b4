# Shared by test/editors/install-{nvim,helix,emacs}.sh (sourced, not run): installs an editor from
# a Debian suite (trixie, sid, ...) into a private folder without touching the system. apt runs
# with its own sources list, lists and archive cache under that folder; the suite's package and
# the closure of its hard dependencies are unpacked there with `dpkg -x`; a wrapper starts the
# editor through the folder's own dynamic loader (the suite's libc), so the system's libc is
# never mixed with the suite's libraries. Packages come from the Debian mirror this machine's apt
# sources use (test/editors/debian-mirror.sh), or AGENT_LSP_DEBIAN_MIRROR when set.
#
# A calling script sets (after `. "$here/debian-editor.sh"` and `editor_setup KEY WRAPPER "$@"`):
#   ED_BIN       the program, relative to DIR/root (checked for libraries, and for a cached install)
#   ED_PACKAGES  the packages to unpack (their hard dependencies come along)
#   ED_EXCLUDES  more package names not to unpack (an extended regular expression, a|b), or ""
#   ED_LIBS      more library folders relative to DIR/root, colon-separated, or ""
#   ED_ENV       lines of shell the wrapper runs before starting the program; `$d` is DIR/root
#   ED_EXEC      the program and its fixed arguments as the wrapper's exec line says them
#   ED_MAIN      optional lines run just before that exec, which may start the program otherwise
#                (`$loader` and `$libs` are the loader and its library path)
# and defines `ed_works` (exit 0 when "$ed_wrapper" starts; its output goes to stderr) and
# optionally `ed_cached` (extra checks of a cached install) and `ed_after_unpack`. Then it calls
# `editor_install`, which prints the wrapper's path on success. Re-running with a working DIR
# downloads nothing, so CI can cache DIR between runs.

# Packages that are only install-time machinery: nothing a program loads at run time.
DEBIAN_MACHINERY='debconf|dpkg|perl-base|tar|install-info|sensible-utils|libdebconfclient0|base-files|debianutils'

# editor_setup KEY WRAPPER SUITE [DIR]: checks the arguments and sets ed_suite, ed_name, ed_dir
# (absolute, created; default .cache/KEY-SUITE in the repository), ed_root and ed_wrapper
# (DIR/bin/WRAPPER).
editor_setup() {
  ed_key=$1 ed_wrapper_name=$2
  ed_suite=${3:-}
  case $ed_suite in
    '' | *[!a-z0-9-]*)
      echo "usage: test/editors/install-$ed_key.sh SUITE [DIR]   (SUITE: a Debian suite such as trixie or sid)" >&2
      exit 2
      ;;
  esac
  ed_name="install-$ed_key ($ed_suite)"
  ed_repo=$(cd "$here/../.." && pwd)
  ed_dir=${4:-$ed_repo/.cache/$ed_key-$ed_suite}
  mkdir -p "$ed_dir"
  ed_dir=$(cd "$ed_dir" && pwd)
  ed_root="$ed_dir/root"
  ed_wrapper="$ed_dir/bin/$ed_wrapper_name"
}

# editor_install: reuses a cached install that works, else unpacks the suite's packages; then
# writes the wrapper, checks that the editor starts and prints the wrapper's path.
editor_install() {
  if [ -x "$ed_root/$ED_BIN" ] && { ! command -v ed_cached >/dev/null 2>&1 || ed_cached; }; then
    editor_write_wrapper
    if ed_works >/dev/null 2>&1; then
      echo "$ed_wrapper"
      return 0
    fi
  fi
  debian_unpack
  if command -v ed_after_unpack >/dev/null 2>&1; then ed_after_unpack; fi
  editor_write_wrapper
  if ! ed_works >&2; then
    echo "$ed_name: the unpacked editor does not start" >&2
    return 1
  fi
  echo "$ed_wrapper"
}

# The library path the loader gets: the suite's own folders, then the script's ED_LIBS.
editor_library_path() {
  p='$d/usr/lib/x86_64-linux-gnu:$d/lib/x86_64-linux-gnu'
  old_ifs=$IFS
  IFS=:
  for lib in $ED_LIBS; do p="$p:\$d/$lib"; done
  IFS=$old_ifs
  echo "$p"
}

# Writes the wrapper, replacing the old one in one rename and only when it changed, so an editor
# test starting the wrapper while a cached install is checked never reads half a file. The
# wrapper finds its folder at run time, so the cache can move (CI restores it elsewhere).
editor_write_wrapper() {
  mkdir -p "$ed_dir/bin"
  w_tmp="$ed_wrapper.new.$$"
  {
    echo '#!/bin/sh'
    echo "# Starts Debian $ed_suite's $ED_BIN with that suite's own loader and libraries; children"
    echo "# (language servers, shells) run with the system's libc because the library path is given"
    echo '# to the loader only. Written by test/editors/debian-editor.sh.'
    echo 'd=$(cd "$(dirname "$0")/../root" && pwd)'
    echo 'loader="$d/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"'
    echo '[ -e "$loader" ] || loader="$d/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"'
    echo "libs=\"$(editor_library_path)\""
    [ -z "$ED_ENV" ] || printf '%s\n' "$ED_ENV"
    [ -z "${ED_MAIN:-}" ] || printf '%s\n' "$ED_MAIN"
    echo "exec \"\$loader\" --library-path \"\$libs\" $ED_EXEC \"\$@\""
  } >"$w_tmp"
  chmod +x "$w_tmp"
  if cmp -s "$w_tmp" "$ed_wrapper"; then
    rm -f "$w_tmp"
  else
    mv -f "$w_tmp" "$ed_wrapper"
  fi
}

# The apt options that point every setting that could read or write system state into the
# private folder: the system's sources, pins and dpkg status stay out of the resolution.
debian_apt_options() {
  echo "-o Dir::Etc::sourcelist=$1/etc/sources.list
 -o Dir::Etc::sourceparts=$1/etc/sources.list.d
 -o Dir::Etc::preferences=$1/etc/preferences
 -o Dir::Etc::preferencesparts=$1/etc/preferences.d
 -o Dir::State=$1/state
 -o Dir::State::status=$1/status
 -o Dir::Cache=$1/cache
 -o APT::Architecture=$2
 -o APT::Architectures=$2
 -o Acquire::Languages=none
 -o Debug::NoLocking=1
 -o APT::Sandbox::User=root"
}

# Unpacks ED_PACKAGES of ed_suite and the closure of their hard dependencies into ed_root.
debian_unpack() {
  u_arch=$(dpkg --print-architecture)
  if [ "$u_arch" != amd64 ]; then
    echo "$ed_name: only amd64 is supported (this machine is $u_arch)" >&2
    return 1
  fi
  u_apt="$ed_dir/apt"
  mkdir -p "$u_apt/etc/preferences.d" "$u_apt/etc/apt.conf.d" "$u_apt/etc/sources.list.d" \
    "$u_apt/state/lists/partial" "$u_apt/cache/archives/partial" "$ed_dir/debs"
  . "$here/debian-mirror.sh"
  u_mirror=$(debian_mirror)
  # The archive keys of every current Debian suite ship in debian-archive-keyring.
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $u_mirror $ed_suite main" >"$u_apt/etc/sources.list"
  : >"$u_apt/status"
  u_opts=$(debian_apt_options "$u_apt" "$u_arch")
  echo "$ed_name: Debian $ed_suite from $u_mirror" >&2
  # shellcheck disable=SC2086
  apt-get $u_opts -q update >&2
  # The closure of the hard dependencies (Depends/PreDepends only), as the suite resolves them.
  # Virtual names (<...>) are provided by real packages that the closure also holds.
  # shellcheck disable=SC2086
  u_pkgs=$(apt-cache $u_opts depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances $ED_PACKAGES libc6 |
    grep -v '^ ' | grep -v '^<' | sort -u)
  # shellcheck disable=SC2086
  u_pkgs=$(printf '%s\n' $u_pkgs | grep -v -E "^($DEBIAN_MACHINERY${ED_EXCLUDES:+|$ED_EXCLUDES})\$" || true)
  # shellcheck disable=SC2086
  echo "$ed_name: downloading $(echo $u_pkgs | wc -w) packages: $(echo $u_pkgs)" >&2
  # shellcheck disable=SC2086
  (cd "$ed_dir/debs" && apt-get $u_opts -q download $u_pkgs >&2)
  rm -rf "$ed_root"
  mkdir -p "$ed_root"
  for u_deb in "$ed_dir"/debs/*.deb; do
    dpkg -x "$u_deb" "$ed_root"
  done
  debian_check_libraries || return 1
  # The lists and downloaded archives are not needed to run; keep the cache small.
  rm -rf "$u_apt/state/lists" "$u_apt/cache" "$ed_dir/debs"
}

# Fails, naming them, when the unpacked ED_BIN misses libraries the closure did not bring:
# better here than a wrapper that pretends to work.
debian_check_libraries() {
  c_loader="$ed_root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
  [ -e "$c_loader" ] || c_loader="$ed_root/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
  if [ ! -e "$c_loader" ]; then
    echo "$ed_name: no dynamic loader in the unpacked libc6" >&2
    return 1
  fi
  c_libs=$(editor_library_path | sed "s|\\\$d|$ed_root|g")
  c_missing=$("$c_loader" --library-path "$c_libs" --list "$ed_root/$ED_BIN" | grep 'not found' || true)
  if [ -n "$c_missing" ]; then
    echo "$ed_name: $ED_BIN still misses libraries:" >&2
    echo "$c_missing" >&2
    return 1
  fi
}
