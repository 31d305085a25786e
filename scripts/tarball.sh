#!/bin/bash
# Print the path of the pinned PostgreSQL tarball (UPSTREAM), fetching it
# into the cache first if needed, and checking its sha256 before it is used
# or cached.  PG_TARBALL=/path/to/postgresql-18.6.tar.bz2 names a tarball
# downloaded by hand.  Progress goes to standard error.
. "$(dirname "$0")/common.sh"

exec 3>&1 1>&2

SRC_LIST=/etc/apt/sources.list.d/pg-nvwal-deb-src.sources

# The newest revision of the pinned upstream version that apt offers, e.g.
# 18.6-3; the orig tarball is the same for every revision.
available_version()
{
	debian_offered_version "$DEBIAN_SOURCE" "$PG_VERSION"
}

# Download the tarball into directory $1.
fetch_tarball()
{
	local dir=$1 uri version
	uri=$(debian_archive_uri)
	version=$(available_version)
	if [ -z "$version" ] && [ -n "$uri" ]; then
		if [ ! -e "$SRC_LIST" ]; then
			note "adding a source-only apt entry for Debian $DEBIAN_SUITE ($uri) in $SRC_LIST"
			as_root tee "$SRC_LIST" >/dev/null <<EOT
# Added by pg-nvwal's "make tree" to fetch the pristine PostgreSQL tarball
# with "apt-get source".  Source packages only: it changes no binary package.
# Remove this file (and run apt-get update) if you no longer need it.
Types: deb-src
URIs: $uri
Suites: $DEBIAN_SUITE
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
		fi
		note "updating apt's package lists"
		if ! as_root apt-get update -q >/dev/null; then
			note "apt-get update failed with $SRC_LIST; removing it again"
			as_root rm -f "$SRC_LIST"
			as_root apt-get update -q >/dev/null || true
		fi
		version=$(available_version)
	fi

	if [ -n "$version" ]; then
		note "downloading source package $DEBIAN_SOURCE $version"
		# apt's download sandbox user must be able to write here
		if id _apt >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
			chown _apt "$dir"
		fi
		(cd "$dir" && apt-get source -q --download-only "$DEBIAN_SOURCE=$version" >/dev/null) || true
		if [ "$(id -u)" -eq 0 ]; then
			chown -R root: "$dir"
		fi
	fi
	# Where apt has no such source package (any more), the orig tarball can
	# still be in the archive's pool, fetched and checked by apt's helper.
	if [ ! -f "$dir/$TARBALL" ] && [ -n "$uri" ]; then
		note "fetching $TARBALL from the pool of $uri"
		/usr/lib/apt/apt-helper download-file \
			"$uri/pool/main/${DEBIAN_SOURCE:0:1}/$DEBIAN_SOURCE/$TARBALL" \
			"$dir/$TARBALL" "SHA256:$TARBALL_SHA256" >/dev/null 2>&1 || true
	fi
	# Debian's archive keeps one version of a source package: once it has
	# moved on, the pinned tarball is gone from it.
	[ -f "$dir/$TARBALL" ] || die_pin_gone "$TARBALL"
}

check_sum()
{
	[ "$(sha256sum "$1" | cut -d' ' -f1)" = "$TARBALL_SHA256" ]
}

# 1. The tarball, checked before it is used or cached.
if [ -n "${PG_TARBALL:-}" ]; then
	tarball=$PG_TARBALL
	[ -f "$tarball" ] || die "PG_TARBALL: no such file: $tarball"
	check_sum "$tarball" ||
		die "checksum mismatch for $tarball: it is not the PostgreSQL $PG_VERSION release pinned in UPSTREAM (sha256 $TARBALL_SHA256)"
else
	tarball="$CACHE_DIR/$TARBALL"
	if [ -f "$tarball" ] && ! check_sum "$tarball"; then
		note "removing $tarball: its checksum does not match"
		rm -f "$tarball"
	fi
	if [ ! -f "$tarball" ]; then
		tmp=$(mktemp -d)
		fetch_tarball "$tmp"
		if ! check_sum "$tmp/$TARBALL"; then
			rm -rf "$tmp"
			die "checksum mismatch for the downloaded $TARBALL: expected sha256 $TARBALL_SHA256 (UPSTREAM)"
		fi
		mkdir -p "$CACHE_DIR"
		mv "$tmp/$TARBALL" "$tarball"
		rm -rf "$tmp"
	fi
fi

echo "$tarball" >&3
