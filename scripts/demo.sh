#!/bin/bash
# The project's main job on this machine, end to end: build and install,
# create a cluster under build/demo, start it on a free port, run a short
# pgbench, and say how to connect and how to stop it.
. "$(dirname "$0")/common.sh"

"$TOP/scripts/build.sh" release

bin="$INSTALL/bin"
data="$DEMO/data"
log="$DEMO/server.log"
scale=${DEMO_SCALE:-10}
clients=${DEMO_CLIENTS:-8}
seconds=${DEMO_SECONDS:-20}

"$TOP/scripts/stop.sh" quiet || true

port=$(free_port "${DEMO_PORT:-5432}")

note "creating a cluster in $data"
rm -rf "$DEMO"
builder_dir "$DEMO"
init_cluster "$bin" "$data" "$port" -E UTF8 -- \
	"shared_buffers = 256MB" "max_wal_size = 2GB"

note "starting the server on port $port"
as_builder "$bin/pg_ctl" -D "$data" -l "$log" -w start >/dev/null ||
	{ tail -n 20 "$log" >&2; die "the server did not start; see $log"; }
echo "$port" > "$DEMO/port"

pg=(-h 127.0.0.1 -p "$port" -U postgres)
note "pgbench: initializing scale $scale"
as_builder "$bin/pgbench" "${pg[@]}" -i -q -s "$scale" postgres > "$DEMO/pgbench-init.log" 2>&1 ||
	{ tail -n 20 "$DEMO/pgbench-init.log" >&2; die "pgbench -i failed"; }

note "pgbench: TPC-B, $clients clients, $seconds s, -M prepared"
as_builder "$bin/pgbench" "${pg[@]}" -M prepared -c "$clients" -j 2 -T "$seconds" -P 5 postgres 2>&1 |
	tee "$DEMO/pgbench.log" | grep -v '^pgbench (' || true
grep -q '^tps = ' "$DEMO/pgbench.log" || die "pgbench failed; see $DEMO/pgbench.log"

version=$(as_builder "$bin/psql" "${pg[@]}" -At -c 'SELECT version()' postgres)
cat <<EOT

The server keeps running: $version
  data directory: $data
  log file:       $log
Connect with:
  $bin/psql -h 127.0.0.1 -p $port -U postgres postgres
Stop it with:
  make stop
EOT
