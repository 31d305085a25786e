#!/bin/bash
# Check the repository's own shell scripts (scripts/, bench/, .ci/run):
# each must parse (bash -n), and no pipeline may feed a reader that stops
# reading early (grep -q, grep -m, head).  Then check that every mutation
# of the power-cut torture (test/torture/mutations/) still applies to the
# tree, within the function it names (scripts/mutation.pl): one that no
# longer does proves nothing, and "make torture-mutations" would stop at it.
#
# Every script runs under "set -o pipefail" (common.sh, .ci/run).  When the
# reader of a pipe exits before its writer has written everything, the
# writer dies of SIGPIPE and the pipeline fails although the reader found
# what it looked for; whether it does depends on timing.  That made
# "initdb --help | grep -q -- --nvwal-path" report now and then that a
# build had no NVWAL, and the benchmark smoke run of "make check" fail on
# one CI run in several.  Readers that read all of their input
# ("grep PATTERN > /dev/null", which GNU grep 2.28 and later read to the
# end, and "sed -n 1,20p") cannot fail so.
. "$(dirname "$0")/common.sh"

cd "$TOP"
rc=0
for f in scripts/*.sh bench/*.sh .ci/run; do
	if ! err=$(bash -n "$f" 2>&1); then
		printf '%s: does not parse:\n%s\n' "$f" "$err"
		rc=1
	fi
	# a single "|" (not "||"), then head, or grep with -q or -m among its
	# options, on the same line or, after a line that ends in "|", at the
	# start of the next; comments skipped
	if perl -ne '
		next if /^\s*#/;
		my $reader = qr/(head\b|grep(\s+-\S+)*?\s+(-[a-zA-Z]*[qm][a-zA-Z]*\b|--quiet|--silent|--max-count))/;
		if (/(?<!\|)\|(?!\|)\s*$reader/ || ($piped && /^\s*$reader/))
		{
			print "$ARGV:$.: a pipe into a reader that stops early (SIGPIPE fails the pipeline under pipefail): $_";
			$bad = 1;
		}
		$piped = /(?<!\|)\|\s*$/;
		END { exit($bad ? 1 : 0) }' "$f"; then
		:
	else
		rc=1
	fi
done
[ $rc -eq 0 ] && echo "lint: the shell scripts parse, and no pipe feeds a reader that stops early"

if [ ! -d "$TREE/.git" ]; then
	echo "lint: there is no tree ($TREE) to check the torture's mutations against; run 'make tree'"
	rc=1
elif perl "$TOP/scripts/mutation.pl" check "$TREE" "$TOP"/test/torture/mutations/*.txt; then
	echo "lint: each of the torture's $(ls "$TOP"/test/torture/mutations/*.txt | wc -l) mutations applies to the tree, in the function it names"
else
	echo "lint: fix the mutations above (test/torture/mutations/) to match the tree"
	rc=1
fi
exit $rc
