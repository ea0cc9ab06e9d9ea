#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pipeline-syslog-ng.sh: the pipeline test (pipeline.py) with syslog-ng
# instead of rsyslogd. syslog-ng conflicts with rsyslog (both provide
# system-log-daemon), so it is not installed: its Debian 12 packages are
# downloaded with apt-get and unpacked into out/pipeline/syslog-ng/root,
# and pipeline.py runs the binary from there.
set -eu
. "$(dirname "$0")/env.sh"

dir=$OUT/pipeline/syslog-ng
root=$dir/root
# syslog-ng-core, the add-contextual-data() module, and the libraries
# they need that a Debian 12 build host does not have already.
pkgs="syslog-ng-core syslog-ng-mod-add-contextual-data libivykis0 libnet1
      libwrap0 libpcre3"

if [ ! -x "$root/usr/sbin/syslog-ng" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/debs"
	say "downloading (not installing):" $pkgs
	(cd "$dir/debs" && apt-get download -q $pkgs >/dev/null) ||
		die "apt-get download failed (apt-get update?)"
	for deb in "$dir"/debs/*.deb; do
		dpkg-deb -x "$deb" "$root"
	done
fi
export OUT BASE_TARBALL SYSLOG_NG_ROOT=$root
exec python3 "$ROOT/harness/pipeline.py" syslog-ng
