#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh: what a message identifier costs printk, measured natively on
# UML with the stock kunit.py and the KUnit-driven benchmark
# kernel/printk/msgid_bench.c (CONFIG_PRINTK_MSGID_BENCH).
#
# Builds three UML kernels in out/build/bench-{off,on,caller}:
#   off     CONFIG_PRINTK_MSGID=n (the plain printk path)
#   on      CONFIG_PRINTK_MSGID=y (the bench switches printk.msgid off and on)
#   caller  CONFIG_PRINTK_MSGID=y + CONFIG_PRINTK_CALLER=y
# then boots them alternately, ROUNDS times each, plus the "on" kernel with
# printk.time=0 (all others run with printk.time=1), with loglevel=7 so that
# the console prints the KERN_INFO result lines and none of the KERN_DEBUG
# messages measured, and prints one table
# (harness/bench/report.py). Raw logs: out/bench/.
#
# ICOUNT=1 counts instructions instead of timing them: x86_64 kernels
# (out/build/bench-x86-{off,on,caller}) run under QEMU TCG with
# "-icount shift=0" and -cpu max (the CPU model of every boot here, with
# PCLMULQDQ), where the guest clock advances 1 ns per instruction
# executed, so every "ns" the benchmark reports is a number of guest
# instructions, free of host load and of the host's code-layout effects
# (but blind to cache misses and pipeline stalls), with a log buffer that
# holds every record of the run (log_buf_len=32M), so that no measurement
# pays for pushing older records out. QEMU refuses -icount under KVM and
# kunit.py asks for KVM first: harness/tcg/ keeps only TCG. Raw logs:
# out/bench-icount/.
#
# Knobs (environment): ROUNDS (11; 2 with ICOUNT=1, which is deterministic
# up to timer interrupts), COUNT messages per measurement (2000), REPS
# repetitions per boot (31; 7 with ICOUNT=1), BENCH_BUILD=0 to reuse the
# kernels, BENCH_BASE=DIR to also boot, in every round, a saved "before"
# kernel (DIR/linux, e.g. a copy of out/build/bench-on/linux made before a
# change to msgid.c; with ICOUNT=1 DIR/arch/x86/boot/bzImage from
# out/build/bench-x86-on): the table then gets a before/after section.
set -eu
. "$(dirname "$0")/env.sh"

ICOUNT=${ICOUNT:-0}
COUNT=${COUNT:-2000}
BENCH_BUILD=${BENCH_BUILD:-1}
BENCH_BASE=${BENCH_BASE:-}
variants="off on caller"
if [ "$ICOUNT" = 1 ]; then
	ROUNDS=${ROUNDS:-2}
	REPS=${REPS:-7}
	logs=$OUT/bench-icount
	pre=bench-x86
	arch=(--arch=x86_64)
	xconf=(--kunitconfig="$ROOT/harness/bench/x86_64.kunitconfig")
	qemu=(--qemu_args "-icount shift=0 -cpu max" --kernel_args log_buf_len=32M)
	QEMU_REAL=$(command -v qemu-system-x86_64) ||
		die "qemu-system-x86_64 missing: run harness/deps.sh (qemu-system-x86)"
	export QEMU_REAL
	export PATH="$ROOT/harness/tcg:$PATH"
	what="3 x86_64 kernels (off, on, caller) with kunit.py: cold on 2 shared cores about 7 minutes each, less with ccache"
	per_boot="5-10 s"
	secs=8
	kimg=arch/x86/boot/bzImage
else
	ROUNDS=${ROUNDS:-11}
	REPS=${REPS:-31}
	logs=$OUT/bench
	pre=bench
	arch=()
	xconf=()
	qemu=()
	what="3 UML kernels (off, on, caller) with kunit.py: cold on 2 shared cores about 20 minutes for the first and 3 for each other (ccache)"
	per_boot="1-3 s"
	secs=2
	kimg=linux
fi
conf=$ROOT/harness/bench

[ -d "$TREE" ] || die "no out/linux: run 'make tree' first"
mkdir -p "$logs" "$BUILD"
rm -f "$logs"/run-*.log
# A relative BENCH_BASE is relative to where make ran, not to the tree.
if [ -n "$BENCH_BASE" ]; then
	BENCH_BASE=$(cd "$BENCH_BASE" 2>/dev/null && pwd) ||
		die "BENCH_BASE: no directory ${BENCH_BASE}"
fi
cd "$TREE"
t0=$(date +%s)

if [ "$BENCH_BUILD" = 1 ]; then
	say "bench: building $what, about 10 s each when up to date"
	for v in $variants; do
		t1=$(date +%s)
		if ! ./tools/testing/kunit/kunit.py build "${arch[@]}" \
			--kunitconfig="$conf/$v.kunitconfig" "${xconf[@]}" \
			--build_dir="$(objdir "$pre-$v")" --jobs="$(nproc)" \
			--make_options "CC=$(kcc)" > "$logs/build-$v.log" 2>&1; then
			tail -30 "$logs/build-$v.log" >&2
			die "bench: build of $v failed, log in $logs/build-$v.log"
		fi
		say "bench: built $v in $(( $(date +%s) - t1 )) s"
	done
fi

# One boot: variant (or a directory), label, round, extra kernel arguments.
boot() {
	local dir=$BUILD/$pre-$1 label=$2 log=$logs/run-$3-$2.log
	case "$1" in /*) dir=$1 ;; esac
	shift 3
	if ! ./tools/testing/kunit/kunit.py exec "${arch[@]}" "${qemu[@]}" --build_dir="$dir" \
		--raw_output=all --timeout=900 \
		--kernel_args loglevel=7 \
		--kernel_args "msgid_bench.count=$COUNT" \
		--kernel_args "msgid_bench.reps=$REPS" \
		"$@" printk_msgid_bench > "$log" 2>&1; then
		tail -20 "$log" >&2
		die "bench: boot of $v ($label) failed, log in $log"
	fi
	grep -q 'msgid_bench: done' "$log" ||
		die "bench: no results from $v ($label), log in $log"
}

# The boots of a round: variant:label:printk.time:only_off. The order
# rotates from round to round, so that no boot always runs first (or right
# after a build). on-offonly never switches identifiers on (see only_off in
# msgid_bench.c): its switch-off figures are the ones compared with off.
jobs=(off:off:1:0 on:on:1:0 on:on-offonly:1:1 on:on-time0:0:0 caller:caller:1:0)
if [ -n "$BENCH_BASE" ]; then
	[ -f "$BENCH_BASE/$kimg" ] || die "BENCH_BASE=$BENCH_BASE: no kernel $BENCH_BASE/$kimg"
	jobs+=("$(cd "$BENCH_BASE" && pwd):base:1:0")
fi
nj=${#jobs[@]}
say "bench: $ROUNDS rounds of $nj boots (off, on, on switch off only, on printk.time=0, caller${BENCH_BASE:+, base}), $REPS x $COUNT messages per kind and mode in each, $per_boot per boot: about $(( ROUNDS * nj * secs )) s"
for r in $(seq 1 "$ROUNDS"); do
	t1=$(date +%s)
	for i in $(seq 0 $((nj - 1))); do
		IFS=: read -r v label ptime offonly <<< "${jobs[$(( (i + r - 1) % nj ))]}"
		boot "$v" "$label" "$r" --kernel_args "printk.time=$ptime" \
			--kernel_args "msgid_bench.only_off=$offonly"
	done
	say "bench: round $r/$ROUNDS done in $(( $(date +%s) - t1 )) s"
done

report=("$logs")
[ "$ICOUNT" = 1 ] && report=(--icount "$logs")
python3 "$conf/report.py" "${report[@]}" | tee "$logs/table.txt"
say "bench: done in $(( $(date +%s) - t0 )) s; table in ${logs#"$ROOT"/}/table.txt, raw logs in ${logs#"$ROOT"/}/"
