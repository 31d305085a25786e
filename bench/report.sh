#!/bin/bash
# bench/report.sh STEM: turn a benchmark run's raw measurements (STEM.tsv)
# and what they were taken with (STEM.meta), both written by bench/run.sh,
# into tables (STEM.md), plots (STEM.png) and the summary README.md shows
# (STEM.summary.md).  Can be rerun on old results.
#
# Fails when a scenario has no numbers, which is what "make bench-smoke"
# relies on.
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 STEM (for bench/results/quick-20261130-1200.tsv, STEM is bench/results/quick-20261130-1200)"
stem=$1
RAW="$stem.tsv"
[ -s "$RAW" ] && [ -f "$stem.meta" ] || die "no results in $RAW and $stem.meta"
# shellcheck disable=SC1090
. "$stem.meta"
command -v gnuplot >/dev/null || die "gnuplot is not installed; run 'make deps'"

# Every scenario must have produced numbers; the smoke run checks nothing
# else.
# Scenarios 4 and 6 have their own results (bench/scaling.sh,
# bench/recovery.sh); older runs kept theirs in $RAW.
for s in 1 2 3 5 $([ -n "${recovery_stem:-}" ] || echo 6); do
	awk -F'\t' -v s="$s" '$1 == s && $6 != "" { found = 1 } END { exit !found }' "$RAW" ||
		die "scenario $s produced no numbers; see $RAW"
done
if [ -n "${scaling_stem:-}" ]; then
	[ -s "$scaling_stem.md" ] && [ -s "$scaling_stem.png" ] ||
		die "scenario 4 produced no results: no $scaling_stem.md and .png"
fi
if [ -n "${recovery_stem:-}" ]; then
	[ -s "$recovery_stem.md" ] && [ -s "$recovery_stem.png" ] ||
		die "scenario 6 produced no results: no $recovery_stem.md and .png"
fi
# the scenarios that the plot of this run shows
plotted="1, 2, 3 and 5"
[ -n "${recovery_stem:-}" ] || plotted="1, 2, 3, 5 and 6"

# cell S C K M: "median (min-max)"
cell() { printf '%s (%s)' "$(med "$@")" "$(rng "$@")"; }

desc()
{
	case "$1" in
		upstream-disk) echo "upstream, pg_wal on the data disk, fdatasync" ;;
		upstream-tmpfs) echo "upstream, pg_wal on tmpfs, fdatasync" ;;
		upstream-async) echo "upstream, pg_wal on tmpfs, synchronous_commit = off: the ceiling for any durability scheme" ;;
		fork-pmem_drain) echo "the fork, pg_wal on tmpfs, wal_sync_method = pmem_drain (emulated persistent memory)" ;;
		fork-nvwal) echo "the fork with NVWAL: the WAL buffer on tmpfs (emulated persistent memory), pg_wal on the data disk" ;;
		fork-async) echo "the fork, pg_wal on tmpfs, synchronous_commit = off: the ceiling on the fork's binary" ;;
		upstream) echo "upstream" ;;
		fork)
			if [ "$has_nvwal" = yes ]; then
				echo "the fork with NVWAL (a ring of 1GB on tmpfs, emulated persistent memory): startup first copies the WAL that only the ring holds into pg_wal"
			else
				echo "the fork (redo is upstream's: pmem_drain changes only how WAL is written)"
			fi ;;
	esac
}

nvwal_note()
{
	if [ "$has_nvwal" = yes ]; then
		return
	fi
	echo "NVWAL has not landed yet, so there is no fork-nvwal configuration; $1"
	echo
}

# async_of NAME: the configuration with synchronous_commit = off on NAME's
# binary, if the run had one.
async_of()
{
	local a=upstream-async
	case "$1" in fork-*) a=fork-async ;; esac
	printf '%s\n' "${names[@]}" | grep -x -- "$a" > /dev/null && echo "$a"
}

# pcell S A B K M: the median (min-max) of the paired ratios A / B, each
# from two runs of one repetition; "-" when there is no B.
pcell()
{
	local p
	[ -n "$3" ] || { echo -; return; }
	p=$(paired "$1" "$2" "$3" "$4" "$5")
	[ -n "$p" ] || { echo -; return; }
	printf '%.3f (%s)' "$(median <<< "$p")" "$(range <<< "$p")"
}

# The table of a scenario measured across client counts: a row per client
# count and configuration, with the ratios of medians to the reference
# (upstream with pg_wal on tmpfs) and to the ceiling (upstream without
# durable commits), and the paired ratio to the ceiling on the same binary.
clients_table()
{
	local s=$1 metric=$2 list=$3 c n m
	printf '| clients | configuration | TPS | / upstream-tmpfs | / upstream-async | paired / async, same binary |'
	[ "$s" = 1 ] && printf ' latency, ms |'
	echo
	printf '|---:|---|---:|---:|---:|---:|'
	[ "$s" = 1 ] && printf -- '---:|'
	echo
	for c in $list; do
		for n in "${names[@]}"; do
			m=$(med "$s" "$n" "$c" "$metric")
			printf '| %s | %s | %s (%s) | %s | %s | %s |' "$c" "$n" "$m" "$(rng "$s" "$n" "$c" "$metric")" \
				"$(ratio "$m" "$(med "$s" upstream-tmpfs "$c" "$metric")")" \
				"$(ratio "$m" "$(med "$s" upstream-async "$c" "$metric")")" \
				"$(pcell "$s" "$n" "$(async_of "$n")" "$c" "$metric")"
			[ "$s" = 1 ] && printf ' %s |' "$(med "$s" "$n" "$c" latency_ms)"
			echo
		done
	done
}

png="$stem.png"
{
	echo "# Benchmarks: upstream PostgreSQL against the fork, profile $profile"
	echo
	echo "**Persistent memory is emulated** in every figure below that names it: files on tmpfs with \`PMEM_IS_PMEM_FORCE=1\`, which makes libpmem flush CPU caches (CLWB/CLFLUSHOPT + SFENCE) as on real persistent memory, but with DRAM's latency and no real persistence."
	persist_method=$(awk -F'\t' '$1 == "conf" && $3 == "nvwal_persist_method" && $6 != "none" { print $2 " " $6 }' "$RAW" | sort -u | paste -sd ',' - | sed 's/,/, /g')
	[ -z "$persist_method" ] ||
		echo "How the fork made WAL durable in its NVWAL ring (\`nvwal_persist_method\`: \`flush_drain\` flushes CPU caches and drains, \`drain\` only drains where the platform's caches are persistent, \`msync\` is not persistent memory): $persist_method."
	echo
	echo "- Run: $run_at, $run_minutes minutes; \`make bench BENCH_PROFILE=$profile\`."
	echo "- Machine: $machine; $filesystems; $compiler."
	echo "- Upstream: $upstream_version, pristine; fork: $fork_version. Both meson debugoptimized, no assertions, the same options."
	echo "- Every server: shared_buffers = 1GB, max_wal_size = 20GB, min_wal_size = 2GB, checkpoint_timeout = 1h, so that no checkpoint runs during a measurement; what differs is listed with each scenario, and every non-default setting at the end."
	echo "- Each figure: median of $reps repetitions, (min-max), after one warm-up run per server; configurations alternate within every repetition, their order rotating with each repetition and client count. Paired ratios: the median (min-max) of the $reps ratios, each from two runs of one repetition."
	echo
	echo "![plots of scenarios $plotted](${png##*/})"
	echo
	echo "## 1. pgbench TPC-B (sort-of), -M prepared, scale $scale, $s1_secs s runs: TPS and average latency"
	echo
	for n in "${names[@]}"; do echo "- $n: $(desc "$n")"; done
	echo
	nvwal_note "the fork runs with pmem_drain."
	clients_table 1 tps "$clients"
	echo
	echo "## 2. WAL-heavy inserts: one row with a 2,000-byte static string per transaction (stored uncompressed), $s2_clients clients, $s2_secs s runs: TPS"
	echo
	echo "| configuration | TPS | ratio to upstream-tmpfs | paired / async, same binary |"
	echo "|---|---:|---:|---:|"
	for n in "${names[@]}"; do
		echo "| $n | $(cell 2 "$n" "$s2_clients" tps) | $(ratio "$(med 2 "$n" "$s2_clients" tps)" "$(med 2 upstream-tmpfs "$s2_clients" tps)") | $(pcell 2 "$n" "$(async_of "$n")" "$s2_clients" tps) |"
	done
	echo
	echo "## 3. Synchronous 8 kB writes: pg_test_fsync, one 8 kB write and its sync, $ptf_secs s per test: operations per second"
	echo
	echo "| file system | fdatasync | pmem_drain | pmem_drain / fdatasync |"
	echo "|---|---:|---:|---:|"
	echo "| tmpfs, emulated persistent memory | $(cell 3 tmpfs fdatasync ops) | $(cell 3 tmpfs pmem_drain ops) | $(ratio "$(med 3 tmpfs pmem_drain ops)" "$(med 3 tmpfs fdatasync ops)") |"
	echo "| data disk, not emulated: pmem_drain uses msync() there | $(cell 3 disk fdatasync ops) | $(cell 3 disk pmem_drain ops) | $(ratio "$(med 3 disk pmem_drain ops)" "$(med 3 disk fdatasync ops)") |"
	echo
	echo "## 4. WAL insertion scaling: \`INSERT INTO t SELECT generate_series(1, 10)\` per transaction, $s4_secs s runs: TPS"
	echo
	if [ -n "${scaling_stem:-}" ]; then
		echo "Upstream against the fork at several num_xloginsert_slots, with and without NVWAL, and the wait events sampled during the runs, in [\`${scaling_stem##*/}.md\`](${scaling_stem##*/}.md) (bench/scaling.sh):"
		echo
		echo "![TPS against clients](${scaling_stem##*/}.png)"
	else
		clients_table 4 tps "$s4_clients"
	fi
	echo
	echo "## 5. DDL under load, wal_level = minimal"
	echo
	echo "pgbench TPC-B ($s5_clients clients) runs while one backend creates $s5_tables tables and fills each with $s5_rows rows in the same transaction, so that their contents skip WAL and are WAL-logged at commit (wal_skip_threshold = 2MB, the default) or fsynced (0). TPS from pgbench's per-second reports, $s5_before s before and $s5_after s after the DDL; DDL time in seconds. Servers restarted with wal_level = minimal, max_wal_senders = 0."
	echo
	nvwal_note "the fork's row is pmem_drain."
	echo "| configuration | wal_skip_threshold | TPS before | TPS during | TPS after | DDL, s | DDL / upstream-tmpfs, 2MB |"
	echo "|---|---:|---:|---:|---:|---:|---:|"
	for thr in 2MB 0; do
		for n in "${s5_configs[@]}"; do
			echo "| $n | $thr | $(cell 5 "$n" "$thr" tps_before) | $(cell 5 "$n" "$thr" tps_during) | $(cell 5 "$n" "$thr" tps_after) | $(cell 5 "$n" "$thr" ddl_s) | $(ratio "$(med 5 "$n" "$thr" ddl_s)" "$(med 5 upstream-tmpfs 2MB ddl_s)") |"
		done
	done
	echo
	echo "## 6. Recovery time"
	echo
	if [ -n "${recovery_stem:-}" ]; then
		echo "Crash recovery of upstream, the fork and the fork on NVWAL (full_page_writes on and off, recovery_prefetch off and on, page cache dropped), and replay on a plain and an NVWAL standby under synchronous_commit = remote_apply, in [\`${recovery_stem##*/}.md\`](${recovery_stem##*/}.md) (bench/recovery.sh):"
		echo
		echo "![redo time](${recovery_stem##*/}.png)"
	else
	echo "After a checkpoint, pgbench TPC-B (scale $s6_scale, $s6_clients clients, $s6_txns transactions each, full_page_writes on) writes WAL; the server is crashed (immediate shutdown) and copies of the crashed cluster redo it. Redo time from the server's \"redo done\" message; page cache dropped before each redo: $drop_caches. pg_wal is in the data directory."
	echo
	nvwal_note "the fork redoes from pg_wal exactly as upstream does."
	for n in "${s6_configs[@]}"; do echo "- $n: $(desc "$n")"; done
	echo
	printf '| recovery_prefetch, maintenance_io_concurrency |'
	for n in "${s6_configs[@]}"; do printf ' %s: redo, s | / off |' "$n"; done
	echo " fork / upstream | WAL replayed, MB |"
	printf '|---|'
	for n in "${s6_configs[@]}"; do printf -- '---:|---:|'; done
	echo '---:|---:|'
	for setting in off on-10 on-50; do
		label="on, ${setting#on-}"
		[ "$setting" = off ] && label=off
		printf '| %s |' "$label"
		for n in "${s6_configs[@]}"; do
			printf ' %s | %s |' "$(cell 6 "$n" "$setting" redo_s)" "$(ratio "$(med 6 "$n" "$setting" redo_s)" "$(med 6 "$n" off redo_s)")"
		done
		echo " $(ratio "$(med 6 fork "$setting" redo_s)" "$(med 6 upstream "$setting" redo_s)") | $(med 6 upstream "$setting" wal_mb) |"
	done
	fi
	echo
	echo "## Settings"
	echo
	echo "Every setting that is not at its default, per server (left out: connection settings, and the locale, date style and time zone settings initdb writes):"
	echo
	awk -F'\t' '$1 == "conf" { if ($2 != last) { if (last != "") print ""; printf "- %s: ", $2; last = $2; sep = "" } printf "%s%s = %s", sep, $3, $6; sep = ", " } END { if (last != "") print "" }' "$RAW"
} > "$stem.md"

# Plots: one panel per scenario.
dat=$(mktemp -d)
trap 'rm -rf "$dat"' EXIT
q() { printf '"%s"' "$1"; }
for s in 1; do
	list=$clients
	for n in "${names[@]}"; do
		for c in $list; do
			echo "$c $(med $s "$n" "$c" tps) $(vals $s "$n" "$c" tps | sort -n | sed -n 1p) $(vals $s "$n" "$c" tps | sort -n | tail -n 1)"
		done
		printf '\n\n'
	done > "$dat/s$s"
done
mm() { echo "$(med "$@") $(vals "$@" | sort -n | sed -n 1p) $(vals "$@" | sort -n | tail -n 1)"; }
for n in "${names[@]}"; do echo "$(q "$n") $(mm 2 "$n" "$s2_clients" tps)"; done > "$dat/s2"
for fs in tmpfs disk; do echo "$(q "$([ $fs = tmpfs ] && echo "tmpfs, emulated" || echo "data disk")") $(mm 3 "$fs" fdatasync ops) $(mm 3 "$fs" pmem_drain ops)"; done > "$dat/s3"
for thr in 2MB 0; do
	for n in "${s5_configs[@]}"; do
		echo "$(q "$n, $thr") $(mm 5 "$n" "$thr" tps_before) $(mm 5 "$n" "$thr" tps_during) $(mm 5 "$n" "$thr" tps_after)"
	done
done > "$dat/s5"
# the panel of scenario 6, for older runs only
s6_panel=
if [ -z "${recovery_stem:-}" ]; then
	for setting in off on-10 on-50; do
		line=$(q "$setting")
		for n in "${s6_configs[@]}"; do line="$line $(mm 6 "$n" "$setting" redo_s)"; done
		echo "$line"
	done > "$dat/s6"
	s6_panel="set title \"6. Redo time, s (recovery_prefetch, maintenance_io_concurrency)\"
plot \"$dat/s6\" using 2:3:4:xtic(1) with histograms title \"${s6_configs[0]}\", \"\" using 5:6:7 with histograms title \"${s6_configs[1]}\""
fi

title="$profile profile, $run_at; persistent memory EMULATED (tmpfs, PMEM_IS_PMEM_FORCE=1)"
gnuplot <<EOF || die "gnuplot failed"
set terminal pngcairo size 1800,1050 font ",10" noenhanced
set output "$png"
set multiplot layout 2,3 title "$title"
set key top left font ",8"
set grid ytics
set yrange [0:*]
set style histogram errorbars gap 1 lw 1
set style fill solid 0.6 border -1
names = "${names[*]}"
# Panels of TPS across client counts, and panels of bars.
lines = 'set xtics norotate font ",10"; set xlabel "clients"; set logscale x 2'
bars = 'set xtics rotate by -20 font ",8"; unset xlabel; unset logscale x'
clients_plot(f) = sprintf('plot for [i=1:words(names)] "%s" index (i - 1) using 1:2:3:4 with yerrorlines title word(names, i)', f)

set title "1. pgbench TPC-B, scale $scale: TPS"
@lines
eval clients_plot("$dat/s1")

set title "2. WAL-heavy inserts, $s2_clients clients: TPS"
@bars
plot "$dat/s2" using 2:3:4:xtic(1) with histograms notitle

set title "3. pg_test_fsync, 8 kB write + sync: ops/s (log scale)"
set logscale y
set yrange [1000:*]
plot "$dat/s3" using 2:3:4:xtic(1) with histograms title "fdatasync", "" using 5:6:7 with histograms title "pmem_drain"
unset logscale y
set yrange [0:*]

set title "5. TPS around DDL, wal_level = minimal (configuration, wal_skip_threshold)"
@bars
plot "$dat/s5" using 2:3:4:xtic(1) with histograms title "before", "" using 5:6:7 with histograms title "during", "" using 8:9:10 with histograms title "after"

$s6_panel
unset multiplot
EOF

# A summary for README.md: the pgbench table and the plots.
{
	rel=${stem#"$TOP"/}
	echo "Latest run: [\`$rel.md\`]($rel.md), $profile profile, $run_at, $machine. **Persistent memory emulated** (tmpfs, \`PMEM_IS_PMEM_FORCE=1\`)."
	echo
	printf '| pgbench TPC-B, scale %s: TPS by clients (median of %s) |' "$scale" "$reps"
	for c in $clients; do printf ' %s |' "$c"; done
	echo
	printf '|---|'
	for c in $clients; do printf -- '---:|'; done
	echo
	for n in "${names[@]}"; do
		printf '| %s |' "$n"
		for c in $clients; do printf ' %s |' "$(med 1 "$n" "$c" tps)"; done
		echo
	done
	printf '| %s / upstream-tmpfs |' "$fork_best"
	for c in $clients; do printf ' %s |' "$(ratio "$(med 1 "$fork_best" "$c" tps)" "$(med 1 upstream-tmpfs "$c" tps)")"; done
	echo
	if [ -n "$(async_of "$fork_best")" ]; then
		printf '| %s / fork-async, paired |' "$fork_best"
		for c in $clients; do printf ' %s |' "$(pcell 1 "$fork_best" fork-async "$c" tps)"; done
		echo
	fi
	echo
	echo "![the benchmark suite's scenarios $plotted]($rel.png)"
} > "$stem.summary.md"

cat "$stem.md"
note "results: $stem.md, $png"
