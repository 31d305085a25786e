#!/usr/bin/perl
#
# nvwal-header-comment.pl: a tree filter, after split-nvwal.pl: nvwal.c's
# header comment no longer says that it serves recovery from the ring, in
# the versions that split-nvwal-text.pl did not recognize.

use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use TreeFilter;

my $dir = 'src/backend/access/transam';
exit 0 unless -f "$dir/nvwalrecovery.c";

my $f = "$dir/nvwal.c";
my $s = slurp($f);
my ($t, $n) = refill_c($s, sub {
	my ($text) = @_;
	$text =~ s/It also serves recovery from the ring: .*?How the ring serves as WAL buffers is xlog\.c's business, and the file's format is src\/common\/nvwal_format\.c's\./Recovery from the ring is nvwalrecovery.c's business, which reads the ring through the functions here; how the ring serves as WAL buffers is xlog.c's, and the file's format is src\/common\/nvwal_format.c's./;
	return $text;
});
spew($f, $t) if $n;
die "nvwal.c: still says it serves recovery\n" if $t =~ /It also\s+\*?\s*serves recovery/;
exit 0;
