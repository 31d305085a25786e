#!/bin/bash
# build.sh release:  the optimized build without assertions, installed into
#                    build/install (what users, the demo and benchmarks run).
# build.sh check:    the assert-enabled build that "make check" tests;
#                    "build.sh check install" also installs it into
#                    build/check-install (for the benchmark smoke run).
# build.sh exec-backend: the tree as Windows builds it, every process
#                    started by exec() (EXEC_BACKEND), assert-enabled,
#                    installed into build/exec-backend-install; for make
#                    check-configure.
# build.sh upstream: pristine PostgreSQL from the same tarball, no patches,
#                    built like "release" and installed into
#                    build/upstream-install, for benchmarks side by side.
# Both build directories are kept, so rebuilding is incremental (and
# ccache makes even a fresh tree cheap to rebuild).
. "$(dirname "$0")/common.sh"

kind=${1:-release}
install=no
[ "$kind" != check ] || [ "${2:-}" != install ] || install=yes
ensure_build_user
src=$TREE
if [ "$kind" = upstream ]; then
	# The pristine source, unpacked once per tarball.
	src="$BUILD/upstream-src"
	tarball=$("$TOP/scripts/tarball.sh")
	if [ "$(cat "$src/.pg-nvwal-tarball" 2>/dev/null)" != "$TARBALL_SHA256" ]; then
		note "unpacking pristine $TARBALL into $src"
		rm -rf "$src" "$src.tmp"
		mkdir -p "$src.tmp"
		tar -xjf "$tarball" -C "$src.tmp"
		mv "$src.tmp"/* "$src"
		rmdir "$src.tmp"
		echo "$TARBALL_SHA256" > "$src/.pg-nvwal-tarball"
	fi
else
	ensure_tree
fi

opts=(
	--buildtype=debugoptimized
	-Dssl=openssl -Dicu=enabled -Dliburing=enabled
	-Dlz4=enabled -Dzstd=enabled -Dzlib=enabled -Dreadline=enabled
	-Dlibxml=enabled -Dlibxslt=enabled
	-Dtap_tests=enabled
	# Not needed here; pinned off so that nothing is picked up by chance.
	-Dplpython=disabled -Dplperl=disabled -Dpltcl=disabled -Dllvm=disabled
	-Dnls=disabled -Dgssapi=disabled -Dldap=disabled -Dpam=disabled
	-Dlibcurl=disabled -Dlibnuma=disabled -Dsystemd=disabled
	-Dselinux=disabled -Dbonjour=disabled -Duuid=none -Ddocs=disabled
	-Ddocs_pdf=disabled
)
# The series adds the libpmem option; use it whenever the tree has it.
if grep -q "option('libpmem'" "$src/meson_options.txt"; then
	opts+=(-Dlibpmem=enabled)
fi

case "$kind" in
release)
	dir=$RELEASE_BUILD
	prefix=$INSTALL
	opts+=(-Dcassert=false "--prefix=$prefix")
	;;
check)
	dir=$CHECK_BUILD
	prefix="$BUILD/check-install"
	opts+=(-Dcassert=true -Dinjection_points=true "--prefix=$prefix")
	;;
exec-backend)
	dir="$BUILD/meson-exec-backend"
	prefix="$BUILD/exec-backend-install"
	opts+=(-Dcassert=true -Dc_args=-DEXEC_BACKEND "--prefix=$prefix")
	;;
upstream)
	dir="$BUILD/meson-upstream"
	prefix="$BUILD/upstream-install"
	opts+=(-Dcassert=false "--prefix=$prefix")
	;;
*)
	die "usage: build.sh release|check [install]|exec-backend|upstream"
	;;
esac

builder_dir "$dir"
[ "$kind" = check ] && [ $install = no ] || builder_dir "$prefix"

# (Re)configure only when the options changed or the directory is new.
stamp="$dir/.pg-nvwal-options"
want="${opts[*]}"
if [ ! -f "$dir/build.ninja" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	note "configuring $kind build in $dir"
	reconf=()
	[ -f "$dir/build.ninja" ] && reconf=(--reconfigure)
	as_builder meson setup "${reconf[@]}" "${opts[@]}" "$dir" "$src" > "$dir/.setup.log" 2>&1 ||
		{ tail -n 40 "$dir/.setup.log" >&2; die "meson setup failed; see $dir/.setup.log"; }
	as_builder sh -c "printf '%s' \"\$1\" > \"\$2\"" sh "$want" "$stamp"
fi

note "building ($kind) in $dir"
as_builder ninja -C "$dir" > "$dir/.build.log" 2>&1 ||
	{ { grep -E -B2 -A8 'error:|FAILED' "$dir/.build.log" || true; } | sed -n 1,80p >&2; die "build failed; see $dir/.build.log"; }
{ grep -E 'warning:' "$dir/.build.log" || true; } | sort -u | sed -n 1,20p >&2

if [ "$kind" != check ] || [ $install = yes ]; then
	as_builder meson install -C "$dir" --quiet --only-changed > "$dir/.install.log" 2>&1 ||
		{ tail -n 40 "$dir/.install.log" >&2; die "meson install failed; see $dir/.install.log"; }
	note "installed into $prefix"
fi
