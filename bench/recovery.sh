#!/bin/bash
# Scenario 6: recovery and replay, in the regime of the published
# recovery-prefetch experiment, where redo waits on reads of data pages:
# a data set many times shared_buffers (128MB) and out of the page cache.
#
# Crash recovery.  The configurations:
#
#   upstream     pristine PostgreSQL 18.6, pg_wal on the data disk
#   fork         the fork without NVWAL, pg_wal on the data disk
#   fork-nvwal   the fork on NVWAL, with a ring large enough for all the WAL
#                of the run (BENCH_RING, 1GB), as it runs: its WAL writer
#                writes the ring behind into pg_wal (on the data disk), and
#                recovery reads from the ring what is not there yet (the
#                patch "Recover from the NVWAL ring, without copying it
#                into pg_wal first")
#   fork-ring    the same with its WAL writer stopped (SIGSTOP) during the
#                run, so that all the WAL to redo is in the ring only
#   prev-ring    as fork-ring, on BENCH_BASELINE_BIN, if set: the binaries
#                of the series up to the patch "Make nvwal_persist_at =
#                insert the default", whose startup process copied the
#                ring's WAL into pg_wal before redo
#
# The clusters are made once per build at pgbench scale BENCH_SCALE (300)
# on the data disk, checkpointed and shut down; those on NVWAL share a copy
# of the fork's, turned to NVWAL by pg_nvwal.  Then, for full_page_writes on and off, a copy runs
# a fixed number of pgbench TPC-B transactions and is crashed (SIGKILL of
# every process).  Each repetition redoes each crashed cluster with
# recovery_prefetch off, and on with maintenance_io_concurrency 10 and 50,
# from a fresh copy, after the kernel's page cache is dropped (when run as
# root), the configurations' order rotating.  From the server's log:
#
#   redo_s    from "redo starts at" to "redo done at"
#   ready_ms  from "starting PostgreSQL" to "ready to accept connections",
#             which includes whatever happens before and after redo
#
# Standby replay.  A primary (the fork, pg_wal on tmpfs, scale
# BENCH_STANDBY_SCALE) and two standbys made from its base backup, on the
# data disk: "plain" (pg_wal) and "nvwal" (an NVWAL ring, which its
# walreceiver stores into and its startup process replays from, the patch
# "Store a standby's received WAL into the NVWAL ring only, and replay it
# from there").
# Each repetition, for each standby in turn (the other stopped), pgbench
# TPC-B runs on the primary with synchronous_commit = remote_apply and that
# standby synchronous: the commit latency (pgbench's), TPS, and the median of
# replay_lag, sampled every 200 ms from pg_stat_replication.
#
# Persistent memory is EMULATED: NVWAL files on tmpfs (/dev/shm) with
# PMEM_IS_PMEM_FORCE=1, which makes libpmem flush CPU caches there as it
# would on real persistent memory.
#
# Settings (environment): BENCH_PROFILE (quick: scale 300, 8 clients x 2,500
# transactions, 3 repetitions, standby runs of 20 s at scale 50; full: scale
# 1000, 16 x 25,000, 5 repetitions, 60 s; smoke: scale 1, a few seconds),
# BENCH_SCALE, BENCH_REPS, BENCH_RING, BENCH_STANDBY_SECONDS, and
# BENCH_BASELINE_BIN for prev-ring (as bench/redo_ring.sh: a release build
# of the series up to the patch "Make nvwal_persist_at = insert the
# default", with libpmem).  BENCH_UPSTREAM_BIN and
# BENCH_FORK_BIN name other binaries (bench/run.sh passes the smoke run's).
# Results go to bench/results/recovery-<date>.md and .png (BENCH_RESULTS:
# elsewhere), every measurement in .tsv.  The quick profile takes about 25
# minutes on 2 cores (30 with prev-ring), most of it copying clusters, and
# about 55 GB of the data disk.
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

profile=${BENCH_PROFILE:-quick}
case "$profile" in
	quick) scale=300 clients=8 txns=2500 reps=3 sb_scale=50 sb_secs=20 sb_clients=8 ;;
	full) scale=1000 clients=16 txns=25000 reps=5 sb_scale=300 sb_secs=60 sb_clients=16 ;;
	smoke) scale=1 clients=2 txns=100 reps=1 sb_scale=1 sb_secs=2 sb_clients=2 ;;
	*) die "BENCH_PROFILE must be quick, full or smoke" ;;
esac
scale=${BENCH_SCALE:-$scale}
reps=${BENCH_REPS:-$reps}
sb_secs=${BENCH_STANDBY_SECONDS:-$sb_secs}
sb_scale=${BENCH_STANDBY_SCALE:-$sb_scale}
settings_list=(off on-10 on-50)
configs=(upstream fork fork-nvwal fork-ring)
[ -n "${BENCH_BASELINE_BIN:-}" ] && configs+=(prev-ring)
# on_nvwal CONFIG: whether CONFIG's cluster has an NVWAL file.
on_nvwal() { case "$1" in fork-nvwal | *-ring) return 0 ;; esac; return 1; }

command -v gnuplot >/dev/null || die "gnuplot is not installed; run 'make deps'"
names=("${configs[@]}" run primary plain nvwal)
narrow_run recovery
if [ -n "${BENCH_UPSTREAM_BIN:-}" ]; then
	upstream=$BENCH_UPSTREAM_BIN
else
	"$TOP/scripts/build.sh" upstream
	upstream="$BUILD/upstream-install/bin"
fi
start_time=$(date +%s)

drop_caches=no
if [ "$(id -u)" -eq 0 ] && sync && (echo 3 > /proc/sys/vm/drop_caches) 2>/dev/null; then
	drop_caches=yes
fi

# The settings of every cluster here: the experiment's shared_buffers, and
# no checkpoint before the crash.
SETTINGS=(
	"shared_buffers = 128MB"
	"max_wal_size = 20GB"
	"checkpoint_timeout = 1h"
	"autovacuum = off"
	"restart_after_crash = off"
)
# The NVWAL ring: large enough for all the WAL of a run (the report says
# how much of it was in the ring only at the crash).
case "$profile" in quick) ring=1GB ;; full) ring=4GB ;; smoke) ring=64MB ;; esac
ring=${BENCH_RING:-$ring}

# use_nvwal_file DATADIR FILE: have the cluster in DATADIR use FILE, a copy
# of its NVWAL file, where pg_nvwal recorded the file it made
# (postgresql.auto.conf).
use_nvwal_file()
{
	as_builder sed -i "s|^nvwal_path = .*|nvwal_path = '$2'|" "$1/postgresql.auto.conf"
	grep -q "^nvwal_path = '$2'" "$1/postgresql.auto.conf" || die "no nvwal_path in $1/postgresql.auto.conf"
}

port=$(free_port "${BENCH_PORT:-5500}")

# The clusters, once per build.
for b in upstream fork; do
	BIN[$b]=$([ $b = upstream ] && echo "$upstream" || echo "$bin")
	DATA[$b]=$work/$b/base PORT[$b]=$port
	note "$b: initdb, pgbench -i -s $scale"
	# Checkpoints while loading, so that the cluster keeps little WAL: each
	# crashed cluster is a copy of it.
	init_cluster "${BIN[$b]}" "${DATA[$b]}" "$port" -- "${SETTINGS[@]}" "max_wal_size = 256MB"
	server_start "$b"
	pg "$b" pgbench -i -q -I dtGvp -s "$scale" postgres > "${DATA[$b]}.pgbench-init.log" 2>&1 ||
		die_see "${DATA[$b]}.pgbench-init.log" "pgbench -i failed for $b"
	server_stop "$b"
	echo "max_wal_size = 20GB" | as_builder tee -a "${DATA[$b]}/postgresql.conf" > /dev/null
	port=$(free_port $((port + 1)))
done

# The disk must hold two crashed clusters per configuration, and the copy
# that recovers.
need=$(( $(du -sm "${DATA[fork]}" | cut -f1) * (2 * ${#configs[@]} + 2) + 4096 ))
have=$(df -m --output=avail "$work" | tail -n 1)
[ "$have" -gt "$need" ] ||
	die "$work has $have MB free, and this run needs about $need MB; set BENCH_SCALE lower"
# The configurations on NVWAL share a copy of the fork's cluster that
# pg_nvwal turned to NVWAL.
nvwal_base=$work/nvwal-base
as_builder cp -a "${DATA[fork]}" "$nvwal_base"
as_builder "$bin/pg_nvwal" --enable --nvwal-path="$shmdir/nvwal-base.nvwal" \
	--nvwal-size="$ring" -D "$nvwal_base" > /dev/null ||
	die "pg_nvwal --enable failed"
for c in "${configs[@]}"; do
	case "$c" in
		fork-nvwal | fork-ring) BIN[$c]=$bin ;;
		prev-ring) BIN[$c]=$BENCH_BASELINE_BIN ;;
		*) continue ;;
	esac
	DATA[$c]=$nvwal_base PORT[$c]=${PORT[fork]}
	builder_dir "$work/$c"
done

# The crashed clusters: $work/CONFIG/crashed-FPW, and the NVWAL file beside
# them in $shmdir.
declare -A uses
for c in "${configs[@]}"; do uses[${DATA[$c]}]=$(( ${uses[${DATA[$c]}]:-0} + 2 )); done
for c in "${configs[@]}"; do
	for fpw in on off; do
		crashed=$work/$c/crashed-$fpw
		# the last cluster made from a base takes it in place of a copy
		uses[${DATA[$c]}]=$(( ${uses[${DATA[$c]}]} - 1 ))
		if [ "${uses[${DATA[$c]}]}" -eq 0 ]; then
			mv "${DATA[$c]}" "$crashed"
		else
			as_builder cp -a "${DATA[$c]}" "$crashed"
		fi
		echo "full_page_writes = $fpw" | as_builder tee -a "$crashed/postgresql.conf" > /dev/null
		if on_nvwal "$c"; then
			as_builder cp "$shmdir/nvwal-base.nvwal" "$shmdir/$c-$fpw.nvwal"
			use_nvwal_file "$crashed" "$shmdir/$c-$fpw.nvwal"
		fi
		base=${DATA[$c]}
		DATA[$c]=$crashed
		server_start "$c"
		pm=$(head -1 "$crashed/postmaster.pid")
		# Nothing of the run's WAL is written behind with the WAL writer
		# stopped: it is all in the ring only at the crash.
		case "$c" in
			*-ring)
				walwriter=
				for t in $(seq 50); do
					walwriter=$(pgrep -P "$pm" -f walwriter) && break
					sleep 0.1
				done
				[ -n "$walwriter" ] || die "found no WAL writer under postmaster $pm"
				kill -STOP "$walwriter"
				;;
		esac
		start_lsn=$(sql "$c" -c "SELECT pg_current_wal_insert_lsn()")
		pg "$c" pgbench -n -M prepared -c "$clients" -j 2 -t "$txns" --random-seed=6 postgres \
			> "$crashed.gen.log" 2>&1 || die_see "$crashed.gen.log" "pgbench failed for $c"
		end_lsn=$(sql "$c" -c "SELECT pg_current_wal_insert_lsn()")
		pkill -KILL -P "$pm" || true
		kill -KILL "$pm"
		while pgrep -P "$pm" > /dev/null || kill -0 "$pm" 2> /dev/null; do sleep 0.1; done
		rm -f "$crashed/postmaster.pid"
		wal_mb=$(( ($(lsn_bytes "$end_lsn") - $(lsn_bytes "$start_lsn")) / 1048576 ))
		record 6 "$c" "fpw-$fpw" 0 wal_mb "$wal_mb"
		if on_nvwal "$c"; then
			behind=$(as_builder "${BIN[$c]}/pg_controldata" --nvwal-path="$shmdir/$c-$fpw.nvwal" "$crashed" |
				awk -F': *' '/written behind/ { print $2 }')
			record 6 "$c" "fpw-$fpw" 0 ring_only_mb $(( ($(lsn_bytes "$end_lsn") - $(lsn_bytes "$behind")) / 1048576 ))
		fi
		DATA[$c]=$base
	done
done
as_builder rm -f "$shmdir/nvwal-base.nvwal"

# One recovery: REP FPW SETTING CONFIG.
run_recovery()
{
	local rep=$1 fpw=$2 setting=$3 c=$4 run=$work/run log
	rm -rf "$run" "$run.log"
	as_builder cp -a "$work/$c/crashed-$fpw" "$run"
	{
		echo "recovery_prefetch = ${setting%%-*}"
		[ "$setting" = off ] || echo "maintenance_io_concurrency = ${setting#*-}"
	} | as_builder tee -a "$run/postgresql.conf" > /dev/null
	if on_nvwal "$c"; then
		as_builder cp "$shmdir/$c-$fpw.nvwal" "$shmdir/run.nvwal"
		use_nvwal_file "$run" "$shmdir/run.nvwal"
	fi
	BIN[run]=${BIN[$c]} DATA[run]=$run PORT[run]=${PORT[$c]}
	sync
	[ $drop_caches = yes ] && echo 3 > /proc/sys/vm/drop_caches
	log=$run.log
	server_start run
	server_stop run immediate
	grep -q 'redo done at' "$log" || die_see "$log" "$c did not redo any WAL"
	local key="fpw-$fpw/$setting"
	record 6 "$c" "$key" "$rep" redo_s "$(awk -v a="$(at "$log" 'redo starts at')" -v b="$(at "$log" 'redo done at')" 'BEGIN { printf "%.3f", (b - a) / 1000 }')"
	record 6 "$c" "$key" "$rep" ready_ms $(( $(at "$log" 'ready to accept connections') - $(at "$log" 'starting PostgreSQL') ))
	rm -rf "$run" "$shmdir/run.nvwal"
}

note "crash recovery: ${configs[*]}, $reps repetitions (page cache dropped: $drop_caches)"
i=0
for rep in $(seq "$reps"); do
	for fpw in on off; do
		for setting in "${settings_list[@]}"; do
			for k in "${!configs[@]}"; do
				run_recovery "$rep" "$fpw" "$setting" "${configs[$(( (i + k) % ${#configs[@]} ))]}"
			done
			i=$((i + 1))
		done
	done
done
for c in "${configs[@]}"; do rm -rf "${work:?}/$c" "$shmdir/$c"-*.nvwal; done

# Standby replay.
note "standby replay: plain and NVWAL standbys, synchronous_commit = remote_apply, ${sb_secs} s runs"
port=$(free_port "$port")
BIN[primary]=$bin DATA[primary]=$work/primary/data PORT[primary]=$port
init_cluster "$bin" "${DATA[primary]}" "$port" --waldir="$shmdir/primary/pg_wal" -- "${SETTINGS[@]}" \
	"wal_keep_size = 4GB" "max_wal_senders = 4"
server_start primary
pg primary pgbench -i -q -I dtGvp -s "$sb_scale" postgres > "${DATA[primary]}.pgbench-init.log" 2>&1 ||
	die_see "${DATA[primary]}.pgbench-init.log" "pgbench -i failed for the primary"
sql primary -c CHECKPOINT
pg primary pg_basebackup -D "$work/standby-base" -X stream -c fast
for s in plain nvwal; do
	port=$(free_port $((port + 1)))
	BIN[$s]=$bin DATA[$s]=$work/$s/data PORT[$s]=$port
	builder_dir "$work/$s"
	as_builder cp -a "$work/standby-base" "${DATA[$s]}"
	{
		echo "port = $port"
		echo "primary_conninfo = 'host=127.0.0.1 port=${PORT[primary]} user=postgres application_name=$s'"
		echo "hot_standby = on"
		if [ $s = nvwal ]; then
			echo "nvwal_path = '$shmdir/standby.nvwal'"
			echo "nvwal_size = 1GB"
		fi
	} | as_builder tee -a "${DATA[$s]}/postgresql.conf" > /dev/null
	as_builder touch "${DATA[$s]}/standby.signal"
done
rm -rf "$work/standby-base"

# caught_up S: wait until standby S has replayed everything the primary has.
caught_up()
{
	local target deadline=$(( $(date +%s) + 600 ))
	target=$(sql primary -c "SELECT pg_current_wal_lsn()")
	until [ "$(sql "$1" -c "SELECT pg_last_wal_replay_lsn() >= '$target'")" = t ]; do
		[ "$(date +%s)" -lt "$deadline" ] || die_see "${DATA[$1]}.log" "standby $1 did not catch up in 10 minutes"
		sleep 0.2
	done
}

for rep in $(seq "$reps"); do
	for s in $([ $((rep % 2)) -eq 1 ] && echo plain nvwal || echo nvwal plain); do
		server_start "$s"
		caught_up "$s"
		sql primary -c "ALTER SYSTEM SET synchronous_standby_names = '$s'" \
			-c "ALTER SYSTEM SET synchronous_commit = remote_apply" -c "SELECT pg_reload_conf()" > /dev/null
		lags=$work/lags
		: > "$lags"
		(
			sleep 1		# past what catching up left
			while :; do
				sql primary -c "SELECT extract(epoch FROM replay_lag) * 1000 FROM pg_stat_replication WHERE application_name = '$s' AND replay_lag IS NOT NULL" >> "$lags" 2> /dev/null || true
				sleep 0.2
			done
		) &
		sampler=$!
		out=$(pg primary pgbench -n -M prepared \
			-c "$sb_clients" -j 2 -T "$sb_secs" postgres 2> /dev/null || true)
		# (the sampler may be gone already: killing its sleep ends it)
		pkill -P "$sampler" || true
		kill "$sampler" 2> /dev/null || true
		wait "$sampler" 2> /dev/null || true
		record 6s "$s" remote_apply "$rep" tps "$(tps_of <<< "$out")"
		record 6s "$s" remote_apply "$rep" latency_ms "$(lat_of <<< "$out")"
		record 6s "$s" remote_apply "$rep" replay_lag_ms "$(grep . "$lags" | median)"
		sql primary -c "ALTER SYSTEM RESET synchronous_standby_names" \
			-c "ALTER SYSTEM RESET synchronous_commit" -c "SELECT pg_reload_conf()" > /dev/null
		server_stop "$s"
	done
done

# The report.
cell() { printf '%s (%s)' "$(med "$@")" "$(rng "$@")"; }
# pcell A B KEY METRIC: the paired ratios A / B, "median (min-max)".
pcell() { printf '%s (%s)' "$(paired 6 "$1" "$2" "$3" "$4" | median)" "$(paired 6 "$1" "$2" "$3" "$4" | range)"; }
has() { case " ${configs[*]} " in *" $1 "*) return 0 ;; esac; return 1; }
label() { sed 's/^on-/on, mic = /' <<< "$1"; }
# head2 FIRST SECOND: a table's head, those two columns and one per
# configuration.
# gain CONFIG FPW MIC: for each repetition, CONFIG's redo time with
# full_page_writes FPW and no prefetching over its redo time with
# prefetching at maintenance_io_concurrency MIC.
gain() { paired 6 "$1" "$1" "fpw-$2/off" redo_s "fpw-$2/on-$3"; }
# gain_over BASE FPW MIC: for each repetition, fork-ring's gain over BASE's.
gain_over()
{
	paste <(gain fork-ring "$2" "$3") <(gain "$1" "$2" "$3") |
		awk -F'\t' '$2 > 0 { printf "%.3f\n", $1 / $2 }'
}

head2()
{
	printf '| %s | %s |' "$1" "$2"
	for c in "${configs[@]}"; do printf ' %s |' "$c"; done
	printf '\n|---|---|'
	for c in "${configs[@]}"; do printf -- '---:|'; done
	echo
}
{
	echo "# Scenario 6: recovery and replay, $(date -u -d "@$start_time" '+%Y-%m-%d %H:%M') UTC"
	echo
	echo "\`bench/recovery.sh\`, profile $profile, $(( ($(date +%s) - start_time + 59) / 60 )) minutes."
	echo "Machine: $(machine); data directories on $(df -T "$work" | awk 'NR == 2 { print $2 " (" $1 ")" }'); page cache dropped before each recovery: $drop_caches."
	echo "**Persistent memory is EMULATED**: NVWAL files on tmpfs, PMEM_IS_PMEM_FORCE=1."
	echo "Settings: ${SETTINGS[*]}."
	echo "Binaries: upstream $("$upstream/postgres" --version) ($upstream); the fork $("$bin/postgres" --version) with $(grep -c '^[^#]' "$TOP/patches/series") patches ($bin)$(has prev-ring && echo "; the previous design: $BENCH_BASELINE_BIN")."
	echo
	echo "## Crash recovery"
	echo
	echo "pgbench scale $scale; after a checkpoint, $clients clients x $txns TPC-B transactions, then SIGKILL of every process. Each configuration redoes its own crashed cluster, from a fresh copy each time."
	echo
	echo "- upstream: pristine upstream, pg_wal on the data disk"
	echo "- fork: the fork without NVWAL, pg_wal on the data disk"
	echo "- fork-nvwal: the fork on NVWAL (ring of $ring), as it runs: the WAL writer writes the ring behind into pg_wal, and recovery reads from the ring only what was not written behind yet"
	echo "- fork-ring: the same, with its WAL writer stopped during the run: all the WAL to redo is in the ring only, and recovery reads it there (the patch \"Recover from the NVWAL ring, without copying it into pg_wal first\")"
	if has prev-ring; then
		echo "- prev-ring: as fork-ring, on the previous design (the series up to the patch \"Make nvwal_persist_at = insert the default\"), whose startup process copied the ring's WAL into pg_wal and fsynced it before redo"
	fi
	echo
	echo "| | WAL to redo, MB, fpw on | fpw off | of which in the ring only, fpw on | fpw off |"
	echo "|---|---:|---:|---:|---:|"
	for c in "${configs[@]}"; do
		echo "| $c | $(med 6 "$c" fpw-on wal_mb) | $(med 6 "$c" fpw-off wal_mb) | $(med 6 "$c" fpw-on ring_only_mb) | $(med 6 "$c" fpw-off ring_only_mb) |"
	done
	for m in redo_s ready_ms; do
		echo
		if [ $m = redo_s ]; then
			echo "Redo time, s (from \"redo starts\" to \"redo done\"), median (min-max) of $reps repetitions:"
		else
			echo "Time from start to \"ready to accept connections\", ms, median (min-max) of $reps repetitions:"
		fi
		echo
		head2 full_page_writes recovery_prefetch
		for fpw in on off; do
			for setting in "${settings_list[@]}"; do
				printf '| %s | %s |' "$fpw" "$(label "$setting")"
				for c in "${configs[@]}"; do printf ' %s |' "$(cell 6 "$c" "fpw-$fpw/$setting" $m)"; done
				echo
			done
		done
	done
	echo
	echo "Ratios, median (min-max) of the per-repetition ratios (each from one round of recoveries):"
	echo
	printf '| full_page_writes | recovery_prefetch | redo: fork-ring / fork | redo: fork / upstream | ready: fork-nvwal / upstream | ready: fork-ring / fork |'
	if has prev-ring; then printf ' ready: fork-ring / prev-ring | redo: fork-ring / prev-ring |'; fi
	echo
	printf '|---|---|---:|---:|---:|---:|'
	if has prev-ring; then printf -- '---:|---:|'; fi
	echo
	for fpw in on off; do
		for setting in "${settings_list[@]}"; do
			key="fpw-$fpw/$setting"
			printf '| %s | %s | %s | %s | %s | %s |' "$fpw" "$(label "$setting")" \
				"$(pcell fork-ring fork "$key" redo_s)" "$(pcell fork upstream "$key" redo_s)" \
				"$(pcell fork-nvwal upstream "$key" ready_ms)" "$(pcell fork-ring fork "$key" ready_ms)"
			if has prev-ring; then
				printf ' %s | %s |' "$(pcell fork-ring prev-ring "$key" ready_ms)" "$(pcell fork-ring prev-ring "$key" redo_s)"
			fi
			echo
		done
	done
	echo
	echo "What prefetching gains: redo time with recovery_prefetch off over redo time with it on, median of the per-repetition ratios; and fork-ring's gain over upstream's and over fork's, paired by repetition, median (min-max):"
	echo
	printf '| full_page_writes | maintenance_io_concurrency |'
	for c in "${configs[@]}"; do printf ' %s |' "$c"; done
	printf ' fork-ring / upstream | fork-ring / fork |\n|---|---|'
	for c in "${configs[@]}"; do printf -- '---:|'; done
	echo '---:|---:|'
	for fpw in on off; do
		for mic in 10 50; do
			printf '| %s | %s |' "$fpw" "$mic"
			for c in "${configs[@]}"; do
				printf ' %s |' "$(gain "$c" "$fpw" "$mic" | median)"
			done
			for b in upstream fork; do
				printf ' %s (%s) |' "$(gain_over "$b" "$fpw" "$mic" | median)" \
					"$(gain_over "$b" "$fpw" "$mic" | range)"
			done
			echo
		done
	done
	echo
	echo "![redo time](${stem##*/}.png)"
	echo
	echo "## Standby replay"
	echo
	echo "A primary (the fork, pg_wal on tmpfs, scale $sb_scale) and one synchronous standby at a time, on the data disk: plain (pg_wal) or nvwal (NVWAL ring of 1GB, emulated). pgbench TPC-B, $sb_clients clients, $sb_secs s, synchronous_commit = remote_apply; replay_lag sampled every 200 ms."
	echo
	echo "| standby | commit latency, ms | TPS | replay_lag, ms (median of samples) |"
	echo "|---|---:|---:|---:|"
	for s in plain nvwal; do
		echo "| $s | $(cell 6s "$s" remote_apply latency_ms) | $(cell 6s "$s" remote_apply tps) | $(cell 6s "$s" remote_apply replay_lag_ms) |"
	done
	echo "| nvwal / plain, paired | $(paired 6s nvwal plain remote_apply latency_ms | median) ($(paired 6s nvwal plain remote_apply latency_ms | range)) | $(paired 6s nvwal plain remote_apply tps | median) ($(paired 6s nvwal plain remote_apply tps | range)) | $(paired 6s nvwal plain remote_apply replay_lag_ms | median) ($(paired 6s nvwal plain remote_apply replay_lag_ms | range)) |"
} > "$stem.md"

# The plot: redo time per configuration, for each full_page_writes and
# prefetch setting.
dat="$work/redo.dat"
for fpw in on off; do
	for setting in "${settings_list[@]}"; do
		printf '"fpw %s, prefetch %s"' "$fpw" "$setting"
		for c in "${configs[@]}"; do printf ' %s' "$(med 6 "$c" "fpw-$fpw/$setting" redo_s)"; done
		echo
	done
done > "$dat"
plot="plot \"$dat\" using 2:xtic(1) title \"${configs[0]}\""
for k in $(seq 1 $(( ${#configs[@]} - 1 ))); do
	plot="$plot, \"\" using $((k + 2)) title \"${configs[$k]}\""
done
gnuplot <<EOF || die "gnuplot failed"
set terminal pngcairo size 1000,520 noenhanced
set output "$stem.png"
set title "Crash recovery, pgbench scale $scale, shared_buffers 128MB, page cache dropped: $drop_caches\\nNVWAL on EMULATED persistent memory (tmpfs, PMEM_IS_PMEM_FORCE=1)"
set ylabel "redo time, s (median of $reps)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key top right
set grid ytics
set yrange [0:*]
set xtics rotate by -20
$plot
EOF
note "results in $stem.md and $stem.png"
cat "$stem.md"
