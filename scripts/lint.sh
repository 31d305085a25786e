#!/bin/bash
# Check the repository's own shell scripts (scripts/, bench/, .ci/run):
# each must parse (bash -n), and no pipeline may feed a reader that stops
# reading early (grep -q, grep -m, head).  Then check that every mutation
# of the power-cut torture (test/torture/mutations/) still applies to the
# tree, within the function it names (scripts/mutation.pl): one that no
# longer does proves nothing, and "make torture-mutations" would stop at it.
# Last, check that the cover letter and the docs name the series as
# patches/series has it.
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
# Docs that name the series' size or a patch by number go stale when the
# series is re-cut.  The cover letter's "[PATCH 00/N]" and its list of
# patches must match patches/series, title for title; elsewhere (results
# and the torture's log excepted: they are dated records of the series of
# their day), "N patches" must give the series' count and "patch N" must
# name a patch that exists.
if perl -e '
	my $top = shift;
	open(my $s, "<", "$top/patches/series") or die "patches/series: $!\n";
	my @series = grep { /\S/ } map { chomp; $_ } <$s>;
	my $n = @series;
	my (@subject, $bad);
	for my $i (0 .. $#series)
	{
		open(my $p, "<", "$top/patches/$series[$i]") or die "$series[$i]: $!\n";
		local $/;
		my $text = <$p>;
		# the header ends at the first empty line; Subject: may be folded
		my ($hdr) = split /\n\n/, $text, 2;
		$hdr =~ s/\n[ \t]+/ /g;
		($subject[$i + 1]) = $hdr =~ /^Subject: (?:\[PATCH[^\]]*\] )?(.*)$/m;
	}
	open(my $c, "<", "$top/patches/0000-cover-letter") or die "cover letter: $!\n";
	my %listed;
	while (<$c>)
	{
		if ($. == 1 && !/^\[PATCH 00\/$n\] /)
		{
			print "patches/0000-cover-letter:1: says ", /(\d+)\]/ ? $1 : "no", " patches, the series has $n\n";
			$bad = 1;
		}
		next unless /^  (\d\d) (.*)$/;
		my ($num, $title) = ($1 + 0, $2);
		$listed{$num} = 1;
		if ($num < 1 || $num > $n)
		{
			print "patches/0000-cover-letter:$.: lists patch $num, the series has $n\n";
			$bad = 1;
		}
		elsif ($title ne $subject[$num])
		{
			print "patches/0000-cover-letter:$.: lists $num as \"$title\", its subject is \"$subject[$num]\"\n";
			$bad = 1;
		}
	}
	for my $i (1 .. $n)
	{
		next if $listed{$i};
		print "patches/0000-cover-letter: does not list patch $i, \"$subject[$i]\"\n";
		$bad = 1;
	}
	# each file whole, so that a count wrapped onto the next line is seen
	for my $f (@ARGV)
	{
		open(my $d, "<", "$top/$f") or next;
		local $/;
		my $text = <$d>;
		my $line = sub { 1 + (substr($text, 0, $_[0]) =~ tr/\n//) };
		while ($text =~ /\b(\d+)\s+patches\b/g)
		{
			next if $1 == $n;
			printf "%s:%d: names %d patches, the series has %d\n",
			  $f, $line->($-[0]), $1, $n;
			$bad = 1;
		}
		while ($text =~ /\b[Pp]atch(?:es)?\s+(\d+)\b/g)
		{
			next if $1 >= 1 && $1 <= $n;
			printf "%s:%d: names patch %d, the series has %d\n",
			  $f, $line->($-[0]), $1, $n;
			$bad = 1;
		}
	}
	exit($bad ? 1 : 0);' "$TOP" $(git -C "$TOP" ls-files | grep -Ev '^patches/|/results/|^scripts/lint\.sh$'); then
	echo "lint: the cover letter lists the $(grep -c . "$TOP/patches/series") patches of patches/series, and no doc names another count or a patch that does not exist"
else
	echo "lint: fix the counts and numbers above (a re-cut series makes them stale)"
	rc=1
fi
exit $rc
