# SPDX-License-Identifier: GPL-2.0
# Shared by rust-root.sh and build-rust.sh (sourced after env.sh, never
# run): the Debian 13 build root that carries the Rust toolchain for
# CONFIG_RUST=y with LLVM=1, made with debootstrap into out/rust-root/.
# Nothing of it is installed on the host.

# RUST_ROOT in the environment: another place (a test of this script).
RUST_ROOT=${RUST_ROOT:-$ROOT/out/rust-root}
RUST_SUITE=trixie
# What Linux 7.3 needs to build with CONFIG_RUST=y and LLVM=1. Its
# minimum versions (scripts/min-tool-version.sh: rustc 1.85.0, bindgen
# 0.71.1, LLVM 17.0.1) are what Debian 13 carries: rustc and rust-src
# 1.85, bindgen 0.71.1, clang/lld/llvm 19. libclang-dev is bindgen's
# libclang. gcc and libc6-dev: the C library and crt files the host
# programs link against (HOSTCC is clang too with LLVM=1). ccache: the
# root's own, its cache in the root (/root/.cache/ccache), for the C
# files of a rebuild (rustc has none). xz-utils: the bzImage is
# compressed with xz (CONFIG_KERNEL_XZ in x86_64.config). rsync: the
# kselftest install (make check-rust).
RUST_PKGS="rustc rust-src bindgen clang lld llvm libclang-dev
	make bc bison flex libelf-dev libssl-dev python3 cpio kmod xz-utils rsync gcc libc6-dev ccache"
# The stamp names the suite and the package set: a root made for another
# set, or by a run that did not finish, has no matching stamp and is made
# again.
RUST_STAMP=$RUST_ROOT/.harness-rust-root
RUST_INFO=$RUST_ROOT/.harness-rust-root.info
rust_stamp_want() {
	echo "debootstrap --variant=minbase $RUST_SUITE amd64:" $RUST_PKGS
}
rust_root_ready() {
	[ -f "$RUST_STAMP" ] && [ "$(cat "$RUST_STAMP")" = "$(rust_stamp_want)" ]
}

# rust_lock shared|exclusive: builds share the root (each in a mount
# namespace of its own), rust-root.sh, which removes and makes it, takes
# it alone. Takes file descriptor 9 for the life of the script.
rust_lock() {
	local mode=-s
	[ "$1" = shared ] || mode=-x
	mkdir -p "$(dirname "$RUST_ROOT")"
	exec 9> "$RUST_ROOT.lock"
	if ! flock -n $mode 9; then
		say "waiting for another job on $RUST_ROOT ($RUST_ROOT.lock)"
		flock $mode 9
	fi
}

# rust_umount_all: unmount everything mounted under the root, deepest
# first. The jobs here mount only in mount namespaces of their own,
# which the kernel drops with their last process, however they end; this
# is the guard before the root is removed (mounts made by hand, or by an
# older version of these scripts). Fails if one stays: nothing may remove
# the root while the repo's out/ is still bound inside.
rust_umount_all() {
	local m left
	for m in $(awk -v r="$RUST_ROOT/" 'index($5, r) == 1 { print $5 }' /proc/self/mountinfo | sort -r); do
		umount "$m" 2>/dev/null || umount -l "$m" || true
	done
	left=$(awk -v r="$RUST_ROOT/" 'index($5, r) == 1 { print $5 }' /proc/self/mountinfo)
	[ -z "$left" ] || die "still mounted under $RUST_ROOT: $left"
}

# rust_chroot CMD...: run CMD in the root, as root, with LLVM=1, /proc,
# and the repo's out/ (read-write) and harness/ (read-only) bound at
# their own absolute paths, so that out/linux, out/build/NAME and the
# harness scripts have the same paths inside as outside. The mounts are
# made in a private mount namespace (unshare): no other process sees
# them, two builds do not meet, and they are gone when CMD ends, also
# when it fails or is killed. The caller holds rust_lock shared. Of the
# environment, CMD sees TREE (a tree under out/ other than out/linux) and
# CCACHE_DISABLE (a build that must be cold).
rust_chroot() {
	local pass=("TREE=$TREE")
	[ -z "${CCACHE_DISABLE:-}" ] || pass+=("CCACHE_DISABLE=$CCACHE_DISABLE")
	rust_root_ready || die "$RUST_ROOT is not ready (make rust-root)"
	mkdir -p "$RUST_ROOT$ROOT/out" "$RUST_ROOT$ROOT/harness"
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private /bin/bash -c '
		set -e
		r=$1 top=$2
		shift 2
		mount -t proc proc "$r/proc"
		mount --bind "$top/out" "$r$top/out"
		mount --bind "$top/harness" "$r$top/harness"
		mount -o remount,bind,ro "$r$top/harness"
		exec chroot "$r" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin LLVM=1 "$@"' \
		_ "$RUST_ROOT" "$ROOT" "${pass[@]}" "$@"
}
