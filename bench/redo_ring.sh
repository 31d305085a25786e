#!/bin/bash
# Crash recovery of WAL that only the NVWAL ring holds: this build, whose
# recovery reads that WAL from the ring and writes it behind after redo
# (the patch "Recover from the NVWAL ring, without copying it into pg_wal
# first"), against BENCH_BASELINE_BIN, the binaries of a build of the
# fork from before that patch, whose startup process copied it into pg_wal
# and fsynced it before redo, then redid it from pg_wal.
#
# One crashed cluster serves both: made with this build, with an NVWAL file
# of BENCH_RING (1GB) on tmpfs and the data directory (pg_wal included) on
# the data disk, filled by pgbench -i -s 10 and checkpointed.  Then its WAL
# writer is stopped (SIGSTOP), so that nothing is written behind, BENCH_WAL_MB
# (600) MB of WAL are inserted (rows of 1 kB, in transactions of 10,000
# rows), and every process of the server is killed (SIGKILL): that WAL is in
# the ring only.  Each repetition starts a copy of the crashed cluster and of
# its NVWAL file with each build, in an order that rotates, after dropping
# the page cache when run as root, and measures from the server's log:
#   total   from "starting PostgreSQL" to "ready to accept connections";
#   before  from the start to "redo starts" (where the older build copies);
#   redo    from "redo starts" to "redo done";
#   after   from "redo done" to ready (write-behind, end-of-recovery
#           checkpoint).
# Persistent memory is EMULATED: tmpfs (/dev/shm) with PMEM_IS_PMEM_FORCE=1.
#
# Settings (environment): BENCH_BASELINE_BIN (required), BENCH_REPS (3),
# BENCH_RING (1GB), BENCH_WAL_MB (600).  Results go to
# bench/results/redo-ring-<date>.md, every measurement in .tsv.
. "$(dirname "$0")/../scripts/common.sh"
. "$(dirname "$0")/lib.sh"

reps=${BENCH_REPS:-3}
ring=${BENCH_RING:-1GB}
wal_mb=${BENCH_WAL_MB:-600}
[ -n "${BENCH_BASELINE_BIN:-}" ] || die "set BENCH_BASELINE_BIN to the binaries of a build from before the patch \"Recover from the NVWAL ring, without copying it into pg_wal first\""

names=(gen ring copy)
narrow_run redo-ring
BIN[ring]=$bin
BIN[copy]=$BENCH_BASELINE_BIN
port=$(free_port "${BENCH_PORT:-5500}")

# The crashed cluster.
bench_cluster gen "$bin" "$work/gen/data" "$port" 10 \
	--nvwal-path="$shmdir/gen.nvwal" --nvwal-size="$ring" -- "autovacuum = off"
sql gen -c "CREATE TABLE filler (i int, t text)" -c "ALTER TABLE filler ALTER t SET STORAGE EXTERNAL" \
	-c "CHECKPOINT"
pm=$(head -1 "${DATA[gen]}/postmaster.pid")
walwriter=$(pgrep -P "$pm" -f 'walwriter')
[ -n "$walwriter" ] || die "found no WAL writer under postmaster $pm"
kill -STOP "$walwriter"
start_lsn=$(sql gen -c "SELECT pg_current_wal_insert_lsn()")
rows=10000
while :; do
	sql gen -c "INSERT INTO filler SELECT g, repeat('x', 1000) FROM generate_series(1, $rows) g"
	done_mb=$(sql gen -c "SELECT ((pg_current_wal_insert_lsn() - '$start_lsn') / 1048576)::bigint")
	[ "$done_mb" -ge "$wal_mb" ] && break
done
end_lsn=$(sql gen -c "SELECT pg_current_wal_insert_lsn()")
pkill -KILL -P "$pm"
kill -KILL "$pm"
while pgrep -P "$pm" > /dev/null || kill -0 "$pm" 2> /dev/null; do sleep 0.1; done
# crashed: nothing to stop at exit
rm -f "${DATA[gen]}/postmaster.pid"
behind=$(as_builder "$bin/pg_controldata" --nvwal-path="$shmdir/gen.nvwal" "${DATA[gen]}" |
	awk -F': *' '/written behind/ { print $2 }')
note "crashed with WAL from $start_lsn to $end_lsn ($done_mb MB) in the ring only; written behind up to $behind"

run_recovery()
{
	local name=$1 rep=$2 log t0 t_redo t_done t_ready
	rm -rf "$work/$name"
	builder_dir "$work/$name"
	as_builder cp -a "${DATA[gen]}" "$work/$name/data"
	as_builder cp "$shmdir/gen.nvwal" "$shmdir/$name.nvwal"
	echo "nvwal_path = '$shmdir/$name.nvwal'" | as_builder tee -a "$work/$name/data/postgresql.conf" > /dev/null
	DATA[$name]=$work/$name/data
	PORT[$name]=$port
	sed -i "s/^port = .*/port = $port/" "${DATA[$name]}/postgresql.conf"
	sync
	if [ "$(id -u)" -eq 0 ]; then echo 3 > /proc/sys/vm/drop_caches; fi
	log="${DATA[$name]}.log"
	rm -f "$log"
	server_start "$name"
	t0=$(at "$log" 'starting PostgreSQL')
	t_redo=$(at "$log" 'redo starts at')
	t_done=$(at "$log" 'redo done at')
	t_ready=$(at "$log" 'ready to accept connections')
	record redo "$name" all "$rep" total $((t_ready - t0))
	record redo "$name" all "$rep" before $((t_redo - t0))
	record redo "$name" all "$rep" redo $((t_done - t_redo))
	record redo "$name" all "$rep" after $((t_ready - t_done))
	[ "$(sql "$name" -c "SELECT count(*) > 0 FROM filler")" = t ] || die "$name lost the rows"
	server_stop "$name" immediate
	rm -rf "$shmdir/$name.nvwal"
	echo "$name rep $rep: total $((t_ready - t0)) ms, before redo $((t_redo - t0)), redo $((t_done - t_redo)), after $((t_ready - t_done))"
}

order=(ring copy)
for rep in $(seq 1 "$reps"); do
	for name in "${order[@]}"; do run_recovery "$name" "$rep"; done
	order=("${order[1]}" "${order[0]}")
done

{
	echo "# Crash recovery of WAL that only the NVWAL ring holds, $(date -u '+%Y-%m-%d %H:%M') UTC"
	echo
	echo "\`bench/redo_ring.sh\`: $done_mb MB of WAL (rows of 1 kB) in a ring of $ring only, the WAL writer stopped"
	echo "($start_lsn to $end_lsn, written behind up to $behind); pgbench scale 10 beside it."
	echo "Machine: $(machine); data directory and pg_wal on the data disk; page cache dropped before each start: $([ "$(id -u)" -eq 0 ] && echo yes || echo no)."
	echo "Persistent memory is EMULATED: the NVWAL file on tmpfs, PMEM_IS_PMEM_FORCE=1."
	echo "Settings: ${BENCH_SETTINGS[*]}; autovacuum = off."
	echo
	echo "- ring: this build ($bin), recovery reads the ring (the patch \"Recover from the NVWAL ring, without copying it into pg_wal first\")"
	echo "- copy: $BENCH_BASELINE_BIN, startup copies the ring into pg_wal before redo"
	echo
	echo "Milliseconds, median and min-max of $reps repetitions, the builds alternating:"
	echo
	echo "| | total | before redo | redo | after redo |"
	echo "|---|---|---|---|---|"
	for name in ring copy; do
		printf '| %s |' "$name"
		for m in total before redo after; do
			printf ' %s (%s) |' "$(med redo "$name" all "$m")" "$(rng redo "$name" all "$m")"
		done
		echo
	done
	printf '| ring / copy, paired |'
	for m in total before redo after; do
		printf ' %s (%s) |' "$(paired redo ring copy all "$m" | median)" "$(paired redo ring copy all "$m" | range)"
	done
	echo
} > "$stem.md"
cat "$stem.md"
