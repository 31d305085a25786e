#!/bin/bash
# Build the assert-enabled tree and run the test suites that "make check"
# promises; print "N passed, N failed[, N skipped]" last.
. "$(dirname "$0")/common.sh"

if ! "$TOP/scripts/build.sh" check; then
	echo "make check: the build failed, so no test ran"
	echo "0 passed, 1 failed"
	exit 1
fi

# Upstream suites that cover what the series touches, then the suites the
# series adds (one name a line in check-suites; '#' starts a comment).
# CHECK_SUITES="setup test_pmem" runs just those, for a quicker look.
if [ -n "${CHECK_SUITES:-}" ]; then
	read -r -a suites <<< "$CHECK_SUITES"
else
	suites=(setup regress recovery pg_basebackup pg_waldump pg_rewind initdb
		pg_resetwal pg_controldata test_misc)
	while read -r s _ || [ -n "$s" ]; do
		case "$s" in ''|'#'*) continue ;; esac
		suites+=("$s")
	done < "$TOP/check-suites"
fi

# meson quietly ignores a suite that has no tests; a misspelt or vanished
# suite must not pass for a green run.
args=()
for s in "${suites[@]}"; do
	if ! as_builder meson test -C "$CHECK_BUILD" --no-rebuild --list --suite "$s" 2>/dev/null | grep -q .; then
		echo "make check: suite \"$s\" has no tests in this build"
		echo "0 passed, 1 failed"
		exit 1
	fi
	args+=(--suite "$s")
done
rm -f "$CHECK_BUILD/meson-logs/testlog.json"

jobs=${CHECK_JOBS:-$(( $(nproc) + 1 ))}
note "running suites: ${suites[*]} ($jobs at a time)"
start=$(date +%s)
set +o pipefail
as_builder meson test -C "$CHECK_BUILD" --no-rebuild --print-errorlogs \
	--num-processes "$jobs" "${args[@]}" 2>&1 | tee "$CHECK_BUILD/.check.log"
rc=${PIPESTATUS[0]}
set -o pipefail
elapsed=$(( $(date +%s) - start ))

# Count results from meson's machine-readable log, and show what failed.
summary=$(perl -MJSON::PP -ne '
	BEGIN { %n = (pass => 0, fail => 0, skip => 0) }
	my $t = eval { decode_json($_) } or next;
	my $r = $t->{result};
	if ($r eq "OK" || $r eq "EXPECTEDFAIL") { $n{pass}++ }
	elsif ($r eq "SKIP") { $n{skip}++ }
	else { $n{fail}++; (my $name = $t->{name}) =~ s/^.* \/ //; print "FAILED $r $name\n" }
	END { print "COUNTS $n{pass} $n{fail} $n{skip}\n" }' "$CHECK_BUILD/meson-logs/testlog.json")

failed=$(printf '%s\n' "$summary" | grep '^FAILED' || true)
read -r _ npass nfail nskip < <(printf '%s\n' "$summary" | grep '^COUNTS')

if [ -n "$failed" ]; then
	echo
	echo "Failed tests (logs are under $CHECK_BUILD/testrun/):"
	while read -r _ result name; do
		echo
		echo "---- $name: $result ----"
		dir="$CHECK_BUILD/testrun/$name"
		found=0
		while IFS= read -r -d '' f; do
			echo "---- tail of $f"
			tail -n 40 "$f"
			found=1
		done < <(find "$dir" \( -name 'regress_log_*' -o -name regression.diffs \) -print0 2>/dev/null)
		if [ $found -eq 0 ]; then
			grep -A 40 -F " $name " "$CHECK_BUILD/.check.log" | head -n 60 || true
		fi
	done <<< "$failed"
	echo
fi

# meson itself failing without a failed test.
if [ "$rc" -ne 0 ] && [ "$nfail" -eq 0 ]; then
	tail -n 30 "$CHECK_BUILD/.check.log"
	nfail=1
fi

echo "make check: ${#suites[@]} suites in ${elapsed}s; meson's log: $CHECK_BUILD/meson-logs/testlog.txt"
line="$npass passed, $nfail failed"
[ "$nskip" -gt 0 ] && line="$line, $nskip skipped"
echo "$line"
[ "$nfail" -eq 0 ]
