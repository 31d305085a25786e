#!/bin/bash
# The project's main job on this machine, end to end: build and install,
# create a primary whose WAL buffers are an NVWAL file on (emulated)
# persistent memory, make a synchronous standby with its own NVWAL file
# (pg_basebackup -F n -R), run pgbench against the primary, show the
# standby catching up, and say how to connect and how to stop both.
#
# There is no persistent memory on these machines: the NVWAL files are on
# tmpfs (/dev/shm), and PMEM_IS_PMEM_FORCE=1 makes libpmem flush CPU caches
# there as it would on real persistent memory.  DEMO_PMEM_DIR puts them
# elsewhere (a DAX file system, say; then unset PMEM_IS_PMEM_FORCE).
. "$(dirname "$0")/common.sh"

"$TOP/scripts/build.sh" release

bin="$INSTALL/bin"
primary="$DEMO/primary"
standby="$DEMO/standby"
scale=${DEMO_SCALE:-10}
clients=${DEMO_CLIENTS:-8}
seconds=${DEMO_SECONDS:-20}
nvwal_size=${DEMO_NVWAL_SIZE:-256MB}

"$TOP/scripts/stop.sh" quiet || true

if [ -n "${DEMO_PMEM_DIR:-}" ]; then
	pmemdir=$DEMO_PMEM_DIR
else
	[ -d /dev/shm ] || die "no /dev/shm to emulate persistent memory on; set DEMO_PMEM_DIR"
	pmemdir=/dev/shm/pg-nvwal-demo
	export PMEM_IS_PMEM_FORCE=1
fi

port=$(free_port "${DEMO_PORT:-5432}")
sport=$(free_port $((port + 1)))

rm -rf "$DEMO" "$pmemdir"
builder_dir "$DEMO"
builder_dir "$pmemdir"

note "creating the primary in $primary, its NVWAL file $pmemdir/primary.nvwal ($nvwal_size${PMEM_IS_PMEM_FORCE:+, emulated persistent memory})"
init_cluster "$bin" "$primary" "$port" -E UTF8 \
	--nvwal-path="$pmemdir/primary.nvwal" --nvwal-size="$nvwal_size" -- \
	"shared_buffers = 256MB" "max_wal_size = 2GB"

note "starting the primary on port $port"
as_builder "$bin/pg_ctl" -D "$primary" -l "$DEMO/primary.log" -w start >/dev/null ||
	{ tail -n 20 "$DEMO/primary.log" >&2; die "the primary did not start; see $DEMO/primary.log"; }
echo "$port" > "$DEMO/port"

pg=(-h 127.0.0.1 -p "$port" -U postgres)
spg=(-h 127.0.0.1 -p "$sport" -U postgres)
note "pgbench: initializing scale $scale"
as_builder "$bin/pgbench" "${pg[@]}" -i -q -s "$scale" postgres > "$DEMO/pgbench-init.log" 2>&1 ||
	{ tail -n 20 "$DEMO/pgbench-init.log" >&2; die "pgbench -i failed"; }

note "making the standby: pg_basebackup -F n -R --nvwal-path=$pmemdir/standby.nvwal"
as_builder "$bin/pg_basebackup" "${pg[@]}" -D "$standby" -F n -R \
	--nvwal-path="$pmemdir/standby.nvwal" -d "application_name=standby" \
	--checkpoint=fast > "$DEMO/basebackup.log" 2>&1 ||
	{ tail -n 20 "$DEMO/basebackup.log" >&2; die "pg_basebackup failed; see $DEMO/basebackup.log"; }
printf 'port = %s\n' "$sport" | as_builder tee -a "$standby/postgresql.auto.conf" >/dev/null
as_builder "$bin/pg_ctl" -D "$standby" -l "$DEMO/standby.log" -w start >/dev/null ||
	{ tail -n 20 "$DEMO/standby.log" >&2; die "the standby did not start; see $DEMO/standby.log"; }
echo "$sport" > "$DEMO/standby-port"
grep -m1 'made for the restored backup' "$DEMO/standby.log" | sed 's/^.*LOG: */    standby: /' || true

# From now on, every commit on the primary waits for the standby.
as_builder "$bin/psql" "${pg[@]}" -q -c "ALTER SYSTEM SET synchronous_standby_names = 'standby'" \
	-c 'SELECT pg_reload_conf()' postgres >/dev/null ||
	die "could not make the standby synchronous"

note "pgbench: TPC-B, $clients clients, $seconds s, -M prepared; every commit waits for the standby to flush it (synchronous_commit = on)"
as_builder "$bin/pgbench" "${pg[@]}" -M prepared -c "$clients" -j 2 -T "$seconds" -P 5 postgres 2>&1 |
	tee "$DEMO/pgbench.log" | grep -v '^pgbench (' || true
grep -q '^tps = ' "$DEMO/pgbench.log" || die "pgbench failed; see $DEMO/pgbench.log"

note "the standby catching up"
target=$(as_builder "$bin/psql" "${pg[@]}" -At -c 'SELECT pg_current_wal_lsn()' postgres)
for _ in $(seq 1 60); do
	as_builder "$bin/psql" "${pg[@]}" -At -F ' ' -c \
		"SELECT 'sent ' || sent_lsn, 'flushed ' || flush_lsn, 'replayed ' || replay_lsn, 'replay lag ' || coalesce(replay_lag::text, '0') FROM pg_stat_replication WHERE application_name = 'standby'" postgres |
		sed 's/^/    /'
	if [ "$(as_builder "$bin/psql" "${spg[@]}" -At -c "SELECT pg_last_wal_replay_lsn() >= '$target'" postgres)" = t ]; then
		break
	fi
	sleep 1
done
primary_count=$(as_builder "$bin/psql" "${pg[@]}" -At -c 'SELECT count(*), sum(abalance) FROM pgbench_accounts' postgres)
standby_count=$(as_builder "$bin/psql" "${spg[@]}" -At -c 'SELECT count(*), sum(abalance) FROM pgbench_accounts' postgres)
echo "    pgbench_accounts (rows|sum of balances): primary $primary_count, standby $standby_count"
[ "$primary_count" = "$standby_count" ] || die "the standby did not catch up; see $DEMO/standby.log"
as_builder "$bin/pg_controldata" --nvwal-path="$pmemdir/standby.nvwal" "$standby" |
	grep -E '^NVWAL' | sed 's/^/    standby: /'

version=$(as_builder "$bin/psql" "${pg[@]}" -At -c 'SELECT version()' postgres)
cat <<EOT

Both servers keep running: $version
  primary: $primary, log $DEMO/primary.log, NVWAL file $pmemdir/primary.nvwal
  standby: $standby, log $DEMO/standby.log, NVWAL file $pmemdir/standby.nvwal
Connect with:
  $bin/psql -h 127.0.0.1 -p $port -U postgres postgres     # primary
  $bin/psql -h 127.0.0.1 -p $sport -U postgres postgres     # standby
Stop them with:
  make stop
EOT
