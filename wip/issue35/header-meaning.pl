#!/usr/bin/perl
#
# header-meaning.pl: a tree filter (git filter-branch --tree-filter) that
# gives what the NVWAL file header's generation and flags mean one
# definition, in src/include/common/nvwal_format.h, and has every reader and
# writer use it: the stale-generation test, the flags' tests and setters,
# and the test that a buffer holds a given WAL page's header.  Each helper
# comes with the first commit whose code uses it.

use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use TreeFilter;

my $fmt_h = 'src/include/common/nvwal_format.h';
exit 0 unless -f $fmt_h;

my %used;
my %files;

sub edit
{
	my ($f, $helper, $from, $to) = @_;
	return unless -f $f;
	$files{$f} //= slurp($f);
	my $n = ($files{$f} =~ s/$from/$to/g);
	$used{$helper} = 1 if $n;
	return $n;
}

my $nvwal = 'src/backend/access/transam/nvwal.c';
my $rec = 'src/backend/access/transam/nvwalrecovery.c';
my $cd = 'src/bin/pg_controldata/pg_controldata.c';
my $bb = 'src/bin/pg_basebackup/pg_basebackup.c';
my $nf = 'src/fe_utils/nvwal_file.c';
my $fmt_c = 'src/common/nvwal_format.c';

# the stale-generation test
edit($nvwal, 'stale', qr/hdr\.generation < generation\)/,
	'nvwal_header_stale(&hdr, generation))');
edit($rec, 'stale', qr/\bgeneration < nc_generation &&/,
	'nvwal_header_stale(NvwalMappedHeader(), nc_generation) &&');
edit($cd, 'stale', qr/hdr->generation < nc->nvwal_generation/,
	'nvwal_header_stale(hdr, nc->nvwal_generation)');

# the flags
edit($nvwal, 'adoptable',
	qr/\(hdr\.flags & NVWAL_FLAG_PREPARED\) == 0 \|\|\n\t\t\(!XLogRecPtrIsInvalid\(hdr\.written_behind\) &&\n\t\t \(hdr\.flags & NVWAL_FLAG_BACKUP_WAL\) == 0\)\)/,
	'!nvwal_header_adoptable(&hdr))');
edit($nvwal, 'adoptable',
	qr/\(hdr\.flags & NVWAL_FLAG_PREPARED\) == 0 \|\|\n\t\t!XLogRecPtrIsInvalid\(hdr\.written_behind\)\)/,
	'!nvwal_header_adoptable(&hdr))');
edit($nvwal, 'has_backup_wal',
	qr/!\(\(hdr\.flags & NVWAL_FLAG_BACKUP_WAL\) != 0 &&/,
	'!(nvwal_header_has_backup_wal(&hdr) &&');
edit($nvwal, 'clear_prepared',
	qr/ \* Clear NVWAL_FLAG_PREPARED in the locked NVWAL file, durably\.\n \*\/\nstatic void\nNvwalClearPreparedFlag\(uint32 flags\)\n\{\n\tflags &= ~NVWAL_FLAG_PREPARED;\n\tif \(pg_pwrite\(nvwalLockFd, &flags, sizeof\(flags\),\n\t\t\t\t  offsetof\(NvwalFileHeader, flags\)\) != sizeof\(flags\) \|\|/,
	" * Clear NVWAL_FLAG_PREPARED in \"hdr\", the locked NVWAL file's header, and\n * in the file, durably: the flags alone are written.\n */\nstatic void\nNvwalClearPreparedFlag(NvwalFileHeader *hdr)\n{\n\tnvwal_header_clear_prepared(hdr);\n\tif (pg_pwrite(nvwalLockFd, &hdr->flags, sizeof(hdr->flags),\n\t\t\t\t  offsetof(NvwalFileHeader, flags)) != sizeof(hdr->flags) ||");
if ($used{clear_prepared})
{
	die "NvwalClearPreparedFlag: callers\n"
	  unless edit($nvwal, 'clear_prepared', qr/NvwalClearPreparedFlag\(hdr\.flags\)/,
		'NvwalClearPreparedFlag(&hdr)');
}
edit($cd, 'prepared', qr/\(nvwal_hdr\.flags & NVWAL_FLAG_PREPARED\) != 0/,
	'nvwal_header_prepared(&nvwal_hdr)');
edit($cd, 'has_backup_wal', qr/\(nvwal_hdr\.flags & NVWAL_FLAG_BACKUP_WAL\) != 0/,
	'nvwal_header_has_backup_wal(&nvwal_hdr)');
edit($bb, 'set_backup_wal',
	qr/\thdr\.flags \|= NVWAL_FLAG_BACKUP_WAL;\n\thdr\.written_behind = Max\(start, first\);\n\thdr\.backup_label_crc = crc;\n/,
	"\tnvwal_header_set_backup_wal(&hdr, Max(start, first), crc);\n");
edit($nf, 'set_prepared',
	qr/\thdr->flags = \(hdr->flags & ~NVWAL_FLAG_BACKUP_WAL\) \| NVWAL_FLAG_PREPARED;\n\thdr->backup_label_crc = 0;\n\thdr->written_behind = InvalidXLogRecPtr;\n/,
	"\tnvwal_header_set_prepared(hdr);\n");

# a WAL page's header
edit($bb, 'page_header_is',
	qr/if \(phdr->xlp_magic != XLOG_PAGE_MAGIC \|\| phdr->xlp_pageaddr != p\)/,
	'if (!nvwal_page_header_is(page.data, p))');
if ($used{page_header_is} && $files{$bb} !~ /phdr->/)
{
	$files{$bb} =~ s/^\t\tXLogPageHeader phdr = \(XLogPageHeader\) page\.data;\n//m
	  or die "pg_basebackup.c: phdr\n";
}
edit($fmt_c, 'page_header_is',
	qr/if \(phdr->xlp_magic != XLOG_PAGE_MAGIC \|\|\n\t\tphdr->xlp_pageaddr != pageptr \|\|\n/,
	"if (!nvwal_page_header_is(slot, pageptr) ||\n");

# NVWAL_FLAG_* is used nowhere else in the code, but where files are made
for my $f ($nvwal, $cd, $bb, $nf)
{
	next unless defined $files{$f};
	(my $code = $files{$f}) =~ s{/\*.*?\*/}{}gs;
	$code =~ s/\bNVWAL_FLAG_PREPARED, do_sync\b//;
	die "$f: NVWAL_FLAG_ still used\n" if $code =~ /NVWAL_FLAG_/;
}

# the helpers
my $h = slurp($fmt_h);
my $helpers = '';
my $has_backup_flag = $h =~ /NVWAL_FLAG_BACKUP_WAL/;

$helpers .= <<'EOF' if $used{stale};

/*
 * Is the file whose header is "hdr" older than the NVWAL control file, of
 * generation "control_generation", says the cluster's file is?  Such a file
 * is a copy made before the server last started or checkpointed, and put
 * back: its pages may be older than those in pg_wal (NVWAL invariant 4).
 * The cluster's own file never is: its generation grows first.
 */
static inline bool
nvwal_header_stale(const NvwalFileHeader *hdr, uint64 control_generation)
{
	return hdr->generation < control_generation;
}
EOF

$helpers .= <<'EOF' if $used{prepared} || $used{adoptable} || $used{clear_prepared};

/* Was the file made for a cluster that no server has started with yet? */
static inline bool
nvwal_header_prepared(const NvwalFileHeader *hdr)
{
	return (hdr->flags & NVWAL_FLAG_PREPARED) != 0;
}
EOF

$helpers .= <<'EOF' if $used{has_backup_wal} || $used{set_backup_wal} || ($used{adoptable} && $has_backup_flag);

/* Does the file's ring hold a restored backup's WAL, from written_behind on? */
static inline bool
nvwal_header_has_backup_wal(const NvwalFileHeader *hdr)
{
	return (hdr->flags & NVWAL_FLAG_BACKUP_WAL) != 0;
}
EOF

if ($used{adoptable} && $has_backup_flag)
{
	$helpers .= <<'EOF';

/*
 * May a server adopt the file as its own: was it prepared for its cluster,
 * and does its ring hold nothing, or its backup's WAL?
 */
static inline bool
nvwal_header_adoptable(const NvwalFileHeader *hdr)
{
	return nvwal_header_prepared(hdr) &&
		(XLogRecPtrIsInvalid(hdr->written_behind) ||
		 nvwal_header_has_backup_wal(hdr));
}
EOF
}
elsif ($used{adoptable})
{
	$helpers .= <<'EOF';

/*
 * May a server adopt the file as its own: was it prepared for its cluster,
 * and does its ring hold nothing?
 */
static inline bool
nvwal_header_adoptable(const NvwalFileHeader *hdr)
{
	return nvwal_header_prepared(hdr) &&
		XLogRecPtrIsInvalid(hdr->written_behind);
}
EOF
}

$helpers .= <<'EOF' if $used{clear_prepared};

/* The file is now a server's own. */
static inline void
nvwal_header_clear_prepared(NvwalFileHeader *hdr)
{
	hdr->flags &= ~NVWAL_FLAG_PREPARED;
}
EOF

$helpers .= <<'EOF' if $used{set_prepared};

/*
 * The file is prepared for a cluster that no server has started with yet,
 * and its ring holds nothing.
 */
static inline void
nvwal_header_set_prepared(NvwalFileHeader *hdr)
{
	hdr->flags = (hdr->flags & ~NVWAL_FLAG_BACKUP_WAL) | NVWAL_FLAG_PREPARED;
	hdr->backup_label_crc = 0;
	hdr->written_behind = InvalidXLogRecPtr;
}
EOF

$helpers .= <<'EOF' if $used{set_backup_wal};

/*
 * The file's ring holds, from "start" on, the WAL of the backup whose
 * backup_label's CRC-32C is "label_crc".
 */
static inline void
nvwal_header_set_backup_wal(NvwalFileHeader *hdr, XLogRecPtr start,
							pg_crc32c label_crc)
{
	hdr->flags |= NVWAL_FLAG_BACKUP_WAL;
	hdr->written_behind = start;
	hdr->backup_label_crc = label_crc;
}
EOF

if ($helpers ne '')
{
	$helpers = <<'EOF' . $helpers;

/*
 * What the header's generation and flags mean, for the server and the
 * programs alike.  The server writes each field that follows the CRC by
 * itself, in place (see NvwalClearPreparedFlag()); the setters change the
 * caller's copy only.
 */
EOF
	$h =~ s/^(\} NvwalFileHeader;\n)/$1$helpers/m
	  or die "nvwal_format.h: no NvwalFileHeader\n";
}

if ($used{page_header_is})
{
	$h =~ s/^(extern bool nvwal_slot_holds_page\()/\/*\n * Does "page" begin with the header of the WAL page at "pageptr"?  Only its\n * magic number and address are checked.\n *\/\nstatic inline bool\nnvwal_page_header_is(const char *page, XLogRecPtr pageptr)\n{\n\tconst XLogPageHeaderData *phdr = (const XLogPageHeaderData *) page;\n\n\treturn phdr->xlp_magic == XLOG_PAGE_MAGIC &&\n\t\tphdr->xlp_pageaddr == pageptr;\n}\n\n$1/m
	  or die "nvwal_format.h: no nvwal_slot_holds_page\n";
}
spew($fmt_h, $h);

for my $f (keys %files)
{
	spew($f, $files{$f});
}
exit 0;
