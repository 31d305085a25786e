#!/bin/bash
# make torture: simulated power cuts, many of them.  Runs the nvwal suite's
# power-cut torture test (src/test/nvwal/t/020_power_torture.pl in the
# tree) on the assert-enabled build, with TORTURE_CUTS cuts per
# configuration, and writes what it did into test/torture/results/.
# TORTURE_REPLAY=DIR checks again the files that a failed round left in DIR.
# TORTURE_JOBS=N shares each configuration's cuts among N runs of the test
# side by side (a round keeps about one core busy), each from its own seed
# and in its own directory.  See test/torture/README.md.
. "$(dirname "$0")/common.sh"

# per configuration, "N,config=N,...": 10,000 power cuts in all, and a
# kill -9 soak of 1,000 crashes
cuts=${TORTURE_CUTS:-2000,standby_nvwal=1000,standby_nvwal_pmem_drain=1000,kill9=1000}
seed=${TORTURE_SEED:-$(( $(date +%s) % 1000000 * 1000 ))}
configs=${TORTURE_CONFIGS:-}
keep="$BUILD/torture/failures"
results="$TOP/test/torture/results"
test=nvwal/020_power_torture

"$TOP/scripts/build.sh" check || die "the build failed"
builder_dir "$BUILD/torture"
as_builder mkdir -p "$keep"

note "installing the build for the tests"
as_builder meson test -C "$CHECK_BUILD" --no-rebuild --suite setup -q > /dev/null ||
	die "meson test --suite setup failed"

# TORTURE_REPLAY=DIR: start a server on the files a failed round left in
# DIR and check it again, instead of cutting the power.
if [ -n "${TORTURE_REPLAY:-}" ]; then
	[ -f "$TORTURE_REPLAY/state.pl" ] || die "$TORTURE_REPLAY is not what a failed round left"
	note "replaying $TORTURE_REPLAY"
	as_builder env PG_TEST_TORTURE_REPLAY="$(cd "$TORTURE_REPLAY" && pwd -P)" \
		meson test -C "$CHECK_BUILD" --no-rebuild --print-errorlogs --logbase torture-replay "$test"
	exit
fi

jobs=${TORTURE_JOBS:-1}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || die "TORTURE_JOBS must be a positive number, not \"$jobs\""

for item in ${cuts//,/ }; do
	[[ "$item" =~ ^([a-z0-9_]+=)?[0-9]+$ ]] || die "bad TORTURE_CUTS item \"$item\""
done

# job_cuts J: job J's share of each item of $cuts ("N" or "config=N"),
# the first ones taking one more when the count does not divide
job_cuts() {
	local j=$1 item k v out=
	for item in ${cuts//,/ }; do
		if [[ "$item" == *=* ]]; then k="${item%%=*}="; v=${item#*=}; else k=; v=$item; fi
		out+="${out:+,}$k$(( v / jobs + (j < v % jobs ? 1 : 0) ))"
	done
	echo "$out"
}

note "$test: cuts per configuration: $cuts; first seed $seed${TORTURE_JOBS:+; $jobs jobs}"
start=$(date +%s)
logs=()
if [ "$jobs" -eq 1 ]; then
	set +e
	as_builder env PG_TEST_TORTURE_CUTS="$cuts" PG_TEST_TORTURE_SEED="$seed" \
		PG_TEST_TORTURE_KEEP="$keep" ${configs:+PG_TEST_TORTURE_CONFIGS="$configs"} \
		meson test -C "$CHECK_BUILD" --no-rebuild --timeout-multiplier 0 \
		--logbase torture "$test"
	rc=$?
	set -e
	logs=("$CHECK_BUILD/testrun/$test/log/regress_log_020_power_torture")
else
	# Each job runs the test in build/torture/job-J/testrun rather than in
	# the build's own testrun directory: torture-basedir.sh moves testwrap's
	# --basedir there.  Job J starts from seed + J * 1,000,000, so that no
	# two jobs cut from the same seed.
	pids=()
	for (( j = 0; j < jobs; j++ )); do
		dir="$BUILD/torture/job-$j"
		# no log of an earlier run may pass for this one's
		as_builder rm -rf "$dir/testrun" "$dir/meson-test.out"
		as_builder mkdir -p "$dir"
		as_builder env PG_TEST_TORTURE_CUTS="$(job_cuts $j)" \
			PG_TEST_TORTURE_SEED=$(( seed + j * 1000000 )) \
			PG_TEST_TORTURE_KEEP="$keep" ${configs:+PG_TEST_TORTURE_CONFIGS="$configs"} \
			meson test -C "$CHECK_BUILD" --no-rebuild --timeout-multiplier 0 \
			--wrapper "$TOP/scripts/torture-basedir.sh $dir" \
			--logbase "torture-job-$j" "$test" > "$dir/meson-test.out" 2>&1 &
		pids+=($!)
		logs+=("$dir/testrun/$test/log/regress_log_020_power_torture")
	done
	rc=0
	for (( j = 0; j < jobs; j++ )); do
		wait "${pids[$j]}" || rc=1
		note "job $j: $(grep -E '^(Ok|Fail):' "$BUILD/torture/job-$j/meson-test.out" | tr '\n' ' ')"
	done
fi
elapsed=$(( $(date +%s) - start ))

for log in "${logs[@]}"; do
	[ -f "$log" ] || die "no log at $log"
done

mkdir -p "$results"
out="$results/torture-$(date -u +%Y%m%d-%H%M).md"
{
	echo "# make torture, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Command: \`TORTURE_CUTS=$cuts TORTURE_SEED=$seed${configs:+ TORTURE_CONFIGS=$configs}${TORTURE_JOBS:+ TORTURE_JOBS=$jobs} make torture\`"
	echo "(series $(series_name), assert-enabled build,"
	echo "$(nproc) cores; persistent memory EMULATED: files on tmpfs, PMEM_IS_PMEM_FORCE=1)."
	echo
	echo "Result: $( [ $rc -eq 0 ] && echo passed || echo FAILED ), in $elapsed s."
	echo
	echo '```'
	grep -hE '# [0-9]+ cuts in|failed:|^#   |the files it started from' "${logs[@]}" | sed 's/^\[[^]]*\] *//'
	echo '```'
	echo
	echo "Rounds by what ended them, per configuration (a cut \"by the test\" came"
	echo "after the workload ran for its time; \"kill -9\" rounds are the soak; the"
	echo "rounds cut before the server was up, during recovery, are counted again"
	echo "on their own line):"
	echo
	echo '```'
	perl -ne '
		print "$1: $2\n" if /# (\S+) round \d+ seed \d+: cut at .*?\((?:call \d+: )?([a-z ]+?)(?: of| in|:|\))/;
		print "$1: kill -9 of $2\n" if /# (\S+) round \d+ seed \d+: kill -9 of (.*)$/;
		print "$1:   of these, cut before the server was up\n" if /# (\S+) round \d+ seed \d+: cut at .*the server did not start before the cut/;' "${logs[@]}" |
		sort | uniq -c | sort -k2,2 -k1,1nr
	echo '```'
} > "$out"
chown --reference="$TOP" "$out" 2>/dev/null || true
cat "$out"
[ $rc -eq 0 ] || { echo "failed rounds left their files in $keep"; exit 1; }
