#!/bin/bash
# When the NVWAL ring fills: WAL-heavy inserts from 32 clients, so that WAL
# is inserted faster than the WAL writer writes it behind into pg_wal.  A
# ring slot can be reused only once its page is synced in pg_wal; when the
# slot that the next page needs is not, the backend that needs it writes
# WAL behind and syncs it itself, holding WALWriteLock, while the backends
# behind it wait (pg_stat_wal.wal_buffers_full counts these writes).
#
#   nvwal-64MB   NVWAL file with a ring of 64 MB (four segments) on tmpfs
#   nvwal-1GB    the same, a ring of 1 GB
#   async        the fork without NVWAL, synchronous_commit = off: the
#                ceiling, where no commit waits for WAL to be durable
#   async-wb1GB  the same with wal_buffers = 1GB: what a ring of WAL
#                buffers as large as the default NVWAL file costs without
#                NVWAL, to tell the ring's size from NVWAL
#
# and, if BENCH_BASELINE_BIN names the binaries of another build of the
# fork (an older one, say), base-64MB and base-1GB: the same two rings on
# those binaries, side by side with this build's.
#
# pg_wal on tmpfs everywhere.  Persistent memory is EMULATED: tmpfs
# (/dev/shm) with PMEM_IS_PMEM_FORCE=1, which makes libpmem flush CPU caches
# there as on real persistent memory.
#
# Each transaction inserts a hundred rows of 2,000 bytes stored uncompressed
# (about 210 kB of WAL).  For each run: TPS, the WAL rate (MB/s), the number
# of times a backend wrote WAL behind because the ring was full
# (wal_buffers_full), the 99th percentile and the maximum of the
# transactions' latencies (pgbench --log), and the share of the samples of
# pg_stat_activity (every 10 ms, as bench/scaling.sh) that waited on
# writing WAL behind: LWLock:WALWrite, LWLock:WALBufMapping, IO:WalWrite or
# IO:WalSync.  The table is truncated and checkpointed after every run, so
# that each run starts from an empty table and a ring that is written
# behind.  As the other scripts: one warm-up run per server, autovacuum
# off, the configurations' order rotating with each repetition.
#
# Settings (environment): BENCH_SECONDS (20 per run), BENCH_REPS (5),
# BENCH_CLIENTS (32).  Results go to bench/results/ringfull-<date>.md, with
# every measurement in .tsv.  About 15 minutes with the defaults.
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

seconds=${BENCH_SECONDS:-20}
reps=${BENCH_REPS:-5}
clients=${BENCH_CLIENTS:-32}

names=(nvwal-64MB nvwal-1GB async async-wb1GB)
[ -n "${BENCH_BASELINE_BIN:-}" ] && names+=(base-64MB base-1GB)
n=${#names[@]}
narrow_run ringfull

port=$(free_port "${BENCH_PORT:-5500}")
for name in "${names[@]}"; do
	b=$bin
	opts=(--waldir="$shmdir/$name/pg_wal")
	settings=("autovacuum = off")
	case "$name" in
		*-64MB | *-1GB) opts+=(--nvwal-path="$shmdir/$name.nvwal" --nvwal-size="${name#*-}") ;;&
		base-*) b=$BENCH_BASELINE_BIN ;;
		async) settings+=("synchronous_commit = off") ;;
		async-wb1GB) settings+=("synchronous_commit = off" "wal_buffers = 1GB") ;;
	esac
	bench_cluster "$name" "$b" "$work/$name/data" "$port" 1 "${opts[@]}" -- "${settings[@]}"
	sql "$name" -c "CREATE TABLE big (t text)" -c "ALTER TABLE big ALTER t SET STORAGE EXTERNAL" \
		-c "$BENCH_SAMPLER_SQL"
	port=$(free_port $((port + 1)))
done
echo "INSERT INTO big SELECT repeat('x', 2000) FROM generate_series(1, 100);" > "$work/insert200k.sql"
chmod a+r "$work/insert200k.sql"

# heavy_run NAME REP: one pgbench run, with the sampler beside it, and what
# it measured recorded.
heavy_run()
{
	local name=$1 rep=$2 out lsn0 lsn1 samples="$work/samples.$1" logs="$work/log.$1"
	sql "$name" -c "SELECT pg_stat_reset_shared('wal')"
	lsn0=$(sql "$name" -c "SELECT pg_current_wal_insert_lsn()")
	rm -rf "$logs"
	builder_dir "$logs"
	sql "$name" -F $'\t' -c "SELECT * FROM bench_wait_sample($seconds)" > "$samples" &
	out=$(pg "$name" pgbench -n -c "$clients" -j 2 -T "$seconds" -f "$work/insert200k.sql" \
		  -l --log-prefix="$logs/pgbench" postgres 2>/dev/null || true)
	wait $! || die "$name: the wait event sampler failed"
	lsn1=$(sql "$name" -c "SELECT pg_current_wal_insert_lsn()")
	# the backends report their WAL statistics as they exit
	sleep 1
	record ringfull "$name" "$clients" "$rep" tps "$(tps_of <<< "$out")"
	record ringfull "$name" "$clients" "$rep" wal_mb_s \
		"$(sql "$name" -c "SELECT round(pg_wal_lsn_diff('$lsn1', '$lsn0') / 1048576 / $seconds)")"
	record ringfull "$name" "$clients" "$rep" wal_buffers_full \
		"$(sql "$name" -c "SELECT wal_buffers_full FROM pg_stat_wal")"
	# pgbench --log: the third field is the latency in microseconds
	record ringfull "$name" "$clients" "$rep" p99_ms \
		"$(cat "$logs"/pgbench.* | awk '{ print $3 }' | sort -n |
		   awk '{ a[NR] = $1 } END { if (NR) printf "%.2f", a[int(NR * 0.99 + 0.999)] / 1000 }')"
	record ringfull "$name" "$clients" "$rep" max_ms \
		"$(cat "$logs"/pgbench.* | awk '$3 > m { m = $3 } END { printf "%.2f", m / 1000 }')"
	record_waits ringfull "$name" "$clients" "$rep" "$samples"
	sql "$name" -c "TRUNCATE big" -c CHECKPOINT
}

for name in "${names[@]}"; do
	note "$name: warm-up run, $clients clients, not recorded"
	pg "$name" pgbench -n -c "$clients" -j 2 -T "$seconds" -f "$work/insert200k.sql" postgres > /dev/null 2>&1 ||
		die "warm-up pgbench failed for $name"
	sql "$name" -c "TRUNCATE big" -c CHECKPOINT
done

for rep in $(seq "$reps"); do
	for i in $(seq 0 $((n - 1))); do
		heavy_run "${names[$(( (rep - 1 + i) % n ))]}" "$rep"
	done
done

cell() { printf '%s (%s)' "$(med ringfull "$1" "$clients" "$2")" "$(rng ringfull "$1" "$clients" "$2")"; }
pr() { local p; p=$(paired ringfull "$1" "$2" "$clients" tps); printf "%.2f (%s)" "$(median <<< "$p")" "$(range <<< "$p")"; }

{
	echo "# When the NVWAL ring fills: WAL-heavy inserts, $clients clients"
	echo
	echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'); $(machine); $("$bin/postgres" --version), optimized, no assertions${BENCH_BASELINE_BIN:+; base-*: $BENCH_BASELINE_BIN}."
	echo "**Persistent memory is emulated**: the NVWAL files on tmpfs ($shm), PMEM_IS_PMEM_FORCE=1; pg_wal on tmpfs for every configuration."
	echo "Every server: $(IFS=,; echo "${BENCH_SETTINGS[*]}" | sed 's/,/, /g'), autovacuum = off, wal_writer_delay = 200ms (the default); async: synchronous_commit = off, no NVWAL (wal_buffers = 16MB, from shared_buffers; async-wb1GB: 1GB)."
	echo "pgbench -n -c $clients -j 2, $seconds s runs after one warm-up run per server, $reps repetitions, the configurations' order rotating; each transaction: INSERT INTO big SELECT repeat('x', 2000) FROM generate_series(1, 100) (STORAGE EXTERNAL)."
	echo "Median (min-max) of the repetitions.  wal_buffers_full: the times a backend wrote WAL behind for a ring (or WAL buffer) slot.  Latencies from pgbench --log.  Waits: the share (%) of the samples of pg_stat_activity, every 10 ms, over client backends running a query, waiting on LWLock:WALWrite, LWLock:WALBufMapping, IO:WalWrite or IO:WalSync."
	echo
	echo "| configuration | TPS | paired TPS / async | WAL MB/s | wal_buffers_full | p99 latency (ms) | max latency (ms) | waits on writing WAL (%) |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	for name in "${names[@]}"; do
		echo "| $name | $(cell "$name" tps) | $([ "$name" = async ] && echo - || pr "$name" async) | $(cell "$name" wal_mb_s) | $(cell "$name" wal_buffers_full) | $(cell "$name" p99_ms) | $(cell "$name" max_ms) | $(share ringfull "$name" "$clients" LWLock:WALWrite LWLock:WALBufMapping IO:WalWrite IO:WalSync) |"
	done
} > "$stem.md"
cat "$stem.md"
note "results in $stem.md"
