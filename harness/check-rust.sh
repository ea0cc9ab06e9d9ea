#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# check-rust.sh: the msgid kselftest on out/build/rust (make kernel-rust:
# CONFIG_RUST=y, built with LLVM=1 in out/rust-root, with the Rust print
# sample and lib/test_msgid_rust.rs built in), booted with -cpu max and
# the KUnit suites built in running first. Its rust case checks that
# every record of the Rust test module carries the identifier of its own
# format string literal and that the live printk index lists each
# literal at its file:line; the KUnit suite printk_msgid_rust checks the
# rule on the Rust side. Then it counts the identifiers of the Rust
# print sample's records. Outputs in out/selftest-rust/.
set -eu
. "$(dirname "$0")/env.sh"
H=$ROOT/harness

name=rust
dir=$BUILD/$name
work=$OUT/selftest-rust
log=$work/console.log
t0=$(date +%s)

[ -f "$dir/arch/x86/boot/bzImage" ] || die "no kernel in $dir: run make kernel-rust first"
grep -q '^CONFIG_TEST_MSGID_RUST=y' "$dir/.config" ||
	die "$dir has no CONFIG_TEST_MSGID_RUST=y (make kernel-rust)"
mkdir -p "$work"
overlay=$work/overlay
rm -rf "$overlay"
"$H/splat.sh" overlay "$overlay"
install -m 755 "$H/selftest-smp-run.sh" "$overlay/run.sh"
install -m 755 "$H/selftest-run.sh" "$overlay/selftest-run.sh"
say "booting the Rust kernel and running KUnit and the kselftest (minutes)"
# No devices (hw), no DRM in this configuration. This lean kernel prints
# fast: its stress (270,000 records in 9.5 s, one run) overran a 32 MiB
# log, which the guest's splat scan must read whole; 1 s of module
# stress and 128 MiB.
SELFTEST_KERNEL=$name SELFTEST_WORK=$work SELFTEST_BOOT_LOG=$work/boot.log \
	SELFTEST_OVERLAY=$overlay SELFTEST_SKIP='hw|drm|drm device' SELFTEST_KUNIT=1 \
	SELFTEST_CMDLINE="log_buf_len=128M MSGID_STRESS_MS=1000" \
	SELFTEST_MAKE="$H/rust-make.sh" "$H/selftest.sh"

# The KUnit suite of lib/test_msgid_rust.rs ran, and passed.
grep -E '(not )?ok [0-9]+ printk_msgid_rust' "$log" >&2 ||
	die "the KUnit suite printk_msgid_rust did not run ($log)"
grep -q -E 'not ok [0-9]+ printk_msgid_rust' "$log" &&
	die "the KUnit suite printk_msgid_rust failed ($log)"
# Running KUnit tests sets TAINT_TEST (1 << 18): nothing else may be set.
# TAINT_TEST (KUnit) and TAINT_OOT_MODULE (the extended test's module).
"$H/splat.sh" check "$log" $(( (1 << 18) | (1 << 12) ))

# The Rust print sample (samples/rust/rust_print_main.rs): its records,
# and how many identifiers they carry (one per literal, not one for all).
sample=$(grep -c '^\[[ 0-9.]*\] ([0-9a-f]\{8\}): rust_print: ' "$work/boot.log" || true)
ids=$(sed -n 's/^\[[ 0-9.]*\] (\([0-9a-f]\{8\}\)): rust_print: .*/\1/p' "$work/boot.log" | sort -u | wc -l)
[ "$sample" -gt 0 ] || die "no record of the Rust print sample with an identifier in $work/boot.log"
say "rust_print sample: $sample records with $ids distinct identifiers"
say "check-rust: the kselftest and printk_msgid_rust passed on the Rust kernel; $(( $(date +%s) - t0 )) s"
