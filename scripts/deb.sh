#!/bin/bash
# deb.sh: "make deb".  Build Debian's postgresql-18 source package (the
# version UPSTREAM pins: its debian/ directory and Debian's patches,
# unchanged) with the series added to debian/patches after Debian's, as
# the packages an operator installs in place of Debian's own:
#
#   build/deb/         the fork's source package and every binary package it
#                      builds, with the .changes file; and the packages of
#                      postgresql-common that they need, built from Debian's
#                      source (Debian 12's is too old for PostgreSQL 18's)
#   build/deb/stock/   the same Debian source built without the series (its
#                      architecture-dependent packages), which "make
#                      check-deb" installs first and goes back to
#
# What is ours in the packaging is in packaging/debian/ (see its README.md);
# this script puts it in place.  Builds are skipped when their output is
# there and was made from the same inputs; DEB_REBUILD=1 forces them.
. "$(dirname "$0")/common.sh"
. "$TOP/scripts/deb-common.sh"

ensure_build_user
deb_build_deps
builder_dir "$DEB_WORK"
builder_dir "$DEB_OUT"
builder_dir "$DEB_STOCK"

orig=$("$TOP/scripts/tarball.sh")
dsc=$(fetch_debian_file "$DEBIAN_SOURCE" "$DEBIAN_DSC" "$DEBIAN_DSC_SHA256")
packaging=$(fetch_debian_file "$DEBIAN_SOURCE" "$DEBIAN_PACKAGING" "$DEBIAN_PACKAGING_SHA256")
pgcommon=$(fetch_debian_file postgresql-common "$PGCOMMON_TARBALL" "$PGCOMMON_TARBALL_SHA256")

start=$(date +%s)

# 1. postgresql-common, then its packages installed: postgresql-18's
# packaging builds with postgresql-common-dev.
stamp_common=$PGCOMMON_TARBALL_SHA256
if [ -n "${DEB_REBUILD:-}" ] || [ "$(cat "$DEB_OUT/.postgresql-common" 2>/dev/null)" != "$stamp_common" ]; then
	note "building postgresql-common $PGCOMMON_VERSION from Debian's source"
	w="$DEB_WORK/common"
	rm -rf "$w"
	builder_dir "$w"
	as_builder tar -xJf "$pgcommon" -C "$w"
	src=$(find "$w" -mindepth 1 -maxdepth 1 -type d)
	deb_buildpackage "$src" "$BUILD/deb-common.log" -b
	rm -f "$DEB_OUT"/postgresql-common*_*.deb "$DEB_OUT"/postgresql-client-common_*.deb \
		"$DEB_OUT"/postgresql_*.deb "$DEB_OUT"/postgresql-client_*.deb \
		"$DEB_OUT"/postgresql-doc_*.deb "$DEB_OUT"/postgresql-all_*.deb \
		"$DEB_OUT"/postgresql-server-dev-all_*.deb "$DEB_OUT"/postgresql-common_*.changes \
		"$DEB_OUT"/postgresql-common_*.buildinfo
	mv "$w"/*.deb "$w"/*.changes "$w"/*.buildinfo "$DEB_OUT/"
	echo "$stamp_common" > "$DEB_OUT/.postgresql-common"
	rm -rf "$w"
fi
install_pgcommon

# 2. The stock packages: Debian's source as it is.  Architecture-dependent
# packages only (-B): make check-deb needs no documentation package.
stamp_stock="$DEBIAN_DSC_SHA256 $TARBALL_SHA256 $DEBIAN_PACKAGING_SHA256 $stamp_common"
if [ -n "${DEB_REBUILD:-}" ] || [ "$(cat "$DEB_STOCK/.stamp" 2>/dev/null)" != "$stamp_stock" ]; then
	note "building Debian's $DEBIAN_SOURCE $DEBIAN_VERSION unchanged (the stock packages), log in build/deb-stock.log"
	src=$(unpack_debian_source "$orig" "$dsc" "$packaging")
	install_build_deps "$src"
	deb_buildpackage "$src" "$BUILD/deb-stock.log" -B
	rm -f "$DEB_STOCK"/*
	mv "$DEB_WORK"/*.deb "$DEB_WORK"/*.changes "$DEB_WORK"/*.buildinfo "$DEB_STOCK/"
	echo "$stamp_stock" > "$DEB_STOCK/.stamp"
fi

# 3. The fork's packages: the same source with the series and
# packaging/debian/, source package and every binary package.
stamp_fork="$stamp_stock $(series_digest) $(packaging_digest)"
if [ -n "${DEB_REBUILD:-}" ] || [ "$(cat "$DEB_OUT/.stamp" 2>/dev/null)" != "$stamp_fork" ]; then
	note "building $DEBIAN_SOURCE $FORK_VERSION: Debian's $DEBIAN_VERSION with the series, log in build/deb-fork.log"
	src=$(unpack_debian_source "$orig" "$dsc" "$packaging")
	add_fork_packaging "$src"
	# the source package is built too, from the pristine tarball beside it
	as_builder cp "$orig" "$DEB_WORK/$TARBALL"
	install_build_deps "$src"
	deb_buildpackage "$src" "$BUILD/deb-fork.log"
	rm -f "$DEB_OUT/.stamp" "$DEB_OUT/${DEBIAN_SOURCE}"_* "$DEB_OUT"/*_"$FORK_VERSION"_*.deb
	for f in "$DEB_WORK"/*; do
		[ -f "$f" ] && mv "$f" "$DEB_OUT/"
	done
	echo "$stamp_fork" > "$DEB_OUT/.stamp"
fi

note "make deb: done in $(( ($(date +%s) - start) / 60 )) min; the packages:"
(cd "$DEB_OUT" && ls -1 ./*.deb ./*.changes ./*.dsc 2>/dev/null | sed 's|^\./|    build/deb/|')
