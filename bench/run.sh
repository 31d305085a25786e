#!/bin/bash
# The benchmark suite: pristine upstream PostgreSQL and the fork, built
# alike, measured side by side in one run, configurations alternating
# within every repetition (A B C D A B C D ...).
#
#   BENCH_PROFILE=quick (default; about 95 minutes on 2 cores), full, smoke
#   (a few seconds per scenario, to prove the harness works, on the
#   assert-enabled build alone, which stands in for upstream too; its
#   results stay in build/bench/smoke)
#
# Persistent memory is EMULATED wherever it appears: files on tmpfs
# (/dev/shm) with PMEM_IS_PMEM_FORCE=1, which makes libpmem flush CPU caches
# (CLWB/CLFLUSHOPT + SFENCE) as on real persistent memory.
#
# Runs of one configuration vary by 10% and more on a small machine, more
# than most differences to be measured, so: every server runs pgbench once
# before measuring (discarded); the order of the configurations rotates
# with each repetition and client count; and the report gives, besides the
# median of each configuration, the median (min-max) of the per-repetition
# ratios to synchronous_commit = off on the same binary (upstream-async,
# fork-async), each from two runs of one repetition, which cancels slow
# drifts of the machine.
#
# Each scenario reproduces a published experiment; see bench/README.md.
# The raw measurements go to bench/results/<profile>-<date>.tsv, what they
# were taken with to .meta, and bench/report.sh turns both into the .md
# tables and the .png plots.
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

profile=${BENCH_PROFILE:-quick}
case "$profile" in
	quick)
		scale=50 reps=5 clients="1 8 32" s1_secs=10 s2_secs=10 ptf_secs=1
		s4_secs=5 s4_clients="1 2 4 8 16 32 64"
		s5_clients=8 s5_before=5 s5_after=5 s5_tables=100 s5_rows=1000 ;;
	full)
		scale=1000 reps=5 clients="1 4 8 16 32 64" s1_secs=300 s2_secs=120 ptf_secs=5
		s4_secs=60 s4_clients="1 2 4 8 16 32 64"
		s5_clients=16 s5_before=30 s5_after=30 s5_tables=1000 s5_rows=1000 ;;
	smoke)
		scale=1 reps=1 clients="1 8" s1_secs=2 s2_secs=2 ptf_secs=1
		s4_secs=2 s4_clients="1 8"
		s5_clients=4 s5_before=3 s5_after=3 s5_tables=5 s5_rows=100 ;;
	*) die "BENCH_PROFILE must be quick, full or smoke" ;;
esac
s2_clients=${clients##* }
start_time=$(date +%s)

command -v gnuplot >/dev/null || die "gnuplot is not installed; run 'make deps'"
if [ "$profile" = smoke ]; then
	# A smoke run proves that the harness works and nothing more, so it
	# needs neither an optimized build nor pristine upstream: the
	# assert-enabled build that "make check" tests plays both parts.
	"$TOP/scripts/build.sh" check install
	fork="$BUILD/check-install/bin"
	upstream=$fork
else
	"$TOP/scripts/build.sh" release
	"$TOP/scripts/build.sh" upstream
	fork="$INSTALL/bin"
	upstream="$BUILD/upstream-install/bin"
fi
bench_workspace "$profile"

# A smoke run proves that the harness works; its numbers mean nothing and
# stay out of bench/results.
results="$TOP/bench/results"
[ "$profile" = smoke ] && results=$work
mkdir -p "$results"
stem="$results/$profile-$(date -u +%Y%m%d-%H%M)"
RAW="$stem.tsv"
: > "$RAW"

# NVWAL configurations join the run once the fork's initdb offers NVWAL.
has_nvwal=no
"$fork/initdb" --help 2>/dev/null | grep -- --nvwal-path > /dev/null && has_nvwal=yes

# Scenarios 1 to 4: one server per configuration.
#   name|binaries|pg_wal location|initdb options|settings
configs=(
	"upstream-disk|$upstream|$work/upstream-disk/pg_wal||"
	"upstream-tmpfs|$upstream|$shmdir/upstream-tmpfs/pg_wal||"
	"upstream-async|$upstream|$shmdir/upstream-async/pg_wal||synchronous_commit = off"
	"fork-pmem_drain|$fork|$shmdir/fork-pmem_drain/pg_wal||wal_sync_method = pmem_drain"
	"fork-async|$fork|$shmdir/fork-async/pg_wal||synchronous_commit = off"
)
if [ $has_nvwal = yes ]; then
	configs+=("fork-nvwal|$fork|$work/fork-nvwal/pg_wal|--nvwal-path=$shmdir/fork-nvwal.nvwal --nvwal-size=1GB|")
fi
names=()
for c in "${configs[@]}"; do names+=("${c%%|*}"); done
# The fork's best configuration, measured against upstream in 5 and 6.
fork_best=fork-pmem_drain
[ $has_nvwal = yes ] && fork_best=fork-nvwal

stop_all()
{
	local n
	for n in "${!DATA[@]}"; do
		[ -f "${DATA[$n]}/postmaster.pid" ] && server_stop "$n" immediate 2>/dev/null || true
	done
	rm -rf "$shmdir"
}
trap stop_all EXIT

# Record a server's settings that differ from the defaults with its results,
# and how the fork makes WAL durable in its NVWAL ring (nvwal_persist_method:
# flush_drain, drain or msync; none without NVWAL), which the server decides
# at start from the platform and the environment.
record_settings()
{
	sql "$1" -F $'\t' -c "SELECT name, current_setting(name) FROM pg_settings
		WHERE (source NOT IN ('default', 'override', 'client')
				OR name = 'nvwal_persist_method')
			AND name NOT IN ('port', 'listen_addresses', 'unix_socket_directories',
				'DateStyle', 'TimeZone', 'log_timezone', 'default_text_search_config')
			AND name NOT LIKE 'lc\\_%'
		ORDER BY name" |
		while IFS=$'\t' read -r k v; do
			printf 'conf\t%s\t%s\t-\tsetting\t%s\n' "$1" "$k" "$v" >> "$RAW"
		done
}

port=$(free_port "${BENCH_PORT:-5500}")
for c in "${configs[@]}"; do
	IFS='|' read -r name bin waldir initopts extra <<< "$c"
	# shellcheck disable=SC2086 # initdb options are words
	bench_cluster "$name" "$bin" "$work/$name/data" "$port" "$scale" \
		--waldir="$waldir" $initopts -- "$extra"
	record_settings "$name"
	port=$(free_port $((port + 1)))
done
n=${#names[@]}
warm_up "${clients##* }" "$s1_secs" "${names[@]}"

# in_turn REP CI: the configurations in the order of repetition REP at the
# CI-th client count (from 0): each starts with another one.
in_turn() { local i; for i in $(seq 0 $((n - 1))); do echo "${names[$(( ($1 - 1 + $2 + i) % n ))]}"; done; }

# 1. pgbench TPC-B (sort-of), -M prepared.
note "scenario 1: pgbench TPC-B, clients $clients, $s1_secs s, $reps repetitions"
for rep in $(seq "$reps"); do
	ci=0
	for c in $clients; do
		for name in $(in_turn "$rep" $ci); do
			tpcb_run 1 "$name" "$c" "$rep" "$s1_secs"
		done
		ci=$((ci + 1))
	done
done

# 2. WAL-heavy inserts: many clients, each transaction one row carrying a
# long static string, stored uncompressed so that all of it goes to WAL.
note "scenario 2: WAL-heavy inserts, $s2_clients clients, $s2_secs s"
as_builder sh -c "echo \"INSERT INTO wal_heavy (payload) VALUES (repeat('x', 2000));\" > '$work/heavy.sql'"
for name in "${names[@]}"; do
	sql "$name" -c 'CREATE TABLE wal_heavy (id bigserial, payload text)' \
		-c 'ALTER TABLE wal_heavy ALTER payload SET STORAGE EXTERNAL'
done
for rep in $(seq "$reps"); do
	for name in $(in_turn "$rep" 0); do
		out=$(pg "$name" pgbench -n -M prepared -f "$work/heavy.sql" -c "$s2_clients" -j 2 -T "$s2_secs" postgres 2>/dev/null || true)
		record 2 "$name" "$s2_clients" "$rep" tps "$(tps_of <<< "$out")"
	done
done

# 3. Synchronous 8 kB writes, fdatasync against pmem_drain on the same file
# system: tmpfs (emulated persistent memory), and the data disk, where
# pmem_drain must really use msync(), so without the emulation.
note "scenario 3: pg_test_fsync, $ptf_secs s per test"
ptf() { awk -v m="$2" '/one 8kB write/ { on = 1 } /two 8kB writes/ { on = 0 } on && $1 == m { printf "%.0f", $2 }' "$1"; }
for rep in $(seq "$reps"); do
	as_builder "$fork/pg_test_fsync" -s "$ptf_secs" -f "$shmdir/ptf.out" > "$work/ptf-tmpfs-$rep.txt" 2>&1 || true
	as_builder env PMEM_IS_PMEM_FORCE=0 "$fork/pg_test_fsync" -s "$ptf_secs" -f "$work/ptf.out" > "$work/ptf-disk-$rep.txt" 2>&1 || true
	for fs in tmpfs disk; do
		for m in fdatasync pmem_drain; do
			record 3 "$fs" "$m" "$rep" ops "$(ptf "$work/ptf-$fs-$rep.txt" "$m")"
		done
	done
done

for name in "${names[@]}"; do
	case "$name" in upstream-tmpfs|"$fork_best") ;; *) server_stop "$name" ;; esac
done

# 4. WAL insertion scaling, with its own servers (upstream, and the fork at
# several num_xloginsert_slots, with NVWAL and without) and its own report:
# bench/scaling.sh.  A smoke run gives it the smoke run's binaries.
note "scenario 4: WAL insertion scaling, clients $s4_clients, $s4_secs s (bench/scaling.sh)"
scaling_log="$work/scaling.log"
if [ "$profile" = smoke ]; then
	BENCH_FORK_BIN=$fork BENCH_UPSTREAM_BIN=$upstream BENCH_RESULTS=$results BENCH_SLOTS="1 8" \
		BENCH_SECONDS=$s4_secs BENCH_REPS=$reps BENCH_CLIENTS="$s4_clients" \
		"$TOP/bench/scaling.sh" > "$scaling_log" 2>&1
else
	BENCH_SECONDS=$s4_secs BENCH_REPS=$reps BENCH_CLIENTS="$s4_clients" \
		"$TOP/bench/scaling.sh" > "$scaling_log" 2>&1
fi || die_see "$scaling_log" "scenario 4 failed"
scaling_stem=$(sed -n 's/.*results in \(.*\)\.md and .*/\1/p' "$scaling_log" | tail -n 1)
[ -n "$scaling_stem" ] || die_see "$scaling_log" "scenario 4 reported no results"

# 5. DDL under load with wal_level = minimal: pgbench runs while one backend
# creates and fills small tables, each in its own transaction, so that
# their contents skip WAL and are either WAL-logged at commit (smaller than
# wal_skip_threshold) or fsynced.  TPS before, during and after the DDL
# comes from pgbench's per-second progress reports.
s5_configs=(upstream-tmpfs "$fork_best")
note "scenario 5: DDL under load, wal_level = minimal, ${s5_configs[*]}"
for name in "${s5_configs[@]}"; do
	sql "$name" -c 'ALTER SYSTEM SET wal_level = minimal' -c 'ALTER SYSTEM SET max_wal_senders = 0'
	server_stop "$name"
	server_start "$name"
	[ "$(sql "$name" -c 'SHOW wal_level')" = minimal ] || die "$name: wal_level is not minimal"
done
as_builder sh -c "for i in \$(seq $s5_tables); do
		echo \"BEGIN; CREATE TABLE ddl_\$i (id int, filler text);\"
		echo \"INSERT INTO ddl_\$i SELECT g, repeat('x', 100) FROM generate_series(1, $s5_rows) g; COMMIT;\"
	done > '$work/ddl.sql'
	for i in \$(seq $s5_tables); do echo \"DROP TABLE ddl_\$i;\"; done > '$work/ddl-drop.sql'"

# phase_tps FILE FROM TO: mean of the per-second TPS that pgbench reported
# (lines "progress: <epoch> s, <tps> tps, ...") for seconds that lie within
# FROM..TO (epoch seconds; each report covers the second before it).
phase_tps()
{
	awk -v a="$2" -v b="$3" '$1 == "progress:" && $2 - 1 >= a && $2 <= b { s += $4; n++ }
		END { if (n) printf "%.0f", s / n }' "$1"
}
# during_tps FILE FROM TO: the same for the seconds that overlap FROM..TO,
# as the DDL may take less than a second.
during_tps()
{
	awk -v a="$2" -v b="$3" '$1 == "progress:" && $2 > a && $2 - 1 < b { s += $4; n++ }
		END { if (n) printf "%.0f", s / n }' "$1"
}

for rep in $(seq "$reps"); do
	for thr in 2MB 0; do
		for name in "${s5_configs[$(( (rep + 1) % 2 ))]}" "${s5_configs[$(( rep % 2 ))]}"; do
			prog="$work/ddl-$name-$thr-$rep.progress"
			as_builder "${BIN[$name]}/pgbench" -h 127.0.0.1 -p "${PORT[$name]}" -U postgres \
				-n -M prepared -c "$s5_clients" -j 2 -T 3600 -P 1 --progress-timestamp postgres \
				>/dev/null 2> "$prog" &
			bg=$!
			t_start=$(date +%s.%N)
			sleep "$s5_before"
			t0=$(date +%s.%N)
			sql "$name" -c "SET wal_skip_threshold = '$thr'" -f "$work/ddl.sql"
			t1=$(date +%s.%N)
			sleep "$s5_after"
			t_end=$(date +%s.%N)
			# SIGTERM, not SIGINT: a shell without job control starts
			# background commands with SIGINT ignored, and everything they
			# start inherits that; "make check &" from a script left
			# pgbench running for its whole hour
			kill -TERM $(pgrep -x pgbench -P "$(pgrep -P $bg -d,)") 2>/dev/null || true
			wait $bg || true
			sql "$name" -f "$work/ddl-drop.sql"
			record 5 "$name" "$thr" "$rep" ddl_s "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
			record 5 "$name" "$thr" "$rep" tps_before "$(phase_tps "$prog" "$t_start" "$t0")"
			record 5 "$name" "$thr" "$rep" tps_during "$(during_tps "$prog" "$t0" "$t1")"
			record 5 "$name" "$thr" "$rep" tps_after "$(phase_tps "$prog" "$t1" "$t_end")"
		done
	done
done
for name in "${s5_configs[@]}"; do server_stop "$name"; done

# 6. Recovery and replay, with servers and a report of its own
# (bench/recovery.sh): crash recovery of upstream, the fork and the fork on
# NVWAL, full_page_writes on and off, recovery_prefetch off and on, with the
# page cache dropped; and replay on a plain and an NVWAL standby under
# synchronous_commit = remote_apply.  A smoke run gives it its binaries.
note "scenario 6: recovery and replay (bench/recovery.sh)"
recovery_log="$work/recovery.log"
if [ "$profile" = smoke ]; then
	BENCH_PROFILE=smoke BENCH_FORK_BIN=$fork BENCH_UPSTREAM_BIN=$upstream BENCH_RESULTS=$results \
		BENCH_PORT=$((port + 1)) "$TOP/bench/recovery.sh" > "$recovery_log" 2>&1
else
	BENCH_PROFILE=$profile BENCH_PORT=$((port + 1)) "$TOP/bench/recovery.sh" > "$recovery_log" 2>&1
fi || die_see "$recovery_log" "scenario 6 failed"
recovery_stem=$(sed -n 's/.*results in \(.*\)\.md and .*/\1/p' "$recovery_log" | tail -n 1)
[ -n "$recovery_stem" ] || die_see "$recovery_log" "scenario 6 reported no results"

# What the report needs besides the numbers.
{
	declare -p profile scale reps clients s1_secs s2_secs s2_clients ptf_secs \
		s4_secs s4_clients s5_clients s5_before s5_after s5_tables s5_rows \
		has_nvwal fork_best names s5_configs scaling_stem recovery_stem
	run_at=$(date -u -d "@$start_time" '+%Y-%m-%d %H:%M UTC')
	run_minutes=$(( ($(date +%s) - start_time + 59) / 60 ))
	machine="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/^Mem:/ { print $2 }') GB of memory, Linux $(uname -r)"
	filesystems="data directories on $(df -T "$work" | awk 'NR == 2 { print $2 " (" $1 ")" }'), tmpfs at $shm"
	upstream_version="$("$upstream/postgres" --version)"
	fork_version="$("$fork/postgres" --version) with $(grep -c '^[^#]' "$TOP/patches/series") patches (repository $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo unknown))"
	compiler="$(cc --version | sed -n 1p)"
	declare -p run_at run_minutes machine filesystems upstream_version fork_version compiler
} > "$stem.meta"

"$TOP/bench/report.sh" "$stem"

# README.md shows the latest results, between two markers.
if [ "$profile" != smoke ]; then
	awk -v f="$stem.summary.md" '
		/^<!-- bench:latest:end -->/ { skip = 0 }
		!skip { print }
		/^<!-- bench:latest:begin -->/ { while ((getline l < f) > 0) print l; skip = 1 }' \
		"$TOP/README.md" > "$TOP/README.md.new" && mv "$TOP/README.md.new" "$TOP/README.md"
	note "README.md now shows these results"
fi
