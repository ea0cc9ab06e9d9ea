# SPDX-License-Identifier: GPL-2.0
# Shared settings for the harness scripts. Sourced, never run.
#
# The base kernel is pinned here and only here: moving to another Debian
# linux-source-6.12 upload is a deliberate commit that also refreshes every
# <path>.patch in the repo (make tree && make refresh).
BASE_PKG=linux-source-6.12
BASE_VERSION=6.12.118-1~deb12u1
BASE_TARBALL=/usr/src/linux-source-6.12.tar.xz

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$ROOT/out}
TREE=${TREE:-$OUT/linux}
BUILD=$OUT/build

# Files of the repo that are not part of the kernel overlay.
overlay_files() {
	git -C "$ROOT" ls-files --cached --others --exclude-standard |
		grep -v -E '^(harness/|\.ci/|\.gitignore$|Makefile$|README\.md$)' |
		grep -v -E '(^|/)__pycache__/' |
		sort
}

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Use ccache when it is installed; it makes rebuilds of the same tree cheap.
kcc() {
	if command -v ccache >/dev/null 2>&1; then
		echo "ccache gcc"
	else
		echo gcc
	fi
}
