#!/usr/bin/perl
#
# ring-offsets.pl: a tree filter (git filter-branch --tree-filter) that has
# nvwal.c find WAL in the ring one way: NvwalRingAt() for a byte's place, and
# NvwalRingSpan() for the contiguous piece of a range, instead of computing
# offsets from the ring's start at each use.  The mapped ring's size is
# NvwalMappedRingSize().  Run after split-nvwal.pl.

use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use TreeFilter;

my $c = 'src/backend/access/transam/nvwal.c';
exit 0 unless -f $c;
my $s = slurp($c);
exit 0 unless $s =~ /nvwalMap\.len - NVWAL_HEADER_SIZE/;

# the mapped ring's size
$s =~ s/^(#define NvwalRing\(\)\t\t\t\(nvwalMap\.addr \+ NVWAL_HEADER_SIZE\)\n)/$1#define NvwalMappedRingSize()\t(nvwalMap.len - NVWAL_HEADER_SIZE)\n/m
  or die "nvwal.c: no NvwalRing()\n";
$s =~ s/(?<!define NvwalMappedRingSize\(\)\t\()nvwalMap\.len - NVWAL_HEADER_SIZE/NvwalMappedRingSize()/g;

if ($s =~ /^NvwalRingAt\(XLogRecPtr ptr\)\n/m)
{
	my $span = <<'EOF';

/*
 * Where in the mapping the ring holds the WAL from "from" on, and in *len,
 * how much of it up to "upto" follows there: up to the ring's end, where it
 * wraps around.
 */
static char *
NvwalRingSpan(XLogRecPtr from, XLogRecPtr upto, Size *len)
{
	uint64		ring_size = NvwalMappedRingSize();

	Assert(from <= upto);
	*len = Min(upto - from, ring_size - from % ring_size);
	return NvwalRingAt(from);
}
EOF
	$s =~ s/^(NvwalRingAt\(XLogRecPtr ptr\)\n\{\n.*?\n\}\n)/$1$span/ms
	  or die "nvwal.c: NvwalRingAt\n";

	$s =~ s/\tuint64\t\tring_size = NvwalMappedRingSize\(\);\n\n\twhile \(from < upto\)\n\t\{\n\t\tSize\t\tn = Min\(upto - from, ring_size - from % ring_size\);\n\n\t\t\(void\) madvise\(NvwalRingAt\(from\), n, MADV_POPULATE_READ\);\n/\twhile (from < upto)\n\t{\n\t\tSize\t\tn;\n\t\tchar\t   *p = NvwalRingSpan(from, upto, &n);\n\n\t\t(void) madvise(p, n, MADV_POPULATE_READ);\n/
	  or die "nvwal.c: NvwalPopulate\n";

	$s =~ s/\tuint64\t\tring_size = NvwalMappedRingSize\(\);\n\n\tAssert\(upto - from <= ring_size\);\n(.*?)\twhile \(from < upto\)\n\t\{\n\t\tuint64\t\toff = from % ring_size;\n\t\tuint64\t\tlen = Min\(upto - from, ring_size - off\);\n\n\t\tif \(!PmemFlush\(&nvwalMap, NvwalRing\(\) \+ off, len\)\)/\tAssert(upto - from <= NvwalMappedRingSize());\n$1\twhile (from < upto)\n\t{\n\t\tSize\t\tlen;\n\t\tchar\t   *p = NvwalRingSpan(from, upto, &len);\n\n\t\tif (!PmemFlush(&nvwalMap, p, len))/s;

	$s =~ s/\tuint64\t\tring_size = NvwalMappedRingSize\(\);\n\n\tAssert\(len <= ring_size - ptr % ring_size\);\n\tif \(!PmemCopyNoDrain\(&nvwalMap, NvwalRing\(\) \+ ptr % ring_size, buf, len\)\)/\tSize\t\tspan;\n\tchar\t   *p = NvwalRingSpan(ptr, ptr + len, &span);\n\n\tAssert(span == len);\n\tif (!PmemCopyNoDrain(&nvwalMap, p, buf, len))/;
}

die "nvwal.c: a raw ring offset is left\n"
  if $s =~ /NvwalRing\(\) \+ (?!chunk \* nvwalPrefaultChunk)/;
spew($c, $s);
exit 0;
