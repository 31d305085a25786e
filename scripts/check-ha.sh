#!/bin/bash
# check-ha.sh: "make check-ha".  High availability with Patroni and etcd,
# as an operator runs it: three nodes of the fork on loopback, each with
# its own NVWAL file (emulated persistent memory: tmpfs and
# PMEM_IS_PMEM_FORCE=1), bootstrapped by Patroni through initdb, cloned by
# pg_nvwal_clone, and a writer committing ledger rows with
# synchronous_commit = on through the leader, while the script
#
#   1. kills the leader's node (Patroni, postmaster and children, kill -9):
#      failover; then starts it again: it rejoins, with pg_rewind if it has
#      to;
#   2. has Patroni switch over to a replica;
#   3. kills the new leader's node, and starts it again;
#   4. has Patroni reinitialize a replica (patronictl reinit), which must
#      give it a new NVWAL file, never another node's;
#
# and then checks that every acknowledged row is on the final leader, that
# every node runs with its own NVWAL file (nvwal_path, and the identifier
# in the file's header and in its NVWAL control file), that the settings
# given to Patroni reached the servers, and that no log has a PANIC.
#
# It runs that with each Patroni: Debian 12's 3.0.2 (installed from the
# machine's archive), which keeps the NVWAL settings where initdb and
# pg_basebackup write them, and Debian unstable's 4.1.5 (pinned below,
# unpacked into build/), which also reads the validator file
# nvwal.yml, so that NVWAL's settings and wal_sync_method = pmem_drain can
# be given in Patroni's configuration.  Each is run again without NVWAL, as
# the control; and 4.1.5 once more with one node and without the validator
# file, to see what Patroni drops then.  The results go to
# build/ha/results.md.
#
# HA_PATRONI="3.0.2 4.1.5" and HA_MODES="nvwal plain" choose the runs.
. "$(dirname "$0")/common.sh"

# Patroni 4.1.5: Debian unstable's package, which is pure Python
# (Architecture: all) and runs on Debian 12 with Debian 12's Python modules;
# unpacked into build/, not installed.  Pinned as UPSTREAM pins the tarball
# (apart from it, so that moving this pin does not remake the tree); its
# Packages entry in Debian unstable gives the file name and the sum.
PATRONI_DEB=${PATRONI_DEB:-patroni_4.1.5-2_all.deb}
PATRONI_DEB_SHA256=${PATRONI_DEB_SHA256:-eeef341d5a4f92d96973934bc49c18a93ba5bc143796468e2d0475c543db9032}

HA="$BUILD/ha"
versions=${HA_PATRONI:-3.0.2 4.1.5}
modes=${HA_MODES:-nvwal plain}
bin="$INSTALL/bin"
scope=ha
nvwal_size=64MB

# 1. What the runs need: Debian 12's Patroni and etcd, and the build.
ensure_build_user
need=()
for p in patroni etcd-server python3-etcd python3-psycopg2 curl; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep 'install ok installed' >/dev/null ||
		need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	note "installing ${need[*]} from Debian's archive"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -q -y --no-install-recommends "${need[@]}" >/dev/null
fi

# Patroni 4.1.5 from Debian unstable's pool, checked against the pin above.
patroni415="$BUILD/patroni-4.1.5"
if [[ " $versions " == *" 4.1.5 "* ]] && [ ! -f "$patroni415/.unpacked" ]; then
	mkdir -p "$CACHE_DIR"
	deb="$CACHE_DIR/$PATRONI_DEB"
	if [ ! -f "$deb" ] || [ "$(sha256sum "$deb" | cut -d' ' -f1)" != "$PATRONI_DEB_SHA256" ]; then
		uri=$(debian_archive_uri)
		[ -n "$uri" ] || die "no Debian archive in apt's sources, to fetch $PATRONI_DEB from"
		note "fetching $PATRONI_DEB from the pool of $uri"
		rm -f "$deb"
		/usr/lib/apt/apt-helper download-file \
			"$uri/pool/main/p/patroni/$PATRONI_DEB" "$deb" \
			"SHA256:$PATRONI_DEB_SHA256" >/dev/null 2>&1 ||
			die "could not download $PATRONI_DEB from Debian's archive, with the sha256 that scripts/check-ha.sh pins: the archive may have moved on to another version of Patroni; set PATRONI_DEB and PATRONI_DEB_SHA256 in scripts/check-ha.sh to the package that Debian unstable has now (its Packages file gives both), or run with HA_PATRONI=3.0.2"
	fi
	rm -rf "$patroni415"
	builder_dir "$patroni415"
	as_builder dpkg-deb -x "$deb" "$patroni415"
	touch "$patroni415/.unpacked"
fi

"$TOP/scripts/build.sh" release
[ -x "$bin/pg_nvwal_clone" ] || die "$bin/pg_nvwal_clone is missing: the series has no pg_nvwal_clone"

# Where Patroni 4.1.5 reads validator files from (its package's directory).
validators="$patroni415/usr/lib/python3/dist-packages/patroni/postgresql/available_parameters/nvwal.yml"

rm -rf "$HA"
builder_dir "$HA"
results="$HA/results.md"
failures=0

py=/usr/bin/python3

# patroni VERSION ARG...: run that Patroni as the build user.
patroni_cmd()
{
	local v=$1
	shift
	if [ "$v" = 3.0.2 ]; then
		as_builder env ${PMEM_IS_PMEM_FORCE:+PMEM_IS_PMEM_FORCE=1} /usr/bin/patroni "$@"
	else
		as_builder env ${PMEM_IS_PMEM_FORCE:+PMEM_IS_PMEM_FORCE=1} \
			PYTHONPATH="$patroni415/usr/lib/python3/dist-packages" \
			$py -c 'from patroni.__main__ import main; main()' "$@"
	fi
}

patronictl_cmd()
{
	local v=$1
	shift
	if [ "$v" = 3.0.2 ]; then
		as_builder /usr/bin/patronictl "$@"
	else
		as_builder env PYTHONPATH="$patroni415/usr/lib/python3/dist-packages" \
			$py -c 'import sys; from patroni.ctl import ctl; sys.argv[0] = "patronictl"; ctl()' "$@"
	fi
}

# The cluster as Patroni's REST API of node $1 shows it: "name role state
# timeline" per member.
members()
{
	curl -s --max-time 2 "http://127.0.0.1:${rest[$1]}/cluster" 2>/dev/null |
		$py -c '
import json, sys
try:
    for m in json.load(sys.stdin)["members"]:
        print(m["name"], m["role"], m.get("state", "?"), m.get("timeline", "?"))
except Exception:
    pass'
}

# Ask each running node until one answers.
cluster_members()
{
	local n out
	for n in 1 2 3; do
		out=$(members "$n")
		if [ -n "$out" ]; then
			echo "$out"
			return
		fi
	done
}

leader()
{
	cluster_members | awk '$2 == "leader" && $3 == "running" { print $1 }'
}

# wait_for WHAT SECONDS COMMAND...: until COMMAND succeeds.
wait_for()
{
	local what=$1 secs=$2 i
	shift 2
	for ((i = 0; i < secs * 2; i++)); do
		"$@" && return 0
		sleep 0.5
	done
	note "timed out after ${secs}s waiting for $what"
	cluster_members >&2
	return 1
}

# Every member running (a replica: streaming, on 4.x), $1 of them.
all_running()
{
	local want=$1 out
	out=$(cluster_members)
	[ "$(echo "$out" | grep -c .)" -eq "$want" ] || return 1
	[ "$(echo "$out" | grep -c '^node[0-9] leader running')" -eq 1 ] || return 1
	! echo "$out" | awk '$2 != "leader" && $3 != "running" && $3 != "streaming" { bad = 1 } END { exit !bad }'
}

has_sync()
{
	grep -q ' sync_standby ' <<< "$(cluster_members)"
}

psql_node()
{
	local n=$1
	shift
	as_builder "$bin/psql" -X -At -h "$run/node$n" -p "${pgport[$n]}" -U postgres -d postgres "$@"
}

# The epoch of the writer's first acknowledgement after epoch $1, by node
# $2 if given.
first_ack_after()
{
	awk -v t="$1" -v port="${2:+${pgport[$2]}}" \
		'$2 > t && (port == "" || $3 == port) { print $2; exit }' "$run/acked"
}

acked_since()
{
	[ -n "$(first_ack_after "$@")" ]
}

# Patroni runs as the build user under runuser, whose command line, as
# Patroni's, names the node's configuration file.
kill_node()
{
	local n=$1 pid
	note "$(date +%T) kill -9 node$n: Patroni, postmaster and its children"
	pid=$(head -n 1 "$run/node$n/data/postmaster.pid" 2>/dev/null || true)
	pkill -9 -f -- "$run/node$n.yml" || true
	if [ -n "$pid" ]; then
		kill -9 "$pid" $(pgrep -P "$pid") 2>/dev/null || true
	fi
	wait "${patroni_pid[$n]}" 2>/dev/null || true
}

start_node()
{
	local n=$1
	patroni_cmd "$ver" "$run/node$n.yml" >> "$run/node$n.patroni.log" 2>&1 &
	patroni_pid[$n]=$!
}

# What the node's NVWAL file's header and its NVWAL control file record as
# the file's identifier (both at offset 16).
nvwal_id_of_file()
{
	od -An -tu8 -j16 -N8 "$1" | tr -d ' '
}

check()
{
	local what=$1
	shift
	if "$@"; then
		echo "  ok: $what" | tee -a "$run/checks"
	else
		echo "  FAILED: $what" | tee -a "$run/checks"
		run_failed=1
	fi
}

# write_config N: the node's patroni.yml, as README.nvwal ("Running under
# Patroni") shows it, with this run's paths and ports.
write_config()
{
	local n=$1 cfg="$run/node$n.yml"
	{
		cat <<EOT
scope: $scope
name: node$n
restapi:
  listen: 127.0.0.1:${rest[$n]}
  connect_address: 127.0.0.1:${rest[$n]}
etcd3:
  hosts: 127.0.0.1:$etcd_port
bootstrap:
  dcs:
    ttl: 20
    loop_wait: 2
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_log_hints: 'on'
        max_wal_senders: 10
        logging_collector: 'on'
        log_filename: postgresql-%H%M%S.log
EOT
		if [ "$mode" = nvwal ]; then
			cat <<EOT
        wal_sync_method: pmem_drain
        nvwal_persist_at: commit
        num_xloginsert_slots: 16
  initdb:
  - encoding: UTF8
  - nvwal-path: $pmem/node$n.nvwal
  - nvwal-size: '$nvwal_size'
EOT
		else
			cat <<EOT
  initdb:
  - encoding: UTF8
EOT
		fi
		cat <<EOT
postgresql:
  listen: 127.0.0.1:${pgport[$n]}
  connect_address: 127.0.0.1:${pgport[$n]}
  data_dir: $run/node$n/data
  bin_dir: $bin
  pgpass: $run/node$n/pgpass
  authentication:
    superuser:
      username: postgres
      password: su-secret
    replication:
      username: replicator
      password: rep-secret
  pg_hba:
  - local all all trust
  - host replication replicator 127.0.0.1/32 md5
  - host all all 127.0.0.1/32 md5
  parameters:
    unix_socket_directories: '$run/node$n'
    log_directory: $run/node$n/log
EOT
		if [ "$mode" = nvwal ]; then
			cat <<EOT
  create_replica_methods:
  - nvwal_clone
  nvwal_clone:
    command: $bin/pg_nvwal_clone
    nvwal-path: $pmem/node$n.nvwal
    keep_data: true
EOT
		fi
	} > "$cfg"
	chown "$BUILD_USER": "$cfg"
	chmod 600 "$cfg"
}

start_etcd()
{
	local peer
	etcd_port=$(free_port 23790)
	peer=$(free_port $((etcd_port + 1)))
	as_builder /usr/bin/etcd --name ha --data-dir "$run/etcd" \
		--listen-client-urls "http://127.0.0.1:$etcd_port" \
		--advertise-client-urls "http://127.0.0.1:$etcd_port" \
		--listen-peer-urls "http://127.0.0.1:$peer" \
		--initial-advertise-peer-urls "http://127.0.0.1:$peer" \
		--initial-cluster "ha=http://127.0.0.1:$peer" > "$run/etcd.log" 2>&1 &
	etcd_pid=$!
	wait_for etcd 30 curl -s --max-time 1 "http://127.0.0.1:$etcd_port/version" -o /dev/null
}

setup_nodes()
{
	local n p=54400
	for n in 1 2 3; do
		pgport[$n]=$(free_port $p)
		rest[$n]=$(free_port $((pgport[n] + 1)))
		p=$((rest[n] + 1))
		builder_dir "$run/node$n"
		builder_dir "$run/node$n/log"
		write_config "$n"
	done
}

# Patroni 4.1.5 without the validator file, one node given the same
# settings: what it drops.
run_without_validators()
{
	begin_run 4.1.5 nvwal "$HA/4.1.5-no-validators" no
	note "Patroni 4.1.5 without nvwal.yml, one node: in $run"
	start_etcd || { run_failed=1; return; }
	setup_nodes
	start_node 1
	wait_for "node1 to bootstrap" 120 all_running 1 || { run_failed=1; return; }
	local got
	got=$(psql_node 1 -c "SELECT string_agg(name || '=' || setting, ' ' ORDER BY name) FROM pg_settings WHERE name IN ('wal_sync_method', 'nvwal_persist_at', 'num_xloginsert_slots')")
	check "Patroni 4.1.5 without nvwal.yml removed wal_sync_method = pmem_drain (the server has: $got)" \
		[ "$(psql_node 1 -c 'SHOW wal_sync_method')" != pmem_drain ]
	check "and said so" grep -q "Removing enum parameter=wal_sync_method from the config due to the invalid value=pmem_drain" "$run/node1.patroni.log"
	echo "$got" > "$run/settings"
}

# begin_run VERSION MODE DIR VALIDATORS: set up a run of that Patroni, in
# that mode (nvwal or plain), in DIR; VALIDATORS (yes or no) says whether
# Patroni 4.1.5 finds nvwal.yml.
begin_run()
{
	ver=$1
	mode=$2
	run=$3
	run_failed=0
	builder_dir "$run"
	: > "$run/checks"
	chown "$BUILD_USER": "$run/checks"
	if [ "$mode" = nvwal ]; then
		pmem=/dev/shm/pg-nvwal-ha-$(basename "$run")
		rm -rf "$pmem"
		builder_dir "$pmem"
		export PMEM_IS_PMEM_FORCE=1
	else
		unset PMEM_IS_PMEM_FORCE
	fi
	if [ "$ver" = 4.1.5 ] && [ "$4" = yes ]; then
		cp "$INSTALL/share/postgresql/patroni/nvwal.yml" "$validators"
	elif [ "$ver" = 4.1.5 ]; then
		rm -f "$validators"
	fi
}

# run_scenario VERSION MODE
run_scenario()
{
	begin_run "$1" "$2" "$HA/$1-$2" "$([ "$2" = nvwal ] && echo yes || echo no)"
	note "Patroni $ver, $mode: in $run"

	start_etcd || { run_failed=1; return; }
	setup_nodes
	start_node 1
	wait_for "node1 to bootstrap" 120 all_running 1 || { run_failed=1; return; }
	start_node 2
	start_node 3
	wait_for "the replicas" 180 all_running 3 || { run_failed=1; return; }
	wait_for "a synchronous standby" 60 has_sync || { run_failed=1; return; }

	psql_node 1 -c 'CREATE TABLE ledger (id bigint PRIMARY KEY, at timestamptz DEFAULT now())' >/dev/null
	: > "$run/acked"
	chown "$BUILD_USER": "$run/acked"
	rm -f "$run/stop-writer"
	as_builder env PGPASSWORD=su-secret $py "$TOP/scripts/ha-writer.py" \
		"host=127.0.0.1,127.0.0.1,127.0.0.1 port=${pgport[1]},${pgport[2]},${pgport[3]} user=postgres dbname=postgres" \
		"$run/acked" "$run/stop-writer" > "$run/writer.log" 2>&1 &
	writer_pid=$!
	wait_for "the writer" 30 acked_since 0 || { run_failed=1; return; }
	sleep 3

	local old t victim cand
	# 1. Failover.
	for step in failover1 switchover failover2; do
		old=$(leader)
		victim=${old#node}
		if [ "$step" = switchover ]; then
			wait_for "a synchronous standby" 60 has_sync || { run_failed=1; return; }
			cand=$(cluster_members | awk '$2 == "sync_standby" { print $1; exit }')
			note "$(date +%T) switchover from $old to $cand"
			t=$(date +%s.%N)
			patronictl_cmd "$ver" -c "$run/node1.yml" switchover "$scope" \
				--leader "$old" --candidate "$cand" --force >> "$run/patronictl.log" 2>&1 ||
				{ note "patronictl switchover failed"; run_failed=1; }
		else
			t=$(date +%s.%N)
			kill_node "$victim"
		fi
		local nl=""
		local i
		for ((i = 0; i < 240; i++)); do
			nl=$(leader)
			[ -n "$nl" ] && [ "$nl" != "$old" ] && acked_since "$t" "${nl#node}" && break
			sleep 0.5
		done
		if [ -z "$nl" ] || [ "$nl" = "$old" ] || ! acked_since "$t" "${nl#node}"; then
			note "no new leader accepting writes after $step"
			run_failed=1
			return
		fi
		local ack
		ack=$(first_ack_after "$t" "${nl#node}")
		awk -v s="$step" -v l="$nl" -v a="$ack" -v t="$t" \
			'BEGIN { printf "%s %s %.1f\n", s, l, a - t }' >> "$run/times"
		note "$(date +%T) $step: $nl is the leader, and accepts writes, $(tail -n 1 "$run/times" | cut -d' ' -f3)s after"
		if [ "$step" != switchover ]; then
			start_node "$victim"
		fi
		wait_for "$old to rejoin" 240 all_running 3 || { run_failed=1; return; }
		sleep 3
	done
	grep -l 'running pg_rewind from' "$run"/node*.patroni.log > "$run/rewound" 2>/dev/null || true

	# 4. Reinit of a replica.
	local rn re old_id=""
	rn=$(cluster_members | awk '$2 != "leader" { print $1; exit }')
	re=${rn#node}
	if [ "$mode" = nvwal ]; then
		old_id=$(nvwal_id_of_file "$pmem/node$re.nvwal")
	fi
	note "$(date +%T) patronictl reinit $rn"
	patronictl_cmd "$ver" -c "$run/node1.yml" reinit "$scope" "$rn" --force >> "$run/patronictl.log" 2>&1 ||
		{ note "patronictl reinit failed"; run_failed=1; }
	sleep 5
	wait_for "$rn to be reinitialized" 240 all_running 3 || { run_failed=1; return; }
	sleep 3

	touch "$run/stop-writer"
	wait "$writer_pid" 2>/dev/null || true
	local final
	final=$(leader)
	local f=${final#node}

	# Every acknowledged row on the final leader.
	psql_node "$f" -c 'SELECT id FROM ledger ORDER BY id' > "$run/present"
	local acked lost
	acked=$(wc -l < "$run/acked")
	cut -d' ' -f1 "$run/acked" | sort -n > "$run/acked.ids"
	lost=$(comm -23 <(sort "$run/acked.ids") <(sort "$run/present") | wc -l)
	echo "$acked $lost" > "$run/commits"
	check "every acknowledged commit ($acked) is on the final leader, $final (lost: $lost)" [ "$lost" -eq 0 ]
	check "the writer's commits were acknowledged through every step" [ "$acked" -gt 100 ]
	# Patroni runs pg_rewind only where the old leader's WAL went past the
	# new leader's timeline switch, which a kill may or may not leave.
	echo "  info: pg_rewind ran on: $(xargs -r -n1 basename < "$run/rewound" | sed 's/[.].*//' | tr '\n' ' ')" | tee -a "$run/checks"

	# Every node with its own NVWAL file, the settings given to Patroni
	# in place, and no PANIC.
	local ids=""
	for n in 1 2 3; do
		if [ "$mode" = nvwal ]; then
			local path hid cid
			path=$(psql_node "$n" -c 'SHOW nvwal_path')
			check "node$n runs with its own NVWAL file ($path)" [ "$path" = "$pmem/node$n.nvwal" ]
			hid=$(nvwal_id_of_file "$pmem/node$n.nvwal")
			cid=$(nvwal_id_of_file "$run/node$n/data/pg_nvwal_control")
			check "node$n's NVWAL control file records its file's identifier ($hid)" [ -n "$hid" -a "$hid" = "$cid" ]
			ids+="$hid"$'\n'
			if [ "$ver" = 4.1.5 ]; then
				check "node$n: wal_sync_method, nvwal_persist_at and num_xloginsert_slots as given to Patroni" \
					[ "$(psql_node "$n" -c "SELECT string_agg(setting, ' ' ORDER BY name) FROM pg_settings WHERE name IN ('wal_sync_method', 'nvwal_persist_at', 'num_xloginsert_slots')")" = "16 commit pmem_drain" ]
			else
				check "node$n: Patroni 3.0.2 removed the NVWAL settings it was given (as README.nvwal says): the server has the defaults" \
					[ "$(psql_node "$n" -c "SELECT string_agg(setting, ' ' ORDER BY name) FROM pg_settings WHERE name IN ('wal_sync_method', 'nvwal_persist_at', 'num_xloginsert_slots')")" = "$(psql_node "$n" -c "SELECT string_agg(boot_val, ' ' ORDER BY name) FROM pg_settings WHERE name IN ('wal_sync_method', 'nvwal_persist_at', 'num_xloginsert_slots')")" ]
			fi
		fi
		check "node$n: no PANIC in its server log" bash -c "! grep -h PANIC '$run/node$n/log/'* '$run/node$n.patroni.log' >/dev/null 2>&1"
	done
	if [ "$mode" = nvwal ]; then
		check "the three NVWAL files have three identifiers" [ "$(echo "$ids" | grep . | sort -u | wc -l)" -eq 3 ]
		check "the reinitialized $rn has a new NVWAL file ($old_id -> $(nvwal_id_of_file "$pmem/node$re.nvwal"))" \
			[ "$old_id" != "$(nvwal_id_of_file "$pmem/node$re.nvwal")" ]
		if [ "$ver" = 3.0.2 ]; then
			check "Patroni 3.0.2 said it removed nvwal_persist_at" grep -q "Removing unexpected parameter=nvwal_persist_at" "$run/node1.patroni.log"
		fi
	fi
}

teardown()
{
	local n
	touch "$run/stop-writer" 2>/dev/null || true
	[ -n "${run:-}" ] || return 0
	for n in 1 2 3; do
		pkill -TERM -f -- "$run/node$n.yml" || true
	done
	for n in 1 2 3; do
		[ -n "${patroni_pid[$n]:-}" ] && wait "${patroni_pid[$n]}" 2>/dev/null || true
		patroni_pid[$n]=""
	done
	# Patroni stops its postgres; a postmaster left behind is stopped here.
	for n in 1 2 3; do
		if [ -f "$run/node$n/data/postmaster.pid" ]; then
			as_builder "$bin/pg_ctl" -D "$run/node$n/data" -m immediate stop >/dev/null 2>&1 || true
		fi
	done
	[ -n "${etcd_pid:-}" ] && kill "$etcd_pid" 2>/dev/null && wait "$etcd_pid" 2>/dev/null || true
	etcd_pid=""
	[ -n "${pmem:-}" ] && rm -rf "$pmem"
	pmem=""
}
trap 'teardown' EXIT

declare -a pgport rest patroni_pid
start=$(date +%s)
{
	echo "# make check-ha, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Series $(series_name).  Three nodes on loopback, etcd $(/usr/bin/etcd --version | awk 'NR == 1 { print $3 }'), synchronous_mode, ttl 20 s, loop_wait 2 s."
	echo "NVWAL files on tmpfs with PMEM_IS_PMEM_FORCE=1: persistent memory is EMULATED."
	echo "Failover: kill -9 of the leader's Patroni, postmaster and children, to the writer's first acknowledged commit through the new leader."
	echo
	echo "| Patroni | NVWAL | failover 1 | switchover | failover 2 | acknowledged | lost | result |"
	echo "|---|---|---|---|---|---|---|---|"
} > "$results"

for ver in $versions; do
	for mode in $modes; do
		run_scenario "$ver" "$mode"
		teardown
		f1=$(awk '$1 == "failover1" { print $3 "s" }' "$run/times" 2>/dev/null)
		sw=$(awk '$1 == "switchover" { print $3 "s" }' "$run/times" 2>/dev/null)
		f2=$(awk '$1 == "failover2" { print $3 "s" }' "$run/times" 2>/dev/null)
		read -r acked lost < "$run/commits" 2>/dev/null || { acked=?; lost=?; }
		grep -q FAILED "$run/checks" && run_failed=1
		if [ "$run_failed" -eq 0 ]; then
			r=passed
		else
			r=FAILED
			failures=$((failures + 1))
		fi
		echo "| $ver | $([ "$mode" = nvwal ] && echo yes || echo no) | ${f1:-?} | ${sw:-?} | ${f2:-?} | $acked | $lost | $r |" >> "$results"
		note "Patroni $ver, $mode: $r"
	done
done

if [[ " $versions " == *" 4.1.5 "* ]] && [[ " $modes " == *" nvwal "* ]]; then
	run_without_validators
	teardown
	grep -q FAILED "$run/checks" && run_failed=1
	if [ "$run_failed" -ne 0 ]; then
		failures=$((failures + 1))
	fi
	{
		echo
		echo "Patroni 4.1.5 without nvwal.yml, given the same settings: the server ran with $(cat "$run/settings" 2>/dev/null || echo '?') ($([ "$run_failed" -eq 0 ] && echo passed || echo FAILED))."
	} >> "$results"
fi

echo >> "$results"
echo "Checks:" >> "$results"
for d in "$HA"/*/; do
	[ -f "$d/checks" ] || continue
	echo "- $(basename "$d"):" >> "$results"
	sed 's/^  /  - /' "$d/checks" >> "$results"
done
echo >> "$results"
echo "Took $(( $(date +%s) - start )) s." >> "$results"
cat "$results"
[ "$failures" -eq 0 ] || die "$failures run(s) failed; see $results and the logs under $HA"
