#!/bin/bash
# Build the tree at each commit of the series, one after the other, as a
# reviewer applying the patches one by one would: each patch must leave a
# tree that builds (and a patch that uses a function a later patch adds
# would not).  The commits are checked out in a worktree of their own,
# build/series-build/postgresql, and built incrementally with meson and
# ninja in build/series-build/meson, assert-enabled; libpmem is used from
# the patch that adds its option on (it is "auto", and deps.sh installs
# it: checked below).  ccache and ninja make each step rebuild only
# what the patch touched.  Prints one line per commit; stops at the first
# that does not build, with its errors.  Warnings in the files a patch
# changes are listed under it, and fail the run once every commit is built
# (a patch must not warn where the series as a whole does not); so do a
# design README (transam/README.nvwal) that names a function its commit
# does not have, and code that cites an NVWAL invariant its README does
# not define: each patch brings the design of its own code.  Not part
# of "make check": on 2 cores, about 26 minutes with a cold ccache and 7
# once it is warm (December 2026).
. "$(dirname "$0")/common.sh"

ensure_build_user
ensure_tree
base="$BUILD/series-build"
wt="$base/postgresql"
dir="$base/meson"
mkdir -p "$base"

# A worktree of the tree's repository, detached; remade every time, so that
# nothing left in it from an earlier run (or a run that stopped) counts.
if [ -e "$wt" ]; then
	tgit worktree remove --force "$wt" 2>/dev/null || rm -rf "$wt"
fi
tgit worktree prune
commits=$(tgit rev-list --reverse upstream..HEAD)
[ -n "$commits" ] || die "the tree has no commit after tag upstream"
n=$(wc -w <<< "$commits")
tgit worktree add --quiet --detach "$wt" "$(sed -n 1p <<< "$commits")"
# The build user reads the worktree, and meson writes nothing into it.
chmod -R a+rX "$wt"
builder_dir "$dir"

opts=(
	--buildtype=debugoptimized -Dcassert=true
	-Dssl=openssl -Dicu=enabled -Dliburing=enabled
	-Dlz4=enabled -Dzstd=enabled -Dzlib=enabled -Dreadline=enabled
	-Dtap_tests=enabled -Dplpython=disabled -Dplperl=disabled -Dpltcl=disabled
	-Dllvm=disabled -Dnls=disabled -Ddocs=disabled -Ddocs_pdf=disabled
)
i=0 start=$(date +%s) warned=0 stale=0
readme=src/backend/access/transam/README.nvwal
for c in $commits; do
	i=$((i + 1))
	subject=$(tgit log -1 --format=%s "$c")
	tgit -C "$wt" checkout --quiet --detach "$c"
	chmod -R a+rX "$wt"
	t0=$(date +%s)
	if [ ! -f "$dir/build.ninja" ]; then
		as_builder meson setup "${opts[@]}" "$dir" "$wt" > "$dir/.setup.log" 2>&1 ||
			{ tail -n 40 "$dir/.setup.log" >&2; die "meson setup failed at commit $i ($subject)"; }
	fi
	if ! as_builder ninja -C "$dir" > "$dir/.build.log" 2>&1; then
		printf '%2d/%d FAILED %s\n' "$i" "$n" "$subject"
		{ grep -E -B2 -A8 'error:|FAILED' "$dir/.build.log" || true; } | sed -n 1,80p
		die "commit $i of $n does not build; see $dir/.build.log"
	fi
	if grep -q "option('libpmem'" "$wt/meson_options.txt" &&
		! grep -q '^#define USE_LIBPMEM 1' "$dir/src/include/pg_config.h"; then
		die "commit $i ($subject) has the libpmem option, but the build does not use libpmem"
	fi
	printf '%2d/%d built in %4d s  %s\n' "$i" "$n" $(( $(date +%s) - t0 )) "$subject"
	# warnings in the files this commit changes
	files=$(tgit diff-tree --no-commit-id --name-only -r "$c" | grep -E '\.[ch]$' || true)
	for f in $files; do
		w=$({ grep -F "$f" "$dir/.build.log" || true; } | { grep -E 'warning:' || true; } | sort -u)
		if [ -n "$w" ]; then
			printf '%s\n' "$w" | sed 's/^/      /'
			warned=$((warned + 1))
		fi
	done
	# The design README arrives with the code it describes: it names no
	# function that this commit lacks, and defines every NVWAL invariant
	# that the code cites.
	if [ -f "$wt/$readme" ]; then
		for fn in $(grep -oE '\b[A-Za-z_][A-Za-z0-9_]*\(\)' "$wt/$readme" | sed 's/()$//' | sort -u); do
			tgit -C "$wt" grep -q -w -e "$fn" -- '*.c' '*.h' '*.pl' '*.pm' && continue
			printf '      %s names %s(), which this commit does not have\n' "$readme" "$fn"
			stale=$((stale + 1))
		done
		for k in $(tgit -C "$wt" grep -h -o -e 'NVWAL invariant [0-9]*' -- '*.c' '*.h' '*.pl' '*.pm' | awk '{print $3}' | sort -un); do
			grep -q "^NVWAL invariant $k\." "$wt/$readme" && continue
			printf '      the code cites NVWAL invariant %s, which %s does not define\n' "$k" "$readme"
			stale=$((stale + 1))
		done
	fi
done
tgit worktree remove --force "$wt"
[ $warned -eq 0 ] || die "all $n commits build, but with warnings in $warned of the files they change (listed above)"
[ $stale -eq 0 ] || die "all $n commits build, but $stale of their design READMEs name code they lack, or lack an invariant the code cites (listed above)"
note "all $n commits build, with no warning in the files they change, and each design README names only code its commit has ($(( ($(date +%s) - start) / 60 )) min)"
