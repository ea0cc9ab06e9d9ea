#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-base.sh NAME FRAGMENT...: build the base WITHOUT the series (tag
# "base" of out/linux, checked out as the git worktree out/linux-base)
# with the same fragments as a kernel of the series, in
# out/build/NAME (objects in out/linux-base/build-NAME). The options of
# the series (PRINTK_MSGID, its tests) do not exist there and are left
# out silently (CONFIG_CHECK=0); every other option is checked against
# the series' own .config of the same fragments when there is one
# (BASE_SAME_AS=out/build/msgid by default). The base's objects are not
# the series' (the series changes include/linux/sprintf.h, which nearly
# every file includes), so the first build is cold (about 20 minutes on
# 2 cores).
set -eu
. "$(dirname "$0")/env.sh"

name=$1
wt=$OUT/linux-base
[ -d "$TREE/.git" ] || die "no $TREE: run make tree first"
base=$(git -C "$TREE" rev-parse --verify base)
if [ -e "$wt" ] && [ "$(git -C "$wt" rev-parse -q --verify HEAD 2>/dev/null)" != "$base" ]; then
	# A tree laid anew (make clean; make tree) has a new base commit.
	say "out/linux-base is not at out/linux's base: making it again"
	rm -rf "$wt"
	git -C "$TREE" worktree prune
fi
if [ ! -e "$wt" ]; then
	# out/linux's .git/info/exclude (build-*/) serves the worktree too.
	git -C "$TREE" worktree add -q --detach "$wt" base
fi
[ -z "$(git -C "$wt" status --porcelain --untracked-files=no)" ] ||
	die "out/linux-base has changes: it must be the base as it is"

TREE=$wt CONFIG_CHECK=0 "$(dirname "$0")/build.sh" "$@"

same=${BASE_SAME_AS-$BUILD/msgid}
if [ -n "$same" ] && [ -f "$same/.config" ]; then
	# The same configuration but for the series' own options.
	d=$(diff <(grep '^CONFIG_' "$same/.config" | grep -v -E '^CONFIG_(PRINTK_MSGID|TEST_MSGID)' | sort) \
		<(grep '^CONFIG_' "$BUILD/$name/.config" | sort) || true)
	[ -z "$d" ] || { printf '%s\n' "$d" >&2; die "out/build/$name/.config differs from $same/.config beyond the series' options"; }
	say "out/build/$name: the configuration of ${same#"$ROOT"/} without the series' options"
fi
