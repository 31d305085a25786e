# Helpers shared by the benchmark scripts.  Sourced after scripts/common.sh.

# Settings of every benchmark cluster: no checkpoint during a measurement.
BENCH_SETTINGS=(
	"shared_buffers = 1GB"
	"max_wal_size = 20GB"
	"min_wal_size = 2GB"
	"checkpoint_timeout = 1h"
)

# Median and min-max of the numbers on standard input, one a line.
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.0f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
range() { sort -n | awk 'NR == 1 { min = $1 } { max = $1 } END { printf "%s-%s", min, max }'; }
