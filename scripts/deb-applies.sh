#!/bin/bash
# deb-applies.sh: check, in seconds, that "make deb" can put the series
# into Debian's packaging: Debian's source package (UPSTREAM) unpacked with
# its own patches, the series and packaging/debian/ added as make deb adds
# them, and every patch applied by dpkg-source as dpkg-buildpackage applies
# it (no fuzz).  Nothing is built.  Run by make check as one test.
. "$(dirname "$0")/common.sh"
. "$TOP/scripts/deb-common.sh"

ensure_build_user
DEB_WORK="$BUILD/deb-applies"
orig=$("$TOP/scripts/tarball.sh")
dsc=$(fetch_debian_file "$DEBIAN_SOURCE" "$DEBIAN_DSC" "$DEBIAN_DSC_SHA256")
packaging=$(fetch_debian_file "$DEBIAN_SOURCE" "$DEBIAN_PACKAGING" "$DEBIAN_PACKAGING_SHA256")
src=$(unpack_debian_source "$orig" "$dsc" "$packaging")
add_fork_packaging "$src"
if ! out=$(cd "$src" && as_builder dpkg-source --before-build . 2>&1); then
	printf '%s\n' "$out" | tail -n 20
	die "the series does not apply on top of Debian's $DEBIAN_SOURCE $DEBIAN_VERSION patches; make deb would fail"
fi
applied=$(grep -c '^nvwal/' "$src/debian/patches/series")
rm -rf "$DEB_WORK"
note "the series ($applied patches) applies on top of Debian's $DEBIAN_SOURCE $DEBIAN_VERSION and its patches"
