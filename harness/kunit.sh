#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# kunit.sh um|i386: run the printk msgid KUnit suite with the stock tool,
# natively on UML or on i386 under QEMU (TCG), where 64-bit arguments take
# two va_list slots, together with the kernel's own printf tests
# (lib/tests/printf_kunit.c), which must stay green with the series. The
# TAP output is kept in out/kunit-ARCH.log.
# kunit.sh parse KTAP OUT: the same checks on results the suites left in
# debugfs of a kernel that has them built in (make check-debug: x86_64,
# under lockdep and KASAN); the parsed output goes to OUT.
set -eu
. "$(dirname "$0")/env.sh"

# check LOG ARCH: every test passed, but for the printf suite's %p hashing
# cases, which skip themselves until the CRNG is ready (a guest under TCG
# has no entropy source that early), and on i386 the identifier cache
# test (32-bit kernels have no cache): any other skip fails the run.
check() {
	local log=$1 arch=$2 expected skips suite
	grep -qE 'Testing complete\. Ran [0-9]+ tests' "$log" ||
		die "KUnit on $arch: no test ran ($log)"
	! grep -E 'Testing complete\. Ran' "$log" |
		grep -vqE 'Testing complete\. Ran [0-9]+ tests: passed: [0-9]+(, skipped: [0-9]+)?$' ||
		die "KUnit on $arch: not every test passed ($log)"
	expected='(crng possibly not yet initialized.'
	[ "$arch" = i386 ] && expected="$expected
[SKIPPED] msgid_cache_test (32-bit kernels have no identifier cache)"
	# UML has no architecture CRC. The i386 guest (-cpu max, below) and
	# the x86_64 test kernel (harness/boot.sh) have PCLMULQDQ: there the
	# arch path must be tested.
	[ "$arch" = um ] && expected="$expected
[SKIPPED] msgid_arch_crc_test (no architecture crc32_le() here"
	skips=$(grep -F '[SKIPPED]' "$log" | grep -vF "$expected" || true)
	[ -z "$skips" ] || { echo "$skips" >&2; die "KUnit on $arch: tests skipped ($log)"; }
	suites="printk_msgid printf"
	# make check-debug's boot also loads harness/modules/msgid_kunit_ext.
	[ "$arch" = x86_64 ] && suites="$suites printk_msgid_ext printk_msgid_record_ext"
	for suite in $suites; do
		grep -qE "\[PASSED\] $suite( |\$)" "$log" ||
			die "KUnit on $arch: the $suite suite did not run ($log)"
	done
}

if [ "${1:-}" = parse ]; then
	ktap=$2 out=$3
	[ -s "$ktap" ] || die "no KUnit results in $ktap"
	: > "$out"
	# One KTAP document per suite (debugfs): kunit.py parses one at a time.
	split=$(mktemp -d)
	awk -v d="$split" '/^KTAP version/ { n++ } n { print > (d "/" n) }' "$ktap"
	for f in "$split"/*; do
		[ -e "$f" ] || die "no KTAP document in $ktap"
		"$TREE/tools/testing/kunit/kunit.py" parse "$f" >> "$out" 2>&1 ||
			{ cat "$out" >&2; rm -rf "$split"; die "KUnit results in $ktap: failures"; }
	done
	rm -rf "$split"
	grep -E '(Testing complete|\[PASSED\] (printk_msgid|printf)$)' "$out" >&2 || true
	check "$out" x86_64
	say "KUnit (built in, x86_64): every test passed, see $out"
	exit 0
fi

arch=$1
log=$OUT/kunit-$arch.log
# On i386 the suites need a console and nothing else: kunit.py's
# configuration (olddefconfig of the kunitconfig, 616 options =y) minus
# ACPI, the input layer and VT, the block layer, io_uring and AIO,
# tracing, machine checks, suspend, the IOMMU layer, the hypervisor
# guests, the CPU vendors but Intel, and the hardening that only costs
# compile time here leaves 513. QEMU's reboot at the end (-no-reboot)
# needs no ACPI.
extra=()
if [ "$arch" = i386 ]; then
	for opt in EXPERT=y ACPI=n VT=n INPUT=n HID=n BLOCK=n \
		IO_URING=n AIO=n FTRACE=n X86_MCE=n SUSPEND=n IOMMU_SUPPORT=n \
		PROFILING=n HYPERVISOR_GUEST=n COMPACTION=n PROCESSOR_SELECT=y \
		CPU_SUP_AMD=n CPU_SUP_HYGON=n CPU_SUP_CENTAUR=n CPU_SUP_ZHAOXIN=n \
		CPU_SUP_CYRIX_32=n CPU_SUP_TRANSMETA_32=n CPU_SUP_VORTEX_32=n \
		MITIGATION_RETPOLINE=n STACKPROTECTOR=n BUG=y; do
		extra+=(--kconfig_add "CONFIG_$opt")
	done
fi
case "$arch" in
um) eta="about 5 minutes" ;;
*) eta="about 10 minutes" ;;
esac
if [ "$arch" = i386 ]; then
	# kunit.py starts QEMU with KVM first: TCG only (harness/tcg/).
	QEMU_REAL=$(command -v qemu-system-i386) ||
		die "qemu-system-i386 missing: run harness/deps.sh (qemu-system-x86)"
	export QEMU_REAL
	export PATH="$ROOT/harness/tcg:$PATH"
	# A current CPU model, as every boot here (harness/boot.sh).
	extra+=(--qemu_args "-cpu max")
fi
say "KUnit printk_msgid on $arch ($eta cold on 2 cores)"
cd "$TREE"
t0=$(date +%s)
if ! ./tools/testing/kunit/kunit.py run --kunitconfig=kernel/printk \
	--kconfig_add CONFIG_PRINTF_KUNIT_TEST=y "${extra[@]}" \
	--arch="$arch" --build_dir="$(objdir "kunit-$arch")" --jobs="$(nproc)" \
	--timeout=900 --make_options "CC=$(kcc)" > "$log" 2>&1; then
	tail -40 "$log" >&2
	die "KUnit on $arch failed, full log in out/kunit-$arch.log"
fi
grep -E '^\[[0-9:]+\] (Testing complete|=+ \[PASSED\]|Ran|.*passed)' "$log" | tail -3 >&2 || true
check "$log" "$arch"
say "KUnit on $arch passed in $(( $(date +%s) - t0 )) s"
