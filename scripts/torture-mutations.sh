#!/bin/bash
# make torture-mutations: show that the power-cut torture bites.  For each
# mutation in test/torture/mutations/ (a persistence step of the series
# taken out), apply it to the tree, build, run the torture test until it
# fails or has made TORTURE_MUTATION_CUTS cuts, and put the tree back.
# Every mutation must make the torture fail; the results go into
# test/torture/results/.  TORTURE_MUTATIONS="NAME..." runs only those.
# See test/torture/README.md.
. "$(dirname "$0")/common.sh"

cuts=${TORTURE_MUTATION_CUTS:-200}
configs=${TORTURE_CONFIGS:-nvwal}
seed=${TORTURE_SEED:-$(( $(date +%s) % 1000000 * 1000 ))}
test=nvwal/020_power_torture
log="$CHECK_BUILD/testrun/$test/log/regress_log_020_power_torture"

ensure_tree
tgit diff --quiet || die "build/postgresql has uncommitted changes; commit or stash them first"

# Every mutation must apply to the tree (scripts/mutation.pl) before any
# runs: one that no longer applies proves nothing.
perl "$TOP/scripts/mutation.pl" check "$TREE" "$TOP"/test/torture/mutations/*.txt ||
	die "some mutations do not apply to the tree; fix them first"

# where a failed round leaves its files, which the build user writes
builder_dir "$BUILD/torture"
as_builder mkdir -p "$BUILD/torture/mutations"

results="$TOP/test/torture/results"
mkdir -p "$results"
out="$results/mutations-$(date -u +%Y%m%d-%H%M).md"
table=""
all_bit=1
ran=0
start=$(date +%s)

for spec in "$TOP"/test/torture/mutations/*.txt; do
	name=$(basename "$spec" .txt)
	# TORTURE_MUTATIONS="2-commit-drain ..." runs only those
	if [ -n "${TORTURE_MUTATIONS:-}" ] && ! grep -qw -- "$name" <<< "$TORTURE_MUTATIONS"; then
		continue
	fi
	ran=$((ran + 1))
	file=$(perl "$TOP/scripts/mutation.pl" apply "$TREE" "$spec") || die "could not apply $name"
	note "mutation $name ($file)"
	if ! "$TOP/scripts/build.sh" check; then
		tgit checkout -- "$file"
		die "the tree does not build with mutation $name"
	fi
	as_builder meson test -C "$CHECK_BUILD" --no-rebuild --suite setup -q > /dev/null ||
		{ tgit checkout -- "$file"; die "meson test --suite setup failed"; }

	# a mutation may name the configurations that exercise it ("configs:")
	mconfigs=$(sed -n 's/^configs: *//p' "$spec")
	# a log left by an earlier run must not speak for this one
	as_builder rm -f "$log"
	t0=$(date +%s)
	set +e
	as_builder env PG_TEST_TORTURE_CUTS="$cuts" PG_TEST_TORTURE_SEED="$seed" \
		PG_TEST_TORTURE_CONFIGS="${mconfigs:-$configs}" PG_TEST_TORTURE_KEEP="$BUILD/torture/mutations/$name" \
		meson test -C "$CHECK_BUILD" --no-rebuild --timeout-multiplier 0 \
		--logbase "mutation-$name" "$test" > /dev/null 2>&1
	rc=$?
	set -e
	t=$(( $(date +%s) - t0 ))
	tgit checkout -- "$file"

	# A mutation bites when a round's checks fail.  The test dying any other
	# way (a configuration it does not know, a server that never came up
	# for the first round) says nothing about the mutation.
	round=$(grep -m1 -oE 'round [0-9]+ \(seed [0-9]+\) failed' "$log" || true)
	if [ $rc -ne 0 ] && [ -z "$round" ]; then
		table+="| $name | **the test failed outside any round, after $t s: no proof** | see $log |"$'\n'
		note "$name: the torture test failed outside its rounds; see $log"
		all_bit=0
	elif [ $rc -ne 0 ]; then
		why=$(grep -A3 -m1 -E 'round [0-9]+ \(seed [0-9]+\) failed' "$log" | sed -n '2,4p' | sed 's/^#  *//' | cut -c 1-100 | paste -sd ';' - || true)
		table+="| $name | failed: $round, after $t s | $why |"$'\n'
		note "$name: the torture failed ($round), as it must"
	else
		table+="| $name | **passed $cuts cuts per configuration: the torture did not notice** | |"$'\n'
		note "$name: the torture did NOT fail"
		all_bit=0
	fi
done

[ $ran -gt 0 ] || die "TORTURE_MUTATIONS=\"${TORTURE_MUTATIONS:-}\" names no mutation in test/torture/mutations/"

note "rebuilding the tree without mutations"
"$TOP/scripts/build.sh" check
as_builder meson test -C "$CHECK_BUILD" --no-rebuild --suite setup -q > /dev/null

{
	echo "# make torture-mutations, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Command: \`TORTURE_MUTATION_CUTS=$cuts TORTURE_SEED=$seed TORTURE_CONFIGS=$configs make torture-mutations\`"
	echo "(series $(series_name), assert-enabled build, $(nproc) cores;"
	echo "persistent memory EMULATED: files on tmpfs, PMEM_IS_PMEM_FORCE=1), $(( $(date +%s) - start )) s in all."
	echo "Each mutation is in test/torture/mutations/; the torture stops at its first failed round."
	echo
	echo "| mutation | torture | first problems found |"
	echo "|---|---|---|"
	printf '%s' "$table"
} > "$out"
cat "$out"
[ $all_bit -eq 1 ] || die "some mutation went unnoticed"
