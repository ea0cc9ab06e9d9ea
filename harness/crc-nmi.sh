#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# crc-nmi.sh FRAGMENT...: "lib/crc: x86: Don't ask for the FPU in NMI context" is what
# keeps printk's identifiers from warning in NMI context, and without it
# the warning comes back. Boots the test kernel (make kernel) and the same
# kernel built with that patch reverted from make kernel's config FRAGMENTs
# (out/build/crc-nmi, from a copy of
# out/linux: ccache answers for every object but lib/crc's), each on
# -cpu max (PCLMULQDQ, CONFIG_CRC_OPTIMIZATIONS=y) with printk.msgid=1, and
# writes 'l' to /proc/sysrq-trigger: every other CPU prints its backtrace
# from NMI, formats printed there for the first time are hashed there with
# crc32_le(). The test kernel must print no WARNING, the reverted one
# irq_fpu_usable()'s. About 5 minutes with a warm ccache (2 builds'
# links, 2 boots), 20 cold.
set -eu
. "$(dirname "$0")/env.sh"
H=$ROOT/harness

fixed=$BUILD/msgid
[ -f "$fixed/arch/x86/boot/bzImage" ] || die "no kernel in $fixed: run make kernel first"
work=$OUT/crc-nmi
copy=$work/linux
mkdir -p "$work"

# The tree with the fix reverted: hard links to out/linux's files (but
# build directories), then the fix's diff applied in reverse (patch
# writes new files, so out/linux's stay as they are).
say "copying out/linux with the lib/crc fix reverted (about a minute)"
rsync -a --delete --exclude='/build-*' --exclude=/.git --link-dest="$TREE" "$TREE/" "$copy/"
git -C "$TREE" diff base -- lib/crc/x86 > "$work/fix.diff"
[ -s "$work/fix.diff" ] || die "no lib/crc/x86 change in out/linux against base: is the fix in the repo?"
(cd "$copy" && patch -s -R -p1 < "$work/fix.diff") || die "the fix does not revert cleanly"
TREE=$copy "$H/build.sh" crc-nmi "$@"
reverted=$BUILD/crc-nmi

mkdir -p "$work/overlay"
cat > "$work/overlay/run.sh" <<'RUN'
#!/bin/sh
echo l > /proc/sysrq-trigger
sleep 5
dmesg | sed 's/^/msgid-dmesg: /'
RUN
chmod +x "$work/overlay/run.sh"
"$H/initramfs.sh" "$work/initramfs.cpio.gz" "$work/overlay"

# boot KERNEL-DIR LOG: the run above, as make selftest boots (KASAN:
# 2 GiB, 4-level paging, a longer RCU stall timeout)
boot() {
	QEMU_MEM=2048 SMP=2 "$H/boot.sh" "$1/arch/x86/boot/bzImage" "$work/initramfs.cpio.gz" "$2" \
		"printk.msgid=1 kunit.enable=0 rcupdate.rcu_cpu_stall_timeout=120 no5lvl" 600
	grep -q '^msgid-dmesg: .*NMI backtrace for cpu 1' "$2" ||
		die "no NMI backtrace of cpu 1 in $2"
}

bad=0
boot "$fixed" "$work/fixed.log"
if grep -E '(WARNING|BUG):' "$work/fixed.log" >&2; then
	echo "error: the test kernel warned in the NMI backtraces (lines above, $work/fixed.log)" >&2
	bad=1
else
	say "with the fix: NMI backtraces, no WARNING"
fi
boot "$reverted" "$work/reverted.log"
if grep -E 'WARNING: .*irq_fpu_usable' "$work/reverted.log" >&2; then
	say "with the fix reverted: irq_fpu_usable()'s WARNING, as expected"
else
	echo "error: with the fix reverted there was no irq_fpu_usable() WARNING ($work/reverted.log):" \
		"this test no longer shows what the fix is for" >&2
	bad=1
fi
exit $bad
