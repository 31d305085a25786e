#!/bin/bash
# Stop the demo servers (standby first, then primary), if they run.
. "$(dirname "$0")/common.sh"

stopped=0
for data in "$DEMO/standby" "$DEMO/primary" "$DEMO/data"; do
	if [ -f "$data/postmaster.pid" ] && as_builder "$INSTALL/bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
		as_builder "$INSTALL/bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
		note "stopped the demo server in $data"
		stopped=1
	fi
done
if [ $stopped -eq 0 ] && [ "${1:-}" != quiet ]; then
	note "no demo server is running"
fi
