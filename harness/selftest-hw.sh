#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest-hw.sh: the msgid kselftest on the test kernel with devices.
# Takes out/build/msgid (make kernel: x86_64.config, wrappers.config and
# hw-debug.config: e1000, ext4 on virtio-blk, lockdep, KASAN, UBSAN, the
# KUnit suites), makes an ext4 image, and boots it with 4 CPUs, an e1000
# NIC and the image through harness/selftest.sh; the guest
# (harness/selftest-hw-run.sh) mounts the disk and brings eth0 up before
# the test, so its hw case runs (no SKIP allowed). Then fails on any
# splat (lockdep, KASAN, UBSAN, WARN, BUG, might_sleep) in the console or
# in the kernel log of the run, on a taint (but TAINT_TEST, which the
# KUnit suites set, and TAINT_OOT_MODULE, which the harness's modules
# set), or when lockdep turned off. The KUnit suites built
# into this kernel ran at boot, those of harness/modules/msgid_kunit_ext
# (built here against this kernel) when the guest loads it after the
# kselftest: their results are checked as make kunit checks them
# (harness/kunit.sh parse).
# Outputs in out/selftest-debug/.
set -eu
. "$(dirname "$0")/env.sh"
H=$ROOT/harness

name=msgid
dir=$BUILD/$name
work=$OUT/selftest-debug
overlay=$work/overlay
img=$work/ext4.img
log=$work/console.log
t_all=$(date +%s)

[ -f "$dir/arch/x86/boot/bzImage" ] ||
	die "no kernel in $dir: run make kernel first"
for opt in KASAN PROVE_LOCKING E1000 EXT4_FS KUNIT; do
	grep -q "^CONFIG_$opt=y" "$dir/.config" ||
		die "$dir has no CONFIG_$opt: not make kernel's configuration (run make kernel)"
done
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
# The KUnit cases the series does not send, out of tree against this kernel.
ext=$dir/msgid_kunit_ext
{ make CC="$(kcc)" -C "$TREE" O="$dir" M="$H/modules/msgid_kunit_ext" MO="$ext" modules &&
  cp "$ext/msgid_kunit_ext.ko" "$overlay/"; } > "$work/kunit-ext.log" 2>&1 ||
	{ tail -20 "$work/kunit-ext.log" >&2; die "msgid_kunit_ext failed to build, see $work/kunit-ext.log"; }
if grep -E 'warning:|error:' "$work/kunit-ext.log" >&2; then
	die "warnings in the build of msgid_kunit_ext ($work/kunit-ext.log)"
fi
install -m 755 "$H/selftest-hw-run.sh" "$overlay/run.sh"
install -m 755 "$H/selftest-run.sh" "$overlay/selftest-run.sh"

say "booting the test kernel with devices and running KUnit and the kselftest (about 2 minutes: KASAN and lockdep under TCG)"
# A log buffer that holds the whole run, stress included, for the guest's
# scan. selftest.sh gives a KASAN kernel its memory and RCU stall timeout.
SELFTEST_KERNEL=$name SELFTEST_WORK=$work SELFTEST_BOOT_LOG=$work/boot.log SELFTEST_ALL_WRAPPERS=1 \
	SELFTEST_OVERLAY=$overlay SELFTEST_KUNIT=1 \
	SELFTEST_CMDLINE="log_buf_len=32M" SELFTEST_SKIP=rust \
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
# Running KUnit tests sets TAINT_TEST (1 << 18), loading the harness's
# out-of-tree modules TAINT_OOT_MODULE (1 << 12): nothing else may be set.
"$H/splat.sh" check "$log" $(( (1 << 18) | (1 << 12) ))
say "KUnit passed, no splat, no taint but TAINT_TEST and TAINT_OOT_MODULE, lockdep on; check-debug took $(( $(date +%s) - t_all )) s"
