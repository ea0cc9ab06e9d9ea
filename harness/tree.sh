#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Lay the repo onto the base: out/linux is a git repo whose first commit
# (tag "base") is the pristine upstream source and whose second commit
# (tag "overlay") adds our new files and applies every <path>.patch.
#
# Edit in out/linux, then "make refresh" writes the changes back to the repo.
# "make tree" refuses to throw away edits that were not refreshed (FORCE=1
# overrides).
set -eu
. "$(dirname "$0")/env.sh"

[ -f "$BASE_WHAT" ] || "$ROOT/harness/base.sh"
stamp="base: $(cat "$BASE_WHAT")"

if [ -d "$TREE/.git" ] && [ "$(git -C "$TREE" log -1 --format=%s base 2>/dev/null)" = "$stamp" ]; then
	if [ "${FORCE:-0}" != 1 ] && git -C "$TREE" rev-parse -q --verify overlay >/dev/null; then
		if [ -n "$(git -C "$TREE" status --porcelain)" ] ||
		   [ "$(git -C "$TREE" rev-parse HEAD)" != "$(git -C "$TREE" rev-parse overlay)" ]; then
			die "out/linux has edits that are not in the repo: run 'make refresh' first (or FORCE=1 make tree to drop them)"
		fi
	fi
	# Remember the files of the previous overlay, so that those whose
	# content does not change keep their mtime and are not rebuilt.
	keep=$(mktemp)
	if git -C "$TREE" rev-parse -q --verify overlay >/dev/null; then
		git -C "$TREE" diff --name-only --no-renames base overlay | while read -r f; do
			# A file missing here (an earlier run stopped half-way) is
			# not kept, and must not end the loop with a failure.
			[ -f "$TREE/$f" ] || continue
			printf '%s %s %s\n' \
				"$(git -C "$TREE" hash-object "$f")" "$(stat -c %Y "$TREE/$f")" "$f"
		done > "$keep"
	fi
	git -C "$TREE" checkout -q -f --detach base
	git -C "$TREE" clean -fdxq -e '/build-*/'
else
	[ -f "$BASE_TARBALL" ] || "$ROOT/harness/base.sh"
	say "unpacking Linux $BASE_UPSTREAM into ${TREE#"$ROOT"/} (about 1 minute)"
	rm -rf "$TREE"
	mkdir -p "$TREE"
	tar -xf "$BASE_TARBALL" -C "$TREE" --strip-components=1
	cd "$TREE"
	git init -q
	git config user.name "msgid harness"
	git config user.email "harness@localhost"
	git config gc.auto 0
	# The kernels are built in build-NAME/ (harness/env.sh: objdir).
	echo '/build-*/' >> .git/info/exclude
	git add -A -f .
	git commit -q -m "$stamp"
	git tag -f base >/dev/null
	cd - >/dev/null
fi

cd "$TREE"
n=0
while read -r f; do
	src=$ROOT/$f
	# The backport takes the glue of harness/lts/ where the base differs.
	[ "${LTS:-0}" = 1 ] && [ -f "$LTS_GLUE/$f" ] && src=$LTS_GLUE/$f
	# An empty glue file: the backport leaves that change out
	# (harness/lts/README says why).
	if [ ! -s "$src" ]; then
		say "${f%.patch}: left out of the backport (harness/lts/README)"
		continue
	fi
	case "$f" in
	*.patch)
		git apply --whitespace=error-all "$src" ||
			die "${src#"$ROOT"/} does not apply to Linux $BASE_UPSTREAM without fuzz"
		;;
	*)
		mkdir -p "$(dirname "$f")"
		cp "$src" "$f"
		git add -f -- "$f"
		;;
	esac
	n=$((n + 1))
done < <(overlay_files)
# Our own files, moved to the backport's APIs.
if [ "${LTS:-0}" = 1 ] && [ -f "$LTS_GLUE/backport.diff" ]; then
	git apply --whitespace=error-all "$LTS_GLUE/backport.diff" ||
		die "harness/lts/backport.diff does not apply to the overlay"
fi
git add -u
git -c user.name="msgid harness" -c user.email=harness@localhost \
	commit -q --allow-empty -m "msgid overlay ($n files from the repo)"
git tag -f overlay >/dev/null
if [ -n "${keep:-}" ]; then
	while read -r hash mtime f; do
		[ -f "$f" ] && [ "$(git hash-object "$f")" = "$hash" ] && touch -d "@$mtime" "$f"
	done < "$keep"
	rm -f "$keep"
fi
git checkout -q -B msgid
say "${TREE#"$ROOT"/}: base $BASE_VERSION + $n overlay files (git diff base shows the change)"
