#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# base.sh: fetch the pinned kernel source (harness/env.sh: BASE_*; with
# LTS=1 the backport's, LTS_*) from
# Debian into out/base/PKG_VERSION.tar.xz, with harness/fetch-deb.sh:
# nothing is installed on the host.
set -eu
. "$(dirname "$0")/env.sh"

if [ -f "$BASE_TARBALL" ]; then
	say "base: $BASE_PKG $BASE_VERSION is in out/base"
	exit 0
fi
say "base: fetching $BASE_PKG $BASE_VERSION from $BASE_SUITE (about 170 MB)"
dir=$OUT/base/deb
status=0
"$ROOT/harness/fetch-deb.sh" "$BASE_PKG" "$BASE_VERSION" "$BASE_SUITE" "$dir" || status=$?
[ "$status" = 0 ] ||
	die "cannot fetch $BASE_PKG $BASE_VERSION (reason above): apt-cache policy $BASE_PKG; moving the pin is a commit to harness/env.sh"
src=$dir/root/usr/src/$BASE_PKG.tar.xz
[ -f "$src" ] || die "$BASE_PKG $BASE_VERSION holds no usr/src/$BASE_PKG.tar.xz"
mv "$src" "$BASE_TARBALL"
rm -rf "$dir"
say "base: out/base/$(basename "$BASE_TARBALL")"
