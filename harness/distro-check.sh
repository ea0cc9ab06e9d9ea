#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# distro-check.sh: msgid-tools/msgid-db on Debian's own kernel package of the
# pinned base (DISTRO_PKG in env.sh): fetch and unpack it into
# out/distro (34 MB, once), build a database from its bzImage and modules,
# check the counts and a few well-known formats (harness/distro-check.py).
# About 15 s with the package fetched. When the package cannot be fetched
# (no network, gone from the archive) it says so and exits 0: the check
# is skipped, not failed.
set -eu
. "$(dirname "$0")/env.sh"

dir=$OUT/distro
status=0
"$ROOT/harness/fetch-deb.sh" "$DISTRO_PKG" "$DISTRO_VERSION" "$DISTRO_SUITE" \
	"$dir" || status=$?
if [ "$status" = 3 ]; then
	echo "distro-check: SKIP: cannot fetch $DISTRO_PKG=$DISTRO_VERSION"
	exit 0
fi
[ "$status" = 0 ] || die "fetching $DISTRO_PKG failed"

tree=
[ -f "$TREE/Makefile" ] && tree=$TREE
python3 "$ROOT/harness/distro-check.py" "$dir/root" "$dir/msgid.db" $tree |
	tee "$dir/report.txt"
exit "${PIPESTATUS[0]}"
