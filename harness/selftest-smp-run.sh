#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# selftest-smp-run.sh: /run.sh of the check-smp initramfs (set up by
# harness/check-smp.sh). Runs the kselftest through /selftest-run.sh, then
# prints KCSAN's counters and runs /splat.sh (harness/splat-guest.sh).
/selftest-run.sh
rc=$?
dmesg -n 1
# "enabled: 1", "used_watchpoints", "setup_watchpoints", "data_races", ...
echo "msgid-kcsan: $(tr '\n' ' ' < /sys/kernel/debug/kcsan)"
/splat.sh
exit "$rc"
