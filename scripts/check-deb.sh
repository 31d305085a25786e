#!/bin/bash
# check-deb.sh: "make check-deb".  Try the packages of "make deb" as a DBA
# would, on this machine, with apt and postgresql-common: Debian's stock
# packages first, the fork's installed over them, NVWAL turned on, crashes
# under load, an NVWAL cluster made by pg_createcluster and its standby made
# by pg_basebackup -F n, the refusals of the fork's package scripts, and the
# way back to the stock packages; then Debian's own installed-package
# regression test and lintian.  Ends with "N passed, N failed".
#
# It installs and removes packages and creates clusters of PostgreSQL
# $PG_MAJOR, so it runs only as root, and refuses to touch a machine where
# version $PG_MAJOR has clusters it did not make.  It leaves the stock
# packages installed and drops its clusters.
. "$(dirname "$0")/common.sh"
. "$TOP/scripts/deb-common.sh"

[ "$(id -u)" -eq 0 ] || die "make check-deb installs packages: run it as root"

V=$PG_MAJOR
BIN=/usr/lib/postgresql/$V/bin
MARK=/var/lib/postgresql/.pg-nvwal-check-deb	# "these clusters are ours"
PMEM=/dev/shm/pg-nvwal-check-deb				# emulated persistent memory
LOG="$BUILD/check-deb"
pass=0 fail=0 failures=""
start=$(date +%s)

trap '[ -n "${finished:-}" ] || { echo "make check-deb: stopped early (a defect of scripts/check-deb.sh or of the machine)"; echo "$pass passed, $((fail + 1)) failed"; }' EXIT

ok()   { pass=$((pass + 1)); echo "ok $((pass + fail)) - $*"; }
notok() { fail=$((fail + 1)); failures+="  $*"$'\n'; echo "not ok $((pass + fail)) - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else notok "$what"; fi; }
is() { if [ "$1" = "$2" ]; then ok "$3"; else notok "$3 (got '$1', expected '$2')"; fi; }

# sql CLUSTER SQL: run SQL in database postgres of cluster $V/CLUSTER.
sql() { runuser -u postgres -- psql --cluster "$V/$1" -XAtq -v ON_ERROR_STOP=1 -d postgres -c "$2"; }
as_pg() { runuser -u postgres -- "$@"; }
apt_get() { env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0 "$@"; }
# The version of package $1 if it is installed (whatever dpkg's selection
# for it: a refused "dpkg -r" leaves the package installed, marked for
# removal), else nothing.
installed_version() { dpkg-query -W -f='${db:Status-Abbrev} ${Version}' "$1" 2>/dev/null | awk 'substr($1, 2, 1) == "i" { print $2 }'; }
cluster_status() { pg_lsclusters -h "$V" "$1" 2>/dev/null | awk '{ print $4 }'; }
pkgs_of() { local dir=$1 ver=$2; shift 2; local p; for p in "$@"; do echo "$dir/${p}_${ver}_$(dpkg --print-architecture).deb"; done; }

# The packages that a server needs, and those Debian's regression test adds.
SERVER_PKGS=(libpq5 "postgresql-client-$V" "postgresql-$V")
TEST_PKGS=(libpq-dev "postgresql-server-dev-$V")

[ -f "$DEB_STOCK/postgresql-${V}_${DEBIAN_VERSION}_$(dpkg --print-architecture).deb" ] &&
	[ -f "$DEB_OUT/postgresql-${V}_${FORK_VERSION}_$(dpkg --print-architecture).deb" ] ||
	die "no packages in build/deb: run 'make deb' first"

# 0. A machine this may change.
if [ -d "/etc/postgresql/$V" ] && [ -n "$(ls -A "/etc/postgresql/$V" 2>/dev/null)" ] && [ ! -e "$MARK" ]; then
	die "PostgreSQL $V has clusters here that make check-deb did not make (/etc/postgresql/$V); it will not touch them"
fi
rm -rf "$LOG"; mkdir -p "$LOG"
install_pgcommon
CLUSTERS="main nv nvstandby"		# the clusters this makes, and drops
cleanup_clusters()
{
	local c
	for c in $CLUSTERS; do
		[ -d "/etc/postgresql/$V/$c" ] || continue
		pg_dropcluster --stop "$V" "$c" >/dev/null 2>&1 || true
	done
	rm -rf "$PMEM"
}
note "removing what an earlier run left"
cleanup_clusters
# an earlier run's packages (the fork's guard lets them go: the clusters
# are gone)
left=()
for p in "postgresql-$V" "postgresql-client-$V" "postgresql-$V-jit" \
	"postgresql-server-dev-$V" "postgresql-doc-$V" libpq-dev; do
	[ -z "$(installed_version "$p")" ] || left+=("$p")
done
if [ ${#left[@]} -gt 0 ]; then
	apt_get purge "${left[@]}" >"$LOG/purge.log" 2>&1 ||
		die "could not remove what an earlier run installed (${left[*]}): see $LOG/purge.log"
fi
touch "$MARK"
install -d -o postgres -g postgres "$PMEM"
if [ -d /run/systemd/system ]; then
	note "systemd runs here: the clusters are postgresql@$V-NAME services"
else
	note "systemd does not run here: pg_ctlcluster is the service manager"
fi
if [ -x /usr/sbin/policy-rc.d ]; then
	note "/usr/sbin/policy-rc.d forbids package scripts to start or stop services here: clusters are restarted with pg_ctlcluster"
fi

# 1. Stock: Debian's packages, a cluster, data.
note "1. Debian's $DEBIAN_SOURCE $DEBIAN_VERSION, unchanged"
mapfile -t stock < <(pkgs_of "$DEB_STOCK" "$DEBIAN_VERSION" "${SERVER_PKGS[@]}")
# (libpq5 may be newer: an earlier run's, or a newer release's)
apt_get install --allow-downgrades --no-install-recommends "${stock[@]}" >"$LOG/1-install-stock.log" 2>&1 ||
	die "could not install the stock packages: see $LOG/1-install-stock.log"
is "$(installed_version "postgresql-$V")" "$DEBIAN_VERSION" "stock postgresql-$V $DEBIAN_VERSION installed"
pg_createcluster "$V" main >"$LOG/1-createcluster.log" 2>&1
pg_ctlcluster "$V" main start
is "$(cluster_status main)" online "pg_createcluster $V main, pg_ctlcluster start: online"
sql main "CREATE TABLE stock_rows AS SELECT g AS id, md5(g::text) AS v FROM generate_series(1, 50000) g" >/dev/null
stock_sum=$(sql main "SELECT count(*) || ':' || sum(hashtext(v)) FROM stock_rows")
like_stock=$(sql main "SELECT version()")
check "the stock server says it is Debian's $DEBIAN_VERSION" grep -q "$DEBIAN_VERSION)" <<<"$like_stock"

# 2. The fork's packages over them: an upgrade as apt sees it.
note "2. apt install of the fork's packages over them"
mapfile -t fork < <(pkgs_of "$DEB_OUT" "$FORK_VERSION" "${SERVER_PKGS[@]}")
apt_get install --no-install-recommends "${fork[@]}" >"$LOG/2-install-fork.log" 2>&1 ||
	die "could not install the fork's packages over the stock ones: see $LOG/2-install-fork.log"
upgraded=$(awk '/^The following packages will be upgraded:/ { f = 1; next } /^[^ ]/ { f = 0 } f' "$LOG/2-install-fork.log")
check "apt sees an upgrade of postgresql-$V, postgresql-client-$V and libpq5" \
	test "$(echo $upgraded)" = "libpq5 postgresql-$V postgresql-client-$V"
is "$(installed_version "postgresql-$V")" "$FORK_VERSION" "postgresql-$V $FORK_VERSION installed"
check "pg_nvwal is installed with the server programs" test -x "$BIN/pg_nvwal"
check "man pg_nvwal" sh -c "man -w pg_nvwal >/dev/null"
check "README.nvwal is installed" test -f "/usr/share/doc/postgresql-$V/README.nvwal.gz"
check "pg_nvwal_clone, Patroni's replica-creation method, is installed with the server programs" test -x "$BIN/pg_nvwal_clone"
check "man pg_nvwal_clone" sh -c "man -w pg_nvwal_clone >/dev/null"
check "Patroni's validators for NVWAL's settings are installed" test -f "/usr/share/postgresql/$V/patroni/nvwal.yml"
check "... and linked into the directory where Patroni reads validator files" \
	cmp -s "/usr/share/postgresql/$V/patroni/nvwal.yml" \
	"/usr/lib/python3/dist-packages/patroni/postgresql/available_parameters/postgresql-$V-nvwal.yml"
# A guard deleted by hand: apt's hook lets apt go on, so that reinstalling
# the server package brings the guard back.
rm "/usr/share/postgresql/$V/nvwal-guard"
apt_get install --reinstall --no-install-recommends "$(pkgs_of "$DEB_OUT" "$FORK_VERSION" "postgresql-$V")" \
	>"$LOG/2-reinstall.log" 2>&1 &&
	ok "apt reinstalls postgresql-$V after its guard was deleted by hand" ||
	notok "apt reinstalls postgresql-$V after its guard was deleted by hand (log: $LOG/2-reinstall.log)"
check "the reinstall brings the guard back" test -x "/usr/share/postgresql/$V/nvwal-guard"
pg_ctlcluster "$V" main restart
is "$(cluster_status main)" online "pg_ctlcluster $V main restart: online on the fork"
check "the server is the fork's" sh -c "runuser -u postgres -- psql --cluster $V/main -XAtq -d postgres -c 'SHOW nvwal_path' >/dev/null"
is "$(sql main "SELECT count(*) || ':' || sum(hashtext(v)) FROM stock_rows")" "$stock_sum" "every row written on stock is there"

# 3. NVWAL on, then crashes under a write load.
note "3. pg_nvwal --enable, then kill -9 under load"
pg_ctlcluster "$V" main stop
echo "PMEM_IS_PMEM_FORCE = 1" >> "/etc/postgresql/$V/main/environment"
as_pg "$BIN/pg_nvwal" -D "/etc/postgresql/$V/main" --enable \
	--nvwal-path="$PMEM/$V-main.nvwal" --nvwal-size=64MB >"$LOG/3-enable.log" 2>&1
check "pg_nvwal --enable on the configuration directory" grep -q "NVWAL enabled" "$LOG/3-enable.log"
pg_ctlcluster "$V" main start
is "$(sql main "SHOW nvwal_path")" "$PMEM/$V-main.nvwal" "NVWAL on after start"
sql main "CREATE TABLE ledger (client int, n int, PRIMARY KEY (client, n))"

# load CLUSTER ROUND: four clients that insert rows one transaction at a
# time and print each row once its commit is acknowledged.
load()
{
	local c=$1 r=$2 i
	for i in 1 2 3 4; do
		seq 1 1000000 | awk -v c="$((r * 10 + i))" '{ print "INSERT INTO ledger VALUES (" c ", " $1 ") RETURNING client, n;" }' |
			runuser -u postgres -- psql --cluster "$V/$c" -XAtq -F ' ' -v ON_ERROR_STOP=1 -d postgres \
			>"$LOG/ack-$c-$r-$i" 2>/dev/null &
	done
}
# crash CLUSTER: kill -9 the postmaster and every process it started
# (their titles name the cluster, as Debian sets cluster_name), and wait
# until they are gone: a new postmaster refuses to start while the old
# one's PID is still there, even as a zombie, which an init that reaps
# lazily (as in some containers) leaves for a while.
crash()
{
	local pm pids i p alive
	pm=$(head -n 1 "/var/lib/postgresql/$V/$1/postmaster.pid")
	pids="$pm $(pgrep -P "$pm" || true) $(pgrep -f "^postgres: $V/$1: " || true)"
	kill -9 $pids 2>/dev/null || true
	pkill -9 -f "^postgres: $V/$1: " 2>/dev/null || true
	for i in $(seq 1 600); do
		alive=0
		for p in $pids; do
			[ -e "/proc/$p" ] && alive=1
		done
		[ $alive -eq 0 ] && return 0
		sleep 0.1
	done
	echo "check-deb: the killed processes of $V/$1 ($pids) did not go away in 60 s" >&2
}
# lost CLUSTER: how many acknowledged commits are not there.
lost()
{
	cat "$LOG"/ack-"$1"-* | sql "$1" "CREATE TEMP TABLE acked (client int, n int); COPY acked FROM STDIN (DELIMITER ' '); SELECT count(*) FROM acked a WHERE NOT EXISTS (SELECT 1 FROM ledger l WHERE l.client = a.client AND l.n = a.n)" 2>&1 | tail -n 1
}
for round in 1 2 3; do
	load main "$round"
	sleep 6
	crash main
	wait
	pg_ctlcluster "$V" main start
done
acked=$(cat "$LOG"/ack-main-* | wc -l)
check "acknowledged commits during the crashes ($acked)" test "$acked" -gt 1000
is "$(lost main)" 0 "3 crashes with kill -9 under load: no acknowledged commit lost ($acked)"
is "$(sql main "SELECT count(*) || ':' || sum(hashtext(v)) FROM stock_rows")" "$stock_sum" "the rows written on stock are still there"

# 4. An NVWAL cluster made by pg_createcluster, and its standby.
note "4. pg_createcluster with --nvwal-path, and a standby made by pg_basebackup -F n"
pg_createcluster "$V" nv -- --nvwal-path="$PMEM/$V-nv.nvwal" --nvwal-size=64MB >"$LOG/4-createcluster.log" 2>&1
echo "PMEM_IS_PMEM_FORCE = 1" >> "/etc/postgresql/$V/nv/environment"
pg_ctlcluster "$V" nv start
is "$(cluster_status nv)" online "pg_lsclusters: $V/nv online"
is "$(sql nv "SHOW nvwal_path")" "$PMEM/$V-nv.nvwal" "$V/nv runs on its NVWAL file"
sql nv "CREATE TABLE t AS SELECT g AS id FROM generate_series(1, 10000) g" >/dev/null
pg_createcluster "$V" nvstandby >"$LOG/4-createcluster-standby.log" 2>&1
echo "PMEM_IS_PMEM_FORCE = 1" >> "/etc/postgresql/$V/nvstandby/environment"
rm -rf "/var/lib/postgresql/$V/nvstandby"
nvport=$(pg_conftool -s "$V" nv show port)
as_pg pg_basebackup --cluster "$V/nv" -D "/var/lib/postgresql/$V/nvstandby" -R -X stream \
	-F n --nvwal-path="$PMEM/$V-nvstandby.nvwal" --nvwal-size=64MB >"$LOG/4-basebackup.log" 2>&1 &&
	ok "pg_basebackup -F n -R of $V/nv" || notok "pg_basebackup -F n -R of $V/nv (log: $LOG/4-basebackup.log)"
pg_ctlcluster "$V" nvstandby start
is "$(cluster_status nvstandby)" "online,recovery" "pg_lsclusters: $V/nvstandby online, in recovery"
is "$(sql nvstandby "SHOW nvwal_path")" "$PMEM/$V-nvstandby.nvwal" "the standby runs on an NVWAL file of its own"
sql nv "INSERT INTO t SELECT generate_series(10001, 20000)"
for i in $(seq 1 60); do
	[ "$(sql nvstandby "SELECT count(*) FROM t" 2>/dev/null)" = 20000 ] && break
	sleep 1
done
is "$(sql nvstandby "SELECT count(*) FROM t")" 20000 "the standby has the rows written after the backup"

# 5. Bad input: a downgrade or a removal while clusters have NVWAL on,
# above all one that crashed: refused before anything changes.
note "5. a downgrade and a removal with NVWAL on, after a crash: refused"
load main 9
sleep 3
crash main
wait
mapfile -t stock_all < <(pkgs_of "$DEB_STOCK" "$DEBIAN_VERSION" "${SERVER_PKGS[@]}")
before=$(md5sum "/var/lib/postgresql/$V/main/global/pg_control" "$PMEM/$V-main.nvwal" | md5sum)
if apt_get install --allow-downgrades --no-install-recommends "${stock_all[@]}" >"$LOG/5-downgrade.log" 2>&1; then
	notok "apt refuses the downgrade to stock while NVWAL is on"
else
	ok "apt refuses the downgrade to stock while NVWAL is on"
fi
check "the refusal names the crashed cluster" grep -q "cluster $V/main .* was not shut down cleanly" "$LOG/5-downgrade.log"
check "the refusal names the command that turns NVWAL off" grep -q "pg_nvwal -D /etc/postgresql/$V/main --disable --nvwal-path=$PMEM/$V-main.nvwal" "$LOG/5-downgrade.log"
check "the refusal says nothing has changed" grep -q "Nothing has been changed" "$LOG/5-downgrade.log"
is "$(installed_version "postgresql-$V")" "$FORK_VERSION" "the fork stays installed"
is "$(md5sum "/var/lib/postgresql/$V/main/global/pg_control" "$PMEM/$V-main.nvwal" | md5sum)" "$before" "the crashed cluster's pg_control and NVWAL file are untouched"
if apt_get remove "postgresql-$V" >"$LOG/5-remove.log" 2>&1; then
	notok "apt refuses to remove postgresql-$V while NVWAL is on"
else
	ok "apt refuses to remove postgresql-$V while NVWAL is on"
fi
check "... naming the cluster" grep -q "cluster $V/main" "$LOG/5-remove.log"
is "$(installed_version "postgresql-$V")" "$FORK_VERSION" "the fork stays installed"
if dpkg -r "postgresql-$V" >"$LOG/5-dpkg-remove.log" 2>&1; then
	notok "dpkg -r postgresql-$V is refused by its prerm"
else
	ok "dpkg -r postgresql-$V is refused by its prerm"
fi
check "... naming the cluster" grep -q "cluster $V/main" "$LOG/5-dpkg-remove.log"
is "$(installed_version "postgresql-$V")" "$FORK_VERSION" "the fork stays installed"
# dpkg -r marks the package for removal before its prerm runs; put that
# back as the refusal says
echo "postgresql-$V install" | dpkg --set-selections
# dpkg -i of Debian's packages straight over the fork's, as a user might:
# the fork's prerm refuses, and dpkg then asks Debian's prerm
# ("failed-upgrade"), which lets the upgrade go on.  Stock 18.6 must then
# refuse to start the crashed cluster (it does not know nvwal_path), and
# leave it for the fork, installed again, to recover.
dpkg -i "${stock_all[@]}" >"$LOG/5-dpkg-i.log" 2>&1 || true
check "dpkg -i of stock: the fork's prerm refuses, naming the cluster" grep -q "cluster $V/main" "$LOG/5-dpkg-i.log"
if [ "$(installed_version "postgresql-$V")" = "$DEBIAN_VERSION" ]; then
	note "dpkg -i went on with Debian's packages after the refusal (Debian's prerm accepts failed-upgrade)"
	if pg_ctlcluster "$V" main start >"$LOG/5-start-stock.log" 2>&1; then
		notok "stock $DEBIAN_VERSION refuses to start the crashed NVWAL cluster"
	else
		ok "stock $DEBIAN_VERSION refuses to start the crashed NVWAL cluster"
	fi
	check "... as it does not know nvwal_path" grep -q 'unrecognized configuration parameter "nvwal_path"' \
		"$LOG/5-start-stock.log" "/var/log/postgresql/postgresql-$V-main.log"
	is "$(md5sum "/var/lib/postgresql/$V/main/global/pg_control" "$PMEM/$V-main.nvwal" | md5sum)" "$before" "... and changes nothing"
	apt_get install --no-install-recommends "${fork[@]}" >"$LOG/5-reinstall-fork.log" 2>&1 ||
		die "could not install the fork's packages again: see $LOG/5-reinstall-fork.log"
	is "$(installed_version "postgresql-$V")" "$FORK_VERSION" "apt install of the fork again"
else
	is "$(installed_version "postgresql-$V")" "$FORK_VERSION" "dpkg -i of stock refused: the fork stays installed"
fi
pg_ctlcluster "$V" main start
is "$(lost main)" 0 "the crashed cluster starts on the fork: no acknowledged commit lost ($(cat "$LOG"/ack-main-* | wc -l))"

# 6. Debian's installed-package regression test, on the fork's packages.
note "6. Debian's regression test (debian/tests/installcheck) on the fork's packages"
mapfile -t forktest < <(pkgs_of "$DEB_OUT" "$FORK_VERSION" "${TEST_PKGS[@]}")
apt_get install --no-install-recommends "${forktest[@]}" build-essential >"$LOG/6-install.log" 2>&1 ||
	die "could not install ${forktest[*]}: see $LOG/6-install.log"
src=$(unpack_debian_source "$("$TOP/scripts/tarball.sh")" \
	"$(fetch_debian_file "$DEBIAN_SOURCE" "$DEBIAN_DSC" "$DEBIAN_DSC_SHA256")" \
	"$(fetch_debian_file "$DEBIAN_SOURCE" "$DEBIAN_PACKAGING" "$DEBIAN_PACKAGING_SHA256")")
add_fork_packaging "$src"
(cd "$src" && as_builder dpkg-source --before-build . >/dev/null 2>&1)
chown -R postgres: "$src"
if (cd "$src" && debian/tests/installcheck) >"$LOG/6-installcheck.log" 2>&1; then
	ok "debian/tests/installcheck: pg_regress under pg_virtualenv passes"
else
	notok "debian/tests/installcheck (log: $LOG/6-installcheck.log)"
fi
# The same on a cluster with NVWAL: Debian's script, its pg_virtualenv
# given initdb's NVWAL options, and pg_regress run only once the server says
# it has an NVWAL file.
# (the script runs pg_virtualenv in an unquoted here-document: "\$" there
# reaches the shell that runs it as "$")
with=$(cat <<'EOT'
PMEM_IS_PMEM_FORCE=1 pg_virtualenv -v $MAJOR -i '--nvwal-path=pg_nvwal --nvwal-size=64MB' sh -c 'test -n "\$(psql -XAt -d postgres -c "SHOW nvwal_path")" && exec "\$@"' sh \
EOT
)
WITH=$with perl -pe 's/^(\s*if ! )pg_virtualenv -v \$MAJOR \\$/$1$ENV{WITH}/' \
	"$src/debian/tests/installcheck" > "$src/debian/tests/installcheck-nvwal"
chmod 755 "$src/debian/tests/installcheck-nvwal"
if cmp -s "$src/debian/tests/installcheck" "$src/debian/tests/installcheck-nvwal"; then
	notok "debian/tests/installcheck on NVWAL: Debian's script no longer runs pg_virtualenv as it did; update scripts/check-deb.sh"
elif (cd "$src" && debian/tests/installcheck-nvwal) >"$LOG/6-installcheck-nvwal.log" 2>&1 &&
	grep -q "^# All [0-9]* tests passed" "$LOG/6-installcheck-nvwal.log"; then
	ok "debian/tests/installcheck on a cluster with NVWAL: $(grep -o 'All [0-9]* tests passed' "$LOG/6-installcheck-nvwal.log")"
else
	notok "debian/tests/installcheck on a cluster with NVWAL (log: $LOG/6-installcheck-nvwal.log)"
fi
chown -R "$BUILD_USER": "$src"

# 7. Back: NVWAL off, then the stock packages.
note "7. pg_nvwal --disable, and back to the stock packages"
for c in main nv nvstandby; do
	pg_ctlcluster "$V" "$c" stop
	as_pg "$BIN/pg_nvwal" -D "/etc/postgresql/$V/$c" --disable --nvwal-path="$PMEM/$V-$c.nvwal" >"$LOG/7-disable-$c.log" 2>&1 &&
		ok "pg_nvwal --disable on $V/$c" || notok "pg_nvwal --disable on $V/$c (log: $LOG/7-disable-$c.log)"
done
apt_get remove "${TEST_PKGS[@]}" >"$LOG/7-remove-test.log" 2>&1 || true
if apt_get install --allow-downgrades --no-install-recommends "${stock_all[@]}" >"$LOG/7-downgrade.log" 2>&1; then
	ok "apt downgrades to the stock packages once NVWAL is off"
else
	notok "apt downgrades to the stock packages once NVWAL is off (log: $LOG/7-downgrade.log)"
fi
is "$(installed_version "postgresql-$V")" "$DEBIAN_VERSION" "stock postgresql-$V $DEBIAN_VERSION installed again"
for c in main nv nvstandby; do
	pg_ctlcluster "$V" "$c" start || true
done
is "$(cluster_status main)" online "$V/main starts on stock $DEBIAN_VERSION"
check "the server is stock's" sh -c "! runuser -u postgres -- psql --cluster $V/main -XAtq -d postgres -c 'SHOW nvwal_path' >/dev/null 2>&1"
is "$(sql main "SELECT count(*) || ':' || sum(hashtext(v)) FROM stock_rows")" "$stock_sum" "on stock again: the first rows are there"
is "$(lost main)" 0 "on stock again: every acknowledged commit is there ($(cat "$LOG"/ack-main-* | wc -l))"
is "$(sql nv "SELECT count(*) FROM t")" 20000 "on stock again: $V/nv has its rows"
is "$(cluster_status nvstandby)" "online,recovery" "on stock again: $V/nvstandby streams"

# 8. lintian, the fork's packages against stock's.
note "8. lintian"
lintian_counts()
{
	lintian --tag-display-limit 0 "$1" 2>/dev/null | awk '/^[EW]: / { print }' | sort -u
}
arch=$(dpkg --print-architecture)
lintian_counts "$DEB_OUT/${DEBIAN_SOURCE}_${FORK_VERSION}_$arch.changes" >"$LOG/8-lintian-fork.txt" || true
# stock's source package is Debian's own, as downloaded
lintian_counts "$DEB_STOCK/${DEBIAN_SOURCE}_${DEBIAN_VERSION}_$arch.changes" >"$LOG/8-lintian-stock.txt" || true
lintian_counts "$CACHE_DIR/$DEBIAN_DSC" >>"$LOG/8-lintian-stock.txt" || true
tags() { sed -E 's/^([EW]): [^ ]+ ?[^:]*: ([^ ]+).*/\1 \2/' "$1" | sort -u; }
errors=$(grep -c '^E: ' "$LOG/8-lintian-fork.txt" || true)
is "$errors" 0 "lintian: no error in the fork's packages"
ours=$(comm -23 <(tags "$LOG/8-lintian-fork.txt") <(tags "$LOG/8-lintian-stock.txt") | grep '^W' || true)
is "$ours" "" "lintian: no warning that the stock packages do not have"
note "lintian: fork $(grep -c '^E' "$LOG/8-lintian-fork.txt" || true) errors, $(grep -c '^W' "$LOG/8-lintian-fork.txt" || true) warnings; stock $(grep -c '^E' "$LOG/8-lintian-stock.txt" || true) errors, $(grep -c '^W' "$LOG/8-lintian-stock.txt" || true) warnings (build/check-deb/8-lintian-*.txt)"

cleanup_clusters
rm -f "$MARK"
finished=1
echo "make check-deb: $(( ($(date +%s) - start) / 60 )) min, logs in build/check-deb/"
[ -z "$failures" ] || { echo "failed:"; printf '%s' "$failures"; }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
