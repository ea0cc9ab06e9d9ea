#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# splat-guest.sh: /splat.sh of a test initramfs (harness/splat.sh overlay).
# Run after the tests: prints every kernel record of the run that matches
# /splat.re, since the console does not show them all (the selftest lowers
# the console level while it prints), the taint and lockdep's state.
dmesg -n 1
echo "msgid-splat: begin"
# The log must still start with the first record, else some were lost.
first=$(dmesg -s 134217728 | head -1)
case "$first" in
*"Linux version"*) ;;
*) echo "msgid-splat: the log wrapped, it starts with: $first" ;;
esac
# SysRq 'l', which the stress asks for, prints one "Call Trace:" after
# each "NMI backtrace for cpu N" on purpose: those are not splats.
dmesg -s 134217728 |
	awk '/NMI backtrace for cpu [0-9]+$/ { bt++ } /Call Trace:/ && bt > 0 { bt--; next } { print }' |
	grep -E -f /splat.re | sed 's/^/msgid-splat: /'
echo "msgid-splat: end (tainted $(cat /proc/sys/kernel/tainted)," \
	"$(grep -o 'debug_locks: *[0-9]*' /proc/lockdep_stats | tr -s ' '))"
