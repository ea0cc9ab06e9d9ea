#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# demo.sh: boot the patched kernel (out/build/msgid) with printk.msgid=1,
# show its log with identifiers, build the database from the booted
# kernel's printk index and use it: annotate, lookup, explain.
set -eu
. "$(dirname "$0")/env.sh"

kdir=$BUILD/msgid
d=$OUT/demo
db=$d/msgid.db
tool=$ROOT/msgid-tools/msgid-db
rm -rf "$d"
mkdir -p "$d/root" "$d/index"
make -s -C "$TREE" O="$kdir" INSTALL_MOD_PATH="$d/root" INSTALL_MOD_STRIP=1 modules_install
cp "$ROOT/harness/demo-run.sh" "$d/root/run.sh"
chmod +x "$d/root/run.sh"
"$ROOT/harness/initramfs.sh" "$d/initrd.cpio.gz" "$d/root"
# loglevel=1 keeps the console for the script's output; dmesg prints the log.
# no5lvl: 4-level paging under KASAN, see harness/selftest.sh.
# make kernel is the test kernel: its KUnit suites stay off (make
# check-debug runs them), and KASAN's shadow wants the memory.
say "booting the test kernel (KASAN and lockdep under QEMU TCG: about a minute)"
QEMU_MEM=2048 "$ROOT/harness/boot.sh" "$kdir/arch/x86/boot/bzImage" "$d/initrd.cpio.gz" "$d/console.log" \
	"printk.msgid=1 loglevel=1 kunit.enable=0 no5lvl" 300

awk -v d="$d" '
	/^=== msgid-demo end/ { out = ""; next }
	/^=== msgid-demo dmesg/ { out = d "/dmesg.txt"; next }
	/^=== msgid-demo classes/ { out = d "/classes.txt"; next }
	/^=== msgid-demo index / { out = d "/index/" $4; next }
	out != "" { print > out }
' "$d/console.log"
[ -s "$d/dmesg.txt" ] || die "no dmesg in $d/console.log"

hw=$(grep -m1 -o '([0-9a-f]\{8\}): test_msgid: \[Firmware Info\]' "$d/dmesg.txt" | cut -c2-9) ||
	die "the test module's tagged message is not in the log ($d/dmesg.txt)"

section() { printf '\n\033[1m### %s\033[0m\n' "$*"; }

section "Boot log of the patched kernel, booted with printk.msgid=1 (first 20 identified records)"
grep -m20 '^\[[ 0-9.]*\] ([0-9a-f]\{8\}): ' "$d/dmesg.txt"
echo "... $(grep -c '^\[[ 0-9.]*\] ([0-9a-f]\{8\}): ' "$d/dmesg.txt") records with an identifier in all"

section "Class counters: <debugfs>/printk/msgid"
cat "$d/classes.txt"

section "Database from the booted kernel's printk index: msgid-db build --index-dir"
"$tool" build --index-dir "$d/index" -o "$db"
"$tool" --db "$db" stats

section "msgid-db annotate: the log with call sites (records 30-40)"
grep '^\[[ 0-9.]*\] ([0-9a-f]\{8\}): ' "$d/dmesg.txt" | sed -n 30,40p | "$tool" --db "$db" annotate

section "Records printed before printk.msgid=1 was parsed, identified by their text: msgid-db annotate (~> marks a matched ID)"
sed '/^\[[ 0-9.]*\] ([0-9a-f]\{8\}): /,$d' "$d/dmesg.txt" |
	"$tool" --db "$db" annotate

section "The test module's tagged message: msgid-db lookup $hw"
grep -m1 "($hw): " "$d/dmesg.txt"
"$tool" --db "$db" lookup "$hw"

section "msgid-db explain $hw"
"$tool" --db "$db" explain "$hw"

section "msgid-db list --class firmware-info"
"$tool" --db "$db" list --class firmware-info
