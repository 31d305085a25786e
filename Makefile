# pg-nvwal: PostgreSQL 18 with a non-volatile WAL buffer, kept as a patch
# series against pristine upstream.  The targets are the project's front
# door; each is a small script in scripts/.  See README.md.

SHELL := /bin/bash
S := scripts

.PHONY: all deps tree series series-check build check check-configure check-ha series-build deb check-deb upstream-update torture torture-mutations demo stop bench bench-smoke clean help

all: build

help:
	@echo "make deps          install the build and test dependencies (Debian packages)"
	@echo "make tree          build/postgresql: pristine PostgreSQL plus patches/"
	@echo "make series        export the tree's commits back to patches/"
	@echo "make series-check  fail if the tree and patches/ disagree"
	@echo "make build         optimized build, installed into build/install"
	@echo "make check         assert-enabled build and the test suites"
	@echo "make check-configure  ./configure && make build, and the series' test modules"
	@echo "make series-build  build the tree at each commit of the series, one after the other"
	@echo "make deb           Debian's postgresql-$(shell . ./UPSTREAM; echo $${DEBIAN_VERSION%%.*}) packages with the series, into build/deb"
	@echo "make check-deb     install and try those packages as a DBA would (root; changes this machine)"
	@echo "make check-ha      Patroni (3.0.2 and 4.1.5) and etcd run three NVWAL nodes: failovers, switchover, reinit"
	@echo "make upstream-update  move UPSTREAM to the postgresql-18 that Debian's archive has now, rebase the series"
	@echo "make torture       simulated power cuts, thousands of them (TORTURE_CUTS per configuration)"
	@echo "make torture-mutations  show that the torture fails with each persistence step left out"
	@echo "make demo          build, start a server under build/demo, run pgbench"
	@echo "make stop          stop the demo server"
	@echo "make bench         benchmark suite, upstream against the fork (BENCH_PROFILE=quick|full)"
	@echo "make bench-smoke   every benchmark scenario for a few seconds"
	@echo "make clean         remove build/ (refuses while the tree has unexported work)"

deps:
	@$(S)/deps.sh

# "make tree" always remakes the tree; the other targets make it only when
# it is missing, and stop if patches/ changed under a tree with other work.
tree: deps
	@$(S)/tree.sh

series:
	@$(S)/series.sh export

series-check:
	@$(S)/series.sh check

build: deps
	@$(S)/build.sh release

check: deps
	@$(S)/check.sh

check-ha: deps
	@$(S)/check-ha.sh

check-configure: deps
	@$(S)/configure-build.sh

series-build: deps
	@$(S)/series-build.sh

deb: deps
	@$(S)/deb.sh

check-deb: deps
	@$(S)/check-deb.sh

upstream-update: deps
	@$(S)/upstream-update.sh

torture: deps
	@$(S)/torture.sh

torture-mutations: deps
	@$(S)/torture-mutations.sh

demo: deps
	@$(S)/demo.sh

stop:
	@$(S)/stop.sh

bench: deps
	@bench/run.sh

bench-smoke: deps
	@BENCH_PROFILE=smoke bench/run.sh

clean:
	@$(S)/series.sh check >/dev/null || { echo "build/postgresql has work not in patches/; run 'make series' first (or remove build/ by hand)"; exit 1; }
	@$(S)/stop.sh quiet || true
	rm -rf build
