#!/bin/bash
# What pg_current_wal_lsn() costs on a busy server, NVWAL against the same
# binary without it: 10,000 calls in a loop (one backend, timed in the
# server) during a pgbench TPC-B run, in one run, configurations
# alternating, and the TPS of that pgbench run.  Monitoring polls the
# function; on NVWAL each call writes what is durable in the ring and not
# yet in pg_wal into the segment files (without fsync) before it reports,
# so that what it reports can be read there, as upstream's can.
#
#   plain    pg_wal on the data disk, fdatasync
#   nvwal    NVWAL file (256MB ring) on tmpfs, pg_wal on the data disk
#
# Persistent memory is EMULATED: tmpfs (/dev/shm) with PMEM_IS_PMEM_FORCE=1,
# which makes libpmem flush CPU caches there as on real persistent memory.
#
# Settings (environment): BENCH_SCALE (10), BENCH_CLIENTS (8),
# BENCH_SECONDS (15 per pgbench run), BENCH_REPS (5), BENCH_CALLS (10000).
# Results go to bench/results/lsn-poll-<date>.md, with every measurement in
# .tsv.
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

scale=${BENCH_SCALE:-10}
clients=${BENCH_CLIENTS:-8}
seconds=${BENCH_SECONDS:-15}
reps=${BENCH_REPS:-5}
calls=${BENCH_CALLS:-10000}

names=(nvwal plain)
narrow_run lsn-poll

port=$(free_port "${BENCH_PORT:-5500}")
for name in "${names[@]}"; do
	opts=()
	[ "$name" = nvwal ] && opts+=(--nvwal-path="$shmdir/$name.nvwal" --nvwal-size=256MB)
	bench_cluster "$name" "$bin" "$work/$name/data" "$port" "$scale" "${opts[@]}" -- "autovacuum = off"
	port=$(free_port $((port + 1)))
done

# poll NAME: seconds that $calls calls of pg_current_wal_lsn() take, timed
# in the server.
poll()
{
	sql "$1" -c "DO \$\$
DECLARE
	t0 timestamptz := clock_timestamp();
	l pg_lsn;
BEGIN
	FOR i IN 1..$calls LOOP
		l := pg_current_wal_lsn();
	END LOOP;
	RAISE NOTICE 'elapsed %', extract(epoch FROM clock_timestamp() - t0);
END
\$\$;" 2>&1 | sed -n 's/.*elapsed \([0-9.]*\).*/\1/p'
}

warm_up "$clients" "$seconds" "${names[@]}"

# Repetition r starts with the r-th configuration; each measures the loop
# on the idle server, then during pgbench (started 2 s before it).
for rep in $(seq "$reps"); do
	for i in 0 1; do
		name=${names[$(( (rep - 1 + i) % 2 ))]}
		record lsn "$name" idle "$rep" poll_s "$(poll "$name")"
		out=$(mktemp)
		pg "$name" pgbench -M prepared -c "$clients" -j 2 -T "$seconds" postgres > "$out" 2>/dev/null &
		sleep 2
		record lsn "$name" busy "$rep" poll_s "$(poll "$name")"
		wait
		record lsn "$name" busy "$rep" tps "$(tps_of < "$out")"
		rm -f "$out"
	done
done

# pairs KEY METRIC: the ratios nvwal / plain of every repetition.
pairs() { paired lsn nvwal plain "$1" "$2"; }

{
	echo "# pg_current_wal_lsn() on a busy server, NVWAL against plain"
	echo
	echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'); $(machine); $("$bin/postgres" --version), optimized, no assertions."
	echo "**Persistent memory is emulated**: the NVWAL file on tmpfs ($shm), PMEM_IS_PMEM_FORCE=1; pg_wal on the data disk in both."
	echo "Every server: $(IFS=,; echo "${BENCH_SETTINGS[*]}" | sed 's/,/, /g'), autovacuum = off."
	echo "$calls calls of pg_current_wal_lsn() in a DO loop, timed in the server, on the idle server and 2 s into a pgbench TPC-B run (-M prepared, scale $scale, $clients clients, $seconds s); median of $reps (min-max), configurations alternating, their order rotating with each repetition; paired: the median (min-max) of the per-repetition ratios nvwal / plain."
	echo
	echo "| measure | nvwal | plain | paired nvwal / plain |"
	echo "|---|---:|---:|---:|"
	for m in "idle poll_s" "busy poll_s" "busy tps"; do
		set -- $m
		echo "| $1 $2 | $(med lsn nvwal "$1" "$2") ($(rng lsn nvwal "$1" "$2")) | $(med lsn plain "$1" "$2") ($(rng lsn plain "$1" "$2")) | $(printf "%.3f" "$(pairs "$1" "$2" | median)") ($(pairs "$1" "$2" | range)) |"
	done
} > "$stem.md"
cat "$stem.md"
note "results in $stem.md"
