#!/bin/bash
# Create build/postgresql: the pristine upstream release as a git
# repository (first commit tagged "upstream"), with every patch of
# patches/series applied on top as one commit each.
. "$(dirname "$0")/common.sh"

# 1. The tarball.
tarball=$("$TOP/scripts/tarball.sh")

# 2. Never throw away work that is only in the tree.
if [ -d "$TREE/.git" ] && [ -z "${FORCE:-}" ]; then
	tree_has_unexported_work &&
		die "$TREE holds work that is not in patches/ (see 'make series-check'); export it with 'make series', or run 'make tree FORCE=1' to discard it"
fi

# 3. Pristine import.
note "unpacking $tarball into $TREE"
rm -f "$TREE_STAMP"
rm -rf "$TREE" "$TREE.tmp"
mkdir -p "$TREE.tmp"
tar -xjf "$tarball" -C "$TREE.tmp"
top=$(ls "$TREE.tmp")
[ "$(echo "$top" | wc -l)" -eq 1 ] || die "$tarball does not have a single top-level directory"
mv "$TREE.tmp/$top" "$TREE"
rmdir "$TREE.tmp"

tgit init -q -b main
tgit config core.abbrev 12
# Commits made in the tree by someone without a git identity of their own.
if ! git config user.email >/dev/null; then
	tgit config user.name "pg-nvwal"
	tgit config user.email "pg-nvwal@localhost"
fi
tgit add -A -f .
GIT_AUTHOR_DATE="@0 +0000" GIT_COMMITTER_DATE="@0 +0000" \
	tgit commit -q -m "Import PostgreSQL $PG_VERSION ($TARBALL)"
tgit tag upstream

# 4. The series.
n=0
while read -r p || [ -n "$p" ]; do
	case "$p" in ''|'#'*) continue ;; esac
	[ -f "$TOP/patches/$p" ] || die "patches/series names $p, which does not exist"
	if ! out=$(tgit am -q "$TOP/patches/$p" 2>&1); then
		printf '%s\n' "$out" | tail -n 20 >&2
		tgit am --abort >/dev/null 2>&1 || true
		die "patch patches/$p does not apply to the tree (after $n patches); the tree is left with the patches before it"
	fi
	n=$((n + 1))
done < "$TOP/patches/series"
record_tree_stamp
note "$TREE: PostgreSQL $PG_VERSION with $n patches applied"
