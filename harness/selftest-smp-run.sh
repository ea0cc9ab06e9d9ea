#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# selftest-smp-run.sh: /run.sh of the check-smp and check-rt initramfs
# (set up by harness/check-smp.sh and harness/check-rt.sh). Runs the
# kselftest through /selftest-run.sh, then prints KCSAN's counters (where
# the kernel has KCSAN) and runs /splat.sh (harness/splat-guest.sh).
/selftest-run.sh
rc=$?
dmesg -n 1
# "enabled: 1", "used_watchpoints", "setup_watchpoints", "data_races", ...
[ -e /sys/kernel/debug/kcsan ] &&
	echo "msgid-kcsan: $(tr '\n' ' ' < /sys/kernel/debug/kcsan)"
/splat.sh
exit "$rc"
