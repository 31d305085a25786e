#!/usr/bin/perl
#
# nvwal-on.pl: a tree filter (git filter-branch --tree-filter) that spells
# "is NVWAL on" one way, NvwalEnabled(), now an inline function in nvwal.h:
# - XLogCtl->nvwal goes, from the commit that first sets it on; before it,
#   the field, never set, keeps the ring's recovery code inert;
# - nvwal.c's "do nothing without NVWAL" tests of its mapping become
#   NvwalEnabled(), and its tests of nvwal_path, NvwalConfigured(); the
#   tests that ask whether this process holds the mapping stay.

use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use TreeFilter;

my $c = 'src/backend/access/transam/nvwal.c';
my $h = 'src/include/access/nvwal.h';
my $x = 'src/backend/access/transam/xlog.c';
exit 0 unless -f $c && -f $h;

my $src = slurp($c);
my $def = "/*\n * Is the server running with an NVWAL file?  Bootstrap mode never does:\n * it creates the file, but writes its WAL through ordinary buffers.\n */\nbool\nNvwalEnabled(void)\n{\n\treturn nvwal_path != NULL && nvwal_path[0] != '\\0' &&\n\t\t!IsBootstrapProcessingMode();\n}\n\n";
exit 0 unless index($src, $def) >= 0;

$src =~ s/\Q$def\E//;
$src =~ s/nvwal_path != NULL && nvwal_path\[0\] != '\\0'/NvwalConfigured()/g;
$src =~ s/= \(NvwalConfigured\(\)\);/= NvwalConfigured();/g;
$src =~ s/\bif \(nvwalMap\.addr == NULL \|\| shutdown_requested\)/if (!NvwalEnabled() || shutdown_requested)/g;
$src =~ s/\n\tif \(nvwalMap\.addr == NULL\)\n\t\treturn;\n/\n\tif (!NvwalEnabled())\n\t\treturn;\n/g;
spew($c, $src);

my $hdr = slurp($h);
$hdr =~ s/^extern bool NvwalEnabled\(void\);\n//m
  or die "nvwal.h: no NvwalEnabled\n";
$hdr =~ s/^(#include "datatype\/timestamp.h"\n)/$1#include "miscadmin.h"\n/m
  or die "nvwal.h: includes\n";
$hdr =~ s/^(struct ControlFileData;\n)/\/* Does the configuration name an NVWAL file? *\/\nstatic inline bool\nNvwalConfigured(void)\n{\n\treturn nvwal_path != NULL && nvwal_path[0] != '\\0';\n}\n\n\/*\n * Is the server running with an NVWAL file?  Bootstrap mode never does: it\n * creates the file, but writes its WAL through ordinary buffers.  Every\n * process of such a server has the file mapped, once it has attached to\n * shared memory (NvwalAttach()), and its ring is the WAL buffers.\n *\/\nstatic inline bool\nNvwalEnabled(void)\n{\n\treturn NvwalConfigured() && !IsBootstrapProcessingMode();\n}\n\n$1/m
  or die "nvwal.h: no struct ControlFileData\n";
spew($h, $hdr);

my $xs = slurp($x);
if ($xs =~ s/^\t\tXLogCtl->nvwal = true;\n//m)
{
	$xs =~ s/^\tbool\t\tnvwal;\n//m or die "xlog.c: no field nvwal\n";
	$xs =~ s/XLogCtl->nvwal(?![A-Za-z0-9_])/NvwalEnabled()/g;
	spew($x, $xs);
}
exit 0;
