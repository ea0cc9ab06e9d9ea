#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install every Debian package the harness needs, and the pinned base.
set -eu
. "$(dirname "$0")/env.sh"

pkgs="build-essential bc bison flex libelf-dev libssl-dev python3 kmod
      qemu-system-x86 busybox-static cpio sparse ccache xz-utils rsync
      dwarves python3-docutils git clang libclang-rt-14-dev e2fsprogs"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
have=$(dpkg-query -W -f='${Version}' "$BASE_PKG" 2>/dev/null || true)
[ "$have" = "$BASE_VERSION" ] || missing="$missing $BASE_PKG=$BASE_VERSION"

if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root, or install them)"
	say "installing:$missing (about a minute)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --allow-downgrades $missing >/dev/null ||
		die "apt-get install failed; is $BASE_PKG=$BASE_VERSION still in the archive? (apt-cache policy $BASE_PKG)"
fi
mkdir -p "$OUT"
echo "$BASE_PKG $BASE_VERSION" > "$OUT/base-version"
