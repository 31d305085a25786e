#!/bin/bash
# upstream-update.sh: "make upstream-update".  Debian's archive keeps one
# version of a source package; when it has moved on from the one UPSTREAM
# pins, move UPSTREAM to the version it has now (the tarball and Debian's
# packaging: version and sha256 of each file, as apt fetched and checked
# them against the archive's signed index) and rebase the series on it:
# make the tree anew from the new tarball and apply patches/ one by one,
# stopping at the first patch that does not apply.
#
# UPSTREAM_VERSION=18.7-1 moves to that version instead, if the archive has
# it.  Nothing is changed when the tree holds work that patches/ lacks.
. "$(dirname "$0")/common.sh"

[ -d "$TREE/.git" ] && tree_has_unexported_work &&
	die "$TREE holds work that is not in patches/ (see 'make series-check'); export it with 'make series' first"

note "updating apt's package lists"
as_root apt-get update -q >/dev/null || die "apt-get update failed"
version=${UPSTREAM_VERSION:-$(debian_offered_version "$DEBIAN_SOURCE")}
[ -n "$version" ] ||
	die "apt offers no source package $DEBIAN_SOURCE: run 'make tree' once, which adds a deb-src entry for Debian $DEBIAN_SUITE"
if [ "$version" = "$DEBIAN_VERSION" ]; then
	note "UPSTREAM pins $DEBIAN_SOURCE $DEBIAN_VERSION, which the archive has: nothing to do"
	exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
note "downloading $DEBIAN_SOURCE $version"
if id _apt >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
	chown _apt "$tmp"
fi
(cd "$tmp" && apt-get source -q --download-only "$DEBIAN_SOURCE=$version" >/dev/null) ||
	die "apt-get source $DEBIAN_SOURCE=$version failed: does the archive have that version?"

noepoch=${version#*:}
upstream=${noepoch%-*}
dsc="${DEBIAN_SOURCE}_$noepoch.dsc"
tarball=$(cd "$tmp" && ls "${DEBIAN_SOURCE}_$upstream".orig.tar.*)
packaging=$(cd "$tmp" && ls "${DEBIAN_SOURCE}_$noepoch".debian.tar.*)
for f in "$dsc" "$tarball" "$packaging"; do
	[ -f "$tmp/$f" ] || die "apt-get source did not give $f"
done
sum() { sha256sum "$tmp/$1" | cut -d' ' -f1; }

# The new pins, each key of UPSTREAM in its place.
new="$tmp/UPSTREAM"
sed -e "s|^PG_VERSION=.*|PG_VERSION=$upstream|" \
	-e "s|^DEBIAN_VERSION=.*|DEBIAN_VERSION=$version|" \
	-e "s|^TARBALL=.*|TARBALL=$tarball|" \
	-e "s|^TARBALL_SHA256=.*|TARBALL_SHA256=$(sum "$tarball")|" \
	-e "s|^DEBIAN_DSC=.*|DEBIAN_DSC=$dsc|" \
	-e "s|^DEBIAN_DSC_SHA256=.*|DEBIAN_DSC_SHA256=$(sum "$dsc")|" \
	-e "s|^DEBIAN_PACKAGING=.*|DEBIAN_PACKAGING=$packaging|" \
	-e "s|^DEBIAN_PACKAGING_SHA256=.*|DEBIAN_PACKAGING_SHA256=$(sum "$packaging")|" \
	-e "s|^DEB_FORK_SUFFIX=\(+[a-z]*\).*|DEB_FORK_SUFFIX=\11|" \
	"$TOP/UPSTREAM" > "$new"
old_version=$DEBIAN_VERSION
as_root mkdir -p "$CACHE_DIR"
for f in "$dsc" "$tarball" "$packaging"; do
	as_root cp "$tmp/$f" "$CACHE_DIR/$f"
done
cp "$new" "$TOP/UPSTREAM"
note "UPSTREAM: $DEBIAN_SOURCE $old_version -> $version (git diff UPSTREAM shows the new pins)"

# The tree anew, the series applied one patch at a time; tree.sh stops at
# the first that does not apply and leaves the tree with those before it.
if ! "$TOP/scripts/tree.sh"; then
	cat >&2 <<EOT

The series does not apply to $DEBIAN_SOURCE $version as it stands.  build/postgresql
holds the new release with the patches before the one named above.  Apply
that patch by hand there (git apply --reject, or patch -p1 --merge), fix and
commit it, then apply the rest with git am and run 'make series'.  Or go
back: git checkout UPSTREAM && make tree.
EOT
	exit 1
fi
"$TOP/scripts/series.sh" export
note "the series applies to $DEBIAN_SOURCE $version; patches/ is rebased on it.  Next: make check, make deb, and a commit of UPSTREAM and patches/"
