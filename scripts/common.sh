# Shared settings and helpers for the scripts behind the Makefile.
# Sourced, not executed.

set -euo pipefail
umask 022

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=../UPSTREAM
# PG_NVWAL_UPSTREAM names another such file, for the test of what happens
# when Debian's archive no longer has the pinned version.
. "${PG_NVWAL_UPSTREAM:-$TOP/UPSTREAM}"

BUILD="$TOP/build"
TREE="$BUILD/postgresql"
RELEASE_BUILD="$BUILD/meson-release"	# optimized, no asserts; installed
CHECK_BUILD="$BUILD/meson-check"		# cassert, tested by make check
INSTALL="$BUILD/install"
DEMO="$BUILD/demo"

# Where the pinned tarball is kept, outside the repository, so that it is
# fetched once per machine.
if [ "$(id -u)" -eq 0 ]; then
	CACHE_DIR=${PG_NVWAL_CACHE:-/var/cache/pg-nvwal}
else
	CACHE_DIR=${PG_NVWAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pg-nvwal}
fi

# Print the URI of the machine's Debian archive (not the security archive),
# taken from its existing apt sources, in either format; nothing if none.
debian_archive_uri()
{
	local codename f
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	{
		# deb822 style: an enabled stanza with Types: deb and the release's
		# suite.
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -r "$f" ] || continue
			awk -v cn="$codename" '
				function flush() {
					if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " cn " ") &&
						uris != "" && tolower(enabled) != "no")
						{ split(uris, u, " "); print u[1]; }
					types = suites = uris = enabled = "";
				}
				/^[ \t]*$/   { flush(); next }
				tolower($0) ~ /^types:/   { sub(/^[^:]*:[ \t]*/, ""); types = $0 }
				tolower($0) ~ /^suites:/  { sub(/^[^:]*:[ \t]*/, ""); suites = $0 }
				tolower($0) ~ /^uris:/    { sub(/^[^:]*:[ \t]*/, ""); uris = $0 }
				tolower($0) ~ /^enabled:/ { sub(/^[^:]*:[ \t]*/, ""); enabled = $0 }
				END { flush() }' "$f"
		done
		# One-line style: deb [options] URI suite components...
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -r "$f" ] || continue
			sed -E -e 's/\[[^]]*\]//' "$f" |
				awk -v cn="$codename" '$1 == "deb" && $3 == cn { print $2 }'
		done
	} | awk '!/-security/ && !seen { print; seen = 1 }'
}

# The newest version of source package $1 that apt's deb-src entries offer,
# of upstream version $2 if given (e.g. 18.6, for 18.6-3).  apt-cache fails
# when no source list offers the package yet: that is an empty answer, not
# an error (set -o pipefail would make it one).
debian_offered_version()
{
	{ apt-cache showsrc "$1" 2>/dev/null || true; } |
		awk -v v="${2:+$2-}" '$1 == "Version:" && index($2, v) == 1 { print $2 }' |
		sort -V | tail -n 1
}

# die_pin_gone FILE: FILE, which UPSTREAM pins, could not be fetched.  Say
# why when it is because Debian's archive has moved on to another version
# of the source package, and what to do then.
die_pin_gone()
{
	local file=$1 offered
	offered=$(debian_offered_version "$DEBIAN_SOURCE")
	if [ -n "$offered" ] && [ "$offered" != "$DEBIAN_VERSION" ]; then
		die "Debian's archive no longer has $file: UPSTREAM pins $DEBIAN_SOURCE $DEBIAN_VERSION, and the archive has $offered now (it keeps one version).  Run 'make upstream-update' to move UPSTREAM to $offered and rebase the series on it (README.md, \"When Debian moves on\"); or point PG_NVWAL_CACHE at a cache that holds the pinned files."
	fi
	if [ "$file" = "$TARBALL" ]; then
		die "could not download $file through apt${offered:+ (the archive has $DEBIAN_SOURCE $offered)}; is the Debian archive reachable?  Or download postgresql-$PG_VERSION.tar.bz2 yourself and run 'make tree PG_TARBALL=/path/to/it'"
	fi
	die "could not download $file through apt${offered:+ (the archive has $DEBIAN_SOURCE $offered)}; is the Debian archive reachable?  PG_NVWAL_CACHE can point at a cache that holds the pinned files"
}

# initdb and postgres refuse to run as root, so when we are root the build,
# the tests and the servers run as an unprivileged user of their own.
if [ "$(id -u)" -eq 0 ]; then
	BUILD_USER=${PG_BUILD_USER:-pgbuild}
else
	BUILD_USER=$(id -un)
fi

die()  { printf '%s: error: %s\n' "${0##*/}" "$*" >&2; exit 1; }
note() { printf '==> %s\n' "$*"; }

as_root()
{
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		die "need root for: $* (and sudo is not installed)"
	fi
}

# Create the unprivileged build user if needed and make sure it can reach
# the repository.  Cheap when everything is in place.
ensure_build_user()
{
	[ "$(id -u)" -eq 0 ] || return 0
	if ! id "$BUILD_USER" >/dev/null 2>&1; then
		note "creating unprivileged build user \"$BUILD_USER\""
		useradd --create-home --shell /bin/bash "$BUILD_USER"
	fi
	# The build user must be able to traverse every directory above the
	# repository; grant search permission where it is missing.
	local d=$TOP
	while [ "$d" != / ]; do
		if ! runuser -u "$BUILD_USER" -- test -x "$d"; then
			note "granting search permission on $d so that \"$BUILD_USER\" can reach the repository"
			chmod o+x "$d"
		fi
		d=$(dirname "$d")
	done
	mkdir -p "$BUILD"
}

# Run a command as the build user, with an environment that cannot pick up
# tools from root's home (pyenv, cargo, ...) nor the unrelated PostgreSQL
# binaries some machines have in /usr/local/bin.
as_builder()
{
	local home
	home=$(getent passwd "$BUILD_USER" | cut -d: -f6)
	local -a envv=(
		"HOME=$home" "USER=$BUILD_USER" "LOGNAME=$BUILD_USER"
		"PATH=/usr/bin:/bin" "LANG=C.UTF-8" "SHELL=/bin/bash"
	)
	# Test knobs that callers may set.
	local v
	for v in PG_TEST_EXTRA PG_TEST_INITDB_EXTRA_OPTS TEMP_CONFIG \
		PG_TEST_TIMEOUT_DEFAULT PMEM_IS_PMEM_FORCE PG_TEST_NOCLEAN \
		CCACHE_DIR; do
		if [ -n "${!v+x}" ]; then
			envv+=("$v=${!v}")
		fi
	done
	if [ "$(id -u)" -eq 0 ]; then
		runuser -u "$BUILD_USER" -- env -i "${envv[@]}" "$@"
	else
		env -i "${envv[@]}" "$@"
	fi
}

# Make a directory under build/ that belongs to the build user.
builder_dir()
{
	mkdir -p "$1"
	if [ "$(id -u)" -eq 0 ]; then
		chown "$BUILD_USER": "$1"
	fi
}

# Run git in the tree, unaffected by the user's or the system's git
# configuration, so that applying and exporting patches gives the same bytes
# everywhere.
tgit()
{
	GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
		git -C "$TREE" -c user.name="pg-nvwal" -c user.email="pg-nvwal@localhost" \
		-c core.abbrev=12 -c diff.algorithm=myers "$@"
}

# What the tree was made from: a digest of UPSTREAM and the series, and the
# tree's HEAD then.  Written by "make tree" and "make series".
TREE_STAMP="$BUILD/.tree-stamp"

series_digest()
{
	(
		cd "$TOP/patches"
		cat ../UPSTREAM series
		grep -v '^#' series | while read -r p || [ -n "$p" ]; do
			[ -n "$p" ] && cat "$p"
		done
	) 2>/dev/null | sha256sum | cut -d' ' -f1
}

# How results files name the series they ran on: the digest of patches/
# (which, unlike the tree's commit hashes, stays the same each time the tree
# is made) and the pg-nvwal commit.
series_name()
{
	echo "$(series_digest | cut -c1-12) from pg-nvwal $(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo '?')"
}

record_tree_stamp()
{
	printf '%s %s\n' "$(series_digest)" "$(tgit rev-parse HEAD)" > "$TREE_STAMP"
}

# Does the tree hold work that patches/ lacks?  Uncommitted changes, a
# stash, or commits that differ from patches/ and were made after the tree
# was made or last exported.
tree_has_unexported_work()
{
	local stamp_head
	[ -d "$TREE/.git" ] || return 1
	[ -z "$(tgit status --porcelain)" ] || return 0
	[ -z "$(tgit stash list)" ] || return 0
	stamp_head=$(cut -d' ' -f2 "$TREE_STAMP" 2>/dev/null || true)
	[ "$stamp_head" = "$(tgit rev-parse HEAD)" ] && return 1
	! "$TOP/scripts/series.sh" check >/dev/null 2>&1
}

# Make sure build/postgresql exists and was made from the current patches/
# and UPSTREAM: remake it when they changed under a tree without work of its
# own, refuse when the tree has such work.
ensure_tree()
{
	if [ ! -d "$TREE/.git" ]; then
		"$TOP/scripts/tree.sh"
		return
	fi
	[ "$(cut -d' ' -f1 "$TREE_STAMP" 2>/dev/null)" = "$(series_digest)" ] && return
	if "$TOP/scripts/series.sh" check >/dev/null 2>&1; then
		record_tree_stamp			# exported with "make series"
	elif ! tree_has_unexported_work; then
		note "patches/ or UPSTREAM changed since $TREE was made; remaking it"
		"$TOP/scripts/tree.sh"
	else
		die "patches/ or UPSTREAM changed since $TREE was made, and the tree has work that is not in patches/ (see 'make series-check'); export it with 'make series', or discard it with 'make tree FORCE=1'"
	fi
}

# free_port PORT: the first TCP port from PORT up that nothing listens on at
# 127.0.0.1.
free_port()
{
	local p=$1
	while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do
		p=$((p + 1))
	done
	echo "$p"
}

# init_cluster BINDIR DATADIR PORT [INITDB-OPTION...] [-- SETTING...]
# Create a cluster as the build user, reachable on 127.0.0.1:PORT only (no
# Unix socket), with trust authentication for user "postgres", and append
# the given settings to its postgresql.conf.  initdb's output goes to
# DATADIR.initdb.log.
init_cluster()
{
	local bin=$1 data=$2 port=$3
	shift 3
	local -a initdb_opts=() settings=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		initdb_opts+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	settings=("$@")
	builder_dir "$(dirname "$data")"

	as_builder "$bin/initdb" -D "$data" -U postgres --auth=trust --no-instructions \
		"${initdb_opts[@]}" > "$data.initdb.log" 2>&1 ||
		{ tail -n 20 "$data.initdb.log" >&2; die "initdb failed; see $data.initdb.log"; }
	{
		printf '\n# Added by pg-nvwal'"'"'s scripts.\n'
		printf '%s\n' "port = $port" "listen_addresses = '127.0.0.1'" \
			"unix_socket_directories = ''" "max_connections = 100"
		printf '%s\n' "${settings[@]}"
	} | as_builder tee -a "$data/postgresql.conf" >/dev/null
}
