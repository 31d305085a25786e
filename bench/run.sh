#!/bin/bash
# The benchmark suite: pristine upstream PostgreSQL and the fork, built
# alike, measured side by side in one run, configurations alternating.
#
#   BENCH_PROFILE=quick (default; about 15 minutes on 2 cores), full, smoke
#   (a few seconds per scenario, to prove the harness works; its results
#   stay in build/bench/smoke)
#
# Persistent memory is EMULATED wherever it appears: files on tmpfs
# (/dev/shm) with PMEM_IS_PMEM_FORCE=1, which makes libpmem flush CPU caches
# (CLWB/CLFLUSHOPT + SFENCE) as on real persistent memory.
#
# Scenarios not written yet, or whose feature has not landed, say so in the
# results.  Results: bench/results/<profile>-<date>.md.
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

profile=${BENCH_PROFILE:-quick}
case "$profile" in
	quick) scale=50;   seconds=20;  reps=3; clients="1 8 32" ;;
	full)  scale=1000; seconds=300; reps=3; clients="1 4 8 16 32 64" ;;
	smoke) scale=1;    seconds=2;   reps=1; clients="1 8" ;;
	*) die "BENCH_PROFILE must be quick, full or smoke" ;;
esac

"$TOP/scripts/build.sh" release
"$TOP/scripts/build.sh" upstream
fork="$INSTALL/bin"
upstream="$BUILD/upstream-install/bin"
shm=/dev/shm
[ -d "$shm" ] || die "no /dev/shm to emulate persistent memory on"

work="$BUILD/bench/$profile"
builder_dir "$BUILD/bench"
rm -rf "$work"
builder_dir "$work"
shmdir=$(as_builder mktemp -d "$shm/pg-nvwal-bench.XXXXXX")
export PMEM_IS_PMEM_FORCE=1

# name  binaries  pg_wal location  extra settings
configs=(
	"upstream-disk|$upstream|$work/upstream-disk/pg_wal|"
	"upstream-tmpfs|$upstream|$shmdir/upstream-tmpfs/pg_wal|"
	"upstream-async|$upstream|$shmdir/upstream-async/pg_wal|synchronous_commit = off"
	"fork-pmem_drain|$fork|$shmdir/fork-pmem_drain/pg_wal|wal_sync_method = pmem_drain"
)

stop_all()
{
	local c name bin
	for c in "${configs[@]}"; do
		IFS='|' read -r name bin _ _ <<< "$c"
		[ -f "$work/$name/data/postmaster.pid" ] &&
			as_builder "$bin/pg_ctl" -D "$work/$name/data" -m immediate stop >/dev/null 2>&1 || true
	done
	rm -rf "$shmdir"
}
trap stop_all EXIT

# Start one cluster per configuration, on ports from 5500 up.
port=${BENCH_PORT:-5500}
declare -A PORT BIN
for c in "${configs[@]}"; do
	IFS='|' read -r name bin waldir extra <<< "$c"
	note "$name: initdb, scale $scale"
	init_cluster "$bin" "$work/$name/data" "$port" --waldir="$waldir" -- \
		"${BENCH_SETTINGS[@]}" "$extra"
	as_builder "$bin/pg_ctl" -D "$work/$name/data" -l "$work/$name.log" -w start >/dev/null ||
		die "$name did not start; see $work/$name.log"
	as_builder "$bin/pgbench" -h 127.0.0.1 -p "$port" -U postgres -i -q -s "$scale" postgres \
		> "$work/$name.init.log" 2>&1 || die "pgbench -i failed for $name"
	as_builder "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -q -c CHECKPOINT postgres
	PORT[$name]=$port
	BIN[$name]=$bin
	port=$((port + 1))
done

# Scenario 1: pgbench TPC-B, configurations alternating within each
# repetition and client count.
raw="$work/pgbench.raw"
: > "$raw"
for rep in $(seq 1 "$reps"); do
	for c in $clients; do
		for cfg in "${configs[@]}"; do
			IFS='|' read -r name _ _ _ <<< "$cfg"
			j=$(( c < 2 ? 1 : 2 ))
			out=$(as_builder "${BIN[$name]}/pgbench" -h 127.0.0.1 -p "${PORT[$name]}" -U postgres \
				-M prepared -c "$c" -j "$j" -T "$seconds" postgres 2>/dev/null || true)
			tps=$(awk '/^tps = / { printf "%.0f", $3 }' <<< "$out")
			lat=$(awk '/^latency average = / { print $4 }' <<< "$out")
			[ -n "$tps" ] || die "pgbench produced no result for $name, $c clients"
			echo "$c $name $tps $lat" | tee -a "$raw"
		done
	done
done

# Scenario 2: WAL-heavy inserts, as in the published pmem_drain benchmark:
# many clients, each transaction one row carrying a long static string
# (stored uncompressed, so that all of it goes to WAL).
heavy_clients=${clients##* }
heavy_seconds=$(( seconds > 10 ? seconds / 2 : seconds ))
heavy_script="$work/heavy.sql"
as_builder sh -c "printf '%s\n' \"INSERT INTO wal_heavy (payload) VALUES (repeat('x', 2000));\" > '$heavy_script'"
raw2="$work/heavy.raw"
: > "$raw2"
for cfg in "${configs[@]}"; do
	IFS='|' read -r name _ _ _ <<< "$cfg"
	as_builder "${BIN[$name]}/psql" -h 127.0.0.1 -p "${PORT[$name]}" -U postgres -q \
		-c 'CREATE TABLE wal_heavy (id bigserial, payload text)' \
		-c 'ALTER TABLE wal_heavy ALTER payload SET STORAGE EXTERNAL' postgres
done
for rep in $(seq 1 "$reps"); do
	for cfg in "${configs[@]}"; do
		IFS='|' read -r name _ _ _ <<< "$cfg"
		out=$(as_builder "${BIN[$name]}/pgbench" -h 127.0.0.1 -p "${PORT[$name]}" -U postgres \
			-n -M prepared -f "$heavy_script" -c "$heavy_clients" -j 2 -T "$heavy_seconds" postgres 2>/dev/null || true)
		tps=$(awk '/^tps = / { printf "%.0f", $3 }' <<< "$out")
		[ -n "$tps" ] || die "pgbench produced no result for $name, WAL-heavy inserts"
		echo "$name $tps" | tee -a "$raw2"
	done
done

# Scenario 3: synchronous 8 kB writes, fdatasync against pmem_drain, on
# the same (tmpfs) file system, and fdatasync on the data disk.
ptf_secs=$([ "$profile" = smoke ] && echo 1 || echo 5)
as_builder "$fork/pg_test_fsync" -s "$ptf_secs" -f "$shmdir/ptf.out" > "$work/ptf-tmpfs.txt" 2>&1
# not emulated there: pmem_drain must really use msync() on the disk
as_builder env PMEM_IS_PMEM_FORCE=0 "$fork/pg_test_fsync" -s "$ptf_secs" -f "$work/ptf.out" > "$work/ptf-disk.txt" 2>&1
ptf() { awk -v m="$2" '/one 8kB write/ { on = 1 } /two 8kB writes/ { on = 0 } on && $1 == m { printf "%.0f", $2 }' "$1"; }

col() { awk -v c="$1" -v n="$2" -v f="$3" '$1 == c && $2 == n { print $f }' "$raw"; }

# A smoke run proves that the harness works; its numbers mean nothing.
results="$TOP/bench/results"
[ "$profile" = smoke ] && results=$work
mkdir -p "$results"
out="$results/$profile-$(date -u +%Y%m%d-%H%M).md"
{
	echo "# Benchmarks, profile $profile"
	echo
	echo "Run $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/^Mem:/ { print $2 }') GB;"
	echo "data disk: $(df -T "$work" | awk 'NR == 2 { print $2 }'), tmpfs: $shm."
	echo "Upstream: $("$upstream/postgres" --version); fork: $("$fork/postgres" --version) with patches/ (both meson debugoptimized, no assertions, same options)."
	echo "**Persistent memory is emulated**: tmpfs with PMEM_IS_PMEM_FORCE=1."
	echo "Settings for every cluster: shared_buffers = 1GB, max_wal_size = 20GB, min_wal_size = 2GB, checkpoint_timeout = 1h (no checkpoint during a run); others as listed."
	echo
	echo "## 1. pgbench TPC-B, -M prepared, scale $scale, $seconds s runs, median of $reps (min-max), TPS"
	echo
	echo "Configurations: upstream-disk (pg_wal on the data disk, fdatasync), upstream-tmpfs (pg_wal on tmpfs), upstream-async (tmpfs, synchronous_commit = off: the ceiling), fork-pmem_drain (tmpfs, emulated persistent memory). fork-nvwal: NVWAL has not landed yet."
	echo
	printf '| clients |'
	for cfg in "${configs[@]}"; do IFS='|' read -r name _ _ _ <<< "$cfg"; printf ' %s |' "$name"; done
	echo ' fork-pmem_drain / upstream-tmpfs |'
	printf '|---:|'
	for cfg in "${configs[@]}"; do printf -- '---:|'; done
	echo '---:|'
	for c in $clients; do
		printf '| %s |' "$c"
		for cfg in "${configs[@]}"; do
			IFS='|' read -r name _ _ _ <<< "$cfg"
			printf ' %s (%s), %s ms |' "$(col "$c" "$name" 3 | median)" "$(col "$c" "$name" 3 | range)" "$(col "$c" "$name" 4 | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')"
		done
		awk -v a="$(col "$c" fork-pmem_drain 3 | median)" -v b="$(col "$c" upstream-tmpfs 3 | median)" 'BEGIN { printf " %.3f |\n", a / b }'
	done
	echo
	echo "## 2. WAL-heavy inserts: one row with a 2,000-byte static string per transaction, $heavy_clients clients, $heavy_seconds s runs, median of $reps (min-max), TPS"
	echo
	echo "| configuration | TPS | ratio to upstream-tmpfs |"
	echo "|---|---:|---:|"
	base=$(awk '$1 == "upstream-tmpfs" { print $2 }' "$raw2" | median)
	for cfg in "${configs[@]}"; do
		IFS='|' read -r name _ _ _ <<< "$cfg"
		m=$(awk -v n="$name" '$1 == n { print $2 }' "$raw2" | median)
		echo "| $name | $m ($(awk -v n="$name" '$1 == n { print $2 }' "$raw2" | range)) | $(awk -v a="$m" -v b="$base" 'BEGIN { printf "%.3f", a / b }') |"
	done
	echo
	echo "## 3. Synchronous 8 kB writes (pg_test_fsync, one 8 kB write + sync, ops/s)"
	echo
	echo "| file system | fdatasync | pmem_drain | ratio |"
	echo "|---|---:|---:|---:|"
	a=$(ptf "$work/ptf-tmpfs.txt" fdatasync); b=$(ptf "$work/ptf-tmpfs.txt" pmem_drain)
	echo "| tmpfs (emulated persistent memory) | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }') |"
	a=$(ptf "$work/ptf-disk.txt" fdatasync); b=$(ptf "$work/ptf-disk.txt" pmem_drain)
	echo "| data disk (pmem_drain uses msync() there) | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b / a }') |"
	echo
	echo "## Not measured yet"
	echo
	echo "4 (WAL insertion scaling), 5 (DDL under wal_level = minimal) and 6 (recovery time) are not written yet; NVWAL configurations wait for NVWAL."
} > "$out"
cat "$out"
# Every scenario must have produced numbers.
if grep -Eq '\| *\(|\( *- *\)|\| *\|' "$out"; then
	die "a scenario produced no numbers; see $out"
fi
note "results in $out"
