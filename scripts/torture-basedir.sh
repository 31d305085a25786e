#!/bin/bash
# torture-basedir.sh DIR COMMAND...: meson test's wrapper for the jobs of
# "TORTURE_JOBS=N make torture" (scripts/torture.sh).  COMMAND is the
# test's testwrap command line; its --basedir, under which testwrap makes
# the test's testrun directory, becomes DIR, so that the jobs do not share
# one directory.
dir=$1
shift
args=()
seen=
while [ $# -gt 0 ]; do
	if [ "$1" = --basedir ] && [ $# -gt 1 ]; then
		args+=(--basedir "$dir")
		seen=1
		shift 2
		continue
	fi
	args+=("$1")
	shift
done
if [ -z "$seen" ]; then
	echo "torture-basedir.sh: no --basedir in the test's command; has testwrap changed?" >&2
	exit 1
fi
exec "${args[@]}"
