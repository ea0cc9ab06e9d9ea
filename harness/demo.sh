#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh: boot the demo kernel (out/build/demo, make kernel-demo: lean,
# without the test kernel's KASAN and lockdep) with printk.msgid=1 and an
# e1000 NIC, show its log with identifiers, build the database from the
# booted kernel's printk index and use it: lookup, annotate, explain.
set -eu
. "$(dirname "$0")/env.sh"

kdir=$BUILD/demo
d=$OUT/demo
db=$d/msgid.db
tool=$ROOT/msgid-tools/msgid-db
[ -f "$kdir/arch/x86/boot/bzImage" ] || die "no out/build/demo/arch/x86/boot/bzImage: run make kernel-demo"
rm -rf "$d"
mkdir -p "$d/root" "$d/index"
make -s -C "$TREE" O="$kdir" INSTALL_MOD_PATH="$d/root" INSTALL_MOD_STRIP=1 modules_install
cp "$ROOT/harness/demo-run.sh" "$d/root/run.sh"
chmod +x "$d/root/run.sh"
"$ROOT/harness/initramfs.sh" "$d/initrd.cpio.gz" "$d/root"
# loglevel=1 keeps the console for the script's output; dmesg prints the log.
# One CPU, no disk; an e1000 NIC, whose probe prints through netdev_info().
say "booting the demo kernel under QEMU TCG (about 10 s on an idle machine)"
SMP=1 QEMU_MEM=256 QEMU_EXTRA="-nic user,model=e1000" \
	"$ROOT/harness/boot.sh" "$kdir/arch/x86/boot/bzImage" "$d/initrd.cpio.gz" "$d/console.log" \
	"printk.msgid=1 loglevel=1" 120

awk -v d="$d" '
	/^=== msgid-demo end/ { out = ""; next }
	/^=== msgid-demo dmesg/ { out = d "/dmesg.txt"; next }
	/^=== msgid-demo classes/ { out = d "/classes.txt"; next }
	/^=== msgid-demo index / { out = d "/index/" $4; next }
	out != "" { print > out }
' "$d/console.log"
[ -s "$d/dmesg.txt" ] || die "no dmesg in $d/console.log"

idre='^\[[ 0-9.]*\] ([0-9a-f]\{8\}): '
first_id() { grep -m1 -o "$1" "$d/dmesg.txt" | cut -c2-9; }
fw=$(first_id '([0-9a-f]\{8\}): test_msgid: \[Firmware Info\]') ||
	die "the test module's tagged message is not in the log ($d/dmesg.txt)"
first_id '([0-9a-f]\{8\}): e1000 [0-9a-f:.]* eth0: Intel(R) PRO/1000 Network Connection' >/dev/null ||
	die "e1000's probe message is not in the log ($d/dmesg.txt): was QEMU given the NIC?"

section() { printf '\n\033[1m### %s\033[0m\n' "$*"; }

section "Boot log of the patched kernel, booted with printk.msgid=1 (first 20 identified records)"
grep -m20 "$idre" "$d/dmesg.txt"
echo "... $(grep -c "$idre" "$d/dmesg.txt") records with an identifier in all"

section "Class counters: <debugfs>/printk/msgid"
cat "$d/classes.txt"

section "Database from the booted kernel's printk index: msgid-db build --index-dir"
"$tool" build --index-dir "$d/index" -o "$db"
"$tool" --db "$db" stats

section "The e1000 NIC's records: msgid-db annotate (each ID is the format of the driver's or the PCI core's call, not of dev_printk() or netdev_info())"
grep "$idre"'.*\(pci 0000:00:03\.0\|e1000\)' "$d/dmesg.txt" | "$tool" --db "$db" annotate

section "msgid-db annotate: the log with call sites (records 30-40)"
grep "$idre" "$d/dmesg.txt" | sed -n 30,40p | "$tool" --db "$db" annotate

section "Records printed before printk.msgid=1 was parsed, identified by their text: msgid-db annotate (~> marks a matched ID)"
sed "/$idre/,\$d" "$d/dmesg.txt" | "$tool" --db "$db" annotate

section "The test module's tagged message: msgid-db lookup $fw"
grep -m1 "($fw): " "$d/dmesg.txt"
"$tool" --db "$db" lookup "$fw"

section "msgid-db explain $fw"
"$tool" --db "$db" explain "$fw"

section "msgid-db list --class firmware-info"
"$tool" --db "$db" list --class firmware-info
