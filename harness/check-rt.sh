#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-rt.sh: the msgid kselftest on out/build/rt (x86_64.config +
# distro.config + rt.config: PREEMPT_RT, lockdep), booted with 4 vCPUs
# and -cpu max. On RT, printk's consoles print from their own kthreads
# and most interrupt handlers are threads: the stress prints from every
# CPU, a soft irq timer, a hard hrtimer and NMI while the switch flips.
# Fails on any failed case, splat (lockdep, WARNING, BUG, might_sleep)
# or taint. Outputs in out/selftest-rt/.
set -eu
. "$(dirname "$0")/env.sh"
H=$ROOT/harness

name=rt
dir=$BUILD/$name
work=$OUT/selftest-rt
overlay=$work/overlay
log=$work/console.log
t0=$(date +%s)

[ -f "$dir/arch/x86/boot/bzImage" ] ||
	die "no kernel in $dir: run make kernel-rt first"
grep -q '^CONFIG_PREEMPT_RT=y' "$dir/.config" || die "$dir is not the PREEMPT_RT kernel (run make kernel-rt)"
mkdir -p "$work"
rm -rf "$overlay"
"$H/splat.sh" overlay "$overlay"
install -m 755 "$H/selftest-smp-run.sh" "$overlay/run.sh"
install -m 755 "$H/selftest-run.sh" "$overlay/selftest-run.sh"

say "booting the PREEMPT_RT kernel on 4 vCPUs and running the kselftest (about 2 minutes)"
# No devices (hw), no DRM in this configuration.
SELFTEST_KERNEL=$name SELFTEST_WORK=$work SELFTEST_BOOT_LOG=$work/boot.log \
	SELFTEST_OVERLAY=$overlay SELFTEST_SKIP='hw|drm|drm device|rust' \
	SELFTEST_CMDLINE="log_buf_len=128M rcupdate.rcu_cpu_stall_timeout=120" \
	"$H/selftest.sh"

echo "what the stress checked:"
grep -E '^# (# )?stress: ' "$work/tap.log" | sed 's/^# \(# \)\?/  /'
# TAINT_OOT_MODULE only: the extended test's module is out of tree.
"$H/splat.sh" check "$log" $((1 << 12))
say "check-rt: every case passed on PREEMPT_RT, no splat, no taint; $(( $(date +%s) - t0 )) s"
