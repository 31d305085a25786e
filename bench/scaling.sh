#!/bin/bash
# WAL insertion scaling: the experiment of the 2013 XLogInsert scaling work
# (num_xloginsert_slots), redone.  Short transactions that each insert ten
# rows (INSERT INTO foo SELECT generate_series(1, 10)), TPS against the
# number of clients, for:
#
#   upstream     pristine PostgreSQL 18.6 (8 fixed WAL insertion locks)
#   fork-sN      the fork without NVWAL, num_xloginsert_slots = N
#   nvwal-sN     the fork on NVWAL (1GB ring), num_xloginsert_slots = N
#   async        the fork without NVWAL, synchronous_commit = off: the
#                ceiling, where no commit waits for WAL to be durable
#
# with N = 1, 2, 8 and 64; pg_wal on tmpfs everywhere (fdatasync costs a
# system call there and writes nothing back).  Persistent memory is
# EMULATED: tmpfs (/dev/shm) with PMEM_IS_PMEM_FORCE=1, which makes libpmem
# flush CPU caches there as on real persistent memory.
#
# Contention, measured in a way that works on few cores: while pgbench runs,
# a session samples pg_stat_activity every 10 ms (bench_wait_sample(), below)
# and counts, over the client backends that are running a query, what each
# waits on.  The report gives the share of those samples waiting on
# LWLock:WALInsert (a free insertion slot), LWLock:WALWrite, and NVWAL's
# LWLock:NvwalPersist and IO:NvwalPersist.
#
# As the other scripts: one warm-up run per server, autovacuum off, the
# configurations' order rotating with each repetition (and each client
# count), and paired ratios, each from the runs of one repetition at one
# client count, which cancels slow drifts of the machine.
#
# Settings (environment): BENCH_SECONDS (5 per run), BENCH_REPS (5),
# BENCH_CLIENTS ("1 2 4 8 16 32 64"), BENCH_SLOTS ("1 2 8 64").  Results go
# to bench/results/scaling-<date>.md and .png, with every measurement in
# .tsv.  About 40 minutes with the defaults, on 2 cores.
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

seconds=${BENCH_SECONDS:-5}
reps=${BENCH_REPS:-5}
clients=${BENCH_CLIENTS:-"1 2 4 8 16 32 64"}
slots=${BENCH_SLOTS:-"1 2 8 64"}

command -v gnuplot >/dev/null || die "gnuplot is not installed; run 'make deps'"
names=(upstream)
for s in $slots; do names+=("fork-s$s"); done
for s in $slots; do names+=("nvwal-s$s"); done
names+=(async)
n=${#names[@]}

narrow_run scaling
if [ -n "${BENCH_UPSTREAM_BIN:-}" ]; then
	upstream=$BENCH_UPSTREAM_BIN
else
	"$TOP/scripts/build.sh" upstream
	upstream="$BUILD/upstream-install/bin"
fi

port=$(free_port "${BENCH_PORT:-5500}")
for name in "${names[@]}"; do
	b=$bin
	opts=(--waldir="$shmdir/$name/pg_wal")
	settings=("autovacuum = off")
	case "$name" in
		upstream) b=$upstream ;;
		fork-s*) settings+=("num_xloginsert_slots = ${name#fork-s}") ;;
		nvwal-s*)
			opts+=(--nvwal-path="$shmdir/$name.nvwal" --nvwal-size=1GB)
			settings+=("num_xloginsert_slots = ${name#nvwal-s}")
			;;
		async) settings+=("synchronous_commit = off") ;;
	esac
	bench_cluster "$name" "$b" "$work/$name/data" "$port" 1 "${opts[@]}" -- "${settings[@]}"
	sql "$name" -c "CREATE TABLE foo (i int)" -c "$BENCH_SAMPLER_SQL"
	case "$name" in
		nvwal-s*) persist_at=$(sql "$name" -c "SHOW nvwal_persist_at") ;;
	esac
	port=$(free_port $((port + 1)))
done
echo 'INSERT INTO foo SELECT generate_series(1, 10);' > "$work/insert10.sql"
chmod a+r "$work/insert10.sql"

# insert_run NAME CLIENTS REP: one pgbench run of insert10.sql with the
# sampler beside it; its TPS, and the sampler's counts ("w:" and the wait
# event, "samples" for all of them), recorded.
insert_run()
{
	local out samples="$work/samples.$1"
	sql "$1" -F $'\t' -c "SELECT * FROM bench_wait_sample($seconds)" > "$samples" &
	out=$(pg "$1" pgbench -n -c "$2" -j $(( $2 < 2 ? 1 : 2 )) -T "$seconds" -f "$work/insert10.sql" postgres 2>/dev/null || true)
	wait $! || die "$1: the wait event sampler failed"
	record scaling "$1" "$2" "$3" tps "$(tps_of <<< "$out")"
	record_waits scaling "$1" "$2" "$3" "$samples"
}

maxc=$(tr ' ' '\n' <<< "$clients" | sort -n | tail -1)
for name in "${names[@]}"; do
	note "$name: warm-up run, $maxc clients, not recorded"
	pg "$name" pgbench -n -c "$maxc" -j 2 -T "$seconds" -f "$work/insert10.sql" postgres > /dev/null 2>&1 ||
		die "warm-up pgbench failed for $name"
done

# Each repetition and client count starts with another configuration.
for rep in $(seq "$reps"); do
	ci=0
	for c in $clients; do
		for i in $(seq 0 $((n - 1))); do
			insert_run "${names[$(( (rep - 1 + ci + i) % n ))]}" "$c" "$rep"
		done
		ci=$((ci + 1))
	done
	# the table grows; keep it from growing across repetitions
	for name in "${names[@]}"; do
		sql "$name" -c "TRUNCATE foo" -c CHECKPOINT
	done
done

# pr A B C: median (min-max) of the paired TPS ratios A / B at C clients.
pr() { local p; p=$(paired scaling "$1" "$2" "$3" tps); printf "%.2f (%s)" "$(median <<< "$p")" "$(range <<< "$p")"; }
# by_config CELL: a table with a row per client count and a column per
# configuration, each cell what the function CELL prints for the
# configuration and the client count.
by_config()
{
	local c name
	printf '| clients |'; printf ' %s |' "${names[@]}"; echo
	printf '|---:|'; printf -- '---:|%.0s' "${names[@]}"; echo
	for c in $clients; do
		printf '| %s |' "$c"
		for name in "${names[@]}"; do printf ' %s |' "$("$1" "$name" "$c")"; done
		echo
	done
}
tps_cell() { printf '%s (%s)' "$(med scaling "$1" "$2" tps)" "$(rng scaling "$1" "$2" tps)"; }
wait_cell()
{
	printf '%s / %s / %s' "$(share scaling "$1" "$2" LWLock:WALInsert)" \
		"$(share scaling "$1" "$2" LWLock:WALWrite)" "$(share scaling "$1" "$2" LWLock:NvwalPersist IO:NvwalPersist)"
}

{
	echo "# WAL insertion scaling: INSERT INTO foo SELECT generate_series(1, 10)"
	echo
	echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'); $(machine); $("$bin/postgres" --version) and pristine $("$upstream/postgres" --version | awk '{ print $NF }'), both optimized, no assertions."
	echo "**Persistent memory is emulated**: the NVWAL files on tmpfs ($shm), PMEM_IS_PMEM_FORCE=1; pg_wal on tmpfs for every configuration."
	echo "Every server: $(IFS=,; echo "${BENCH_SETTINGS[*]}" | sed 's/,/, /g'), autovacuum = off; nvwal_persist_at = ${persist_at:-?} (the default); async: synchronous_commit = off, 8 slots."
	echo "pgbench -n, $seconds s runs after one warm-up run per server, $reps repetitions, the configurations' order rotating; median TPS (min-max)."
	echo "Paired: the median (min-max) of the $reps ratios, each from two runs of one repetition at one client count."
	echo "Waits: of the samples of pg_stat_activity taken every 10 ms during the runs, over client backends running a query, the share (%) waiting on LWLock:WALInsert / LWLock:WALWrite / NVWAL (LWLock:NvwalPersist or IO:NvwalPersist), all repetitions together."
	echo "These machines have 2 cores: what the slots change on many cores is the design's prediction, not a measurement (see src/backend/access/transam/README.nvwal)."
	echo
	echo "## TPS"
	echo
	by_config tps_cell
	echo
	# the fork at 8 slots against upstream, if 8 is among the slot counts
	s8=$(printf '%s\n' "${names[@]}" | grep -x fork-s8 > /dev/null && echo yes || true)
	echo "## Paired ratios against synchronous_commit = off (async)${s8:+, and of the fork at 8 slots against upstream}"
	echo
	printf '| clients |'; for name in "${names[@]}"; do [ "$name" = async ] || printf ' %s / async |' "$name"; done
	[ -n "$s8" ] && printf ' fork-s8 / upstream |'; echo
	printf '|---:|'; for name in "${names[@]}"; do [ "$name" = async ] || printf -- '---:|'; done
	[ -n "$s8" ] && printf -- '---:|'; echo
	for c in $clients; do
		printf '| %s |' "$c"
		for name in "${names[@]}"; do [ "$name" = async ] || printf ' %s |' "$(pr "$name" async "$c")"; done
		[ -n "$s8" ] && printf ' %s |' "$(pr fork-s8 upstream "$c")"
		echo
	done
	echo
	echo "## Waits: % of samples on WALInsert / WALWrite / NVWAL"
	echo
	by_config wait_cell
} > "$stem.md"

# The plot: median TPS against clients, log scale of clients.
for name in "${names[@]}"; do
	for c in $clients; do printf '%s\t%s\n' "$c" "$(med scaling "$name" "$c" tps)"; done > "$work/plot.$name"
done
{
	echo "set terminal pngcairo size 1000,650 noenhanced"
	echo "set output '$stem.png'"
	echo "set title 'INSERT INTO foo SELECT generate_series(1, 10): median TPS, $reps runs of $seconds s; EMULATED pmem (tmpfs), $(nproc) cores'"
	echo "set xlabel 'clients'; set ylabel 'TPS'; set logscale x 2; set key outside right; set grid"
	printf 'plot '
	sep=''
	for name in "${names[@]}"; do
		style='linespoints'
		case "$name" in
			async) style='lines dashtype 2 linewidth 2 linecolor "black"' ;;
			upstream) style='linespoints linewidth 3 linecolor "red"' ;;
			fork-s*) style='linespoints dashtype 3' ;;
			nvwal-s*) style='linespoints linewidth 2' ;;
		esac
		printf "%s'%s' using 1:2 with %s title '%s'" "$sep" "$work/plot.$name" "$style" "$name"
		sep=', '
	done
	echo
} > "$work/plot.gp"
gnuplot "$work/plot.gp" || die "gnuplot failed"
cat "$stem.md"
note "results in $stem.md and $stem.png"
