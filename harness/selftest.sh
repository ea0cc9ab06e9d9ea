#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# selftest.sh: the msgid kselftest in a booted kernel. Takes out/build/msgid
# (make kernel: CONFIG_TEST_MSGID=m is in x86_64.config), installs its modules and the kselftest
# (tools/testing/selftests/msgid) into a busybox initramfs with the
# harness's extended test: the out-of-tree module test_msgid_ext
# (harness/modules/test_msgid_ext, built against this kernel) and the
# program that drives it (harness/selftest-ext/msgid_ext.c, run by
# run_kselftest.sh before msgid_test), boots it under QEMU TCG with
# printk.msgid=1 and fails unless every TAP line is ok and the plans match. The KUnit suites built into the kernel do not run in
# this boot (kunit.enable=0): make check-debug runs them. The serial console is kept in out/selftest/console.log,
# the kernel's boot records with their identifiers, console style, in
# out/boot/boot.log (read by the tests of scripts/msgid-db.py).
#
# The hw/debug run (harness/selftest-hw.sh) sets, in the environment:
#   SELFTEST_KERNEL   the build in out/build/ (default msgid)
#   SELFTEST_WORK     its work directory (default out/selftest)
#   SELFTEST_BOOT_LOG where the boot records go (default out/boot/boot.log)
#   SELFTEST_OVERLAY  a directory laid over the initramfs (its own /run.sh)
#   SELFTEST_CMDLINE  more kernel parameters
#   SELFTEST_KUNIT    1: let the KUnit suites built in run at boot
#   SELFTEST_SKIP     the cases that may be SKIP (default "hw|rust": this boot
#                     has none of its devices), an extended regular
#                     expression ("hw|reload"); empty: none may
#   SELFTEST_ALL_WRAPPERS  1: the kernel has every wrapper the selftest
#                     knows, with callers: each must be indexed
#   SELFTEST_MAKE     the command that runs make for this kernel (default:
#                     make with the host's compiler; the Rust kernel's is
#                     harness/rust-make.sh, make in its build root)
# and QEMU_MEM, QEMU_EXTRA for harness/boot.sh.
set -eu
. "$(dirname "$0")/env.sh"
H=$ROOT/harness

name=${SELFTEST_KERNEL:-msgid}
dir=$BUILD/$name
work=${SELFTEST_WORK:-$OUT/selftest}
stage=$work/root
log=$work/console.log
boot_log=${SELFTEST_BOOT_LOG:-$OUT/boot/boot.log}
skip=${SELFTEST_SKIP-hw|rust}
# kmake ARGS...: make for this kernel's build.
kmake() {
	if [ -n "${SELFTEST_MAKE:-}" ]; then
		"$SELFTEST_MAKE" "$@"
	else
		make CC="$(kcc)" "$@"
	fi
}
timing=()

phase_end() { # NAME START
	local s=$(( $(date +%s) - $2 ))
	timing+=("$(printf '%-22s %4d s' "$1" "$s")")
	say "$1: $s s"
}

[ -d "$TREE/.git" ] || die "no $TREE: run harness/tree.sh first"
mkdir -p "$work" "$(dirname "$boot_log")"

[ -f "$dir/arch/x86/boot/bzImage" ] || die "no kernel in $dir: run harness/build.sh $name first"

t0=$(date +%s)
rm -rf "$stage"
mkdir -p "$stage"
kmake -s -C "$TREE" O="$dir" INSTALL_MOD_PATH="$stage" \
	INSTALL_MOD_STRIP=1 modules_install > "$work/modules_install.log" 2>&1 ||
	{ tail -20 "$work/modules_install.log" >&2; die "modules_install failed"; }
release=$(cat "$dir/include/config/kernel.release")
grep -q '^CONFIG_TEST_MSGID=y' "$dir/.config" ||
	find "$stage/lib/modules/$release" -name 'test_msgid.ko*' | grep -q . ||
	die "test_msgid.ko was not installed (CONFIG_TEST_MSGID=m?)"
# The extended test's module, out of tree against this kernel (objects in
# $dir/test_msgid_ext), installed beside the kernel's (updates/).
ext=$dir/test_msgid_ext
{ kmake -C "$TREE" O="$dir" M="$H/modules/test_msgid_ext" MO="$ext" modules &&
  kmake -C "$TREE" O="$dir" M="$H/modules/test_msgid_ext" MO="$ext" \
	INSTALL_MOD_PATH="$stage" INSTALL_MOD_STRIP=1 modules_install; } > "$work/ext-module.log" 2>&1 ||
	{ tail -20 "$work/ext-module.log" >&2; die "test_msgid_ext failed to build, see $work/ext-module.log"; }
if grep -E 'warning:|error:' "$work/ext-module.log" >&2; then
	die "warnings in the build of test_msgid_ext ($work/ext-module.log)"
fi
find "$stage/lib/modules/$release" -name 'test_msgid_ext.ko*' | grep -q . ||
	die "test_msgid_ext.ko was not installed"
# The kselftest build follows O= (objects in $dir/kselftest); install it
# with run_kselftest.sh into the initramfs.
kmake -C "$TREE/tools/testing/selftests" TARGETS=msgid O="$dir" \
	KSFT_INSTALL_PATH="$stage/kselftest" install > "$work/kselftest.log" 2>&1 ||
	{ tail -20 "$work/kselftest.log" >&2; die "kselftest build failed, see $work/kselftest.log"; }
if grep -E 'warning:|error:' "$work/kselftest.log" >&2; then
	die "warnings in the kselftest build ($work/kselftest.log)"
fi
[ -x "$stage/kselftest/msgid/msgid_test" ] || die "msgid_test was not installed"
# The extended test, with the tree's kselftest.h, run before msgid_test:
# what it reads of the log as the boot's records must be the boot's (the
# kselftest prints with the switch off and unloads its module).
if ! gcc -Wall -O2 -static -I "$TREE/tools/testing/selftests" -o "$stage/kselftest/msgid/msgid_ext" \
	"$H/selftest-ext/msgid_ext.c" > "$work/msgid_ext.log" 2>&1 || [ -s "$work/msgid_ext.log" ]; then
	cat "$work/msgid_ext.log" >&2
	die "harness/selftest-ext/msgid_ext.c does not build cleanly"
fi
list=$stage/kselftest/kselftest-list.txt
{ echo "msgid:msgid_ext"; cat "$list"; } > "$list.new" && mv "$list.new" "$list"
install -m 755 "$H/selftest-run.sh" "$stage/run.sh"
"$H/initramfs.sh" "$work/initramfs.cpio.gz" "$stage" ${SELFTEST_OVERLAY:+"$SELFTEST_OVERLAY"}
phase_end "install + initramfs" "$t0"

t0=$(date +%s)
# With DRM, bochs drives QEMU's standard VGA and DRM's
# core prints its debug messages (drm.debug=0x1) through DRM's wrappers:
# the kselftest's drm device case checks them.
drm=
grep -q '^CONFIG_DRM=y' "$dir/.config" && drm=drm.debug=0x1
kunit=
grep -q '^CONFIG_KUNIT=y' "$dir/.config" && [ "${SELFTEST_KUNIT:-0}" != 1 ] && kunit=kunit.enable=0
# Under KASAN (make kernel): 2 GiB, KASAN's shadow takes an eighth. The
# four vCPUs share one host thread (single-threaded TCG), and when the
# host is busy (make check builds beside this boot) the guest's RCU
# kthread can wait longer than the default 21 s stall timeout without
# anything wrong in the guest ("rcu_sched kthread starved"): 120 s still
# reports a real stall within the run.
kasan=
if grep -q '^CONFIG_KASAN=y' "$dir/.config"; then
	kasan=rcupdate.rcu_cpu_stall_timeout=120
	# no5lvl, a workaround for the base: on 5-level paging (-cpu max has
	# la57) a KASAN kernel of 7.3.4 reports "BUG: KASAN: wild-memory-access"
	# at a 5-level direct-map address (ff11..., in rcu_is_watching() here)
	# when an interrupt lands in identify_cpu(&boot_cpu_data) between the
	# memset of x86_capability and get_cpu_cap(): LA57 reads 0 there, so
	# KASAN's addr_has_metadata() takes the 4-level KASAN_SHADOW_START
	# (once in 11 boots of make check, 050bfbd). Not the series: the
	# window's code is the same bytes without it, and make la57-boots
	# counted on 5-level paging, -cpu max, 40 boots each: the base without
	# the series 5 reports, the series with printk.msgid=0 2, with =1 3
	# (the table: harness/research/la57-kasan.md); the same report
	# was posted upstream against 7.1-rc5, without this series ("[PATCH
	# v1] kasan: Fix false-positive wild-memory-access on x86 under
	# 5-level paging", https://lkml.iu.edu/2606.1/07330.html), and 7.3.4
	# has no fix. Drop no5lvl once the base has one. The KCSAN and
	# PREEMPT_RT kernels (no KASAN) keep 5-level paging.
	kasan="$kasan no5lvl"
	export QEMU_MEM=${QEMU_MEM:-2048}
fi
# 4 CPUs for the stress case (one printing kthread per CPU).
SMP=4 "$H/boot.sh" "$dir/arch/x86/boot/bzImage" "$work/initramfs.cpio.gz" "$log" \
	"printk.msgid=1 $drm $kunit $kasan ${SELFTEST_CMDLINE:-}" 900
phase_end "boot + test (QEMU)" "$t0"

# The kernel's records of the boot, as the guest dumped them.
sed -n 's/^msgid-boot: \(\[.*\)$/\1/p' "$log" > "$boot_log"
grep -q '^msgid-boot: end' "$log" || die "the boot log dump is incomplete ($log)"
n=$(wc -l < "$boot_log")
[ "$n" -gt 0 ] || die "no boot records in $log"
say "$n boot records in $boot_log, $(grep -c '^\[[ 0-9.]*\] ([0-9a-f]\{8\}): ' "$boot_log") with an identifier"

# The TAP output, printed again by the guest while the console was quiet.
tap=$work/tap.log
grep -q '^msgid-tap: end (run_kselftest.sh exit' "$log" || die "no complete TAP output in $log"
sed -n '/^msgid-tap: begin$/,/^msgid-tap: end /{/^msgid-tap: \(begin$\|end \)/d;s/^msgid-tap: //;p}' "$log" > "$tap"
echo "--- TAP (also in $tap)"
cat "$tap"
echo "---"

bad=0
# Outer plan (run_kselftest.sh: msgid_ext and msgid_test) and inner plans
# (each program's, prefixed "# "), added up.
outer_plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tap" | head -1)
outer_ok=$(grep -c '^ok [0-9]' "$tap" || true)
inner_plan=$(sed -n 's/^# 1\.\.\([0-9]*\)$/\1/p' "$tap" | awk '{ n += $1 } END { if (NR) print n }')
inner_ok=$(grep -c '^# ok [0-9]' "$tap" || true)
if grep -E '^(# )?not ok ' "$tap" >&2; then
	bad=1
fi
# A SKIP is a failure (the harness config provides everything), except
# for the case named by SELFTEST_SKIP: kselftest prints "ok N # SKIP name: ".
skipped=$(grep -E '^(# )?ok .*# *(SKIP|TODO|XFAIL)' "$tap" || true)
if [ -n "$skip" ]; then
	skipped=$(printf '%s\n' "$skipped" | grep -v -E "^# ok [0-9]+ # SKIP ($skip): " || true)
fi
if [ -n "$skipped" ]; then
	printf '%s\n' "$skipped" >&2
	echo "error: skipped tests (only '${skip:-none}' may be skipped in this boot)" >&2
	bad=1
fi
if [ "${outer_plan:-0}" != 2 ] || [ "$outer_ok" != "$outer_plan" ]; then
	echo "error: run_kselftest.sh: $outer_ok ok of plan ${outer_plan:-none} (2: msgid_ext, msgid_test)" >&2
	bad=1
fi
if [ -z "$inner_plan" ] || [ "$inner_ok" != "$inner_plan" ]; then
	echo "error: msgid_test and msgid_ext: $inner_ok ok of plans ${inner_plan:-none}" >&2
	bad=1
fi
# The kernels here carry every wrapper patch, and make kernel's (make
# selftest, check-debug) every wrapper and callers of each: there each
# wrapper the selftest knows must show its callers in the index (alone,
# the identifiers series leaves them unindexed, and the selftest then
# does not ask for them). A lean kernel may have no caller of one.
if ! grep -q '^# # indexed wrappers: ' "$tap"; then
	echo "error: msgid_test said nothing of the indexed wrappers" >&2
	bad=1
elif [ "${SELFTEST_ALL_WRAPPERS:-0}" = 1 ] &&
	grep '^# # indexed wrappers: .* not \(indexed \)\?in this kernel' "$tap" >&2; then
	echo "error: the overlay indexes every wrapper above, but this kernel's index does not show them" >&2
	bad=1
fi

echo "timings:"
printf '  %s\n' "${timing[@]}"
[ "$bad" = 0 ] || die "the msgid kselftest failed: TAP in $tap, console in $log"
say "msgid kselftest and extended test: $inner_ok/$inner_plan ok"
