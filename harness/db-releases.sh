#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# db-releases.sh: the msgid-tools database of several releases, from
# Debian's linux-source packages of 5.10 (R510_* below), 6.1 (OLD_* in
# env.sh), 6.12 (LTS_*), 7.2 (R72_* below) and 7.3 (BASE_*, out/base:
# make base), one database per release (msgid-db build --source, kept in
# out/releases/NAME.db: rm it to scan that release again), then msgid-db
# merge writes out/releases/msgid.db.
#
# No tree is kept: each release's package is downloaded (apt-get
# download with a state of its own from the mirror env.sh names: nothing
# is installed on the host), its tarball streamed out of the .deb into a
# tree that is scanned on every core and removed before the next, and
# the .deb removed once its database is written. The trees go to a
# tmpfs (/dev/shm) when it has room (memory, not disk: 1.6 GB a tree;
# there the next release is downloaded and unpacked while one is
# scanned, so two trees at most), else into out/releases, one at a time
# (DB_RELEASES_TMP=DIR chooses). Each scan says its CPU time. Before it
# starts it says how much disk and memory it needs, and stops if out/
# has not that much free; the scan prints its progress every 10 s.
# A NAME.tar.xz already in out/releases (the layout of before) is read
# instead of a download, and kept.
#
# 7.2 is in no suite env.sh pins: its newest upload in R72_SUITE is
# taken (R72_VERSION pins one); where there is none, the database is
# built without it and says so. 5.10 (Debian 11's LTS kernel, in
# R510_SUITE) likewise: the oldest release, for the logs of 5.x kernels
# (Ubuntu's 5.15 among them), whose formats 6.1 no longer has.
set -eu
. "$(dirname "$0")/env.sh"

R72_PKG=linux-source-7.2
R72_SUITE=${R72_SUITE:-trixie-backports}
R72_VERSION=${R72_VERSION:-}
R510_PKG=linux-source-5.10
R510_SUITE=${R510_SUITE:-bullseye-security}
R510_VERSION=${R510_VERSION:-}
dir=$OUT/releases
tool=$ROOT/msgid-tools/msgid-db
mkdir -p "$dir"
t0=$(date +%s)

# elapsed START: seconds since START.
elapsed() { echo "$(( $(date +%s) - $1 )) s"; }

# newest PKG SUITE: the newest version of PKG in SUITE, "" if none (an
# apt state of its own, as fetch-deb.sh has).
newest() {
	local pkg=$1 suite=$2 apt=$dir/apt-$2 archive keyring
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -n "$DEBIAN_MIRROR" ] || { echo "no Debian mirror in the host's apt sources (/etc/apt): set DEBIAN_MIRROR" >&2; exit 3; }
	case "$suite" in
	*-security) archive=$DEBIAN_MIRROR/debian-security ;;
	*) archive=$DEBIAN_MIRROR/debian ;;
	esac
	rm -rf "$apt"
	mkdir -p "$apt/lists/partial"
	: > "$apt/status"
	echo "deb [signed-by=$keyring] $archive $suite main" > "$apt/sources.list"
	local opts=(-o "Dir::Etc::SourceList=$apt/sources.list"
		-o Dir::Etc::SourceParts=/dev/null -o "Dir::State=$apt"
		-o "Dir::State::Lists=$apt/lists" -o "Dir::State::status=$apt/status"
		-o "Dir::Cache=$apt" -o APT::Sandbox::User=root)
	apt-get "${opts[@]}" -q update > "$apt/update.log" 2>&1 || true
	apt-cache "${opts[@]}" madison "$pkg" 2>/dev/null |
		awk -F'|' '{gsub(/ /, "", $2); print $2; exit}'
	rm -rf "$apt"
}


# The releases: "NAME PKG VERSION SUITE" each; VERSION is looked up only
# for a release still to scan, from a suite that has no pinned one.
plan=()
# want NAME VAR: the release NAME of $VAR_PKG, $VAR_VERSION (else the
# newest in $VAR_SUITE), or say why it is left out.
want() {
	local name=$1 var=$2 pkg suite version
	local pv=${var}_PKG sv=${var}_SUITE vv=${var}_VERSION
	pkg=${!pv} suite=${!sv} version=${!vv:-}
	if [ -s "$dir/$name.db" ] || [ -f "$dir/$name.tar.xz" ]; then
		plan+=("$name $pkg ${version:--} $suite")
		return
	fi
	[ -n "$version" ] || version=$(newest "$pkg" "$suite")
	if [ -n "$version" ]; then
		plan+=("$name $pkg $version $suite")
	else
		say "$name: no $pkg in $suite ($sv and $vv name another): left out"
	fi
}
want 5.10 R510
want 6.1 OLD
want 6.12 LTS
want 7.2 R72
# 7.3 is the base (out/base, shared with make tree): read, never removed.
if [ ! -s "$dir/7.3.db" ] && [ ! -f "$BASE_TARBALL" ]; then
	"$ROOT/harness/base.sh" || die "cannot fetch the base (make base)"
fi
plan+=("7.3 $BASE_PKG $BASE_VERSION $BASE_SUITE")

# What it takes, said before it starts: per release still to scan a
# download of at most 170 MB (removed once its database is written) and
# a database of at most 95 MB (kept); the merge writes 150 MB and its
# work file takes 300 MB until it ends. One tree at a time, 1.6 GB.
todo=0
for entry in "${plan[@]}"; do
	set -- $entry
	[ -s "$dir/$1.db" ] || todo=$((todo + 1))
done
need=$(( (todo ? 170 : 0) + 95 * todo + 450 ))
free=$(( $(df -Pk "$dir" | awk 'NR==2 {print $4}') / 1024 ))
tmp=${DB_RELEASES_TMP:-}
overlap=0
if [ -z "$tmp" ]; then
	shm=$(( $(df -Pk /dev/shm 2>/dev/null | awk 'NR==2 {print $4}') / 1024 ))
	avail=$(( $(awk '/^MemAvailable:/ {print $2}' /proc/meminfo) / 1024 ))
	if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] &&
			[ "$shm" -ge 2048 ] && [ "$avail" -ge 4096 ]; then
		tmp=/dev/shm
		[ "$shm" -ge 4096 ] && [ "$avail" -ge 6144 ] && overlap=1
	else
		tmp=$dir
	fi
fi
case "$tmp" in
/dev/shm*) where="1.6 GB of memory in $tmp (tmpfs) for one unpacked tree at a time"
	[ "$overlap" = 0 ] || { need=$((need + 170))
	where="3.2 GB of memory in $tmp (tmpfs) for two unpacked trees at a time (the next one is unpacked while one is scanned)"; } ;;
*) where="1.6 GB more on the disk of $tmp for one unpacked tree at a time"
	[ "$(df -P "$tmp" | awk 'NR==2 {print $1}')" = "$(df -P "$dir" | awk 'NR==2 {print $1}')" ] &&
		need=$((need + 1600)) ;;
esac
say "releases ${plan[*]%% *}: $todo to scan; needs about $need MB free in $dir (has $free MB) and $where"
[ "$free" -ge "$need" ] || die "not enough disk in $dir: free $((need - free)) MB more, or rm $dir/*.db of releases you do not need"
tree=$(mktemp -d "$tmp/msgid-releases.XXXXXX")
trap 'rm -rf "$tree"' EXIT

# unpack DEST NAME PKG VERSION SUITE: the release's tree into DEST, from
# out/releases/NAME.tar.xz, the base, or the .deb downloaded into
# $dir/deb-NAME (the tarball streamed out of it, never written).
unpack() {
	local src=$1 name=$2 pkg=$3 version=$4 suite=$5 deb start
	start=$(date +%s)
	rm -rf "$src"
	mkdir -p "$src"
	if [ "$name" = 7.3 ]; then
		xz -dc "$(realpath "$BASE_TARBALL")" | tar -x -C "$src" --strip-components=1
	elif [ -f "$dir/$name.tar.xz" ]; then
		xz -dc "$dir/$name.tar.xz" | tar -x -C "$src" --strip-components=1
	else
		local apt=$dir/deb-$name
		rm -rf "$apt"
		private_apt "$apt" deb "$suite" || die "$name: cannot fetch $pkg"
		say "$name: downloading $pkg $version from $suite ($APT_ARCHIVE)"
		apt-get "${APT_OPTS[@]}" -q update > "$apt/update.log" 2>&1 ||
			die "$name: apt-get update of $suite failed ($apt/update.log)"
		(cd "$apt" && apt-get "${APT_OPTS[@]}" -q download "$pkg=$version") \
			> "$apt/download.log" 2>&1 ||
			die "$name: cannot download $pkg=$version ($apt/download.log)"
		deb=$(echo "$apt/${pkg}_"*.deb)
		say "$name: $(du -m "$deb" | cut -f1) MB downloaded; unpacking"
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xO --wildcards -f - "*usr/src/$pkg.tar.xz" |
			xz -dc | tar -x -C "$src" --strip-components=1
	fi
	[ -f "$src/Makefile" ] || die "$name: the tarball of $pkg holds no kernel tree"
	say "$name: unpacked in $(elapsed "$start") ($(du -sm "$src" | cut -f1) MB in $tmp)"
}

# cpu: CPU, the CPU seconds (user + system) of the children waited for
# (times runs in this shell: in a subshell it has no children).
cpu() {
	times > "$tree/.times"
	CPU=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) {
		split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.0f\n", t }' \
		"$tree/.times")
}

# ahead I: unpack the I-th release to scan into $tree/I, in the
# background ($ahead_pid; none past the last).
ahead() {
	ahead_pid=
	[ "$1" -lt "${#todo[@]}" ] || return 0
	# shellcheck disable=SC2086
	unpack "$tree/$1" ${todo[$1]} &
	ahead_pid=$!
}

dbs=() todo=()
for entry in "${plan[@]}"; do
	set -- $entry
	dbs+=("$dir/$1.db")
	if [ -s "$dir/$1.db" ]; then
		say "$1: $dir/$1.db is there (rm it to scan again)"
	else
		todo+=("$entry")
	fi
done
ahead 0
for i in "${!todo[@]}"; do
	set -- ${todo[$i]}
	name=$1
	[ -z "$ahead_pid" ] || wait "$ahead_pid" || die "$name: cannot unpack it (above)"
	# the next one while this one is scanned, where there is room
	[ "$overlap" = 0 ] || ahead $((i + 1))
	start=$(date +%s)
	cpu; cpu0=$CPU
	say "$name: scanning the sources on $(nproc) cores (msgid-db build --source)"
	nice -n 19 python3 "$tool" build --source "$tree/$i" -o "$dir/$name.db" \
		--progress ${DB_JOBS:+-j "$DB_JOBS"}
	rm -rf "${tree:?}/$i" "$dir/deb-$name"
	cpu
	say "$name: scanned in $(elapsed "$start") ($((CPU - cpu0)) CPU-s), $(du -h "$dir/$name.db" | cut -f1); tree removed"
	[ "$overlap" = 1 ] || ahead $((i + 1))
done

start=$(date +%s)
names=("${plan[@]%% *}")
say "merging ${names[*]} into $dir/msgid.db"
cpu; cpu0=$CPU
nice -n 19 python3 "$tool" merge -o "$dir/msgid.db" "${dbs[@]}"
cpu
say "merged in $(elapsed "$start") ($((CPU - cpu0)) CPU-s)"
nice -n 19 python3 "$tool" --db "$dir/msgid.db" stats | sed -n '1,/^by origin/p'
cpu
say "out/releases/msgid.db: $(du -h "$dir/msgid.db" | cut -f1), $(du -b "$dir/msgid.db" | cut -f1) bytes; releases ${names[*]}; out/releases $(du -sm "$dir" | cut -f1) MB; all in $(elapsed "$t0") ($CPU CPU-s)"
