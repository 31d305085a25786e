# Helpers shared by the benchmark scripts.  Sourced after scripts/common.sh.

# Settings of every benchmark cluster: no checkpoint during a measurement.
BENCH_SETTINGS=(
	"shared_buffers = 1GB"
	"max_wal_size = 20GB"
	"min_wal_size = 2GB"
	"checkpoint_timeout = 1h"
)

# bench_workspace NAME: a fresh working directory $work (build/bench/NAME)
# and, on tmpfs ($shm), a private directory $shmdir for files on emulated
# persistent memory, which PMEM_IS_PMEM_FORCE=1 makes libpmem treat as such.
bench_workspace()
{
	shm=/dev/shm
	[ -d "$shm" ] || die "no /dev/shm to emulate persistent memory on"
	work="$BUILD/bench/$1"
	builder_dir "$BUILD/bench"
	rm -rf "$work"
	builder_dir "$work"
	shmdir=$(as_builder mktemp -d "$shm/pg-nvwal-bench.XXXXXX")
	export PMEM_IS_PMEM_FORCE=1
}

# die_see FILE MESSAGE: die with MESSAGE, naming FILE and showing its last
# lines, so that a run nobody watches (CI's) reports why it failed.
die_see()
{
	local f=$1
	shift
	{
		printf '%s: error: %s; see %s\n' "${0##*/}" "$*" "$f"
		[ ! -s "$f" ] || { echo "  which ends:"; tail -n 20 "$f" | sed 's/^/  | /'; }
	} >&2
	exit 1
}

# Median and min-max of the numbers on standard input, one a line.
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) exit; if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
range() { sort -n | awk 'NR == 1 { min = $1 } { max = $1 } END { if (NR) printf "%s-%s", min, max }'; }

# A configuration is a server: its binaries, data directory and port, in
# these arrays, indexed by the configuration's name.
declare -A BIN DATA PORT

# pg NAME PROGRAM ARG...: run a client program of NAME's binaries against
# NAME's server.
pg()
{
	local n=$1 p=$2
	shift 2
	as_builder "${BIN[$n]}/$p" -h 127.0.0.1 -p "${PORT[$n]}" -U postgres "$@"
}

# sql NAME PSQL-ARG...: run psql quietly, stopping at the first error.
sql() { local n=$1; shift; pg "$n" psql -X -q -At -v ON_ERROR_STOP=1 "$@" -d postgres; }

server_start()
{
	as_builder "${BIN[$1]}/pg_ctl" -D "${DATA[$1]}" -l "${DATA[$1]}.log" -w -t 3600 start >/dev/null ||
		die_see "${DATA[$1]}.log" "$1 did not start"
}

server_stop()
{
	as_builder "${BIN[$1]}/pg_ctl" -D "${DATA[$1]}" -m "${2:-fast}" -w stop >/dev/null
}

# tps_of: the TPS that pgbench's report on standard input gives, rounded.
tps_of() { awk '/^tps = / { printf "%.0f", $3 }'; }
lat_of() { awk '/^latency average = / { print $4 }'; }

# record SCENARIO CONFIG KEY REP METRIC VALUE: one measurement, one line of
# the raw results (tab-separated).
record()
{
	[ -n "$6" ] || die "scenario $1: no $5 for $2 ($3, repetition $4)"
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$RAW"
	printf '  %-3s %-18s %-10s rep %s: %s = %s\n' "$@"
}

# Queries over the raw results: vals SCENARIO CONFIG KEY METRIC prints the
# values of every repetition, med their median, rng their min-max.
vals() { awk -F'\t' -v s="$1" -v c="$2" -v k="$3" -v m="$4" '$1 == s && $2 == c && $3 == k && $5 == m { print $6 }' "$RAW"; }
med() { vals "$@" | median; }
rng() { vals "$@" | range; }

# ratio A B: A / B with three decimals, or "-" when either is missing.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"; else printf "%.3f\n", a / b }'; }

# bench_cluster NAME BINDIR DATADIR PORT SCALE [INITDB-OPTION...] [-- SETTING...]:
# create, start and fill (pgbench -i) the server of configuration NAME,
# with BENCH_SETTINGS and the given settings, and checkpoint it.
bench_cluster()
{
	local name=$1 bin=$2 data=$3 port=$4 scale=$5
	shift 5
	local -a initopts=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		initopts+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	BIN[$name]=$bin DATA[$name]=$data PORT[$name]=$port
	note "$name: initdb, pgbench -i -s $scale"
	init_cluster "$bin" "$data" "$port" "${initopts[@]}" -- "${BENCH_SETTINGS[@]}" "$@"
	server_start "$name"
	pg "$name" pgbench -i -q -s "$scale" postgres > "$data.pgbench-init.log" 2>&1 ||
		die_see "$data.pgbench-init.log" "pgbench -i failed for $name"
	sql "$name" -c CHECKPOINT
}

# tpcb_run SCENARIO NAME CLIENTS REP SECONDS: one pgbench TPC-B run
# (-M prepared, one job per client up to two), TPS and latency recorded.
tpcb_run()
{
	local out
	out=$(pg "$2" pgbench -M prepared -c "$3" -j $(( $3 < 2 ? 1 : 2 )) -T "$5" postgres 2>/dev/null || true)
	record "$1" "$2" "$3" "$4" tps "$(tps_of <<< "$out")"
	record "$1" "$2" "$3" "$4" latency_ms "$(lat_of <<< "$out")"
}

# warm_up CLIENTS SECONDS NAME...: one pgbench run on each server, not
# recorded, so that no configuration measures a cold cache.
warm_up()
{
	local c=$1 secs=$2 name
	shift 2
	for name in "$@"; do
		note "$name: warm-up run, $c clients, not recorded"
		pg "$name" pgbench -M prepared -c "$c" -j 2 -T "$secs" postgres > /dev/null 2>&1 ||
			die "warm-up pgbench failed for $name"
	done
}

# paired SCENARIO A B KEY METRIC [KEY-OF-B]: the ratios A / B of METRIC,
# repetition by repetition (each from two runs of one repetition, which
# cancels slow drifts of the machine), one a line; B's values are those at
# KEY-OF-B, if given.
paired()
{
	join -t $'\t' <(vals "$1" "$2" "$4" "$5" | nl -w1 | sort) \
		<(vals "$1" "$3" "${6:-$4}" "$5" | nl -w1 | sort) |
		awk -F'\t' '$3 > 0 { printf "%.3f\n", $2 / $3 }'
}

# ms_of TIMESTAMP: a server log line's "YYYY-MM-DD HH:MM:SS.mmm" (the
# default log_line_prefix's %m, in UTC) in milliseconds.
ms_of() { date -u -d "$1" +%s%3N; }
# at LOG PATTERN: the time of LOG's first line matching PATTERN.
at() { local l; l=$(grep -m1 -e "$2" "$1") || die "no \"$2\" in $1"; ms_of "${l:0:23}"; }
# lsn_bytes X/Y: an LSN as a byte position.
lsn_bytes() { echo $(( 16#${1%/*} * 4294967296 + 16#${1#*/} )); }

# The wait event sampler, bench_wait_sample(SECS), which BENCH_SAMPLER_SQL
# creates: every 10 ms for SECS seconds, what each client backend that is
# running a query waits on ("CPU" when nothing), counted.  The snapshot of
# pg_stat_activity is cleared before each sample, as it would otherwise be
# kept for the whole transaction.  It writes nothing.
BENCH_SAMPLER_SQL=$(cat <<'EOF'
CREATE FUNCTION bench_wait_sample(secs float8)
RETURNS TABLE (event text, n bigint) LANGUAGE plpgsql AS $$
DECLARE
	stop timestamptz := clock_timestamp() + secs * interval '1 second';
	counts jsonb := '{}';
	r record;
BEGIN
	WHILE clock_timestamp() < stop LOOP
		PERFORM pg_stat_clear_snapshot();
		FOR r IN
			SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS e
			  FROM pg_stat_activity
			 WHERE backend_type = 'client backend' AND state = 'active'
			   AND pid <> pg_backend_pid()
		LOOP
			counts := jsonb_set(counts, ARRAY[r.e],
								to_jsonb(coalesce((counts->>r.e)::bigint, 0) + 1));
		END LOOP;
		PERFORM pg_sleep(0.01);
	END LOOP;
	RETURN QUERY SELECT key, value::bigint FROM jsonb_each_text(counts);
END
$$;
EOF
)

# record_waits SCENARIO NAME KEY REP FILE: record the counts that the
# sampler wrote into FILE (tab-separated), as metrics "w:" and the wait
# event, and "samples" for all of them.
record_waits()
{
	local ev cnt total=0
	while IFS=$'\t' read -r ev cnt; do
		printf '%s\t%s\t%s\t%s\tw:%s\t%s\n' "$1" "$2" "$3" "$4" "$ev" "$cnt" >> "$RAW"
		total=$((total + cnt))
	done < "$5"
	printf '%s\t%s\t%s\t%s\tsamples\t%s\n' "$1" "$2" "$3" "$4" "$total" >> "$RAW"
}

# share SCENARIO NAME KEY EVENT...: the percentage of NAME's samples at KEY,
# all repetitions together, that waited on one of the EVENTs.
share()
{
	local s=$1 name=$2 key=$3
	shift 3
	awk -F'\t' -v s="$s" -v c="$key" -v n="$name" -v evs="$*" '
		BEGIN { k = split(evs, e, " "); for (i = 1; i <= k; i++) want["w:" e[i]] = 1 }
		$1 == s && $2 == n && $3 == c && $5 == "samples" { t += $6 }
		$1 == s && $2 == n && $3 == c && ($5 in want) { w += $6 }
		END { if (t) printf "%.1f", 100 * w / t; else print "-" }' "$RAW"
}

# machine: the cores, processor and memory of this machine, for a report.
machine()
{
	echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -g | awk '/^Mem:/ { print $2 }') GB"
}

# narrow_run NAME: set up a narrower run of the fork's optimized build,
# which must offer NVWAL ($bin; BENCH_FORK_BIN, if set, names other
# binaries, such as the smoke run's): its workspace (bench_workspace NAME),
# and its results, bench/results/NAME-<date> ($stem; BENCH_RESULTS, if set,
# names another directory) with every measurement in $RAW ($stem.tsv).
# The servers of the configurations named in the array "names" are stopped
# when the script exits.
narrow_run()
{
	if [ -n "${BENCH_FORK_BIN:-}" ]; then
		bin=$BENCH_FORK_BIN
	else
		"$TOP/scripts/build.sh" release
		bin="$INSTALL/bin"
	fi
	"$bin/initdb" --help | grep -- --nvwal-path > /dev/null || die "this build has no NVWAL"
	bench_workspace "$1"
	local dir=${BENCH_RESULTS:-$TOP/bench/results}
	mkdir -p "$dir"
	stem="$dir/$1-$(date -u +%Y%m%d-%H%M)"
	RAW="$stem.tsv"
	: > "$RAW"
	trap 'for n in "${names[@]}"; do [ -f "${DATA[$n]:-/nonexistent}/postmaster.pid" ] && server_stop "$n" immediate; done; rm -rf "$shmdir"' EXIT
}
