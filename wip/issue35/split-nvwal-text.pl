#!/usr/bin/perl
#
# split-nvwal-text.pl: a second tree filter, after split-nvwal.pl: the
# comments and README.nvwal that point to recovery from the ring in nvwal.c
# point to nvwalrecovery.c, with the paragraph refilled.  Does nothing to a
# tree without nvwalrecovery.c.

use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use TreeFilter;

my $dir = 'src/backend/access/transam';
exit 0 unless -f "$dir/nvwalrecovery.c";

my $section = sub {
	my ($t) = @_;
	$t =~ s/"Recovery from the ring" in nvwal\.c/"Recovery from the ring" in nvwalrecovery.c/g;
	return $t;
};

for my $f ("$dir/xlog.c", "$dir/xlogrecovery.c")
{
	my $s = slurp($f);
	my ($t, $n) = refill_c($s, $section);
	spew($f, $t) if $n;
}

my $readme = "$dir/README.nvwal";
my $s = slurp($readme);
my $n;
($s, $n) = refill_readme($s, $section);
($s, $n) = refill_readme($s, sub {
	my ($t) = @_;
	$t =~ s/NvwalWriteBehind\(\), in nvwal\.c,/NvwalWriteBehind(), in nvwalrecovery.c,/;
	return $t;
});
my $old = <<'EOF';
  access/transam/nvwal.c        The file as a file: creating, checking,
                                locking and mapping it; written_behind and
                                the generation; flushing and draining ring
                                ranges; recovery from the ring; the
                                write-behind shared by recovery and the
                                walreceiver (NvwalWriteBehind()).
EOF
my $new = <<'EOF';
  access/transam/nvwal.c        The file as a file: creating, checking,
                                locking and mapping it; written_behind and
                                the generation; flushing and draining ring
                                ranges.
  access/transam/nvwalrecovery.c
                                Recovery from the ring, and the write-behind
                                shared by recovery and the walreceiver
                                (NvwalWriteBehind()).
EOF
$s =~ s/\Q$old\E/$new/;
spew($readme, $s);

# nvwal.c's header comment
my $c = slurp("$dir/nvwal.c");
my $oldc = <<'EOF';
 * pointer and generation, and making ranges of the ring durable.  It also
 * serves recovery from the ring: after a crash, it finds the WAL that only
 * the ring holds, hands it to recovery's page reader, and writes it behind
 * into pg_wal (NvwalWriteBehind(), which a standby's walreceiver uses for
 * what it stores into the ring too).  How the ring serves as WAL buffers is
 * xlog.c's business, and the file's format is src/common/nvwal_format.c's.
EOF
my $newc = <<'EOF';
 * pointer and generation, and making ranges of the ring durable.  Recovery
 * from the ring is nvwalrecovery.c's business, which reads the ring through
 * the functions here; how the ring serves as WAL buffers is xlog.c's, and
 * the file's format is src/common/nvwal_format.c's.
EOF
$c =~ s/\Q$oldc\E/$newc/;
spew("$dir/nvwal.c", $c);

exit 0;
