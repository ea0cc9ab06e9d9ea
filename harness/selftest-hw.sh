#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-hw.sh: the msgid kselftest on the debug kernel with devices.
# Takes out/build/debug (x86_64.config + hw-debug.config: e1000, ext4 on
# virtio-blk, lockdep, KASAN, UBSAN), makes an ext4 image, and boots it
# with 4 CPUs, an e1000 NIC and the image through harness/selftest.sh; the
# guest (harness/selftest-hw-run.sh) mounts the disk and brings eth0 up
# before the test, so its hw case runs (no SKIP allowed but the DRM cases:
# this kernel has no DRM, the lean one does). Then fails on any
# splat (lockdep, KASAN, UBSAN, WARN, BUG, might_sleep) in the console or
# in the kernel log of the run, on a taint (but TAINT_TEST, which the
# KUnit suites set), or when lockdep turned off. The KUnit suites built
# into this kernel ran at boot: their results are checked as make kunit
# checks them (harness/kunit.sh parse).
# Outputs in out/selftest-debug/.
set -eu
. "$(dirname "$0")/env.sh"
H=$ROOT/harness

name=debug
dir=$BUILD/$name
work=$OUT/selftest-debug
overlay=$work/overlay
img=$work/ext4.img
log=$work/console.log
t_all=$(date +%s)

[ -f "$dir/arch/x86/boot/bzImage" ] ||
	die "no kernel in $dir: run harness/build.sh $name with hw-debug.config first"
grep -q '^CONFIG_KASAN=y' "$dir/.config" || die "$dir is not the debug kernel (no KASAN)"
command -v mkfs.ext4 >/dev/null || die "mkfs.ext4 missing: run harness/deps.sh (e2fsprogs)"
mkdir -p "$work"

# The data disk: ext4 with one file the guest checks for.
rm -rf "$overlay" "$img"
mkdir -p "$overlay" "$work/disk"
echo "made by harness/selftest-hw.sh" > "$work/disk/msgid-hw"
# Inode tables and journal zeroed now, not by the guest in the background.
mkfs.ext4 -q -F -L msgid-hw -E lazy_itable_init=0,lazy_journal_init=0 \
	-d "$work/disk" "$img" 32M ||
	die "mkfs.ext4 failed"

"$H/splat.sh" overlay "$overlay"
install -m 755 "$H/selftest-hw-run.sh" "$overlay/run.sh"
install -m 755 "$H/selftest-run.sh" "$overlay/selftest-run.sh"

say "booting the debug kernel and running the kselftest (about 2 minutes: KASAN and lockdep under TCG)"
# 2 GiB: KASAN's shadow takes an eighth. A log buffer that holds the whole
# run, stress included, for the guest's scan. The four vCPUs share one
# host thread (single-threaded TCG), and when the host is busy the guest's
# RCU kthread can wait longer than the default 21 s stall timeout without
# anything wrong in the guest ("rcu_sched kthread starved", seen while a
# kernel built beside it): 120 s still reports a real stall within the run.
SELFTEST_KERNEL=$name SELFTEST_WORK=$work SELFTEST_BOOT_LOG=$work/boot.log \
	SELFTEST_OVERLAY=$overlay \
	SELFTEST_CMDLINE="log_buf_len=32M rcupdate.rcu_cpu_stall_timeout=120" \
	SELFTEST_SKIP='drm|drm device' QEMU_MEM=2048 \
	QEMU_EXTRA="-drive file=$img,format=raw,if=virtio -nic user,model=e1000" \
	"$H/selftest.sh"

bad=0
grep -q '^msgid-hw: /dev/vda mounted, eth0 up' "$log" || {
	grep '^msgid-hw: ' "$log" >&2
	die "the guest did not set the devices up, console in $log"
}
# The KUnit suites' results, printed by the guest from debugfs.
sed -n '/^msgid-kunit: begin/,/^msgid-kunit: end/p' "$log" | grep -v '^msgid-kunit: ' > "$work/kunit.ktap" || true
if grep '^msgid-kunit: no results' "$log" >&2 ||
	! "$H/kunit.sh" parse "$work/kunit.ktap" "$work/kunit.log"; then
	echo "error: the built-in KUnit suites did not all pass (out/selftest-debug/kunit.log)" >&2
	bad=1
fi
[ "$bad" = 0 ] || die "the built-in KUnit suites failed: console in $log"
# Running KUnit tests sets TAINT_TEST (1 << 18): nothing else may be set.
"$H/splat.sh" check "$log" 262144
say "KUnit passed, no splat, no taint but TAINT_TEST, lockdep on; check-debug took $(( $(date +%s) - t_all )) s"
