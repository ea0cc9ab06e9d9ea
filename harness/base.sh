#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# base.sh: fetch the pinned kernel source (harness/env.sh: BASE_*) from
# Debian into out/base/PKG_VERSION.tar.xz.
#
# apt-get download runs with a sources list and state of its own under
# out/base/apt, so the host's apt configuration and installed packages
# stay as they are; dpkg-deb takes the tarball out of the package.
set -eu
. "$(dirname "$0")/env.sh"

pkg=$BASE_PKG ver=$BASE_VERSION suite=$BASE_SUITE
tarball=$BASE_TARBALL
if [ -f "$tarball" ]; then
	say "base: $pkg $ver is in out/base"
	exit 0
fi

case "$suite" in
*-security) archive=$DEBIAN_MIRROR/debian-security ;;
*) archive=$DEBIAN_MIRROR/debian ;;
esac
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || die "$keyring missing: apt-get install debian-archive-keyring"

apt=$OUT/base/apt
rm -rf "$apt"
mkdir -p "$apt/lists/partial" "$apt/archives/partial"
: > "$apt/status"
echo "deb [signed-by=$keyring] $archive $suite main" > "$apt/sources.list"
opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State=$apt" -o "Dir::State::Lists=$apt/lists"
      -o "Dir::State::status=$apt/status" -o "Dir::Cache=$apt"
      -o "Dir::Cache::Archives=$apt/archives" -o APT::Sandbox::User=root)

say "base: fetching $pkg $ver from $suite ($archive; about 170 MB)"
apt-get "${opts[@]}" -q update > "$apt/update.log" 2>&1 ||
	die "apt-get update of $suite failed (log: out/base/apt/update.log); is $archive reachable?"
(cd "$apt" && apt-get "${opts[@]}" -q download "$pkg=$ver") > "$apt/download.log" 2>&1 ||
	die "$pkg $ver is not in $suite (log: out/base/apt/download.log): apt-cache policy $pkg; moving the pin is a commit to harness/env.sh"
deb=$(ls "$apt"/"${pkg}"_*.deb)
member=./usr/src/$pkg.tar.xz
dpkg-deb --fsys-tarfile "$deb" | tar -xO "$member" > "$tarball.part" ||
	die "$deb holds no $member"
mv "$tarball.part" "$tarball"
rm -rf "$apt"
say "base: out/base/$(basename "$tarball")"
