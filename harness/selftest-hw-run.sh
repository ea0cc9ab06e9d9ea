#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# selftest-hw-run.sh: /run.sh of the hw/debug selftest initramfs (set up by
# harness/selftest-hw.sh). Mounts the ext4 disk and brings the e1000 NIC
# up, so that their drivers' records exist, runs the kselftest through
# /selftest-run.sh with MSGID_TEST_HW=1, loads the harness's KUnit module
# (/msgid_kunit_ext.ko), then prints the results of the KUnit suites, built
# in and of that module, and runs /splat.sh (harness/splat-guest.sh).

fail() { echo "msgid-hw: $*"; exit 1; }

echo "msgid-hw: begin"
mkdir -p /mnt
mount -t ext4 /dev/vda /mnt || fail "cannot mount /dev/vda (ext4)"
[ -f /mnt/msgid-hw ] || fail "/dev/vda is not the disk made by the harness"
{ echo "written by the guest" > /mnt/guest && sync; } || fail "cannot write to /mnt"
ip link set eth0 up || fail "cannot bring eth0 up (e1000)"
# e1000 reports the link from its watchdog; wait up to 10 s for it, so that
# its record is among those of the boot the test checks.
i=0
while [ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" != 1 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
echo "msgid-hw: /dev/vda mounted, eth0 up (carrier $(cat /sys/class/net/eth0/carrier))"

MSGID_TEST_HW=1 /selftest-run.sh
rc=$?

umount /mnt || rc=1
# The harness's KUnit module: its suites run when it loads, and it stays
# loaded, so that their results stay in debugfs.
insmod /msgid_kunit_ext.ko || { echo "msgid-kunit: no results: insmod msgid_kunit_ext.ko failed"; rc=1; }
dmesg -n 1
# The KUnit suites built into this kernel ran at boot: their KTAP results,
# as KUnit keeps them, for the host to parse (harness/kunit.sh parse).
echo "msgid-kunit: begin"
for results in /sys/kernel/debug/kunit/*/results; do
	cat "$results" 2>/dev/null || echo "msgid-kunit: no results in $results"
done
echo "msgid-kunit: end"
/splat.sh
exit "$rc"
