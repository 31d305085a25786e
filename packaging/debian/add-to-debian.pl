#!/usr/bin/perl
# add-to-debian.pl PACKAGING-DIR DEBIAN-DIR
#
# Turn the debian/ directory of Debian's postgresql-NN source package, the
# series already added to its debian/patches, into the fork's packaging.
# Called by scripts/deb-common.sh (add_fork_packaging) with FORK_VERSION,
# PG_MAJOR, DEB_DATE and SERIES_LENGTH in the environment.
#
# Every change finds the lines of Debian's packaging it goes after, and dies
# when they are not there: a new Debian revision that moved them must be
# looked at, not patched blindly.

use strict;
use warnings;

my ($pkgdir, $debian) = @ARGV;
die "usage: $0 PACKAGING-DIR DEBIAN-DIR\n" unless defined $debian && -d $debian;
my %env;
for my $v (qw(FORK_VERSION PG_MAJOR DEB_DATE SERIES_LENGTH))
{
	die "$0: $v is not set\n" unless defined $ENV{$v} && $ENV{$v} ne '';
	$env{$v} = $ENV{$v};
}
my $major = $env{PG_MAJOR};
(my $marker = $env{FORK_VERSION}) =~ s/^.*?(\+[a-z]+)\d*$/$1/
  or die "$0: FORK_VERSION $env{FORK_VERSION} has no +name suffix\n";

# Who builds the fork's packages: DEB_MAINTAINER, for those who distribute
# them; the default names the project at a reserved domain, as it has no
# address of its own.  Debian's Uploaders go too: they do not upload these
# packages.  The changelog entry is ours, and names Debian's maintainers,
# whose entries follow it.  (Not XSBC-Original-Maintainer, as Ubuntu has
# it: Debian's lintian warns of it as an unknown field.)
my $maintainer = $ENV{DEB_MAINTAINER} || 'pg-nvwal developers <pg-nvwal@example.org>';

sub slurp
{
	my ($f) = @_;
	open(my $fh, '<', $f) or die "$0: could not read $f: $!\n";
	local $/;
	my $t = <$fh>;
	close $fh;
	return $t;
}

sub spew
{
	my ($f, $t, $mode) = @_;
	open(my $fh, '>', $f) or die "$0: could not write $f: $!\n";
	print $fh $t;
	close $fh or die "$0: could not write $f: $!\n";
	chmod($mode, $f) if defined $mode;
}

# Replace the first match of $re in file $f with $with (a string that may
# use $1...), or die saying what was looked for.
sub edit
{
	my ($f, $re, $with, $what) = @_;
	my $t = slurp($f);
	$t =~ s/$re/$with->()/e or die "$0: $f: could not find $what\n";
	spew($f, $t);
}

# Our files, with the major version and the fork's version marker filled in.
sub install_ours
{
	my ($name, $dest, $mode) = @_;
	my $t = slurp("$pkgdir/$name");
	$t =~ s/\@PG_MAJOR\@/$major/g;
	$t =~ s/\@FORK_MARKER\@/$marker/g;
	die "$0: $name: placeholder left\n" if $t =~ /\@[A-Z_]+\@/;
	spew($dest, $t, $mode);
}

# 1. debian/control: libpmem on the architectures that Debian builds it
# for; our name as maintainer; what the server package is.
edit("$debian/control", qr/^( libperl-dev,\n)/m,
	 sub { "$1 libpmem-dev [amd64 arm64 ppc64el],\n" },
	 'libperl-dev in Build-Depends');
my $original_maintainer;
edit("$debian/control", qr/^Maintainer: (.*)\n(?:Uploaders:\n(?: .*\n)*)?/m,
	 sub { $original_maintainer = $1; "Maintainer: $maintainer\n" },
	 'the Maintainer field');
edit("$debian/control",
	 qr/^(Package: postgresql-$major\n(?:.+\n)*?Description: .*\n(?: .*\n)*)/m,
	 sub {
		 $1 . " .\n"
		   . " This build adds a non-volatile WAL buffer (NVWAL): with the WAL buffers\n"
		   . " in a file on persistent memory, a commit is durable once its WAL is\n"
		   . " flushed from the CPU caches, without a write() or an fsync().  It opens\n"
		   . " Debian's PostgreSQL $major clusters as they are; pg_nvwal turns NVWAL on\n"
		   . " and off.  See /usr/share/doc/postgresql-$major/README.nvwal.gz.\n";
	 },
	 "the description of postgresql-$major");

# 2. debian/rules: configure with libpmem where it is built.
edit("$debian/rules", qr{^(include /usr/share/postgresql-common/server/postgresql\.mk\n)}m,
	 sub {
		 $1 . "\n"
		   . "# pg-nvwal: persistent memory through PMDK's libpmem, on the architectures\n"
		   . "# where Debian builds it (Build-Depends: libpmem-dev).\n"
		   . "ifneq (\$(filter amd64 arm64 ppc64el,\$(DEB_HOST_ARCH)),)\n"
		   . "  CONFIGURE_FLAGS += --with-libpmem\n"
		   . "endif\n";
	 },
	 'the include of postgresql.mk');

# 3. The server package: pg_nvwal and pg_nvwal_clone and their man pages
# next to the other server programs, the guard and its apt hook,
# README.nvwal, and Patroni's validators for NVWAL's settings.
edit("$debian/postgresql-$major.install", qr{^(usr/lib/postgresql/\*/bin/pg_ctl\n)}m,
	 sub { $1 . "usr/lib/postgresql/*/bin/pg_nvwal\nusr/lib/postgresql/*/bin/pg_nvwal_clone\n" },
	 'pg_ctl in the server package');
edit("$debian/postgresql-$major.install", qr{^(usr/share/postgresql/\*/man/man1/pg_ctl\.1\*\n)}m,
	 sub { $1 . "usr/share/postgresql/*/man/man1/pg_nvwal.1*\nusr/share/postgresql/*/man/man1/pg_nvwal_clone.1*\n" },
	 "pg_ctl's man page in the server package");
mkdir("$debian/nvwal") or die "$0: could not create $debian/nvwal: $!\n";
install_ours('nvwal-guard', "$debian/nvwal/nvwal-guard", 0755);
install_ours('nvwal-apt.conf', "$debian/nvwal/nvwal-apt.conf", 0644);
{
	my $t = slurp("$debian/postgresql-$major.install");
	$t .= "debian/nvwal/nvwal-guard usr/share/postgresql/$major/\n";
	$t .= "debian/nvwal/nvwal-apt.conf usr/share/postgresql/$major/\n";
	$t .= "usr/share/postgresql/*/patroni/nvwal.yml\n";
	spew("$debian/postgresql-$major.install", $t);
}
# A link, not a conffile: the hook must go away with the guard it runs
# when the package is removed, not wait for a purge.  A Patroni that reads
# validator files (4.1.5 does) reads them from the directory of its Python
# package, where the second link puts this version's; Debian 12's Patroni
# (3.0.2) has no such directory, and reads none.
die "$0: $debian/postgresql-$major.links exists; merge with it\n"
  if -e "$debian/postgresql-$major.links";
spew("$debian/postgresql-$major.links",
	 "usr/share/postgresql/$major/nvwal-apt.conf etc/apt/apt.conf.d/50postgresql-$major-nvwal\n"
	   . "usr/share/postgresql/$major/patroni/nvwal.yml usr/lib/python3/dist-packages/patroni/postgresql/available_parameters/postgresql-$major-nvwal.yml\n");
die "$0: $debian/postgresql-$major.docs exists; merge with it\n"
  if -e "$debian/postgresql-$major.docs";
spew("$debian/postgresql-$major.docs", "README.nvwal\n");

# 4. prerm: the guard runs first, before the clusters are stopped.
edit("$debian/postgresql-$major.prerm", qr/^(VERSION=.*\n)/m,
	 sub {
		 $1 . "\n"
		   . "# pg-nvwal: refuse to remove this server, or to replace it with one\n"
		   . "# without NVWAL, while a cluster of this version has NVWAL on.\n"
		   . "if [ -x /usr/share/postgresql/\$VERSION/nvwal-guard ]; then\n"
		   . "    /usr/share/postgresql/\$VERSION/nvwal-guard prerm \"\$@\"\n"
		   . "fi\n";
	 },
	 'the VERSION line of prerm');

# 5. The changelog entry, which gives the packages their version.
{
	my $t = slurp("$debian/changelog");
	my ($source) = $t =~ /^(\S+) \(/ or die "$0: $debian/changelog: no first entry\n";
	my $entry = <<"EOT";
$source ($env{FORK_VERSION}) bookworm; urgency=medium

  * PostgreSQL $major with a non-volatile WAL buffer (pg-nvwal): the pg-nvwal
    series, $env{SERIES_LENGTH} patches, in debian/patches/nvwal/ after Debian's.
    The rest of the packaging is Debian's, maintained by
    $original_maintainer.
  * Build-Depend on libpmem-dev and configure --with-libpmem on amd64, arm64
    and ppc64el.
  * postgresql-$major: ship pg_nvwal, pg_nvwal_clone (a replica-creation
    method for Patroni), their man pages and README.nvwal, and Patroni's
    validators for NVWAL's settings, where Patroni 4 reads them.
  * postgresql-$major: refuse to be removed, or replaced with a build without
    NVWAL, while a cluster has NVWAL on (nvwal-guard, from prerm and as an
    apt hook that runs before dpkg).

 -- $maintainer  $env{DEB_DATE}

EOT
	spew("$debian/changelog", $entry . $t);
}
