#!/bin/bash
# Create build/postgresql: the pristine upstream release as a git
# repository (first commit tagged "upstream"), with every patch of
# patches/series applied on top as one commit each.
. "$(dirname "$0")/common.sh"

SRC_LIST=/etc/apt/sources.list.d/pg-nvwal-deb-src.sources

# Print the URI of the machine's Debian archive (not the security archive),
# taken from its existing apt sources, in either format.
debian_archive_uri()
{
	local codename
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	{
		# deb822 style: a stanza with Types: deb and the release's suite.
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -r "$f" ] || continue
			awk -v cn="$codename" '
				function flush() {
					if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " cn " ") && uris != "")
						{ split(uris, u, " "); print u[1]; }
					types = suites = uris = "";
				}
				/^[ \t]*$/ { flush(); next }
				/^Types:/  { sub(/^Types:[ \t]*/, "");  types = $0 }
				/^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
				/^URIs:/   { sub(/^URIs:[ \t]*/, "");   uris = $0 }
				END { flush() }' "$f"
		done
		# One-line style: deb [options] URI suite components...
		for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
			[ -r "$f" ] || continue
			sed -E -e 's/\[[^]]*\]//' "$f" |
				awk -v cn="$codename" '$1 == "deb" && $3 == cn { print $2 }'
		done
	} | grep -v -- '-security' | head -n 1
}

fetch_tarball()
{
	local dest=$1 tmp uri
	if ! apt-cache showsrc "$DEBIAN_SOURCE" 2>/dev/null | grep -qx "Version: $DEBIAN_VERSION"; then
		if [ ! -e "$SRC_LIST" ]; then
			uri=$(debian_archive_uri)
			[ -n "$uri" ] || die "cannot find a Debian archive in the apt sources of this machine; download postgresql-$PG_VERSION.tar.bz2 yourself and run 'make tree PG_TARBALL=/path/to/it'"
			note "adding a source-only apt entry for Debian $DEBIAN_SUITE ($uri) in $SRC_LIST"
			as_root tee "$SRC_LIST" >/dev/null <<EOT
# Added by pg-nvwal's "make tree" to fetch the pristine PostgreSQL tarball
# with "apt-get source".  Source packages only: it changes no binary package.
Types: deb-src
URIs: $uri
Suites: $DEBIAN_SUITE
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
		fi
		note "updating apt's package lists"
		as_root apt-get update -q >/dev/null
	fi
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	note "downloading $DEBIAN_SOURCE $DEBIAN_VERSION source package"
	if ! (cd "$tmp" && as_root apt-get source -q --download-only "$DEBIAN_SOURCE=$DEBIAN_VERSION" >/dev/null); then
		rm -rf "$tmp"
		die "apt-get source could not download $DEBIAN_SOURCE $DEBIAN_VERSION; download postgresql-$PG_VERSION.tar.bz2 yourself and run 'make tree PG_TARBALL=/path/to/it'"
	fi
	[ -f "$tmp/$TARBALL" ] || die "the source package has no $TARBALL"
	as_root mkdir -p "$(dirname "$dest")"
	as_root mv "$tmp/$TARBALL" "$dest"
	rm -rf "$tmp"
}

# 1. The tarball.
if [ -n "${PG_TARBALL:-}" ]; then
	tarball=$PG_TARBALL
	[ -f "$tarball" ] || die "PG_TARBALL: no such file: $tarball"
else
	tarball="$CACHE_DIR/$TARBALL"
	[ -f "$tarball" ] || fetch_tarball "$tarball"
fi
sum=$(sha256sum "$tarball" | cut -d' ' -f1)
if [ "$sum" != "$TARBALL_SHA256" ]; then
	die "checksum mismatch for $tarball: got $sum, expected $TARBALL_SHA256 (PostgreSQL $PG_VERSION as pinned in UPSTREAM)"
fi

# 2. Never throw away work that is only in the tree: uncommitted edits, or
# commits that differ from the series the tree was made from.
if [ -d "$TREE/.git" ] && [ -z "${FORCE:-}" ]; then
	if [ -n "$(git -C "$TREE" status --porcelain)" ]; then
		die "$TREE has uncommitted changes; commit and export them ('make series'), or run 'make tree FORCE=1' to discard them"
	fi
	if [ "$(cat "$BUILD/.tree-series" 2>/dev/null)" = "$(series_digest)" ] &&
		! "$TOP/scripts/series.sh" check >/dev/null 2>&1; then
		die "$TREE has commits that are not in patches/ (see 'make series-check'); export them with 'make series', or run 'make tree FORCE=1' to discard them"
	fi
fi

# 3. Pristine import.
note "unpacking $tarball into $TREE"
rm -rf "$TREE" "$TREE.tmp"
mkdir -p "$TREE.tmp"
tar -xjf "$tarball" -C "$TREE.tmp"
top=$(ls "$TREE.tmp")
[ "$(echo "$top" | wc -l)" -eq 1 ] || die "$tarball does not have a single top-level directory"
mv "$TREE.tmp/$top" "$TREE"
rmdir "$TREE.tmp"

tgit() { git -C "$TREE" -c user.name="pg-nvwal" -c user.email="pg-nvwal@localhost" "$@"; }
tgit init -q -b main
tgit config user.name "pg-nvwal"
tgit config user.email "pg-nvwal@localhost"
tgit config core.abbrev 12
tgit add -A -f .
GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000" \
	tgit commit -q -m "Import PostgreSQL $PG_VERSION ($TARBALL)"
tgit tag upstream

# 4. The series.
n=0
while read -r p; do
	case "$p" in ''|'#'*) continue ;; esac
	[ -f "$TOP/patches/$p" ] || die "patches/series names $p, which does not exist"
	if ! tgit am -q --keep-cr "$TOP/patches/$p" >/dev/null 2>&1; then
		tgit am --abort >/dev/null 2>&1 || true
		die "patch patches/$p does not apply to the tree (after $n patches)"
	fi
	n=$((n + 1))
done < "$TOP/patches/series"
series_digest > "$BUILD/.tree-series"
note "$TREE: PostgreSQL $PG_VERSION with $n patches applied"
