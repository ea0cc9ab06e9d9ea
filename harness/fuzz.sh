#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fuzz.sh: fuzz kernel/printk/msgid.c in user space with libFuzzer + ASan +
# UBSan (issue 8). kernel/printk/msgid.c itself is compiled, against the
# shim headers in harness/fuzz/include only (never the base kernel's
# headers: the dependency list is checked), with the target
# harness/fuzz/fuzz_msgid.c, into $OUT/fuzz/. Then:
#
#   1. a campaign of FUZZ_SECONDS (60) on a fresh copy of the seeds
#      harness/fuzz/corpus in $OUT/fuzz/corpus, with the dictionary
#      harness/fuzz/msgid.dict; new inputs and crashes stay in $OUT/fuzz;
#   2. the corpus it grew, replayed once through a second build without
#      CONFIG_64BIT (msgid.c's identifier cache compiled out), and once
#      through a third without CONFIG_MODULES (the cache, but no module
#      formats kept and no module notifier).
#
# Prints the number of executions; exits non-zero on any crash, sanitizer
# report or failed check. Takes FUZZ_SECONDS plus about 15 s of build.
# FUZZ_SECONDS=600 harness/fuzz.sh is the longer run; a crash is replayed
# with $OUT/fuzz/fuzz_msgid FILE. Needs clang and libclang-rt-14-dev
# (harness/deps.sh); no kernel build.
#
# Knobs: FUZZ_SECONDS (60); FUZZ_COVERAGE=1 also prints msgid.c's line and
# branch coverage by the grown corpus (llvm-cov); FUZZ_MSGID_C=FILE fuzzes
# another msgid.c (harness/fuzz/break-test.sh) and FUZZ_DIR its output
# directory ($OUT/fuzz), FUZZ_SEEDS=DIR other seeds (harness/fuzz/corpus),
# FUZZ_CFLAGS more compiler flags (e.g. -DKNOWN_GOING_PRINTK=1, README).
set -eu
. "$(dirname "$0")/env.sh"

FUZZ_SECONDS=${FUZZ_SECONDS:-60}
src=$ROOT/harness/fuzz
dir=${FUZZ_DIR:-$OUT/fuzz}
msgid_c=${FUZZ_MSGID_C:-$ROOT/kernel/printk/msgid.c}
CC=${FUZZ_CC:-clang}
command -v "$CC" >/dev/null || die "no $CC: run harness/deps.sh (clang, libclang-rt-14-dev)"

mkdir -p "$dir/obj" "$dir/artifacts"
cflags="-std=gnu11 -funsigned-char -fno-strict-aliasing -g -O1 -fno-omit-frame-pointer
	-Wall -Wextra -Wno-unused-parameter -Werror
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
	-DCONFIG_PRINTK_MSGID -DCONFIG_KUNIT -I $src/include ${FUZZ_CFLAGS:-}"

# build NAME EXTRA_CFLAGS: $dir/NAME from msgid.c and the target.
build() {
	local name=$1 extra=$2 o=$dir/obj/$1
	# shellcheck disable=SC2086
	$CC $cflags $extra -MD -MF "$o-msgid.d" -c "$msgid_c" -o "$o-msgid.o"
	# shellcheck disable=SC2086
	$CC $cflags $extra -MD -MF "$o-target.d" -c "$src/fuzz_msgid.c" -o "$o-target.o"
	# shellcheck disable=SC2086
	$CC $cflags "$o-msgid.o" "$o-target.o" -o "$dir/$name"
	# Every header must be the shim, the repo's printk_msgid.h, libc or the
	# compiler's: never a kernel tree's, nor the libc uapi <linux/*.h>.
	local bad
	bad=$(sed -e 's/^[^:]*://' -e 's/\\$//' "$o-msgid.d" "$o-target.d" | tr ' ' '\n' |
		grep -v '^$' | xargs realpath | sort -u |
		grep -v -E "^($src/|$(realpath "$msgid_c")$|$ROOT/include/linux/printk_msgid\.h$|/usr/lib/llvm-[0-9]+/lib/clang/)" |
		grep -v -E '^/usr/include/' || true)
	bad="$bad$(sed -e 's/^[^:]*://' -e 's/\\$//' "$o-msgid.d" "$o-target.d" | tr ' ' '\n' |
		grep -v '^$' | xargs realpath | grep -E '^/usr/include/(linux|asm[^/]*)/' || true)"
	[ -z "$bad" ] || die "fuzz build used headers outside the shim: $bad"
}

say "fuzz: building $dir/fuzz_msgid, fuzz_msgid_nocache and fuzz_msgid_nomodules (clang, ASan+UBSan+libFuzzer)"
build fuzz_msgid "-DCONFIG_64BIT -DCONFIG_MODULES"
build fuzz_msgid_nocache -DCONFIG_MODULES
build fuzz_msgid_nomodules -DCONFIG_64BIT

rm -rf "$dir/corpus"
mkdir -p "$dir/corpus"
cp "${FUZZ_SEEDS:-$src/corpus}"/* "$dir/corpus/"
rm -f "$dir"/crash-* "$dir"/artifacts/*

say "fuzz: $FUZZ_SECONDS s campaign on $(find "$dir/corpus" -type f | wc -l) seeds, log in $dir/fuzz.log"
t0=$(date +%s)
set +e
(cd "$dir" && ./fuzz_msgid -max_total_time="$FUZZ_SECONDS" -max_len=2048 -timeout=10 \
	-dict="$src/msgid.dict" -artifact_prefix="$dir/artifacts/" -print_final_stats=1 \
	corpus) > "$dir/fuzz.log" 2>&1
rc=$?
set -e
secs=$(( $(date +%s) - t0 ))
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/fuzz.log")
cov=$(grep -E '^#[0-9]+' "$dir/fuzz.log" | tail -1 | sed -E 's/.*cov: ([0-9]+).*/\1/')
if [ "$rc" != 0 ] || ls "$dir"/artifacts/* >/dev/null 2>&1; then
	grep -E -A30 'ERROR|fuzz_msgid:|runtime error' "$dir/fuzz.log" | head -60 >&2
	ls "$dir"/artifacts/* >&2 2>/dev/null || true
	die "fuzz: the campaign failed (exit $rc) after ${execs:-?} executions, $secs s; replay: $dir/fuzz_msgid $dir/artifacts/<file>"
fi

for v in nocache nomodules; do
	set +e
	(cd "$dir" && "./fuzz_msgid_$v" -runs=0 -max_len=2048 corpus) > "$dir/$v.log" 2>&1
	rc=$?
	set -e
	[ "$rc" = 0 ] || { tail -40 "$dir/$v.log" >&2; die "fuzz: corpus replay without the ${v#no} failed"; }
done

if [ "${FUZZ_COVERAGE:-0}" = 1 ]; then
	command -v llvm-profdata >/dev/null || die "FUZZ_COVERAGE needs llvm-profdata and llvm-cov (Debian package llvm)"
	# shellcheck disable=SC2086
	$CC ${cflags/fsanitize=fuzzer,address,undefined/fsanitize=fuzzer} -DCONFIG_64BIT -DCONFIG_MODULES -O0 \
		-fprofile-instr-generate -fcoverage-mapping "$msgid_c" "$src/fuzz_msgid.c" \
		-o "$dir/fuzz_msgid_cov"
	(cd "$dir" && LLVM_PROFILE_FILE=cov.profraw ./fuzz_msgid_cov -runs=0 corpus) > "$dir/cov.log" 2>&1
	llvm-profdata merge -o "$dir/cov.profdata" "$dir/cov.profraw"
	llvm-cov report "$dir/fuzz_msgid_cov" -instr-profile="$dir/cov.profdata" "$msgid_c"
fi

echo "fuzz: ${execs:-?} executions in $FUZZ_SECONDS s, coverage ${cov:-?} edges, corpus $(find "$dir/corpus" -type f | wc -l) inputs, no crash"
