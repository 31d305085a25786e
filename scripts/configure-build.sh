#!/bin/bash
# Build the tree with ./configure and make (in build/autoconf, a VPATH
# build, so that the tree stays clean for meson), then run the series' own
# tests there.  Both build systems must keep working.  This build is made
# without libpmem, so that it also covers what the series does in builds
# that lack it (the msync() fallback, refusing pmem_drain).  Last, it
# builds the tree with EXEC_BACKEND (see below).
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

# The suites that the series adds (check-suites), wherever they are in the
# tree: src/test/modules/NAME, src/test/NAME or src/bin/NAME, and
# contrib/NAME beside it.  They hold all of the series' own tests.
rc=0
while read -r s _ || [ -n "$s" ]; do
	case "$s" in ''|'#'*) continue ;; esac
	found=
	for d in src/test/modules/$s src/test/$s src/bin/$s; do
		if [ -f "$TREE/$d/Makefile" ]; then
			found=$d
			break
		fi
	done
	if [ -z "$found" ]; then
		echo "make check-configure: suite \"$s\" of check-suites is nowhere in the tree"
		rc=1
		continue
	fi
	note "make check in $found"
	as_builder make -C "$dir/$found" check || rc=1
	# A contrib module of the same name is in the same meson suite
	# (contrib/nvwal in "nvwal"): run its tests too.
	if [ -f "$TREE/contrib/$s/Makefile" ]; then
		note "make check in contrib/$s"
		as_builder make -C "$dir/contrib/$s" check || rc=1
	fi
done < "$TOP/check-suites"

# The tree must also build where processes are started by exec() rather
# than forked (EXEC_BACKEND, as on Windows), and refuse NVWAL there with a
# clear error, since the ring's mapping cannot be inherited.
if "$TOP/scripts/build.sh" exec-backend; then
	tmp=$(as_builder mktemp -d)
	if as_builder "$BUILD/exec-backend-install/bin/initdb" -D "$tmp/data" \
		--nvwal-path="$tmp/nvwal" --nvwal-size=32MB > "$tmp/initdb.log" 2>&1; then
		echo "make check-configure: initdb of an EXEC_BACKEND build made a cluster with NVWAL"
		rc=1
	elif ! grep -q 'NVWAL is not supported by this build' "$tmp/initdb.log"; then
		echo "make check-configure: initdb of an EXEC_BACKEND build failed without saying that NVWAL is not supported:"
		tail -n 20 "$tmp/initdb.log"
		rc=1
	else
		note "the EXEC_BACKEND build builds, and refuses NVWAL"
	fi
	rm -rf "$tmp"
else
	rc=1
fi
exit $rc
