#!/bin/bash
# Create build/postgresql: the pristine upstream release as a git
# repository (first commit tagged "upstream"), with every patch of
# patches/series applied on top as one commit each.
. "$(dirname "$0")/common.sh"

SRC_LIST=/etc/apt/sources.list.d/pg-nvwal-deb-src.sources

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

# The newest revision of the pinned upstream version that apt offers, e.g.
# 18.6-3; the orig tarball is the same for every revision.
available_version()
{
	apt-cache showsrc "$DEBIAN_SOURCE" 2>/dev/null |
		awk -v v="$PG_VERSION" '$1 == "Version:" && index($2, v "-") == 1 { print $2 }' |
		sort -V | tail -n 1
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
	[ -f "$dir/$TARBALL" ] ||
		die "could not download $TARBALL through apt; download postgresql-$PG_VERSION.tar.bz2 yourself and run 'make tree PG_TARBALL=/path/to/it'"
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

# 2. Never throw away work that is only in the tree.
if [ -d "$TREE/.git" ] && [ -z "${FORCE:-}" ]; then
	tree_has_unexported_work &&
		die "$TREE holds work that is not in patches/ (see 'make series-check'); export it with 'make series', or run 'make tree FORCE=1' to discard it"
fi

# 3. Pristine import.
note "unpacking $tarball into $TREE"
rm -f "$TREE_STAMP"
rm -rf "$TREE" "$TREE.tmp"
mkdir -p "$TREE.tmp"
tar -xjf "$tarball" -C "$TREE.tmp"
top=$(ls "$TREE.tmp")
[ "$(echo "$top" | wc -l)" -eq 1 ] || die "$tarball does not have a single top-level directory"
mv "$TREE.tmp/$top" "$TREE"
rmdir "$TREE.tmp"

tgit init -q -b main
tgit config core.abbrev 12
# Commits made in the tree by someone without a git identity of their own.
if ! git config user.email >/dev/null; then
	tgit config user.name "pg-nvwal"
	tgit config user.email "pg-nvwal@localhost"
fi
tgit add -A -f .
GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000" \
	tgit commit -q -m "Import PostgreSQL $PG_VERSION ($TARBALL)"
tgit tag upstream

# 4. The series.
n=0
while read -r p || [ -n "$p" ]; do
	case "$p" in ''|'#'*) continue ;; esac
	[ -f "$TOP/patches/$p" ] || die "patches/series names $p, which does not exist"
	if ! out=$(tgit am -q "$TOP/patches/$p" 2>&1); then
		printf '%s\n' "$out" | tail -n 20 >&2
		tgit am --abort >/dev/null 2>&1 || true
		die "patch patches/$p does not apply to the tree (after $n patches); the tree is left with the patches before it"
	fi
	n=$((n + 1))
done < "$TOP/patches/series"
record_tree_stamp
note "$TREE: PostgreSQL $PG_VERSION with $n patches applied"
