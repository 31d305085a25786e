#!/usr/bin/perl
#
# split-nvwal.pl: a tree filter (git filter-branch --tree-filter) that moves
# recovery from the NVWAL ring out of nvwal.c into nvwalrecovery.c, in every
# commit of the series that has it.  Being a function of each commit's tree,
# it gives every later commit's change to that code to the new file, with no
# rebase conflicts.  Run in the top directory of a tree; does nothing to a
# tree whose nvwal.c has no recovery half.
#
# What it does to such a tree:
# - nvwal.c: everything from the comment before NvwalRingSlot() to the end
#   goes to nvwalrecovery.c, with NvwalRecoveryBegin()'s prototype; the
#   NvwalRingAt() macro becomes a function, and nvwal.c gains the accessors
#   the moved code uses instead of nvwal.c's statics; includes that only the
#   moved code used go.
# - the moved code: the accessors instead of nvwalMap, nvwalControl and
#   nvwal.c's macros.
# - nvwal.h: the prototypes of the moved functions go to nvwalrecovery.h;
#   those of the accessors come in.
# - every file that calls a moved function includes nvwalrecovery.h.
# - meson.build and the Makefile build nvwalrecovery.c.

use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use TreeFilter;

my $dir = 'src/backend/access/transam';
my $c = "$dir/nvwal.c";
my $h = 'src/include/access/nvwal.h';

exit 0 unless -f $c;
my $src = slurp($c);
exit 0 unless $src =~ /^NvwalRingSlot\(/m;

# --- cut nvwal.c in two ---
my $at = index($src, "/* nvwal_ring_end()'s callback");
must($at > 0, 'no split marker');
my $head = substr($src, 0, $at);
my $tail = substr($src, $at);
$head =~ s/\n+\z/\n/;

must($head =~ s/^(static void NvwalRecoveryBegin\([^;]*\);\n)//m,
	'no NvwalRecoveryBegin prototype');
my $proto = $1;

# --- the moved code, through the file layer's interface ---
my $n;
$n = ($tail =~ s/NvwalHeaderPtr\(\)->written_behind/NvwalGetWrittenBehind()/g);
must($n == 2, "written_behind: $n");
$n = ($tail =~ s/NvwalHeaderPtr\(\)/NvwalMappedHeader()/g);
must($n == 2, "NvwalHeaderPtr: $n");
$n = ($tail =~ s/\(NvwalRing\(\) \+ p % ring_size\)/NvwalRingAt(p)/g);
must($n == 1, "page header: $n");
$n = ($tail =~ s/NvwalRing\(\) \+ pageptr % ring_size \+ skip,\n\t\t   XLOG_BLCKSZ - skip\);/NvwalRingAt(pageptr) + skip, XLOG_BLCKSZ - skip);/g);
must($n == 1, "read page: $n");
$n = ($tail =~ s/NvwalRing\(\) \+ startptr % ring_size/NvwalRingAt(startptr)/g);
must($n == 1, "read: $n");
$n = ($tail =~ s/#ifdef MADV_POPULATE_READ\n\t\{\n\t\tXLogRecPtr\tfrom = start - start % XLOG_BLCKSZ;\n.*?\n\t\}\n#endif\n/\tNvwalPopulate(start - start % XLOG_BLCKSZ, end);\n/s);
must($n == 1, "populate: $n");
$n = ($tail =~ s/^\tuint64\t\tring_size = nvwalMap\.len - NVWAL_HEADER_SIZE;\n//mg);
must($n == 3, "ring_size: $n");
$n = ($tail =~ s/nvwalControl->ring_void/NvwalRingVoid()/g);
must($n == 1, "ring_void: $n");
my $uses_control_gen =
  ($tail =~ s/nvwalControl->data\.nvwal_generation/NvwalGetControlGeneration()/g);
must($tail !~ /nvwalMap|nvwalControl|NvwalRing\(\)|NvwalHeaderPtr|ring_size/,
	'moved code still uses nvwal.c\'s internals');
# "ring_size" may only be gone if nothing else in the moved code used it
# (checked above); a declaration after the one removed keeps declarations
# first in each block.

# --- nvwal.c: the accessors ---
$n = ($head =~ s/\n\/\*\n \* Where in the mapping the ring holds the byte of WAL at "ptr": in the slot\n \* of its page \(see nvwal_slot_offset\(\)\)\.\n \*\/\n#define NvwalRingAt\(ptr\) \\\n\t\(nvwalMap\.addr \+ nvwal_slot_offset\(\(ptr\), nvwalMap\.len - NVWAL_HEADER_SIZE\)\)\n//);
must($n == 1, "NvwalRingAt macro: $n");

my $accessors = <<'EOF';

/*
 * The file layer's view of the mapped file, for recovery from the ring
 * (nvwalrecovery.c), which reads the ring in place.
 */

/* The mapped file's header. */
const NvwalFileHeader *
NvwalMappedHeader(void)
{
	Assert(nvwalMap.addr != NULL);
	return (const NvwalFileHeader *) nvwalMap.addr;
}

/*
 * Where in the mapping the ring holds the byte of WAL at "ptr": in the slot
 * of its page (see nvwal_slot_offset()).
 */
char *
NvwalRingAt(XLogRecPtr ptr)
{
	Assert(nvwalMap.addr != NULL);
	return nvwalMap.addr +
		nvwal_slot_offset(ptr, nvwalMap.len - NVWAL_HEADER_SIZE);
}

/*
 * Enter the ring's slots for the WAL from "from" to "upto" into this
 * process's page tables, in one call per contiguous piece of the ring rather
 * than a fault at each page.  Only a hint.
 */
void
NvwalPopulate(XLogRecPtr from, XLogRecPtr upto)
{
#ifdef MADV_POPULATE_READ
	uint64		ring_size = nvwalMap.len - NVWAL_HEADER_SIZE;

	while (from < upto)
	{
		Size		n = Min(upto - from, ring_size - from % ring_size);

		(void) madvise(NvwalRingAt(from), n, MADV_POPULATE_READ);
		from += n;
	}
#endif
}

/*
 * Does nothing in the ring need to be recovered, because pg_control and the
 * NVWAL control file did not match (see NvwalControlMismatch())?
 */
bool
NvwalRingVoid(void)
{
	return nvwalControl->ring_void;
}
EOF

if ($uses_control_gen)
{
	$accessors .= <<'EOF';

/* The generation that the NVWAL control file records (see NvwalControlData). */
uint64
NvwalGetControlGeneration(void)
{
	return nvwalControl->data.nvwal_generation;
}
EOF
}

$n = ($head =~ s/(\nuint64\nNvwalRingSize\(void\)\n\{\n[^}]*\}\n)/$1$accessors/);
must($n == 1, "NvwalRingSize: $n");

# includes that only the moved code needed
for my $inc (['access/xlogarchive.h', qr/\bXLogArchive(?!Mode|ingActive)\w*\(/],
			 ['access/xlogrecovery.h', qr/\b(?:GetXLogReplayRecPtr|PromoteIsTriggered|ArchiveRecoveryRequested|InArchiveRecovery|StandbyMode|recoveryTargetTLI)\b/],
			 ['utils/injection_point.h', qr/\bINJECTION_POINT\w*\(/])
{
	my ($file, $re) = @$inc;
	$head =~ s/^#include "\Q$file\E"\n//m unless $head =~ $re;
}

spew($c, $head);

# --- nvwalrecovery.c ---
my $preamble = <<'EOF';
/*-------------------------------------------------------------------------
 *
 * nvwalrecovery.c
 *	  Recovery from the NVWAL ring: the WAL that only the ring holds after a
 *	  crash, read in place and written behind into pg_wal.
 *
 * After a crash, the ring holds the WAL that was made durable after the
 * last write-behind, and no segment file does.  The functions here find that
 * WAL, hand it to recovery's page reader, and write it behind into pg_wal
 * (NvwalWriteBehind(), which a standby's walreceiver uses for what it stores
 * into the ring too).  They use the NVWAL file through nvwal.c, which deals
 * with it as a file, and are the only part of NVWAL that calls up into
 * xlog.c and xlogrecovery.c.  See src/backend/access/transam/README.nvwal
 * for the design, and for the numbered invariants ("NVWAL invariant N")
 * that the code here enforces.
 *
 * Portions Copyright (c) 1996-2025, PostgreSQL Global Development Group
 *
 * IDENTIFICATION
 *	  src/backend/access/transam/nvwalrecovery.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>
#include <unistd.h>

#include "access/nvwal.h"
#include "access/nvwalrecovery.h"
#include "access/xlog.h"
#include "access/xlogarchive.h"
#include "access/xlog_internal.h"
#include "access/xlogrecovery.h"
#include "catalog/pg_control.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "utils/injection_point.h"

EOF
spew("$dir/nvwalrecovery.c", $preamble . $proto . "\n" . $tail);

# --- headers ---
my $hdr = slurp($h);
my $moved = '';
my $name = qr/Nvwal(?:Recovery\w+|WriteBehind|SegmentTLI|SegmentDone)/;
while ($hdr =~ s/^((?:extern [^;(]*\b$name\(|typedef [^;]*\(\*$name\))[^;]*;\n)//m)
{
	$moved .= $1;
}
must($moved =~ /NvwalRecoveryDone/ && $moved =~ /NvwalWriteBehind/,
	'recovery prototypes not found in nvwal.h');
# typedefs first: the prototypes use them
my @lines = split /(?<=;\n)/, $moved;
$moved = join('', (grep { /^typedef/ } @lines), "\n", (grep { !/^typedef/ } @lines));
$n = ($hdr =~ s/^(extern uint64 NvwalRingSize\(void\);\n)/$1extern const NvwalFileHeader *NvwalMappedHeader(void);\nextern char *NvwalRingAt(XLogRecPtr ptr);\nextern void NvwalPopulate(XLogRecPtr from, XLogRecPtr upto);\nextern bool NvwalRingVoid(void);\n/m);
must($n == 1, "nvwal.h: NvwalRingSize: $n");
$hdr =~ s/^(extern uint64 NvwalGetGeneration\(void\);\n)/$1extern uint64 NvwalGetControlGeneration(void);\n/m
  if $uses_control_gen;
spew($h, $hdr);

spew('src/include/access/nvwalrecovery.h', <<"EOF");
/*-------------------------------------------------------------------------
 *
 * nvwalrecovery.h
 *	  Recovery from the NVWAL ring.
 *
 * See src/backend/access/transam/README.nvwal for the design.
 *
 * Portions Copyright (c) 1996-2025, PostgreSQL Global Development Group
 *
 * src/include/access/nvwalrecovery.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef NVWALRECOVERY_H
#define NVWALRECOVERY_H

#include "access/xlogdefs.h"

struct ControlFileData;

$moved
#endif							/* NVWALRECOVERY_H */
EOF

# --- callers include the new header ---
my @callers = split /\n/, `grep -rlE --include='*.c' 'Nvwal(Recovery[A-Za-z]+|WriteBehind|SegmentTLI|SegmentDone)\\b' src contrib`;
for my $f (@callers)
{
	next if $f eq $c || $f eq "$dir/nvwalrecovery.c";
	my $s = slurp($f);
	# a mention in a comment only does not need the header
	(my $code = $s) =~ s{/\*.*?\*/}{}gs;
	next unless $code =~ /\b$name\b/;
	must($s =~ s/^(#include "access\/nvwal\.h"\n)/$1#include "access\/nvwalrecovery.h"\n/m,
		"$f calls recovery from the ring but does not include access/nvwal.h");
	spew($f, $s);
}

# --- build ---
my $m = slurp("$dir/meson.build");
must($m =~ s/^(\s*)'nvwal\.c',\n/$1'nvwal.c',\n$1'nvwalrecovery.c',\n/m, 'meson.build');
spew("$dir/meson.build", $m);
my $mk = slurp("$dir/Makefile");
must($mk =~ s/^(\s*)nvwal\.o \\\n/$1nvwal.o \\\n$1nvwalrecovery.o \\\n/m, 'Makefile');
spew("$dir/Makefile", $mk);

exit 0;
