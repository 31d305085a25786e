# Shared by the scripts of "make deb" and "make check-deb".  Sourced after
# common.sh, not executed.

DEB_OUT="$BUILD/deb"				# the fork's packages, postgresql-common's
DEB_STOCK="$BUILD/deb/stock"		# Debian's own, built unchanged
DEB_WORK="$BUILD/deb-work"			# where the sources are unpacked and built
PACKAGING="$TOP/packaging/debian"	# what the fork adds to Debian's packaging
FORK_VERSION="$DEBIAN_VERSION$DEB_FORK_SUFFIX"
# The major version, as Debian's package names and paths have it.
PG_MAJOR=${DEBIAN_SOURCE#postgresql-}

# The tools that build Debian packages; the packages' own build
# dependencies are installed from their debian/control (install_build_deps).
deb_build_deps()
{
	local -a missing=()
	local p
	for p in dpkg-dev debhelper dh-exec fakeroot quilt lintian; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep 'install ok installed' >/dev/null ||
			missing+=("$p")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		note "installing: ${missing[*]}"
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -q -y --no-install-recommends "${missing[@]}"
	fi
}

# fetch_debian_file SOURCE FILE SHA256: print the path of FILE, a file of
# Debian source package SOURCE, fetched into the cache from the pool of the
# machine's Debian archive and checked against the pinned SHA256 first.
# When the archive no longer has it, say what it has instead and how to
# move the pin there.
fetch_debian_file()
{
	local pkg=$1 file=$2 sum=$3 uri path tmp
	path="$CACHE_DIR/$file"
	if [ -f "$path" ] && [ "$(sha256sum "$path" | cut -d' ' -f1)" = "$sum" ]; then
		echo "$path"
		return
	fi
	rm -f "$path"
	uri=$(debian_archive_uri)
	[ -n "$uri" ] || die "found no Debian archive in apt's sources to fetch $file from"
	as_root mkdir -p "$CACHE_DIR"
	tmp=$(mktemp -d)
	note "fetching $file from $uri" >&2
	if ! /usr/lib/apt/apt-helper download-file \
			"$uri/pool/main/${pkg:0:1}/$pkg/$file" "$tmp/$file" "SHA256:$sum" >"$tmp/log" 2>&1; then
		rm -rf "$tmp"
		[ "$pkg" = "$DEBIAN_SOURCE" ] && die_pin_gone "$file"
		die "could not fetch $file, of $pkg, from $uri; is it reachable, and does the archive still have $pkg $(basename "$file" | sed -E 's/^[^_]*_([^_]*)\..*/\1/')?  (apt-cache showsrc $pkg tells which versions it has.)"
	fi
	as_root mv "$tmp/$file" "$path"
	as_root chmod 644 "$path"
	rm -rf "$tmp"
	echo "$path"
}

# What of this repository goes into the fork's packages besides the
# series, as one digest.
packaging_digest()
{
	(cd "$TOP" && find packaging/debian -type f -print0 | sort -z | xargs -0 cat;
	 cat scripts/deb-common.sh) | sha256sum | cut -c1-16
}

# Install postgresql-common's packages from build/deb, unless they are in
# place already.
install_pgcommon()
{
	local have
	have=$(dpkg-query -W -f='${Version}' postgresql-common-dev 2>/dev/null || true)
	[ "$have" = "$PGCOMMON_VERSION" ] &&
		[ "$(dpkg-query -W -f='${Version}' postgresql-common 2>/dev/null)" = "$PGCOMMON_VERSION" ] &&
		return 0
	note "installing postgresql-common $PGCOMMON_VERSION (postgresql-common, postgresql-client-common, postgresql-common-dev)"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -q -y --no-install-recommends \
		"$DEB_OUT/postgresql-common_${PGCOMMON_VERSION}_all.deb" \
		"$DEB_OUT/postgresql-client-common_${PGCOMMON_VERSION}_all.deb" \
		"$DEB_OUT/postgresql-common-dev_${PGCOMMON_VERSION}_all.deb" >/dev/null
}

# unpack_debian_source ORIG DSC PACKAGING: unpack the pinned source package
# (Debian's patches applied) into a fresh directory and print its path.
# Always the same path, so that ccache finds what an earlier build compiled
# (Debian's flags name the build directory).
unpack_debian_source()
{
	local orig=$1 dsc=$2 packaging=$3 dir="$DEB_WORK/$DEBIAN_SOURCE-$PG_VERSION"
	rm -rf "$DEB_WORK"
	builder_dir "$DEB_WORK"
	builder_dir "$DEB_WORK/in"
	ln -s "$orig" "$DEB_WORK/in/$TARBALL"
	ln -s "$dsc" "$DEB_WORK/in/$DEBIAN_DSC"
	ln -s "$packaging" "$DEB_WORK/in/$DEBIAN_PACKAGING"
	as_builder dpkg-source --no-copy -x "$DEB_WORK/in/$DEBIAN_DSC" "$dir" >"$DEB_WORK/in/unpack.log" 2>&1 ||
		{ cat "$DEB_WORK/in/unpack.log" >&2; die "dpkg-source could not unpack $DEBIAN_DSC"; }
	echo "$dir"
}

# install_build_deps DIR: the build dependencies of the source in DIR,
# without those of its tests (profile nocheck).
install_build_deps()
{
	note "installing the build dependencies of $(basename "$1")"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get build-dep -q -y -P nocheck "$1" >/dev/null
}

# deb_buildpackage DIR LOG [dpkg-buildpackage option...]: build the source
# in DIR as the build user, unsigned, with ccache, without the package's
# own tests (make check-deb tests the packages once installed).
deb_buildpackage()
{
	local dir=$1 log=$2
	shift 2
	local rc=0
	(cd "$dir" && as_builder env \
		PATH=/usr/lib/ccache:/usr/bin:/bin \
		DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" DEB_BUILD_PROFILES=nocheck \
		dpkg-buildpackage -us -uc "$@") >"$log" 2>&1 || rc=$?
	if [ $rc -ne 0 ]; then
		tail -n 40 "$log" >&2
		die "dpkg-buildpackage failed in $dir (exit $rc); the whole log is $log"
	fi
}

# add_fork_packaging DIR: turn Debian's source in DIR into the fork's: the
# series after Debian's patches, libpmem, what packaging/debian/ adds, and a
# changelog entry with the fork's version.
add_fork_packaging()
{
	local dir=$1 d p n=0
	d="$dir/debian"

	# The series, in its order, after Debian's patches (which move the
	# sockets and directories); the patches carry DEP-3 headers.
	as_builder mkdir -p "$d/patches/nvwal"
	while read -r p || [ -n "$p" ]; do
		case "$p" in ''|'#'*) continue ;; esac
		as_builder cp "$TOP/patches/$p" "$d/patches/nvwal/$p"
		echo "nvwal/$p" | as_builder tee -a "$d/patches/series" >/dev/null
		n=$((n + 1))
	done < "$TOP/patches/series"

	# Everything else is done by the script in packaging/debian, which says
	# what it changes and why.
	as_builder env FORK_VERSION="$FORK_VERSION" PG_MAJOR="$PG_MAJOR" \
		DEB_MAINTAINER="${DEB_MAINTAINER:-}" \
		DEB_DATE="$(deb_changelog_date)" SERIES_LENGTH="$n" \
		perl "$PACKAGING/add-to-debian.pl" "$PACKAGING" "$d" ||
		die "packaging/debian/add-to-debian.pl failed on $d"
}

# The date of the fork's changelog entry: that of the last commit to touch
# what goes into the packages, so that the same inputs give the same
# package (dpkg takes SOURCE_DATE_EPOCH from the changelog).
deb_changelog_date()
{
	local d
	d=$(git -C "$TOP" log -1 --format=%aD -- patches packaging UPSTREAM 2>/dev/null || true)
	[ -n "$d" ] || d=$(date -R)
	echo "$d"
}
