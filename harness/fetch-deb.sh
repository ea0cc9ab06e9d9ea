#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fetch-deb.sh PKG VERSION DIR: download the Debian package PKG=VERSION
# with apt-get download and unpack it into DIR/root (dpkg-deb -x), unless
# DIR/root already holds that version. Installs nothing.
# Exit status 0 when DIR/root is ready, 3 when the package cannot be
# fetched (not in the archive, no network: the reason goes to stderr), so
# that callers can skip instead of failing; anything else is an error.
set -eu
. "$(dirname "$0")/env.sh"

pkg=$1 version=$2 dir=$(realpath -m "$3")
stamp=$dir/root/.fetched
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$pkg=$version" ]; then
	exit 0
fi
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null || {
	echo "apt-get/dpkg-deb not found (not a Debian system)" >&2; exit 3; }
rm -rf "$dir"
mkdir -p "$dir"
cd "$dir"
say "fetching $pkg=$version (apt-get download, tens of MB)"
# apt-get download runs as _apt when it can; a directory _apt cannot
# write only costs a warning. A stale package list gets one update.
fetch() { apt-get download -q "$pkg=$version" >download.log 2>&1; }
if ! fetch; then
	[ "$(id -u)" = 0 ] && apt-get update -q >/dev/null 2>&1 || true
	fetch || { grep '^E:' download.log | tail -1 >&2; exit 3; }
fi
deb=$(ls ./*.deb)
dpkg-deb -x "$deb" root
rm -f "$deb"
echo "$pkg=$version" > "$stamp"
