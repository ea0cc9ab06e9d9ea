#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rust-root.sh: make out/rust-root/, a Debian 13 (trixie) build root with
# the Rust toolchain Linux 7.3 needs for CONFIG_RUST=y and LLVM=1 (the
# package set is in rust-lib.sh), with debootstrap through the Debian
# mirror the host's apt uses (env.sh's DEBIAN_MIRROR). Nothing is
# installed on the host. Cached: the root's stamp names the package set,
# and a second run does nothing; a root without a matching stamp (another
# set, or a run that was interrupted) is removed and made again.
# out/rust-root/.harness-rust-root.info says what the run took (download,
# size, time) and the versions of the tools.
set -eu
. "$(dirname "$0")/env.sh"
. "$(dirname "$0")/rust-lib.sh"

rel=${RUST_ROOT#"$ROOT"/}
rust_lock exclusive
if rust_root_ready; then
	say "$rel is ready ($(head -1 "$RUST_INFO" 2>/dev/null))"
	exit 0
fi
command -v debootstrap >/dev/null || die "debootstrap missing (make deps)"
[ -n "$DEBIAN_MIRROR" ] || die "no Debian mirror in the host's apt sources (/etc/apt): set DEBIAN_MIRROR"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[ -f "$keyring" ] || die "$keyring missing (debian-archive-keyring)"

if [ -e "$RUST_ROOT" ]; then
	say "$rel has no stamp for this package set (an interrupted run, or another set): removing it"
	rust_umount_all
	# --one-file-system: never into a mount the check above missed.
	rm -rf --one-file-system "$RUST_ROOT"
fi
log=$RUST_ROOT.log
say "making $rel: debootstrap $RUST_SUITE with rustc, bindgen, clang, lld (several minutes: about 1 GB unpacked; log in $rel.log)"
t0=$(date +%s)
mkdir -p "$RUST_ROOT"
# In a mount namespace of its own: the mounts debootstrap makes in the
# root (proc, sys) go with it, also if it fails or is killed.
if ! unshare --mount --propagation private debootstrap --variant=minbase --arch=amd64 --keyring="$keyring" \
		--include="$(echo $RUST_PKGS | tr ' ' ,)" \
		"$RUST_SUITE" "$RUST_ROOT" "$DEBIAN_MIRROR/debian" > "$log" 2>&1; then
	tail -5 "$log" >&2
	grep -h -E '^(E|W):' "$RUST_ROOT/debootstrap/debootstrap.log" 2>/dev/null | tail -5 >&2 || true
	die "debootstrap failed, see $rel.log (the root is made again on the next run)"
fi
# What was downloaded: the packages debootstrap left in the root's cache.
dl=$(find "$RUST_ROOT/var/cache/apt/archives" -name '*.deb' -printf '%s\n' | awk '{ s += $1 } END { printf "%d", s / 1048576 }')
rm -f "$RUST_ROOT"/var/cache/apt/archives/*.deb
rm -rf "$RUST_ROOT"/var/lib/apt/lists/*
t=$(( $(date +%s) - t0 ))
size=$(du -sxm "$RUST_ROOT" | cut -f1)
vers=$(chroot "$RUST_ROOT" dpkg-query -W -f='${Package} ${Version}\n' rustc rust-src bindgen clang lld llvm libclang-dev)
printf 'download %d MB, root %d MB, made in %d s\n%s\n' "$dl" "$size" "$t" "$vers" > "$RUST_INFO"
rust_stamp_want > "$RUST_STAMP"
say "$rel made in $t s: download $dl MB, root $size MB"
printf '%s\n' "$vers" | sed 's/^/    /' >&2
