#!/bin/sh
# Guest side of `make demo` (busybox): load the test module, print its
# messages (a FW_INFO-tagged one among them), and dump the log, the printk index and the
# class counters between markers the host splits on.
insmod /lib/modules/*/kernel/lib/test_msgid.ko || echo "msgid-demo: no test module"
echo 1 > /sys/kernel/debug/test_msgid/emit
echo "=== msgid-demo dmesg"
dmesg
for f in /sys/kernel/debug/printk/index/*; do
	echo "=== msgid-demo index ${f##*/}"
	cat "$f"
done
echo "=== msgid-demo classes"
cat /sys/kernel/debug/printk/msgid
echo "=== msgid-demo end"
# The demo kernel has no ACPI, so the init's power-off would not reach
# QEMU (the kernel halts, init exits, and the kernel panics): a reboot
# does, and QEMU -no-reboot exits.
echo "msgid-init: done"
reboot -f
