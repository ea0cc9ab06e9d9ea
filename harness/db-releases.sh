#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# db-releases.sh: the msgid-tools database of several releases, from
# Debian's linux-source packages of 5.10 (R510_* below), 6.1 (OLD_* in
# env.sh), 6.12 (LTS_*), 7.2 (R72_* below) and 7.3 (BASE_*, out/base:
# make base), fetched with
# harness/fetch-deb.sh into out/releases/ (apt-get download with a state
# of its own from the mirror env.sh names: nothing is installed on the
# host). Each tree is unpacked once and scanned once (msgid-db.py build
# --source, one database per release, kept: rm out/releases/*.db to scan
# again), then msgid-db merge writes out/releases/msgid.db. Prints
# each step's time, and the database's size.
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

# fetch NAME PKG VERSION SUITE TARBALL: out/releases/NAME.tar.xz.
fetch() {
	local name=$1 pkg=$2 version=$3 suite=$4 inner=$5 start
	local tarball=$dir/$name.tar.xz
	[ -f "$tarball" ] && return 0
	start=$(date +%s)
	say "$name: fetching $pkg $version from $suite"
	"$ROOT/harness/fetch-deb.sh" "$pkg" "$version" "$suite" "$dir/deb-$name" ||
		return 1
	mv "$dir/deb-$name/root/$inner" "$tarball"
	rm -rf "$dir/deb-$name"
	say "$name: fetched in $(elapsed "$start")"
}

# newest_of NAME VAR: add NAME to names, its source package $VAR_PKG of
# $VAR_VERSION from $VAR_SUITE, else the newest there; or say why it is
# left out.
newest_of() {
	local name=$1 var=$2 pkg suite version
	local pv=${var}_PKG sv=${var}_SUITE vv=${var}_VERSION
	pkg=${!pv} suite=${!sv} version=${!vv}
	if [ ! -f "$dir/$name.tar.xz" ] && [ -z "$version" ]; then
		version=$(newest "$pkg" "$suite")
	fi
	if [ -f "$dir/$name.tar.xz" ] || { [ -n "$version" ] &&
		fetch "$name" "$pkg" "$version" "$suite" "usr/src/$pkg.tar.xz"; }; then
		names+=("$name")
	else
		say "$name: no $pkg in $suite ($sv and $vv name another): left out"
	fi
}

names=()
newest_of 5.10 R510
if fetch 6.1 "$OLD_PKG" "$OLD_VERSION" "$OLD_SUITE" "$OLD_TARBALL"; then
	names+=(6.1)
else
	say "6.1: cannot fetch $OLD_PKG $OLD_VERSION: left out"
fi
# Debian's patched 6.12 (what its kernels print), of the backport's version.
if fetch 6.12 linux-source-6.12 "$LTS_VERSION" "$LTS_SUITE" usr/src/linux-source-6.12.tar.xz; then
	names+=(6.12)
else
	say "6.12: cannot fetch linux-source-6.12 $LTS_VERSION: left out"
fi
newest_of 7.2 R72
if [ ! -f "$BASE_TARBALL" ]; then
	"$ROOT/harness/base.sh" || die "cannot fetch the base (make base)"
fi
ln -sfn "$BASE_TARBALL" "$dir/7.3.tar.xz"
names+=(7.3)

dbs=()
for name in "${names[@]}"; do
	db=$dir/$name.db
	dbs+=("$db")
	[ -s "$db" ] && { say "$name: $db is there (rm it to scan again)"; continue; }
	tree=$dir/src-$name
	if [ ! -f "$tree/Makefile" ]; then
		start=$(date +%s)
		say "$name: unpacking $(basename "$(realpath "$dir/$name.tar.xz")")"
		rm -rf "$tree"
		mkdir -p "$tree"
		tar -xf "$dir/$name.tar.xz" -C "$tree" --strip-components=1
		say "$name: unpacked in $(elapsed "$start")"
	fi
	start=$(date +%s)
	say "$name: scanning the C sources (msgid-db build --source)"
	nice -n 19 python3 "$tool" build --source "$tree" -o "$db" ${DB_JOBS:+-j "$DB_JOBS"}
	say "$name: scanned in $(elapsed "$start"), $(du -h "$db" | cut -f1)"
done

start=$(date +%s)
say "merging ${names[*]} into $dir/msgid.db"
nice -n 19 python3 "$tool" merge -o "$dir/msgid.db" "${dbs[@]}"
say "merged in $(elapsed "$start")"
nice -n 19 python3 "$tool" --db "$dir/msgid.db" stats | sed -n '1,/^by origin/p'
say "out/releases/msgid.db: $(du -h "$dir/msgid.db" | cut -f1), $(du -b "$dir/msgid.db" | cut -f1) bytes; releases ${names[*]}; all in $(elapsed "$t0")"
