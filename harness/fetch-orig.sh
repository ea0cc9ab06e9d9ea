#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fetch-orig.sh SRC VERSION SUITE DEST: download the upstream tarball of
# the Debian source package SRC=VERSION (its *.orig.tar.xz: the kernel as
# released, minus the few files Debian removes for its free-software
# rules) from SUITE's deb-src index into the file DEST. apt-get checks it
# against the signed index. Like fetch-deb.sh, apt-get runs with a sources
# list and state of its own: nothing on the host is installed or changed.
# Exit status 0 when DEST is there, 3 when it cannot be fetched (the
# reason goes to stderr), anything else is an error.
set -eu
. "$(dirname "$0")/env.sh"

src=$1 version=$2 suite=$3 dest=$(realpath -m "$4")
[ -f "$dest" ] && exit 0
apt=$(dirname "$dest")/apt-src
rm -rf "$apt"
private_apt "$apt" deb-src "$suite" || exit 3
mkdir -p "$apt/get"
opts=("${APT_OPTS[@]}")
archive=$APT_ARCHIVE

say "fetching the upstream tarball of $src $version from $suite's sources ($archive)"
if ! apt-get "${opts[@]}" -q update > "$apt/update.log" 2>&1; then
	echo "apt-get update of $suite (deb-src) failed ($apt/update.log)" >&2
	exit 3
fi
# --download-only: the .dsc, the orig tarball and Debian's packaging,
# each checked against the index; nothing is unpacked.
if ! (cd "$apt/get" && apt-get "${opts[@]}" -q source --download-only "$src=$version") \
		> "$apt/download.log" 2>&1; then
	why=$(grep -h -m1 '^W: Failed to fetch' "$apt/update.log" ||
		grep -h -m1 '^E: Failed to fetch' "$apt/download.log" ||
		grep -h '^E:' "$apt/download.log" | tail -1)
	echo "$src $version from $suite: ${why:-apt-get source failed}" >&2
	rm -rf "$apt"
	exit 3
fi
orig=$(ls "$apt/get/"*.orig.tar.xz 2>/dev/null | head -1)
[ -n "$orig" ] || { echo "$src $version has no .orig.tar.xz (a native package?)" >&2; exit 3; }
mkdir -p "$(dirname "$dest")"
mv "$orig" "$dest"
rm -rf "$apt"
