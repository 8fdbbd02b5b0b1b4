#!/bin/sh
# The Debian archive the editor install scripts download from: AGENT_LSP_DEBIAN_MIRROR when set,
# else the URI of the first Debian main archive entry in this machine's own apt sources, so a
# local mirror or a caching proxy that the machine uses is used here too.
#
# Sourced by the install scripts (`. "$here/debian-mirror.sh"; mirror=$(debian_mirror)`); run
# directly, it prints the mirror. Sources are read as apt reads them: /etc/apt/sources.list, then
# the *.list (one-line `deb [opts] URI suite comps`) and *.sources (deb822 stanzas) files of
# /etc/apt/sources.list.d in name order. An entry counts when it is a `deb` entry (enabled, for
# deb822), its components include `main`, a suite is this system's codename (VERSION_CODENAME in
# os-release) or one of Debian's aliases (stable, testing, unstable, sid, oldstable,
# oldoldstable), so -security and -updates suites and other vendors' repositories do not, and
# it is signed by the Debian archive keyring or names no key (another keyring means another
# vendor's repository that reuses Debian's suite names).
# AGENT_LSP_APT_ETC and AGENT_LSP_OS_RELEASE point elsewhere than /etc/apt and /etc/os-release
# (for tests).

debian_mirror() {
  if [ -n "${AGENT_LSP_DEBIAN_MIRROR:-}" ]; then
    echo "${AGENT_LSP_DEBIAN_MIRROR%/}"
    return 0
  fi
  _dm_etc=${AGENT_LSP_APT_ETC:-/etc/apt}
  _dm_release=${AGENT_LSP_OS_RELEASE:-/etc/os-release}
  _dm_codename=$(sed -n 's/^VERSION_CODENAME=["'\'']*\([^"'\'']*\).*/\1/p' "$_dm_release" 2>/dev/null | head -n 1)
  _dm_suites="$_dm_codename stable testing unstable sid oldstable oldoldstable"
  _dm_uri=$(
    {
      [ -f "$_dm_etc/sources.list" ] && echo "$_dm_etc/sources.list"
      # apt reads the parts folder in name order, .list and .sources alike.
      LC_ALL=C ls "$_dm_etc/sources.list.d" 2>/dev/null | grep -E '\.(list|sources)$' | sed "s|^|$_dm_etc/sources.list.d/|"
    } | while IFS= read -r _dm_file; do
      _debian_mirror_entries "$_dm_file" "$_dm_suites"
    done | head -n 1
  )
  if [ -z "$_dm_uri" ]; then
    # (No quote characters inside ${...} here: bash and dash parse them differently.)
    _dm_release_name=${_dm_codename:-this release}
    echo "debian-mirror: no Debian main archive entry (a 'deb' entry for $_dm_release_name with component main) in $_dm_etc/sources.list or $_dm_etc/sources.list.d; set AGENT_LSP_DEBIAN_MIRROR to a Debian mirror's URL" >&2
    return 1
  fi
  echo "${_dm_uri%/}"
}

# Prints the URI of every entry of one sources file that counts (see above), in file order.
_debian_mirror_entries() {
  case $1 in
    *.sources) _dm_format=deb822 ;;
    *) _dm_format=oneline ;;
  esac
  awk -v format="$_dm_format" -v suites="$2" '
    function counts(types, uri, suite_list, comps, key,    n, i, t, ok) {
      if (uri == "" || uri ~ /^cdrom:/) return 0
      n = split(types, t, /[ \t]+/); ok = 0
      for (i = 1; i <= n; i++) if (t[i] == "deb") ok = 1
      if (!ok) return 0
      n = split(comps, t, /[ \t]+/); ok = 0
      for (i = 1; i <= n; i++) if (t[i] == "main") ok = 1
      if (!ok) return 0
      n = split(suite_list, t, /[ \t]+/); ok = 0
      for (i = 1; i <= n; i++) if (t[i] != "" && (" " suites " ") ~ (" " t[i] " ")) ok = 1
      if (!ok) return 0
      return key == "" || key ~ /debian-archive-keyring/
    }
    function first_word(s,    t) { split(s, t, /[ \t]+/); return t[1] != "" ? t[1] : t[2] }
    # One-line format: deb [opt=value ...] URI suite component...
    format == "oneline" {
      sub(/#.*/, "")
      key = ""
      if (match($0, /\[[^]]*\]/)) {
        opts = substr($0, RSTART + 1, RLENGTH - 2)
        $0 = substr($0, 1, RSTART - 1) " " substr($0, RSTART + RLENGTH)
        if (match(opts, /signed-by=[^ \t]+/)) key = substr(opts, RSTART + 10, RLENGTH - 10)
      }
      if (NF < 4) next
      comps = ""
      for (i = 4; i <= NF; i++) comps = comps " " $i
      if (counts($1, $2, $3, comps, key)) print $2
      next
    }
    # deb822: stanzas of "Field: value" lines; a line starting with white space continues the
    # field above (an inline Signed-By key); "#" lines are comments; a blank line ends a stanza.
    function flush() {
      if (tolower(f["enabled"]) != "no" && counts(f["types"], first_word(f["uris"]), f["suites"], f["components"], f["signed-by"])) print first_word(f["uris"])
      split("", f); field = ""
    }
    /^#/ { next }
    /^[ \t]*$/ { flush(); next }
    /^[ \t]/ { if (field != "") f[field] = f[field] " " $0; next }
    {
      i = index($0, ":")
      if (i == 0) next
      field = tolower(substr($0, 1, i - 1))
      f[field] = substr($0, i + 1)
      sub(/^[ \t]+/, "", f[field]); sub(/[ \t]+$/, "", f[field])
    }
    END { if (format == "deb822") flush() }
  ' "$1"
}

case $0 in
  *debian-mirror.sh) debian_mirror ;;
esac
