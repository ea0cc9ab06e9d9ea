#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build-rust.sh NAME FRAGMENT...: build.sh NAME FRAGMENT... with LLVM=1 in
# the Debian 13 build root out/rust-root (rust-root.sh), for a kernel with
# CONFIG_RUST=y: the host's compilers are too old for it (Debian 12's
# bindgen is 0.60, 7.3 asks 0.71.1). The repo's out/ and harness/ are
# bound into the root at their own paths, so the objects land where
# build.sh puts them on the host (out/linux/build-NAME, out/build/NAME),
# in a mount namespace of the build's own, which ends with it, however it
# ends (rust-lib.sh). Builds of other NAMEs may run beside it. First
# "make rustavailable" says whether the root's toolchain is one Kbuild
# takes. The fragments live in harness/ (the only part of the repo the
# root sees besides out/).
set -eu
. "$(dirname "$0")/env.sh"
. "$(dirname "$0")/rust-lib.sh"

name=$1
shift
frags=()
for f in "$@"; do
	f=$(realpath "$f")
	case "$f" in
	"$ROOT/harness/"*) frags+=("$f") ;;
	*) die "$f: the build root sees only the fragments in harness/" ;;
	esac
done
# make tree lays out/linux anew from time to time: wait for it.
for i in $(seq 60); do
	[ -f "$TREE/Makefile" ] && break
	[ "$i" = 1 ] && say "waiting for $TREE (make tree)"
	sleep 10
done
[ -f "$TREE/Makefile" ] || die "$TREE missing (make tree)"
case "$TREE" in
"$ROOT/out/"*) ;;
*) die "TREE=$TREE: the build root sees only the repo's out/" ;;
esac

rust_lock shared
dir=$(objdir "$name")
say "building out/build/$name in out/rust-root ($(sed -n 's/^rustc /rustc /p' "$RUST_INFO"), LLVM=1)"
# shellcheck disable=SC2016 # expanded inside the root
rust_chroot /bin/bash -c 'set -e; cd "$1"; make -s O="$2" rustavailable; shift 2; exec "$@"' \
	_ "$TREE" "$dir" "$ROOT/harness/build.sh" "$name" "${frags[@]}"
