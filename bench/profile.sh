#!/bin/bash
# Where a commit's time goes: NVWAL against synchronous_commit = off on the
# same binary, under pgbench TPC-B (-M prepared), profiled with perf.
#
#   nvwal-insert  NVWAL file (1GB ring), nvwal_persist_at = insert (default)
#   nvwal-commit  the same with nvwal_persist_at = commit
#   async         no NVWAL, synchronous_commit = off
#
# (BENCH_CONFIGS chooses among them, and "nvwal-insert-64MB" names a ring
# size other than BENCH_RING's.)
#
# pg_wal is on tmpfs in all three, so that write-behind and the WAL
# writer's writes cost the same system calls; persistent memory is
# EMULATED (tmpfs with PMEM_IS_PMEM_FORCE=1, which makes libpmem flush CPU
# caches there as on real persistent memory).
#
# For each client count, each repetition runs the configurations in
# rotating order under "perf stat -a" (software events: this machine's
# virtual CPUs expose no hardware counters, so CPU time, from /proc/stat,
# context switches and page faults stand in for cycles and cache misses),
# and reports TPS,
# paired ratios to async, and CPU time, context switches and page faults
# per transaction, system-wide.  Then one run of each configuration at
# BENCH_PROFILE_CLIENTS clients under "perf record -a -g" (cpu-clock
# samples); the report lists each configuration's top symbols and the
# symbols whose share differs most from async's (perf diff), and folded
# stacks go next to it for a flame graph (flamegraph.pl, not in Debian).
#
# Settings (environment): BENCH_SCALE (50), BENCH_SECONDS (10 per run),
# BENCH_REPS (5), BENCH_CLIENTS ("1 8"), BENCH_PROFILE_CLIENTS (1),
# BENCH_RING (1GB), BENCH_CONFIGS ("nvwal-insert nvwal-commit async").
# Results: bench/results/profile-<date>.md, .tsv, and
# profile-<date>-<config>.folded.gz.  Runs as root (perf -a needs it).
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" -eq 0 ] || die "perf -a needs root"
command -v perf > /dev/null || die "perf is not installed (Debian package linux-perf)"

scale=${BENCH_SCALE:-50}
seconds=${BENCH_SECONDS:-10}
reps=${BENCH_REPS:-5}
clients=${BENCH_CLIENTS:-"1 8"}
pclients=${BENCH_PROFILE_CLIENTS:-1}
ring=${BENCH_RING:-1GB}

# BENCH_CONFIGS: "nvwal-insert" and "nvwal-commit", each with the ring size
# as a suffix if not BENCH_RING ("nvwal-insert-64MB"), and "async", which
# the others are compared with
read -r -a names <<< "${BENCH_CONFIGS:-nvwal-insert nvwal-commit async}"
[[ " ${names[*]} " == *" async "* ]] || die "BENCH_CONFIGS must include async"
narrow_run profile

port=$(free_port "${BENCH_PORT:-5500}")
for name in "${names[@]}"; do
	opts=(--waldir="$shmdir/$name/pg_wal")
	settings=("autovacuum = off")
	case "$name" in
		nvwal-insert*|nvwal-commit*)
			size=${name#nvwal-*-}
			[ "$size" != "$name" ] || size=$ring
			opts+=(--nvwal-path="$shmdir/$name.nvwal" --nvwal-size="$size")
			[[ "$name" != nvwal-commit* ]] || settings+=("nvwal_persist_at = commit") ;;
		async) settings+=("synchronous_commit = off") ;;
		*) die "unknown configuration $name" ;;
	esac
	bench_cluster "$name" "$bin" "$work/$name/data" "$port" "$scale" "${opts[@]}" -- "${settings[@]}"
	port=$(free_port $((port + 1)))
done
for n in "${names[@]}"; do
	[ "$n" = async ] || { method=$(sql "$n" -c 'SHOW nvwal_persist_method'); break; }
done

maxc=$(tr ' ' '\n' <<< "$clients" | sort -n | tail -1)
warm_up "$maxc" "$seconds" "${names[@]}"

# busy_ticks: the clock ticks that every CPU has spent busy since boot
# (user, nice, system, irq and softirq of /proc/stat's cpu line).
# Steal time, when the hypervisor ran something else, is not ours.
busy_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 }' /proc/stat; }

# perf_run NAME CLIENTS REP: one pgbench run under perf stat -a; TPS, the
# CPU time that all processes took (from /proc/stat: perf's task-clock
# counts idle CPUs too under -a) and the software events per transaction
# recorded.
perf_run()
{
	local n=$1 c=$2 rep=$3 out stat="$work/perf-stat.txt" tx b0 b1 hz
	hz=$(getconf CLK_TCK)
	b0=$(busy_ticks)
	out=$(perf stat -a -x, -o "$stat" -e context-switches,page-faults \
		-- runuser -u "$BUILD_USER" -- "${BIN[$n]}/pgbench" -h 127.0.0.1 -p "${PORT[$n]}" -U postgres \
		-M prepared -c "$c" -j $(( c < 2 ? 1 : 2 )) -T "$seconds" postgres 2>/dev/null || true)
	b1=$(busy_ticks)
	tx=$(awk '/^number of transactions actually processed: / { print $6 }' <<< "$out" | cut -d/ -f1)
	record 1 "$n" "$c" "$rep" tps "$(tps_of <<< "$out")"
	record 1 "$n" "$c" "$rep" cpu_us_per_tx "$(awk -v t=$((b1 - b0)) -v hz="$hz" -v tx="$tx" 'BEGIN { printf "%.1f", t * 1e6 / hz / tx }')"
	record 1 "$n" "$c" "$rep" cs_per_tx "$(awk -F, -v tx="$tx" '$3 == "context-switches" { printf "%.2f", $1 / tx }' "$stat")"
	record 1 "$n" "$c" "$rep" faults_per_tx "$(awk -F, -v tx="$tx" '$3 == "page-faults" { printf "%.3f", $1 / tx }' "$stat")"
}

nn=${#names[@]}
for rep in $(seq "$reps"); do
	for c in $clients; do
		for i in $(seq 0 $((nn - 1))); do
			perf_run "${names[$(( (rep - 1 + i) % nn ))]}" "$c" "$rep"
		done
	done
done

# One profiled run of each, at $pclients clients: call graphs of every CPU.
for n in "${names[@]}"; do
	note "$n: perf record, $pclients clients, $seconds s"
	perf record -q -a -g -e cpu-clock -o "$work/$n.perf.data" \
		-- runuser -u "$BUILD_USER" -- "${BIN[$n]}/pgbench" -h 127.0.0.1 -p "${PORT[$n]}" -U postgres \
		-M prepared -c "$pclients" -j 1 -T "$seconds" postgres > "$work/$n.pgbench.txt" 2>&1 ||
		die_see "$work/$n.pgbench.txt" "perf record failed for $n"
	perf script -i "$work/$n.perf.data" 2>/dev/null |
		awk '
			/^[^ \t]/ { if (stack != "") folded[comm ";" stack]++; comm = $1; stack = ""; next }
			/^[ \t]+[0-9a-f]+ / { sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym); stack = (stack == "" ? sym : sym ";" stack); next }
			END { if (stack != "") folded[comm ";" stack]++; for (s in folded) print s, folded[s] }' |
		sort | gzip -9 > "$stem-$n.folded.gz"
done

# nvwal_cost NAME: the self time of the functions that NVWAL adds to the
# insert and commit paths, and of the upstream ones it changes, in NAME's
# profile: the share of all samples, and microseconds per transaction of the
# profiled run (share x CPUs x seconds / transactions).
nvwal_cost()
{
	local tx
	tx=$(awk '/^number of transactions actually processed: / { print $6 }' "$work/$1.pgbench.txt" | cut -d/ -f1)
	perf report -i "$work/$1.perf.data" --no-children --sort sym --stdio -q 2>/dev/null |
		awk -v tx="$tx" -v cpus="$(nproc)" -v secs="$seconds" '
			$1 ~ /%$/ && $3 ~ /^(pmem_flush|pmem_drain|pmem_memcpy_nodrain|memmove_nodrain.*|memset_nodrain.*|flush_clwb.*|flush_clflushopt.*|flush_clflush.*|flush_empty.*|Nvwal.*|XLogPersistOwnInsertion|XLogAdvanceDurable|XLogMakeDurable|XLogInsertRecord|CopyXLogRecordToWAL|GetXLogBuffer|__memmove_avx512_unaligned_erms|__memmove_avx_unaligned_erms)$/ {
				p = $1; sub(/%/, "", p)
				printf "| %s | %.2f%% | %.2f |\n", $3, p, p / 100 * cpus * secs * 1e6 / tx
				tot += p
			}
			END { printf "| all of these | %.2f%% | %.2f |\n", tot, tot / 100 * cpus * secs * 1e6 / tx }'
}

# top SYMBOLS of NAME's profile, by share of all samples (self time)
top_symbols()
{
	perf report -i "$work/$1.perf.data" --no-children --sort comm,dso,sym --stdio -q 2>/dev/null |
		awk 'NF && $1 ~ /%$/ { print }' | sed -n "1,$2p"
}

{
	echo "# Profile: NVWAL against synchronous_commit = off, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "**Persistent memory is EMULATED**: NVWAL files and pg_wal on tmpfs, \`PMEM_IS_PMEM_FORCE=1\`; \`nvwal_persist_method\` = $method."
	echo
	echo "- Machine: $(machine); $(uname -r); no hardware performance counters (a virtual machine): CPU time, context switches and page faults, system-wide, stand in for cycles and cache misses."
	echo "- Binary: the fork, $("$bin/postgres" --version), $(grep -c '^[^#]' "$TOP/patches/series") patches (series $(series_name)), meson release build."
	echo "- pgbench TPC-B -M prepared, scale $scale, $seconds s per run, $reps repetitions, configurations in rotating order; autovacuum off; shared_buffers 1GB; NVWAL ring $ring where the configuration's name gives no size."
	echo "- Command: \`BENCH_SCALE=$scale BENCH_SECONDS=$seconds BENCH_REPS=$reps BENCH_CLIENTS=\"$clients\" BENCH_RING=$ring BENCH_CONFIGS=\"${names[*]}\" bench/profile.sh\`"
	echo
	echo "| clients | configuration | TPS | paired / async | CPU us per tx | context switches per tx | page faults per tx |"
	echo "|---:|---|---:|---:|---:|---:|---:|"
	for c in $clients; do
		for n in "${names[@]}"; do
			pr=$(paired 1 "$n" async "$c" tps | median)
			prng=$(paired 1 "$n" async "$c" tps | range)
			printf '| %s | %s | %s (%s) | %s | %s (%s) | %s | %s |\n' "$c" "$n" \
				"$(med 1 "$n" "$c" tps)" "$(rng 1 "$n" "$c" tps)" \
				"$( [ "$n" = async ] && echo 1 || echo "$pr ($prng)")" \
				"$(med 1 "$n" "$c" cpu_us_per_tx)" "$(rng 1 "$n" "$c" cpu_us_per_tx)" \
				"$(med 1 "$n" "$c" cs_per_tx)" "$(med 1 "$n" "$c" faults_per_tx)"
		done
	done
	echo
	echo "Medians of $reps, (min-max); paired: the median (min-max) of the $reps per-repetition ratios."
	for n in "${names[@]}"; do
		echo
		echo "## $n: where the time goes, $pclients client(s), $seconds s, $(tps_of < "$work/$n.pgbench.txt") TPS"
		echo
		echo "The functions NVWAL adds to the insert and commit paths, and those it changes (self time; the copies into the ring are memmove's; microseconds per transaction of this run):"
		echo
		echo "| function | share of samples | us per transaction |"
		echo "|---|---:|---:|"
		nvwal_cost "$n"
		echo
		echo "Self time, share of all cpu-clock samples on both CPUs (idle included), top 25:"
		echo
		echo '```'
		top_symbols "$n" 25
		echo '```'
	done
	for n in "${names[@]}"; do
		[ "$n" != async ] || continue
		echo
		echo "## perf diff: async (baseline) against $n, symbols whose share differs by 0.3 points or more"
		echo
		echo '```'
		perf diff --sort comm,sym "$work/async.perf.data" "$work/$n.perf.data" 2>/dev/null |
			awk '!/^#/ && match($0, /[+-][0-9.]+%/) { d = substr($0, RSTART, RLENGTH - 1); if (d + 0 >= 0.3 || d + 0 <= -0.3) print }' |
			sed -n 1,40p
		echo '```'
	done
} > "$stem.md"
chown --reference="$TOP" "$stem"* 2>/dev/null || true
note "results in $stem.md"
cat "$stem.md"
