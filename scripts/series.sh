#!/bin/bash
# series.sh export: write the tree's commits since "upstream" to patches/.
# series.sh check:  say what differs between the tree and patches/.
. "$(dirname "$0")/common.sh"

mode=${1:-}

# Export the commits upstream..HEAD of the tree into directory $1 together
# with a series file.  Options make the output stable: no signature, zero
# commit hashes, fixed abbreviation and diffstat width.
export_to()
{
	local out=$1
	tgit format-patch -q -N --zero-commit --no-signature --stat=80 \
		-o "$out" upstream..HEAD >/dev/null
	(cd "$out" && ls -1 -- *.patch 2>/dev/null || true) > "$out/series"
}

[ -d "$TREE/.git" ] || { [ "$mode" = check ] && { note "no tree in $TREE; nothing to check"; exit 0; }; die "no tree in $TREE; run 'make tree' first"; }
tgit rev-parse -q --verify upstream >/dev/null || die "$TREE has no tag \"upstream\""

case "$mode" in
export)
	if [ -n "$(tgit status --porcelain)" ]; then
		tgit status --short | sed -n 1,20p >&2
		die "$TREE has uncommitted changes; commit them before exporting"
	fi
	tmp=$(mktemp -d)
	export_to "$tmp"
	rm -f "$TOP"/patches/*.patch
	mkdir -p "$TOP/patches"
	cp "$tmp"/*.patch "$TOP/patches/" 2>/dev/null || true
	cp "$tmp/series" "$TOP/patches/series"
	rm -rf "$tmp"
	record_tree_stamp
	note "exported $(grep -c . "$TOP/patches/series" || true) patches to patches/"
	;;
check)
	rc=0
	dirty=$(tgit status --porcelain)
	if [ -n "$dirty" ]; then
		echo "uncommitted changes in $TREE (commit them, then 'make series'):"
		printf '%s\n' "$dirty" | sed -n '1,20s/^/    /p'
		rc=1
	fi
	tmp=$(mktemp -d)
	export_to "$tmp"
	if ! diff -u <(grep -v '^#' "$TOP/patches/series" 2>/dev/null | grep . || true) \
			<(grep . "$tmp/series" || true) > "$tmp/series.diff"; then
		echo "patches/series differs from the tree's commits since upstream:"
		sed 's/^/    /' "$tmp/series.diff"
		rc=1
	else
		while read -r p; do
			if ! cmp -s "$tmp/$p" "$TOP/patches/$p"; then
				echo "patches/$p differs from the tree's commit:"
				{ diff -u "$TOP/patches/$p" "$tmp/$p" || true; } | sed -n '1,40s/^/    /p'
				rc=1
			fi
		done < "$tmp/series"
	fi
	if [ -n "$(tgit stash list)" ]; then
		echo "$TREE has stashed changes (git stash list); they are not in patches/"
		rc=1
	fi
	# Patch files lying around that the series does not name.
	for f in "$TOP"/patches/*.patch; do
		[ -e "$f" ] || continue
		if ! grep -qxF "$(basename "$f")" "$tmp/series"; then
			echo "patches/$(basename "$f") is not in the tree's series"
			rc=1
		fi
	done
	rm -rf "$tmp"
	if [ $rc -eq 0 ]; then
		note "patches/ matches $TREE"
	else
		echo "Run 'make series' to export the tree to patches/."
	fi
	exit $rc
	;;
*)
	die "usage: series.sh export|check"
	;;
esac
