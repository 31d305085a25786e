#!/bin/bash
# Regenerate configure and pg_config.h.in in build/postgresql after a change
# to configure.ac, with autoconf 2.69 as upstream does.
#
# Debian's autoconf2.69 carries a patch that spells the LARGE_OFF_T test of
# AC_SYS_LARGEFILE differently from GNU autoconf 2.69; undo that, so that a
# patch touching configure.ac changes in configure only what it caused.
. "$(dirname "$0")/common.sh"

[ -f "$TREE/configure.ac" ] || die "no tree in $TREE; run 'make tree' first"
command -v autoconf2.69 >/dev/null || die "autoconf2.69 is not installed; run 'make deps'"
cd "$TREE"
autoconf2.69
autoheader2.69
rm -rf autom4te.cache src/include/pg_config.h.in~
sed -i 's/^#define LARGE_OFF_T ((((off_t) 1 << 31) << 31) - 1 + (((off_t) 1 << 31) << 31))$/#define LARGE_OFF_T (((off_t) 1 << 62) - 1 + ((off_t) 1 << 62))/' configure
git diff --stat -- configure src/include/pg_config.h.in
