#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fetch-deb.sh PKG VERSION SUITE DIR: download the Debian package
# PKG=VERSION from SUITE and unpack it into DIR/root (dpkg-deb -x),
# unless DIR/root already holds that version. PKG may name several
# packages of the same version, separated by spaces (Debian 13 ships a
# kernel as linux-binary-VER and linux-modules-VER). Like base.sh, apt-get runs
# with a sources list and state of its own (DIR/apt): nothing on the
# host is installed or changed.
# Exit status 0 when DIR/root is ready, 3 when the package cannot be
# fetched (archive unreachable, version gone: the reason goes to stderr),
# so that callers can skip instead of failing; anything else is an error.
set -eu
. "$(dirname "$0")/env.sh"

pkg=$1 version=$2 suite=$3 dir=$(realpath -m "$4")
stamp=$dir/root/.fetched
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pkg=$version" ]; then
	exit 0
fi
apt=$dir/apt
rm -rf "$dir"
private_apt "$apt" deb "$suite" || exit 3
opts=("${APT_OPTS[@]}")
archive=$APT_ARCHIVE

say "fetching $pkg $version from $suite ($archive)"
if ! apt-get "${opts[@]}" -q update > "$apt/update.log" 2>&1; then
	echo "apt-get update of $suite failed ($apt/update.log)" >&2
	exit 3
fi
want=()
for p in $pkg; do want+=("$p=$version"); done
if ! (cd "$apt" && apt-get "${opts[@]}" -q download "${want[@]}") \
		> "$apt/download.log" 2>&1; then
	# apt-get update only warns about an archive it cannot reach.
	why=$(grep -h -m1 '^W: Failed to fetch' "$apt/update.log" ||
		grep -h '^E:' "$apt/download.log" | tail -1)
	echo "$pkg $version from $suite: ${why:-apt-get download failed}" >&2
	exit 3
fi
for p in $pkg; do
	dpkg-deb -x "$apt/${p}_"*.deb "$dir/root"
done
rm -rf "$apt"
echo "$pkg=$version" > "$stamp"
