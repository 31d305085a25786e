#!/bin/bash
# Build the tree with ./configure and make (in build/autoconf, a VPATH
# build, so that the tree stays clean for meson), then run the series' own
# tests there.  Both build systems must keep working.  This build is made
# without libpmem, so that it also covers what the series does in builds
# that lack it (the msync() fallback, refusing pmem_drain).
. "$(dirname "$0")/common.sh"

ensure_build_user
ensure_tree
dir="$BUILD/autoconf"
builder_dir "$dir"

# --enable-depend, so that make rebuilds what a changed header affects (a
# patch that changes pg_control.h must not leave objects built with the old
# layout).  A build directory configured without it is cleaned first.
if [ ! -f "$dir/config.status" ] || [ "$TREE/configure" -nt "$dir/config.status" ] ||
	! grep -q -- '--enable-depend' "$dir/config.status"; then
	if [ -f "$dir/GNUmakefile" ]; then
		note "cleaning $dir before configuring it again"
		as_builder make -C "$dir" -s clean > /dev/null 2>&1 || true
	fi
	note "configuring in $dir"
	as_builder sh -c 'cd "$1" && "$2/configure" --without-libpmem --with-liburing \
		--with-openssl --with-icu --with-lz4 --with-zstd --enable-tap-tests \
		--enable-cassert --enable-debug --enable-depend --without-perl --without-python' \
		sh "$dir" "$TREE" > "$dir/.configure.log" 2>&1 ||
		{ tail -n 30 "$dir/.configure.log" >&2; die "configure failed; see $dir/.configure.log"; }
fi
note "building with make in $dir"
as_builder make -C "$dir" -s -j"$(nproc)" > "$dir/.build.log" 2>&1 ||
	{ tail -n 40 "$dir/.build.log" >&2; die "make failed; see $dir/.build.log"; }

rc=0
while read -r s _ || [ -n "$s" ]; do
	case "$s" in ''|'#'*) continue ;; esac
	if [ -d "$TREE/src/test/modules/$s" ]; then
		note "make check in src/test/modules/$s"
		as_builder make -C "$dir/src/test/modules/$s" check || rc=1
	fi
done < "$TOP/check-suites"

# TAP tests the series adds to upstream suites.
for t in src/test/recovery:t/056_pmem_drain.pl src/test/recovery:t/057_nvwal.pl \
	src/test/recovery:t/058_nvwal_bad_input.pl src/test/recovery:t/059_nvwal_backup.pl \
	src/test/recovery:t/060_nvwal_readers.pl src/test/recovery:t/061_nvwal_standby.pl \
	src/test/recovery:t/062_nvwal_stats.pl src/test/recovery:t/063_nvwal_archive.pl \
	src/bin/pg_rewind:t/011_nvwal.pl src/bin/pg_nvwal:t/002_nvwal.pl; do
	note "make check in ${t%%:*} for ${t#*:}"
	as_builder make -C "$dir/${t%%:*}" check PROVE_TESTS="${t#*:}" || rc=1
done
exit $rc
