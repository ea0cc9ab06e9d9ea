#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# base.sh: fetch the pinned kernel (harness/env.sh: BASE_*; with LTS=1 the
# backport's, LTS_*) into out/base/, without installing anything on the
# host, from the Debian mirror the host's apt uses: upstream Linux, the
# orig tarball of the deb-src index (harness/fetch-orig.sh); where the
# mirror does not serve it, Debian's patched source of the same upload
# (harness/fetch-deb.sh), said loudly. out/base/linux-VERSION.tar.xz
# links to the one taken, out/base/linux-VERSION.txt names it.
set -eu
. "$(dirname "$0")/env.sh"

if [ -f "$BASE_TARBALL" ] && [ -f "$BASE_WHAT" ]; then
	say "base: $(cat "$BASE_WHAT") is in out/base"
	exit 0
fi
mkdir -p "$OUT/base"
orig=$OUT/base/${BASE_SRC}_$BASE_UPSTREAM.orig.tar.xz
say "base: fetching Linux $BASE_UPSTREAM, the upstream tarball of $BASE_SRC $BASE_VERSION ($BASE_SUITE, about 160 MB)"
status=0
"$ROOT/harness/fetch-orig.sh" "$BASE_SRC" "$BASE_VERSION" "$BASE_SUITE" "$orig" || status=$?
if [ "$status" = 0 ]; then
	ln -sfn "${orig##*/}" "$BASE_TARBALL"
	echo "upstream Linux $BASE_UPSTREAM (${orig##*/} of Debian $BASE_SRC $BASE_VERSION)" > "$BASE_WHAT"
else
	[ "$status" = 3 ] || exit "$status"
	deb=$OUT/base/${BASE_PKG}_$BASE_VERSION.tar.xz
	say "base: WARNING: the mirror does not serve ${orig##*/} (above);" \
		"taking Debian's patched $BASE_PKG $BASE_VERSION instead:" \
		"patches made on it may not apply to upstream where Debian changed a file"
	if [ ! -f "$deb" ]; then
		dir=$OUT/base/deb
		status=0
		"$ROOT/harness/fetch-deb.sh" "$BASE_PKG" "$BASE_VERSION" "$BASE_SUITE" "$dir" || status=$?
		[ "$status" = 0 ] ||
			die "cannot fetch $BASE_PKG $BASE_VERSION either (reason above): is it still in $BASE_SUITE? Moving the pin is a commit to harness/env.sh"
		src=$dir/root/usr/src/$BASE_PKG.tar.xz
		[ -f "$src" ] || die "$BASE_PKG $BASE_VERSION holds no usr/src/$BASE_PKG.tar.xz"
		mv "$src" "$deb"
		rm -rf "$dir"
	fi
	ln -sfn "${deb##*/}" "$BASE_TARBALL"
	echo "Debian's patched Linux $BASE_UPSTREAM ($BASE_PKG $BASE_VERSION; the upstream tarball was not served)" > "$BASE_WHAT"
fi
say "base: $(cat "$BASE_WHAT"): out/base/${BASE_TARBALL##*/} ($(du -mL "$BASE_TARBALL" | cut -f1) MB)"
