#!/bin/bash
# pin-gone-test.sh: what "make tree" (and so make check and make deb) says
# when Debian's archive no longer has the version UPSTREAM pins: pin a
# version that the archive does not have, with an empty cache, and check
# that fetching its files fails saying what happened and what to do.  Run
# by make check as one test.
. "$(dirname "$0")/common.sh"
. "$TOP/scripts/deb-common.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
sed -e 's/^PG_VERSION=.*/PG_VERSION=18.0/' \
	-e 's/^DEBIAN_VERSION=.*/DEBIAN_VERSION=18.0-1/' \
	-e 's/^TARBALL=.*/TARBALL=postgresql-18_18.0.orig.tar.bz2/' \
	-e 's/^DEBIAN_DSC=.*/DEBIAN_DSC=postgresql-18_18.0-1.dsc/' \
	"$TOP/UPSTREAM" > "$tmp/UPSTREAM"
mkdir "$tmp/cache"
rc=0
for what in tarball dsc; do
	if [ $what = tarball ]; then
		cmd=("$TOP/scripts/tarball.sh")
	else
		cmd=(bash -c '. "$0/scripts/common.sh"; . "$0/scripts/deb-common.sh"; fetch_debian_file "$DEBIAN_SOURCE" "$DEBIAN_DSC" "$DEBIAN_DSC_SHA256"' "$TOP")
	fi
	if PG_NVWAL_UPSTREAM="$tmp/UPSTREAM" PG_NVWAL_CACHE="$tmp/cache" "${cmd[@]}" >"$tmp/out" 2>&1; then
		echo "pin-gone: fetching the $what of a version that the archive does not have succeeded"
		rc=1
	elif ! grep -q "Debian's archive no longer has postgresql-18_18.0[-.0-9a-z]*: UPSTREAM pins postgresql-18 18.0-1, and the archive has .* now .*Run 'make upstream-update'" "$tmp/out"; then
		echo "pin-gone: fetching the $what of a pin that the archive no longer has failed without saying so:"
		cat "$tmp/out"
		rc=1
	fi
done
[ $rc -eq 0 ] && note "pin-gone: a pin that Debian's archive no longer has fails saying so, and names 'make upstream-update'"
exit $rc
