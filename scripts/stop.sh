#!/bin/bash
# Stop the demo server, if it runs.
. "$(dirname "$0")/common.sh"

data="$DEMO/data"
if [ -f "$data/postmaster.pid" ] && as_builder "$INSTALL/bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
	as_builder "$INSTALL/bin/pg_ctl" -D "$data" -m fast -w stop >/dev/null
	note "stopped the demo server ($data)"
elif [ "${1:-}" != quiet ]; then
	note "no demo server is running"
fi
