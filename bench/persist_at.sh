#!/bin/bash
# NVWAL made durable at insertion (nvwal_persist_at = insert: each backend
# flushes and drains the cache lines it copied a record into, before it
# releases its insertion slot) against at commit (nvwal_persist_at =
# commit: a committing backend flushes the ring from the last durable
# position up to its commit record, including what other backends copied),
# with synchronous_commit = off on the same binary as the ceiling.  The run
# that chose the default of nvwal_persist_at.
#
#   nvwal-insert   NVWAL file (1GB ring) on tmpfs, nvwal_persist_at = insert
#   nvwal-commit   the same, nvwal_persist_at = commit
#   async          pg_wal on tmpfs, no NVWAL, synchronous_commit = off
#
# Workloads: pgbench TPC-B (-M prepared); "insert10", the WAL insertion
# scaling experiment's transaction (INSERT INTO foo SELECT
# generate_series(1, 10)), many small records per commit; and "insert2k",
# one 2,000-byte row stored uncompressed per transaction, WAL-heavy.
#
# Persistent memory is EMULATED: tmpfs (/dev/shm) with PMEM_IS_PMEM_FORCE=1,
# which makes libpmem flush CPU caches there as on real persistent memory.
#
# As bench/nvwal.sh: one warm-up run per server, autovacuum off, the order
# of the configurations rotating with each repetition, and paired ratios,
# each from runs of one repetition.
#
# Settings (environment): BENCH_SCALE (50), BENCH_SECONDS (10 per run),
# BENCH_REPS (5), BENCH_CLIENTS ("1 8 32").  Results go to
# bench/results/persist_at-<date>.md, with every measurement in .tsv.
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

scale=${BENCH_SCALE:-50}
seconds=${BENCH_SECONDS:-10}
reps=${BENCH_REPS:-5}
clients=${BENCH_CLIENTS:-"1 8 32"}

names=(nvwal-insert nvwal-commit async)
narrow_run persist_at

port=$(free_port "${BENCH_PORT:-5500}")
for name in "${names[@]}"; do
	opts=(--waldir="$shmdir/$name/pg_wal")
	settings=("autovacuum = off")
	case "$name" in
		nvwal-insert) opts+=(--nvwal-path="$shmdir/$name.nvwal" --nvwal-size=1GB) ;;
		nvwal-commit)
			opts+=(--nvwal-path="$shmdir/$name.nvwal" --nvwal-size=1GB)
			settings+=("nvwal_persist_at = commit")
			;;
		async) settings+=("synchronous_commit = off") ;;
	esac
	bench_cluster "$name" "$bin" "$work/$name/data" "$port" "$scale" "${opts[@]}" -- "${settings[@]}"
	sql "$name" -c "CREATE TABLE foo (i int)" \
		-c "CREATE TABLE big (t text)" -c "ALTER TABLE big ALTER t SET STORAGE EXTERNAL"
	port=$(free_port $((port + 1)))
done
echo 'INSERT INTO foo SELECT generate_series(1, 10);' > "$work/insert10.sql"
echo "INSERT INTO big VALUES (repeat('x', 2000));" > "$work/insert2k.sql"
chmod a+r "$work"/*.sql

maxc=$(tr ' ' '\n' <<< "$clients" | sort -n | tail -1)
warm_up "$maxc" "$seconds" "${names[@]}"

# script_run SCENARIO NAME CLIENTS REP SCRIPT: a pgbench run of SCRIPT.
script_run()
{
	local out
	out=$(pg "$2" pgbench -n -c "$3" -j $(( $3 < 2 ? 1 : 2 )) -T "$seconds" -f "$work/$5.sql" postgres 2>/dev/null || true)
	record "$1" "$2" "$3" "$4" tps "$(tps_of <<< "$out")"
}

# Repetition r runs the configurations starting with the r-th, in turn.
for rep in $(seq "$reps"); do
	for c in $clients; do
		for i in 0 1 2; do
			tpcb_run tpcb "${names[$(( (rep - 1 + i) % 3 ))]}" "$c" "$rep" "$seconds"
		done
		for i in 0 1 2; do
			script_run insert10 "${names[$(( (rep - 1 + i) % 3 ))]}" "$c" "$rep" insert10
		done
	done
	for i in 0 1 2; do
		script_run insert2k "${names[$(( (rep - 1 + i) % 3 ))]}" "$maxc" "$rep" insert2k
	done
	# the tables grow; keep them from growing across repetitions
	for name in "${names[@]}"; do
		sql "$name" -c "TRUNCATE foo, big" -c CHECKPOINT
	done
done

# pr SCENARIO A B C: median (min-max) of the paired ratios A / B.
pr() { local p; p=$(paired "$1" "$2" "$3" "$4" tps); printf "%.3f (%s)" "$(median <<< "$p")" "$(range <<< "$p")"; }

{
	echo "# NVWAL made durable at insertion or at commit"
	echo
	echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'); $(machine); $("$bin/postgres" --version), optimized, no assertions."
	echo "**Persistent memory is emulated**: the NVWAL file on tmpfs ($shm), PMEM_IS_PMEM_FORCE=1."
	echo "Every server: $(IFS=,; echo "${BENCH_SETTINGS[*]}" | sed 's/,/, /g'), autovacuum = off, num_xloginsert_slots = 8."
	echo "pgbench, $seconds s runs after one warm-up run per server, median TPS of $reps (min-max), configurations alternating, their order rotating with each repetition; tpcb: TPC-B -M prepared, scale $scale; insert10: INSERT INTO foo SELECT generate_series(1, 10); insert2k: one 2,000-byte row (STORAGE EXTERNAL)."
	echo "Paired: the median (min-max) of the $reps ratios, each from the two runs of one repetition."
	echo
	echo "| workload | clients | nvwal-insert | nvwal-commit | async | paired insert / commit | paired insert / async | paired commit / async |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|"
	for s in tpcb insert10 insert2k; do
		cs=$clients
		[ "$s" = insert2k ] && cs=$maxc
		for c in $cs; do
			echo "| $s | $c | $(med "$s" nvwal-insert "$c" tps) ($(rng "$s" nvwal-insert "$c" tps)) | $(med "$s" nvwal-commit "$c" tps) ($(rng "$s" nvwal-commit "$c" tps)) | $(med "$s" async "$c" tps) ($(rng "$s" async "$c" tps)) | $(pr "$s" nvwal-insert nvwal-commit "$c") | $(pr "$s" nvwal-insert async "$c") | $(pr "$s" nvwal-commit async "$c") |"
		done
	done
} > "$stem.md"
cat "$stem.md"
note "results in $stem.md"
