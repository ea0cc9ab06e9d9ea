#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install every Debian package the harness needs (the pinned base kernel
# source is fetched by harness/base.sh, not installed).
set -eu
. "$(dirname "$0")/env.sh"

pkgs="build-essential bc bison flex libelf-dev libssl-dev python3 kmod
      qemu-system-x86 busybox-static cpio sparse ccache xz-utils rsync
      dwarves python3-docutils git clang libclang-rt-14-dev e2fsprogs
      debian-archive-keyring rsyslog gcc-aarch64-linux-gnu debootstrap"

missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done

if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || die "missing packages:$missing (run as root, or install them)"
	say "installing:$missing (about a minute)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	apt-get install -y -q --no-remove $missing >/dev/null ||
		die "apt-get install$missing failed: see apt-get's messages above"
fi
