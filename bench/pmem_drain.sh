#!/bin/bash
# wal_sync_method = pmem_drain against fdatasync, side by side in one run on
# the same file system: pg_test_fsync's 8 kB write+sync rows, and pgbench
# TPC-B (-M prepared) at 1, 8 and 32 clients.
#
# Persistent memory is EMULATED: pg_wal and the test file are on tmpfs
# (/dev/shm) and PMEM_IS_PMEM_FORCE=1 makes libpmem flush CPU caches
# (CLWB/CLFLUSHOPT + SFENCE) as it would on real persistent memory.
#
# Settings (environment): BENCH_SCALE (50), BENCH_SECONDS (20 per run),
# BENCH_REPS (3), BENCH_CLIENTS ("1 8 32").  Results go to
# bench/results/pmem_drain-<date>.md.
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

scale=${BENCH_SCALE:-50}
seconds=${BENCH_SECONDS:-20}
reps=${BENCH_REPS:-3}
clients_list=${BENCH_CLIENTS:-"1 8 32"}
methods=(fdatasync pmem_drain)

"$TOP/scripts/build.sh" release
bin="$INSTALL/bin"
bench_workspace pmem_drain
waldir=$shmdir
trap 'as_builder "$bin/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$waldir"' EXIT

results="$TOP/bench/results"
mkdir -p "$results"
out="$results/pmem_drain-$(date -u +%Y%m%d-%H%M).md"
raw="$work/raw.txt"


# 1. pg_test_fsync on tmpfs.
note "pg_test_fsync on $shm (emulated persistent memory)"
as_builder "$bin/pg_test_fsync" -s 5 -f "$waldir/pg_test_fsync.out" > "$work/pg_test_fsync.txt" 2>&1 ||
	die_see "$work/pg_test_fsync.txt" "pg_test_fsync failed"
fsync_line() {
	awk -v m="$1" '/one 8kB write/ { on = 1 } /two 8kB writes/ { on = 0 } on && $1 == m { printf "%.0f\n", $2; exit }' "$work/pg_test_fsync.txt"
}
fdatasync_ops=$(fsync_line fdatasync)
pmem_ops=$(fsync_line pmem_drain)

# 2. pgbench, one cluster, switching methods with a reload.
port=${BENCH_PORT:-5499}
note "initializing a scale $scale cluster, pg_wal in $waldir"
init_cluster "$bin" "$work/data" "$port" --waldir="$waldir/pg_wal" -- "${BENCH_SETTINGS[@]}"
as_builder env PMEM_IS_PMEM_FORCE=1 "$bin/pg_ctl" -D "$work/data" -l "$work/server.log" -w start >/dev/null
pg=(-h 127.0.0.1 -p "$port" -U postgres)
as_builder "$bin/pgbench" "${pg[@]}" -i -q -s "$scale" postgres > "$work/init.log" 2>&1
as_builder "$bin/psql" "${pg[@]}" -q -c 'CHECKPOINT' postgres

: > "$raw"
for rep in $(seq 1 "$reps"); do
	for c in $clients_list; do
		for m in "${methods[@]}"; do
			as_builder "$bin/psql" "${pg[@]}" -q -c "ALTER SYSTEM SET wal_sync_method = '$m'" -c 'SELECT pg_reload_conf()' postgres >/dev/null
			j=$(( c < 2 ? 1 : 2 ))
			tps=$(as_builder "$bin/pgbench" "${pg[@]}" -M prepared -c "$c" -j "$j" -T "$seconds" postgres 2>/dev/null |
				awk '/^tps = / { printf "%.0f\n", $3 }')
			lat=$(awk -v t="$tps" -v c="$c" 'BEGIN { printf "%.3f", c * 1000 / t }')
			echo "$c $m $tps $lat" | tee -a "$raw"
		done
	done
done

{
	echo "# wal_sync_method = pmem_drain against fdatasync"
	echo
	echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') on $(machine)."
	echo "**Persistent memory is emulated**: pg_wal on tmpfs ($shm) with PMEM_IS_PMEM_FORCE=1."
	echo "Build: build/install (optimized, no assertions), $("$bin/postgres" --version)."
	echo
	echo "## pg_test_fsync, one 8 kB write + sync (ops/s, 5 s each)"
	echo
	echo "| method | ops/s | ratio to fdatasync |"
	echo "|---|---:|---:|"
	echo "| fdatasync | $fdatasync_ops | 1.00 |"
	echo "| pmem_drain | $pmem_ops | $(awk -v a="$pmem_ops" -v b="$fdatasync_ops" 'BEGIN { printf "%.2f", a / b }') |"
	echo
	echo "## pgbench TPC-B, -M prepared, scale $scale, $seconds s runs, median of $reps (min-max)"
	echo
	echo "Methods alternate within each repetition (reload between runs, same cluster)."
	echo "Settings: shared_buffers = 1GB, max_wal_size = 20GB, checkpoint_timeout = 1h; all else default."
	echo
	echo "| clients | fdatasync TPS | pmem_drain TPS | ratio | fdatasync latency ms | pmem_drain latency ms |"
	echo "|---:|---:|---:|---:|---:|---:|"
	for c in $clients_list; do
		f=$(awk -v c="$c" '$1 == c && $2 == "fdatasync" { print $3 }' "$raw" | median)
		p=$(awk -v c="$c" '$1 == c && $2 == "pmem_drain" { print $3 }' "$raw" | median)
		fr=$(awk -v c="$c" '$1 == c && $2 == "fdatasync" { print $3 }' "$raw" | range)
		pr=$(awk -v c="$c" '$1 == c && $2 == "pmem_drain" { print $3 }' "$raw" | range)
		fl=$(awk -v c="$c" '$1 == c && $2 == "fdatasync" { print $4 }' "$raw" | median)
		pl=$(awk -v c="$c" '$1 == c && $2 == "pmem_drain" { print $4 }' "$raw" | median)
		echo "| $c | $f ($fr) | $p ($pr) | $(awk -v a="$p" -v b="$f" 'BEGIN { printf "%.3f", a / b }') | $fl | $pl |"
	done
} > "$out"
cat "$out"
note "results in $out"
