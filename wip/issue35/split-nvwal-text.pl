#!/usr/bin/perl
#
# split-nvwal-text.pl: a second tree filter, after split-nvwal.pl: the
# comments and README.nvwal that point to recovery from the ring in nvwal.c
# point to nvwalrecovery.c, with the paragraph refilled.  Does nothing to a
# tree without nvwalrecovery.c.

use strict;
use warnings;

my $dir = 'src/backend/access/transam';
exit 0 unless -f "$dir/nvwalrecovery.c";

sub slurp
{
	my ($f) = @_;
	open(my $fh, '<', $f) or die "$f: $!";
	local $/;
	my $s = <$fh>;
	close $fh;
	return $s;
}

sub spew
{
	my ($f, $s) = @_;
	open(my $fh, '>', $f) or die "$f: $!";
	print $fh $s;
	close $fh or die "$f: $!";
}

sub width
{
	my ($s) = @_;
	my $w = 0;
	for my $ch (split //, $s)
	{
		$w = $ch eq "\t" ? ($w + 4) - ($w % 4) : $w + 1;
	}
	return $w;
}

# Refill a paragraph (its lines, without their prefix) after "subst" has
# changed its text: lines before the first change stay, and so do the lines
# after the point where the new filling meets an old line break again, so
# that the diff shows the change and no more.
sub refill
{
	my ($lines, $prefix, $max, $subst) = @_;
	my @t = @$lines;
	my $old = join(' ', @t);
	my $new = $subst->($old);
	return undef if $new eq $old;

	my $d = 0;
	$d++ while substr($old, $d, 1) eq substr($new, $d, 1);
	my ($k, $pos) = (0, 0);
	while ($k < $#t && $pos + length($t[$k]) + 1 <= $d)
	{
		$pos += length($t[$k]) + 1;
		$k++;
	}
	my @out = map { $prefix . $_ } @t[0 .. $k - 1];
	my @tok = split /( +)/, substr($new, $pos);
	my $line = '';
	while (@tok)
	{
		my $word = shift @tok;
		my $sep = @tok ? shift @tok : '';
		if ($line ne '' && width($prefix . $line . $word) > $max)
		{
			$line =~ s/ +\z//;
			push @out, $prefix . $line;
			$line = '';
			my $rest = join('', $word, $sep, @tok);
			for my $j ($k + 1 .. $#t)
			{
				if (join(' ', @t[$j .. $#t]) eq $rest)
				{
					push @out, map { $prefix . $_ } @t[$j .. $#t];
					return join("\n", @out) . "\n";
				}
			}
		}
		$line .= $word . $sep;
	}
	$line =~ s/ +\z//;
	push @out, $prefix . $line;
	return join("\n", @out) . "\n";
}

# Refill each paragraph of a C comment ("\t * " lines) that "subst" changes.
sub refill_c
{
	my ($s, $subst) = @_;
	my $count = 0;
	$s =~ s{((?:^\t* \* \S.*\n)+)}{
		my $para = $1;
		$para =~ /^(\t* \* )/;
		my $prefix = $1;
		my @lines = map { substr($_, length($prefix)) } split /\n/, $para;
		my $r = refill(\@lines, $prefix, 79, $subst);
		$count++ if defined $r;
		defined $r ? $r : $para;
	}mge;
	return ($s, $count);
}

# The same for a README paragraph: lines of text without indentation.
sub refill_readme
{
	my ($s, $subst) = @_;
	my $count = 0;
	$s =~ s{((?:^[^\s].*\n)+)}{
		my $para = $1;
		my @lines = split /\n/, $para;
		my $r = refill(\@lines, '', 76, $subst);
		$count++ if defined $r;
		defined $r ? $r : $para;
	}mge;
	return ($s, $count);
}

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
