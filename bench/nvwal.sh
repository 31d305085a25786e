#!/bin/bash
# NVWAL against the same binary without it: pgbench TPC-B (-M prepared) at
# 1, 8, 32 and 64 clients, in one run, configurations alternating.  The run
# behind the NVWAL figures (the tree's README.nvwal quotes them); NVWAL's
# target is 0.99x or better of synchronous_commit = off at each client
# count, as the paired median.
#
#   nvwal-tmpfs   NVWAL file (1GB ring) and pg_wal on tmpfs
#   tmpfs         pg_wal on tmpfs, fdatasync
#   tmpfs-async   the same with synchronous_commit = off
#
# Persistent memory is EMULATED: tmpfs (/dev/shm) with PMEM_IS_PMEM_FORCE=1,
# which makes libpmem flush CPU caches there as on real persistent memory.
#
# Runs of the same configuration vary by 10% and more on a small machine,
# more than the difference to be measured, so: every server runs pgbench
# once before measuring (discarded); autovacuum is off, so that it does not
# land in some runs and not others (pgbench vacuums its small tables before
# each run); the order of the configurations rotates from one repetition to
# the next; and besides the median TPS of each configuration, the report
# gives the median of the per-repetition ratios NVWAL / async, each taken
# from two runs at most one run apart, which cancels slow drifts of the
# machine.
#
# To measure a change of the fork, BENCH_BASE_BIN names the binaries of the
# fork before it (a release build's bin directory): a fourth
# configuration, nvwal-base, runs NVWAL on them, in the same rotation, and
# the report adds the paired ratios NVWAL / nvwal-base and nvwal-base /
# async.
#
# Settings (environment): BENCH_SCALE (50), BENCH_SECONDS (20 per run),
# BENCH_REPS (7), BENCH_CLIENTS ("1 8 32 64"), BENCH_BASE_BIN (unset).  Results go to
# bench/results/nvwal-<date>.md, with every measurement in .tsv.
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

scale=${BENCH_SCALE:-50}
seconds=${BENCH_SECONDS:-20}
reps=${BENCH_REPS:-7}
clients=${BENCH_CLIENTS:-"1 8 32 64"}

names=(nvwal-tmpfs tmpfs tmpfs-async)
base=${BENCH_BASE_BIN:-}
if [ -n "$base" ]; then
	"$base/initdb" --help | grep -- --nvwal-path > /dev/null ||
		die "BENCH_BASE_BIN ($base) has no NVWAL"
	names+=(nvwal-base)
fi
narrow_run nvwal

port=$(free_port "${BENCH_PORT:-5500}")
for name in "${names[@]}"; do
	opts=(--waldir="$shmdir/$name/pg_wal")
	settings=("autovacuum = off")
	b=$bin
	case "$name" in
		nvwal-tmpfs) opts+=(--nvwal-path="$shmdir/$name.nvwal" --nvwal-size=1GB) ;;
		nvwal-base) opts+=(--nvwal-path="$shmdir/$name.nvwal" --nvwal-size=1GB) b=$base ;;
		tmpfs-async) settings+=("synchronous_commit = off") ;;
	esac
	bench_cluster "$name" "$b" "$work/$name/data" "$port" "$scale" "${opts[@]}" -- "${settings[@]}"
	port=$(free_port $((port + 1)))
done

maxc=$(tr ' ' '\n' <<< "$clients" | sort -n | tail -1)
warm_up "$maxc" "$seconds" "${names[@]}"

# Repetition r runs the configurations starting with the r-th, in turn.
for rep in $(seq "$reps"); do
	for c in $clients; do
		for i in "${!names[@]}"; do
			tpcb_run 1 "${names[$(( (rep - 1 + i) % ${#names[@]} ))]}" "$c" "$rep" "$seconds"
		done
	done
done

# pairs C: the ratios NVWAL / async of every repetition at C clients.
pairs() { paired 1 nvwal-tmpfs tmpfs-async "$1" tps; }

{
	echo "# NVWAL against pg_wal on tmpfs, with and without synchronous_commit"
	echo
	echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'); $(machine); $("$bin/postgres" --version), optimized, no assertions."
	echo "**Persistent memory is emulated**: the NVWAL file and pg_wal on tmpfs ($shm), PMEM_IS_PMEM_FORCE=1."
	echo "Every server: $(IFS=,; echo "${BENCH_SETTINGS[*]}" | sed 's/,/, /g'), autovacuum = off."
	echo "pgbench TPC-B, -M prepared, scale $scale, $seconds s runs after one warm-up run per server, median TPS of $reps (min-max), configurations alternating, their order rotating with each repetition."
	echo "Paired: the median (min-max) of the $reps ratios NVWAL / async, each from the two runs of one repetition (at most one run apart)."
	echo
	echo "| clients | nvwal-tmpfs | tmpfs (fdatasync) | tmpfs-async | nvwal / tmpfs | nvwal / async | paired nvwal / async |"
	echo "|---:|---:|---:|---:|---:|---:|---:|"
	for c in $clients; do
		n=$(med 1 nvwal-tmpfs "$c" tps) f=$(med 1 tmpfs "$c" tps) a=$(med 1 tmpfs-async "$c" tps)
		echo "| $c | $n ($(rng 1 nvwal-tmpfs "$c" tps)) | $f ($(rng 1 tmpfs "$c" tps)) | $a ($(rng 1 tmpfs-async "$c" tps)) | $(ratio "$n" "$f") | $(ratio "$n" "$a") | $(printf "%.3f" "$(pairs "$c" | median)") ($(pairs "$c" | range)) |"
	done
	if [ -n "$base" ]; then
		echo
		echo "Before and after: nvwal-base is NVWAL on the binaries of BENCH_BASE_BIN ($("$base/postgres" --version), $base), in the same rotation; paired ratios as above, from the runs of one repetition."
		echo
		echo "| clients | nvwal-base | paired nvwal / nvwal-base | paired nvwal-base / async |"
		echo "|---:|---:|---:|---:|"
		for c in $clients; do
			echo "| $c | $(med 1 nvwal-base "$c" tps) ($(rng 1 nvwal-base "$c" tps)) | $(printf "%.3f" "$(paired 1 nvwal-tmpfs nvwal-base "$c" tps | median)") ($(paired 1 nvwal-tmpfs nvwal-base "$c" tps | range)) | $(printf "%.3f" "$(paired 1 nvwal-base tmpfs-async "$c" tps | median)") ($(paired 1 nvwal-base tmpfs-async "$c" tps | range)) |"
		done
	fi
} > "$stem.md"
cat "$stem.md"
note "results in $stem.md"
