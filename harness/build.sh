#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# build.sh NAME FRAGMENT...: configure and build a kernel (x86_64 bzImage,
# or with ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- an arm64 Image, and
# modules) in out/build/NAME. The build log is kept in
# out/build/NAME/build.log; warnings in our files fail the build.
set -eu
. "$(dirname "$0")/env.sh"

name=$1
dir=$BUILD/$name
"$(dirname "$0")/config.sh" "$@"
# Measured cold on 2 cores, the build alone (7.3.4): the lean kernel
# (x86_64.config) 10-12 minutes; the test kernel (make kernel: with the
# wrapper subsystems, KASAN and lockdep) 870 s. Beside another build
# (make check) each takes longer.
# The kernel of make demo (demo.config: no ACPI, SMP or block layer,
# 824 objects): make demo on a fresh clone, tree and boot included, took
# 464 s of CPU (user+sys), so its build about 3-4 minutes on 2 idle cores.
est=10
[ "$name" = demo ] && est=4
grep -q '^CONFIG_KASAN=y' "$dir/.config" && est=15
say "building out/build/$name (about $est minutes cold on 2 cores, seconds with a warm ccache)"
t0=$(date +%s)
cd "$TREE"
image=bzImage
[ "${ARCH:-x86_64}" = arm64 ] && image=Image
if ! make O="$dir" CC="$(kcc)" -j"$(nproc)" $image modules > "$dir/build.log" 2>&1; then
	grep -E 'error|Error' "$dir/build.log" | head -20 >&2
	die "kernel build failed, see out/build/$name/build.log"
fi
if grep -E "$OUR_WARNING_RE" "$dir/build.log" >&2; then
	die "warnings in our files (out/build/$name/build.log)"
fi
say "out/build/$name built in $(( $(date +%s) - t0 )) s"
