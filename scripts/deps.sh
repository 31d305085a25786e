#!/bin/bash
# Install what building and testing the fork needs, from Debian's packages.
# Idempotent: when everything is present it only checks.
. "$(dirname "$0")/common.sh"

packages=(
	build-essential git pkg-config ccache meson ninja-build
	bison flex perl gettext autoconf2.69
	libreadline-dev zlib1g-dev liblz4-dev libzstd-dev
	libssl-dev libicu-dev liburing-dev libpmem-dev
	libxml2-dev libxslt1-dev libipc-run-perl
	bzip2 xz-utils dpkg-dev ca-certificates iproute2
	# The benchmark suite's plots (bench/report.sh): gnuplot is the one
	# plotting tool Debian packages without a desktop stack, and it reads
	# the whitespace-separated tables the shell scripts write.
	gnuplot-nox
)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep 'install ok installed' > /dev/null; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -gt 0 ]; then
	note "installing: ${missing[*]}"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
	as_root env DEBIAN_FRONTEND=noninteractive \
		apt-get install -q -y --no-install-recommends "${missing[@]}"
else
	note "all build dependencies are installed"
fi

ensure_build_user
