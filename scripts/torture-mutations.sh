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

# apply_mutation FILE: replace, in the tree, the text between "<<<<" and
# "====" with the text between "====" and ">>>>", in the file named by
# "file:"; the text must occur exactly once.  A line "configs: A,B" names
# the torture configurations to run it with (default: TORTURE_CONFIGS, or
# nvwal).
apply_mutation()
{
	perl -e '
		my ($spec, $tree) = @ARGV;
		open(my $fh, "<", $spec) or die "$spec: $!";
		my $text = do { local $/; <$fh> };
		my ($file) = $text =~ /^file: (\S+)$/m or die "$spec: no file: line\n";
		my ($old, $new) = $text =~ /^<<<<\n(.*?)^====\n(.*?)^>>>>$/ms
		  or die "$spec: no <<<< ==== >>>> block\n";
		open($fh, "<", "$tree/$file") or die "$tree/$file: $!";
		my $src = do { local $/; <$fh> };
		my $n = () = $src =~ /\Q$old\E/g;
		die "$spec: the text to replace occurs $n times in $file\n" unless $n == 1;
		$src =~ s/\Q$old\E/$new/;
		open($fh, ">", "$tree/$file") or die "$tree/$file: $!";
		print $fh $src;
		print "$file\n";' "$1" "$TREE"
}

results="$TOP/test/torture/results"
mkdir -p "$results"
out="$results/mutations-$(date -u +%Y%m%d-%H%M).md"
table=""
all_bit=1
start=$(date +%s)

for spec in "$TOP"/test/torture/mutations/*.txt; do
	name=$(basename "$spec" .txt)
	# TORTURE_MUTATIONS="2-commit-drain ..." runs only those
	if [ -n "${TORTURE_MUTATIONS:-}" ] && ! grep -qw -- "$name" <<< "$TORTURE_MUTATIONS"; then
		continue
	fi
	file=$(apply_mutation "$spec") || die "could not apply $name"
	note "mutation $name ($file)"
	if ! "$TOP/scripts/build.sh" check; then
		tgit checkout -- "$file"
		die "the tree does not build with mutation $name"
	fi
	as_builder meson test -C "$CHECK_BUILD" --no-rebuild --suite setup -q > /dev/null ||
		{ tgit checkout -- "$file"; die "meson test --suite setup failed"; }

	# a mutation may name the configurations that exercise it ("configs:")
	mconfigs=$(sed -n 's/^configs: *//p' "$spec")
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

	if [ $rc -ne 0 ]; then
		round=$(grep -m1 -oE 'round [0-9]+ \(seed [0-9]+\) failed' "$log" || echo "a failure outside a round")
		why=$(grep -A3 -m1 -E 'round [0-9]+ \(seed [0-9]+\) failed' "$log" | sed -n '2,4p' | sed 's/^#  *//' | cut -c 1-100 | paste -sd ';' - || true)
		table+="| $name | failed: $round, after $t s | $why |"$'\n'
		note "$name: the torture failed ($round), as it must"
	else
		table+="| $name | **passed $cuts cuts per configuration: the torture did not notice** | |"$'\n'
		note "$name: the torture did NOT fail"
		all_bit=0
	fi
done

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
