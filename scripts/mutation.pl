#!/usr/bin/perl
# The mutations of the power-cut torture (test/torture/mutations/*.txt):
# check that each still applies to the tree, or apply one.
#
#   mutation.pl check TREE SPEC...   every SPEC applies; exit 1 and say why not
#   mutation.pl apply TREE SPEC      apply SPEC to TREE, print the file changed
#
# A mutation takes out one persistence step of the series.  It is a file of
# "# " comment lines that say what it takes out, then:
#
#   file: PATH            the file in the tree it changes
#   function: NAME        the C function whose body holds the text
#   configs: A,B          the torture configurations that exercise it
#   <<<<
#   text to replace (whole lines)
#   ====
#   what replaces it
#   >>>>
#
# A mutation that no longer applies proves nothing, so "check" (which
# scripts/lint.sh runs in make check) fails when the text to replace does
# not occur exactly once in the file, when it is not within the named
# function's body, when a configuration is not one of the torture test's,
# or when a function of the series or of PostgreSQL that the comment
# names, as "Name()", is defined nowhere in the tree (names of the C
# library and of libpmem, such as "rename()", "posix_fallocate()" or
# "pmem_drain()", are not looked for): a renamed function must not leave
# a mutation that says it tests something that is gone.
use strict;
use warnings;

my ($mode, $tree, @specs) = @ARGV;
die "usage: $0 check|apply TREE SPEC...\n"
  unless defined $mode && $mode =~ /^(check|apply)$/ && defined $tree && @specs;
die "$0: apply takes one mutation\n" if $mode eq 'apply' && @specs != 1;

my $torture = "$tree/src/test/nvwal/t/020_power_torture.pl";

sub slurp
{
	my $path = shift;
	open(my $fh, '<', $path) or die "$path: $!\n";
	local $/;
	return <$fh>;
}

# the torture configurations: the keys of its %configs
sub torture_configs
{
	my $src = slurp($torture);
	my ($body) = $src =~ /^my %configs = \((.*?)^\);/ms
	  or die "$torture: no \"my %configs = (...);\" found\n";
	my %names = map { $_ => 1 } $body =~ /^\t(\w+) =>/mg;
	die "$torture: %configs names no configuration\n" unless %names;
	return \%names;
}

# Is NAME defined as a function or a function-like macro in the tree's C
# sources or headers?  PostgreSQL puts the name of a function it defines
# at the start of a line (static inline ones in headers too).
my %defined;
sub function_defined
{
	my $name = shift;
	return $defined{$name} //= do {
		my $re = "^($name|#define $name)\\(";
		my $out = qx{git -C "$tree" grep -l -E '$re' -- '*.c' '*.h' 2>/dev/null};
		$out ne '' ? 1 : 0;
	};
}

# Parse SPEC and check it against the tree.  Returns (file, old, new, src)
# or dies saying what is wrong.
sub check_spec
{
	my ($spec, $configs) = @_;
	my $text = slurp($spec);
	my ($file) = $text =~ /^file: (\S+)$/m or die "no \"file:\" line\n";
	my ($func) = $text =~ /^function: (\w+)$/m
	  or die "no \"function:\" line\n";
	my ($old, $new) = $text =~ /^<<<<\n(.*?)^====\n(.*?)^>>>>$/ms
	  or die "no <<<< ==== >>>> block\n";
	my $src = slurp("$tree/$file");

	my $n = () = $src =~ /\Q$old\E/g;
	die "the text to replace occurs $n times in $file, not once\n"
	  unless $n == 1;

	# the function's definition: from its name at the start of a line, with
	# a parameter list, to the next closing brace at the start of a line
	my @defs = $src =~ /(^\Q$func\E\([^;{]*?\)\n\{\n.*?^\})/msg;
	die "$file defines no function $func()\n" unless @defs;
	die "$func() is defined " . scalar(@defs) . " times in $file\n"
	  if @defs > 1;
	die "the text to replace is not in $func() in $file\n"
	  unless index($defs[0], $old) >= 0;

	if ($text =~ /^configs: (.*)$/m)
	{
		foreach my $c (split /\s*,\s*/, $1)
		{
			die "configs: \"$c\" is not a configuration of 020_power_torture.pl\n"
			  unless $configs->{$c};
		}
	}

	foreach my $line (grep { /^#/ } split /\n/, $text)
	{
		foreach my $name ($line =~ /\b([A-Za-z_]\w*)\(\)/g)
		{
			# the C library's (rename(), posix_fallocate()) and libpmem's
			next if $name =~ /^([a-z]+|posix_\w+|pmem_\w+)$/;
			die "its comment names $name(), which the tree does not define\n"
			  unless function_defined($name);
		}
	}
	return ($file, $old, $new, $src);
}

my $configs = torture_configs();
my $bad = 0;
foreach my $spec (@specs)
{
	(my $name = $spec) =~ s{.*/}{};
	my @r = eval { check_spec($spec, $configs) };
	if (!@r)
	{
		print STDERR "mutation $name does not apply to the tree: $@";
		$bad = 1;
		next;
	}
	next if $mode eq 'check';

	my ($file, $old, $new, $src) = @r;
	$src =~ s/\Q$old\E/$new/;
	open(my $fh, '>', "$tree/$file") or die "$tree/$file: $!\n";
	print $fh $src;
	close($fh) or die "$tree/$file: $!\n";
	print "$file\n";
}
exit($bad ? 1 : 0);
