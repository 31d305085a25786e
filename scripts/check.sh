#!/bin/bash
# Build the assert-enabled tree and run the test suites that "make check"
# promises; print "N passed, N failed[, N skipped]" last.
. "$(dirname "$0")/common.sh"

if ! "$TOP/scripts/build.sh" check; then
	echo "make check: the build failed, so no test ran"
	echo "0 passed, 1 failed"
	exit 1
fi

jobs=${CHECK_JOBS:-$(( $(nproc) + 1 ))}
total_pass=0 total_fail=0 total_skip=0
# what failed, pass by pass, repeated just before the last line: CI shows
# only the end of a long output
failures=""
start=$(date +%s)

# Whatever stops this script early, its last line still counts: CI reads it.
summarized=0
trap '[ $summarized -eq 1 ] || { echo "make check: stopped early (exit $?), a defect of scripts/check.sh"; echo "$total_pass passed, $((total_fail + 1)) failed"; }' EXIT

# failed_because WHAT: note a failure that no test result counts, and say
# so now and at the end.
failed_because()
{
	echo "make check: $1"
	failures+="  $1"$'\n'
	total_fail=$((total_fail + 1))
}

# run_pass NAME "SUITE-OR-TEST..." [VAR=VALUE...]: run meson suites, or
# single tests (named suite/test, as "meson test --list" shows them; meson
# runs only what matches both, so do not mix the two), with extra
# environment; count results and show the logs of what failed.
run_pass()
{
	local name=$1 suites=$2
	shift 2
	local -a args=() envv=("$@")
	local s log="$CHECK_BUILD/meson-logs/$name.json"
	local list

	# meson quietly ignores a suite that has no tests; a misspelt or
	# vanished suite or test must not pass for a green run.
	list=$(as_builder meson test -C "$CHECK_BUILD" --no-rebuild --list 2>/dev/null)
	for s in $suites; do
		if [[ "$s" == */* ]]; then
			if ! grep -q " / $s\$" <<< "$list"; then
				failed_because "pass \"$name\": there is no test \"$s\" in this build"
				return
			fi
			args+=("$s")
		elif ! grep -q ":$s / " <<< "$list"; then
			failed_because "pass \"$name\": suite \"$s\" has no tests in this build"
			return
		else
			args+=(--suite "$s")
		fi
	done
	rm -f "$log"

	note "pass \"$name\": ${suites} ($jobs at a time)${envv[*]:+, with ${envv[*]}}"
	set +o pipefail
	as_builder env "${envv[@]}" meson test -C "$CHECK_BUILD" --no-rebuild --print-errorlogs \
		--num-processes "$jobs" --logbase "$name" "${args[@]}" 2>&1 | tee "$CHECK_BUILD/.check-$name.log"
	local rc=${PIPESTATUS[0]}
	set -o pipefail

	local summary failed npass=0 nfail=0 nskip=0
	summary=$(perl -MJSON::PP -ne '
		BEGIN { %n = (pass => 0, fail => 0, skip => 0) }
		my $t = eval { decode_json($_) } or next;
		my $r = $t->{result};
		if ($r eq "OK" || $r eq "EXPECTEDFAIL") { $n{pass}++ }
		elsif ($r eq "SKIP") { $n{skip}++ }
		else { $n{fail}++; (my $name = $t->{name}) =~ s/^.* \/ //; print "FAILED $r $name\n" }
		END { print "COUNTS $n{pass} $n{fail} $n{skip}\n" }' "$log" 2>/dev/null || true)
	failed=$(printf '%s\n' "$summary" | grep '^FAILED' || true)
	read -r _ npass nfail nskip < <(printf '%s\n' "$summary" | grep '^COUNTS' || echo "COUNTS 0 0 0")

	if [ -n "$failed" ]; then
		echo
		echo "Failed tests of pass \"$name\" (logs are under $CHECK_BUILD/testrun/):"
		local result tname dir f found why
		while read -r _ result tname; do
			echo
			echo "---- $tname: $result ----"
			dir="$CHECK_BUILD/testrun/$tname"
			found=0
			while IFS= read -r -d '' f; do
				echo "---- tail of $f"
				tail -n 40 "$f"
				found=1
			done < <(find "$dir" \( -name 'regress_log_*' -o -name regression.diffs \) -print0 2>/dev/null)
			[ $found -eq 1 ] || echo "(no log found in $dir)"

			# for the end: the test, and its first failed checks
			failures+="  pass \"$name\": $tname ($result)"$'\n'
			# A test that died has no failed check to show: grep then
			# fails, and must not end this script (set -e, pipefail).
			why=$( (find "$dir" -name 'regress_log_*' \
				-exec grep -h -m 2 -E '^(\[[0-9:.]+\]\([0-9.]+s\) )?(not ok|Bail out)' {} + 2>/dev/null || true) |
				sed -n 1,2p | cut -c 1-160 | sed 's/^/      /')
			# or, for a test that died, why it did
			[ -n "$why" ] || why=$( (find "$dir" -name 'regress_log_*' \
				-exec grep -h -m 1 -E ' at [^ ]+ line [0-9]+\.$' {} + 2>/dev/null || true) |
				sed -n 1p | cut -c 1-160 | sed 's/^/      /')
			[ -z "$why" ] || failures+="$why"$'\n'
		done <<< "$failed"
		echo
	fi

	# a pass that ran nothing proves nothing
	if [ $((npass + nfail + nskip)) -eq 0 ]; then
		echo "make check: pass \"$name\" ran no test"
		failures+="  pass \"$name\": ran no test"$'\n'
		nfail=1
	fi

	# meson itself failing without a failed test
	if [ "$rc" -ne 0 ] && [ "$nfail" -eq 0 ]; then
		tail -n 30 "$CHECK_BUILD/.check-$name.log"
		failures+="  pass \"$name\": meson failed (exit $rc)"$'\n'
		nfail=1
	fi
	total_pass=$((total_pass + npass))
	total_fail=$((total_fail + nfail))
	total_skip=$((total_skip + nskip))
}

# The repository's own shell scripts, which the benchmark smoke run at the
# end and CI depend on, and the torture's mutations, which must still apply
# to the tree (scripts/lint.sh).  One test, as counted here.
if "$TOP/scripts/lint.sh"; then
	total_pass=$((total_pass + 1))
else
	failed_because "lint: the shell scripts, the torture's mutations, or the series named in the docs (scripts/lint.sh, output above)"
fi

# The series still goes into Debian's packaging (make deb): it applies, with
# no fuzz, on top of Debian's own patches, and packaging/debian finds what it
# changes (scripts/deb-applies.sh, seconds; nothing is built).  One test.
if "$TOP/scripts/deb-applies.sh"; then
	total_pass=$((total_pass + 1))
else
	failed_because "deb-applies: the series or packaging/debian no longer fits Debian's packaging (scripts/deb-applies.sh, output above)"
fi

# When Debian's archive has moved on from the pinned version, fetching the
# pinned files fails saying so and naming make upstream-update
# (scripts/pin-gone-test.sh).  One test.
if "$TOP/scripts/pin-gone-test.sh"; then
	total_pass=$((total_pass + 1))
else
	failed_because "pin-gone: a pin that the archive no longer has (scripts/pin-gone-test.sh, output above)"
fi

# Pristine PostgreSQL 18.6, from the same tarball (build.sh upstream), for
# nvwal/033_upstream_compat, which runs its binaries next to this tree's on
# the same data directories; the test fails rather than skips without it.
upstream_env=()
if [ -z "${CHECK_SUITES:-}" ] || [[ " $CHECK_SUITES " == *" nvwal"* ]]; then
	if "$TOP/scripts/build.sh" upstream; then
		upstream_env=(PG_TEST_UPSTREAM_INSTALL="$BUILD/upstream-install" PG_TEST_UPSTREAM_REQUIRED=1)
	else
		failed_because "the build of pristine PostgreSQL 18.6 (scripts/build.sh upstream) failed"
	fi
fi

# CHECK_SUITES="setup test_pmem" runs just those, for a quicker look.
if [ -n "${CHECK_SUITES:-}" ]; then
	run_pass main "$CHECK_SUITES" "${upstream_env[@]}"
else
	# Upstream suites that cover what the series touches, then the suites
	# the series adds (check-suites; '#' starts a comment).
	suites="setup regress recovery pg_basebackup pg_waldump pg_rewind initdb pg_resetwal pg_controldata test_misc"
	while read -r s _ || [ -n "$s" ]; do
		case "$s" in ''|'#'*) continue ;; esac
		suites="$suites $s"
	done < "$TOP/check-suites"
	run_pass main "$suites" "${upstream_env[@]}"

	# The upstream suites that write, read or recover WAL again, with every
	# test cluster on wal_sync_method = pmem_drain (emulated persistent
	# memory: PMEM_IS_PMEM_FORCE=1 makes libpmem flush CPU caches on any
	# file), and then on NVWAL: a 64 MB ring in a file "pg_nvwal" in its
	# data directory, on emulated persistent memory.  Standbys made from a
	# base backup of an NVWAL cluster make their own NVWAL file when they
	# first start, so replication tests run with both sides on NVWAL.  The
	# pmem_drain pass runs with num_xloginsert_slots = 1 and the NVWAL pass
	# with 128, the ends of its range, so that the tests kept see both;
	# the NVWAL pass persists at insertion (nvwal_persist_at = insert, the
	# default), each inserter flushing its own WAL.
	#
	# Both passes leave out what cannot catch a defect of theirs, so that
	# make check stays well within CI's time:
	#  - the regression suite on its own: recovery/027_stream_regress runs
	#    the whole regression schedule on an NVWAL primary, with a standby
	#    replaying its WAL, and compares the two (the pmem_drain pass leaves
	#    027 out too, below);
	#  - recovery tests of hot standby and replay semantics (conflicts,
	#    visibility, statistics, database and tablespace replay, event
	#    triggers) and of logical decoding's own bookkeeping (slot
	#    invalidation and synchronization): they write and replay WAL as
	#    the tests kept do, and check what replay and decoding make of it,
	#    which neither pass changes;
	#  - subscription tests of what logical replication applies (types,
	#    DDL, filters, conflicts, ...): the NVWAL pass keeps those that
	#    carry changes from the publisher's WAL in every way a walsender
	#    sends them (plain, streamed, two-phase, cascaded).
	# pmem_drain changes only how XLogWrite() and the walreceiver write and
	# sync segment files, so its pass also leaves out the recovery tests
	# whose subject is what replay, decoding or relation storage make of WAL
	# (replay delay, FSM truncation, unlogged relations, promotion pages,
	# minimum consistency, wal_level = minimal, temporary files, prepared
	# transactions at PITR, logical slots and decoding), and 027: the tests
	# kept write segment files in every way the server does (created,
	# filled and recycled by the dozen in 019_replslot_limit; streamed,
	# archived, switched to a new timeline, ended early, after a crash), and
	# nvwal/001_pmem_drain runs pgbench on it through crashes and reloads.
	# Also left out of the NVWAL pass: the tests that write into pg_wal
	# behind a stopped server's back (recovery 026, 039, 043): they stop it
	# immediately, and recovery then reads the WAL that the ring holds in
	# place of what they wrote; and recovery 042, whose
	# first half starts a file-by-file copy of a running cluster without its
	# backup_label and expects it to start with a table missing: the copy's
	# NVWAL file is older than its pg_control, which was copied last, and
	# the server refuses to start instead, as it must (nvwal/004 and 018
	# test base and low-level backups on NVWAL).  The series' own tests are
	# in the suites of check-suites, run above, but for recovery 056, which
	# runs in all three passes.
	semantics_only="021_row_visibility 029_stats_restart 030_stats_cleanup_replica
		031_recovery_conflict 032_relfilenode_reuse 033_replay_tsp_drops
		034_create_database 036_truncated_dropped 037_invalid_database
		040_standby_failover_slots_sync 044_invalidate_inactive_slots
		048_vacuum_horizon_floor 053_standby_login_event_trigger"
	pmem_drain_left_out="005_replay_delay 006_logical_decoding 008_fsm_truncation
		010_logical_decoding_timelines 014_unlogged_reinit 015_promotion_pages
		016_min_consistency 018_wal_optimize 022_crash_temp_files
		023_pitr_prepared_xact 027_stream_regress 035_standby_logical_decoding
		038_save_logical_slots_shutdown 046_checkpoint_logical_slot
		047_checkpoint_physical_slot 054_unlogged_sequence_promotion"
	subscription_kept="001_rep_changes 004_sync 015_stream 016_stream_subxact
		018_stream_subxact_abort 021_twophase 022_twophase_cascade
		023_twophase_stream 100_bugs"
	list=$(as_builder meson test -C "$CHECK_BUILD" --no-rebuild --list 2>/dev/null)
	# A name above that matches no test any more (renamed upstream, say)
	# would leave out or keep nothing, silently: fail instead.
	for name in $semantics_only $pmem_drain_left_out $subscription_kept \
		026_overwrite_contrecord 039_end_of_wal 042_low_level_backup 043_no_contrecord_switch; do
		grep -q -E "^postgresql:(recovery|subscription) / (recovery|subscription)/$name\$" <<< "$list" ||
			failed_because "scripts/check.sh names a test \"$name\" that this build does not have"
	done
	pmem_tests="" nvwal_tests=""
	for t in $(sed -n -E 's#^postgresql:(recovery|subscription|pg_basebackup|pg_rewind|pg_waldump|pg_resetwal|pg_controldata) / ##p' <<< "$list"); do
		name=${t#*/}
		case " $(echo $semantics_only) " in *" $name "*) continue ;; esac
		case "$t" in
			subscription/*)
				case " $(echo $subscription_kept) " in *" $name "*) ;; *) continue ;; esac ;;
		esac
		if [[ "$t" == recovery/* ]]; then
			case " $(echo $pmem_drain_left_out) " in
				*" $name "*) ;;
				*) pmem_tests="$pmem_tests $t" ;;
			esac
		fi
		case "$name" in
			026_overwrite_contrecord | 039_end_of_wal | 042_low_level_backup | \
				043_no_contrecord_switch) ;;
			*) nvwal_tests="$nvwal_tests $t" ;;
		esac
	done
	if grep -q '^#define USE_LIBPMEM 1' "$CHECK_BUILD/src/include/pg_config.h"; then
		run_pass pmem_drain "${pmem_tests# }" \
			"PG_TEST_INITDB_EXTRA_OPTS=-c wal_sync_method=pmem_drain -c num_xloginsert_slots=1" PMEM_IS_PMEM_FORCE=1
	fi
	run_pass nvwal "${nvwal_tests# }" \
		"PG_TEST_INITDB_EXTRA_OPTS=--nvwal-path=pg_nvwal --nvwal-size=64MB -c num_xloginsert_slots=128" PMEM_IS_PMEM_FORCE=1

	# The benchmark harness, every scenario for a few seconds (make
	# bench-smoke), on the assert-enabled build in place of both upstream
	# and the fork: it fails when a scenario gives no numbers.  One test, as
	# counted here.
	note "bench-smoke: the benchmark suite, every scenario for a few seconds"
	smoke_log="$BUILD/bench-smoke.log"
	if BENCH_PROFILE=smoke "$TOP/bench/run.sh" > "$smoke_log" 2>&1; then
		echo "bench-smoke: OK (log: $smoke_log)"
		total_pass=$((total_pass + 1))
	else
		echo "bench-smoke: FAILED; tail of $smoke_log:"
		tail -n 40 "$smoke_log"
		failures+="  bench-smoke (log: $smoke_log)"$'\n'
		total_fail=$((total_fail + 1))
	fi
fi

echo "make check: $(( $(date +%s) - start ))s of tests; meson's logs: $CHECK_BUILD/meson-logs/"
if [ -n "$failures" ]; then
	echo "make check: what failed (logs above, and under $CHECK_BUILD/testrun/):"
	printf '%s' "$failures"
fi
line="$total_pass passed, $total_fail failed"
[ "$total_skip" -gt 0 ] && line="$line, $total_skip skipped"
summarized=1
echo "$line"
[ "$total_fail" -eq 0 ]
