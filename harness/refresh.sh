#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write edits made in out/linux since "make tree" back to the repo: a
# changed upstream file becomes <path>.patch (against the base), a new file
# is copied to its path, a file reverted to the base drops out of the repo.
# Paths not touched in out/linux since "make tree" are left alone, so
# edits made meanwhile in the repo itself are never overwritten.
set -eu
. "$(dirname "$0")/env.sh"

[ -d "$TREE/.git" ] || die "no out/linux: run 'make tree' first"
cd "$TREE"
# A make tree that stopped half-way leaves out/linux at the base with part
# of the overlay: every file it did not lay would look deleted, and be
# deleted from the repo. Refuse.
git rev-parse -q --verify overlay >/dev/null && git merge-base --is-ancestor overlay HEAD ||
	die "out/linux is not on the overlay (a make tree stopped half-way?): nothing written back; fix what made it stop, then FORCE=1 make tree"

n=0
while read -r f; do
	[ -n "$f" ] || continue
	case "$f" in */__pycache__/*) continue ;; esac
	if git cat-file -e "base:$f" 2>/dev/null; then
		[ -e "$f" ] || die "$f: deleting upstream files is not supported"
		if git diff --quiet base -- "$f"; then
			say "$f is back to the base: removing $f.patch"
			rm -f "$ROOT/$f.patch"
		else
			mkdir -p "$ROOT/$(dirname "$f")"
			git diff --no-color --no-renames base -- "$f" > "$ROOT/$f.patch"
		fi
	elif [ -e "$f" ]; then
		mkdir -p "$ROOT/$(dirname "$f")"
		cp -p "$f" "$ROOT/$f"
	else
		rm -f "$ROOT/$f"
	fi
	say "refreshed $f"
	n=$((n + 1))
done < <({ git diff --name-only --no-renames overlay; git ls-files --others --exclude='/build-*/' | grep -v -E "(^|/)__pycache__/|\.pyc$"; } | sort -u)
say "$n paths written back to the repo"
