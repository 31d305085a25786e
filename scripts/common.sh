# Shared settings and helpers for the scripts behind the Makefile.
# Sourced, not executed.

set -euo pipefail
umask 022

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../UPSTREAM
. "$TOP/UPSTREAM"

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
		"CCACHE_DIR=$home/.ccache"
	)
	# Test knobs that callers may set.
	local v
	for v in PG_TEST_EXTRA PG_TEST_INITDB_EXTRA_OPTS TEMP_CONFIG \
		PG_TEST_TIMEOUT_DEFAULT PMEM_IS_PMEM_FORCE PG_TEST_NOCLEAN \
		MESON_TESTTHREADS; do
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

# A digest of the series, recorded when the tree is made, so that a change
# to patches/ (a pull, a checkout) is noticed before building a stale tree.
series_digest()
{
	(cd "$TOP/patches" && cat series $(grep -v '^#' series) 2>/dev/null) | sha256sum | cut -d' ' -f1
}

# Make sure build/postgresql exists and was made from the current patches/.
ensure_tree()
{
	local stamp="$BUILD/.tree-series"
	if [ ! -d "$TREE/.git" ]; then
		"$TOP/scripts/tree.sh"
		return
	fi
	if [ "$(cat "$stamp" 2>/dev/null)" != "$(series_digest)" ]; then
		if "$TOP/scripts/series.sh" check >/dev/null 2>&1; then
			series_digest > "$stamp"	# exported with "make series"
		else
			die "patches/ changed since $TREE was made, and the tree differs from it; run 'make tree' to remake the tree from patches/ (it refuses if that would lose work: see 'make series-check')"
		fi
	fi
}
