#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# splat-guest.sh: /splat.sh of a test initramfs (harness/splat.sh overlay).
# Run after the tests: prints every kernel record of the run that matches
# /splat.re, since the console does not show them all (the selftest lowers
# the console level while it prints), the taint and lockdep's state.
dmesg -n 1
echo "msgid-splat: begin"
# Every record of the run, read from /dev/kmsg up to a mark written
# now (busybox's dmesg reads at most 16 MiB, less than a stress run
# prints; its awk reads /dev/kmsg with a buffer too small for some
# records): dd reads a record a read(), until the mark has come.
mark="msgid-splat: mark $$"
dd if=/dev/kmsg of=/tmp/kmsg.txt bs=8192 2>/dev/null &
reader=$!
echo "$mark" > /dev/kmsg
n=0
until tail -c 512 /tmp/kmsg.txt 2>/dev/null | grep -q "$mark"; do
	n=$((n + 1))
	if [ $n -gt 120 ]; then
		echo "msgid-splat: /dev/kmsg not read to its end in 120 s"
		break
	fi
	sleep 1
done
kill "$reader" 2>/dev/null
# The log must still start with the first record (seq 0), else some
# were lost.
first=$(head -n 1 /tmp/kmsg.txt)
case "$first" in
[0-9]*,0,*";Linux version"*) ;;
*) echo "msgid-splat: the log wrapped, it starts with: $first" ;;
esac
# SysRq 'l', which the stress asks for, prints one "Call Trace:" after
# each "NMI backtrace for cpu N" on purpose: those are not splats.
awk '/NMI backtrace for cpu [0-9]+$/ { bt++ } /Call Trace:/ && bt > 0 { bt--; next } { print }' /tmp/kmsg.txt |
	grep -E -f /splat.re | sed 's/^/msgid-splat: /'
echo "msgid-splat: $(wc -l < /tmp/kmsg.txt) lines of /dev/kmsg read"
rm -f /tmp/kmsg.txt
echo "msgid-splat: end (tainted $(cat /proc/sys/kernel/tainted)," \
	"$(grep -o 'debug_locks: *[0-9]*' /proc/lockdep_stats | tr -s ' '))"
