# TreeFilter.pm: what the tree filters of issue 35 share (see PLAN.md):
# reading and writing a file, and refilling a comment or README paragraph
# after a change, so that the diff shows the change and no more.

package TreeFilter;

use strict;
use warnings;
use Exporter 'import';

our @EXPORT = qw(slurp spew width refill refill_c refill_readme must);

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

# Refill each paragraph of "s" that "subst" changes: paragraphs are runs of
# lines that "para_re" matches, each starting with what "prefix_re" matches,
# filled to "max" columns.  Returns the new text and how many changed.
sub refill_paragraphs
{
	my ($s, $para_re, $prefix_re, $max, $subst) = @_;
	my $count = 0;

	$s =~ s{((?:$para_re\n)+)}{
		my $para = $1;
		my ($prefix) = $para =~ /^($prefix_re)/;
		my @lines = map { substr($_, length($prefix)) } split /\n/, $para;
		my $r = refill(\@lines, $prefix, $max, $subst);
		$count++ if defined $r;
		defined $r ? $r : $para;
	}mge;
	return ($s, $count);
}

# C comments ("\t * " lines, 79 columns), and README paragraphs (lines of
# text without indentation, 76 columns).
sub refill_c
{
	my ($s, $subst) = @_;
	return refill_paragraphs($s, qr/^\t* \* \S.*/m, qr/\t* \* /, 79, $subst);
}

sub refill_readme
{
	my ($s, $subst) = @_;
	return refill_paragraphs($s, qr/^[^\s].*/m, qr//, 76, $subst);
}

sub must
{
	my ($ok, $what) = @_;
	die "$0: $what\n" unless $ok;
}

1;
