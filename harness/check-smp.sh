#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-smp.sh: the msgid kselftest on out/build/smp (x86_64.config +
# smp-kcsan.config: KCSAN strict, lockdep, CONFIG_JUMP_LABEL=n and
# test_msgid built in; the stress is the module test_msgid_ext), booted
# with 4 vCPUs under multi-threaded TCG, so that the CPUs print at the
# same time: the stress case prints from every CPU, in task, soft irq,
# hard irq and NMI context, and the NMI backtraces it asks for run the
# identifier cache on built-in formats from every CPU, while the switch
# flips and the counters are read.
# Fails on any failed case, KCSAN report in the series' code, lockdep
# splat or taint (KCSAN reports of other code are listed). Prints what
# the stress checked. Outputs in out/selftest-smp/.
set -eu
. "$(dirname "$0")/env.sh"
H=$ROOT/harness

name=smp
dir=$BUILD/$name
work=$OUT/selftest-smp
overlay=$work/overlay
log=$work/console.log
t0=$(date +%s)

[ -f "$dir/arch/x86/boot/bzImage" ] ||
	die "no kernel in $dir: run harness/build.sh $name with smp-kcsan.config first"
grep -q '^CONFIG_KCSAN=y' "$dir/.config" || die "$dir is not the KCSAN kernel"
grep -q '^CONFIG_JUMP_LABEL=y' "$dir/.config" &&
	die "$dir has CONFIG_JUMP_LABEL=y: multi-threaded TCG runs stale patched text"
mkdir -p "$work"
rm -rf "$overlay"
"$H/splat.sh" overlay "$overlay"
install -m 755 "$H/selftest-smp-run.sh" "$overlay/run.sh"
install -m 755 "$H/selftest-run.sh" "$overlay/selftest-run.sh"

# KCSAN watches one memory access in 4000 by default; one in 500 here, and
# the stress runs 5 s instead of 3, so that a run of a minute or two sees
# a race in the cache or the counters if there is one.
# MSGID_STRESS_MS reaches the extended test through init's environment.
kcsan="kcsan.skip_watch=${KCSAN_SKIP_WATCH:-500} MSGID_STRESS_MS=5000"
say "booting the KCSAN kernel on 4 vCPUs, one host thread each, and running the kselftest (minutes)"
# This boot has no devices for the hw case: it skips (reload may: it did
# while the stress module was built in).
SELFTEST_KERNEL=$name SELFTEST_WORK=$work SELFTEST_BOOT_LOG=$work/boot.log \
	SELFTEST_OVERLAY=$overlay SELFTEST_SKIP='hw|reload|drm|drm device|rust' TCG_THREAD=multi \
	SELFTEST_CMDLINE="log_buf_len=32M rcupdate.rcu_cpu_stall_timeout=120 $kcsan" \
	"$H/selftest.sh"

echo "what the stress checked:"
grep -E '^# (# )?stress: ' "$work/tap.log" | sed 's/^# \(# \)\?/  /'
sed -n 's/^msgid-kcsan: /  KCSAN: /p' "$log"
# A KCSAN report whose two functions are both outside the series and the
# code it runs through (the kernel's own races, such as the clocksource
# watchdog's at boot, seen once in 4 runs) is listed and does not fail
# the run; every other report, and every other splat, does.
ours='msgid|printk|vprintk|vsnprintf|vsprintf|format_decode|prb_|console|test_msgid|kmsg'
grep -a 'BUG: KCSAN: ' "$log" | sed 's/^.*BUG: KCSAN: //' | sort -u > "$work/kcsan.txt" || true
grep -vE "$ours" "$work/kcsan.txt" > "$work/kcsan-foreign.txt" || true
if [ -s "$work/kcsan-foreign.txt" ]; then
	echo "KCSAN reports outside the series (listed, not failed):"
	sed 's/^/  /' "$work/kcsan-foreign.txt"
fi
grep -v -a -F -f <(sed 's/^/BUG: KCSAN: /' "$work/kcsan-foreign.txt") "$log" > "$work/console.ours" || true
# TAINT_OOT_MODULE only: the extended test's module is out of tree.
"$H/splat.sh" check "$work/console.ours" $((1 << 12))
say "check-smp: no KCSAN report in the series' code, no splat, no taint; $(( $(date +%s) - t0 )) s"
