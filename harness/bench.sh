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
# printk.time=0 (all others run with printk.time=1), with loglevel=1 so that
# the console prints only the KERN_EMERG result lines, and prints one table
# (harness/bench/report.py). Raw logs: out/bench/.
#
# Knobs (environment): ROUNDS (11), COUNT messages per measurement (2000),
# REPS repetitions per boot (31), BENCH_BUILD=0 to reuse the kernels,
# BENCH_BASE=DIR to also boot, in every round, a saved "before" kernel
# (DIR/linux, e.g. a copy of out/build/bench-on/linux made before a change
# to msgid.c): the table then gets a before/after section.
set -eu
. "$(dirname "$0")/env.sh"

ROUNDS=${ROUNDS:-11}
COUNT=${COUNT:-2000}
REPS=${REPS:-31}
BENCH_BUILD=${BENCH_BUILD:-1}
BENCH_BASE=${BENCH_BASE:-}
variants="off on caller"
logs=$OUT/bench
conf=$ROOT/harness/bench

[ -d "$TREE" ] || die "no out/linux: run 'make tree' first"
mkdir -p "$logs" "$BUILD"
rm -f "$logs"/run-*.log
cd "$TREE"
t0=$(date +%s)

if [ "$BENCH_BUILD" = 1 ]; then
	say "bench: building 3 UML kernels (off, on, caller) with kunit.py: cold on 2 shared cores about 20 minutes for the first and 3 for each other (ccache), about 10 s each when up to date"
	for v in $variants; do
		t1=$(date +%s)
		if ! ./tools/testing/kunit/kunit.py build --kunitconfig="$conf/$v.kunitconfig" \
			--build_dir="$BUILD/bench-$v" --jobs="$(nproc)" \
			--make_options "CC=$(kcc)" > "$logs/build-$v.log" 2>&1; then
			tail -30 "$logs/build-$v.log" >&2
			die "bench: build of $v failed, log in $logs/build-$v.log"
		fi
		say "bench: built $v in $(( $(date +%s) - t1 )) s"
	done
fi

# One boot: variant (or a directory), label, round, extra kernel arguments.
boot() {
	local dir=$BUILD/bench-$1 label=$2 log=$logs/run-$3-$2.log
	case "$1" in /*) dir=$1 ;; esac
	shift 3
	if ! ./tools/testing/kunit/kunit.py exec --build_dir="$dir" \
		--raw_output=all --timeout=900 \
		--kernel_args loglevel=1 \
		--kernel_args "msgid_bench.count=$COUNT" \
		--kernel_args "msgid_bench.reps=$REPS" \
		"$@" printk_msgid_bench > "$log" 2>&1; then
		tail -20 "$log" >&2
		die "bench: boot of $v ($label) failed, log in $log"
	fi
	grep -q 'msgid_bench: done' "$log" ||
		die "bench: no results from $v ($label), log in $log"
}

# The boots of a round: variant:label:printk.time. The order rotates from
# round to round, so that no boot always runs first (or right after a build).
jobs=(off:off:1 on:on:1 on:on-time0:0 caller:caller:1)
if [ -n "$BENCH_BASE" ]; then
	[ -x "$BENCH_BASE/linux" ] || die "BENCH_BASE=$BENCH_BASE: no UML kernel $BENCH_BASE/linux"
	jobs+=("$(cd "$BENCH_BASE" && pwd):base:1")
fi
nj=${#jobs[@]}
say "bench: $ROUNDS rounds of $nj boots (off, on, on printk.time=0, caller${BENCH_BASE:+, base}), $REPS x $COUNT messages per kind and mode in each, 1-3 s per boot: about $(( ROUNDS * nj * 3 / 2 )) s"
for r in $(seq 1 "$ROUNDS"); do
	t1=$(date +%s)
	for i in $(seq 0 $((nj - 1))); do
		IFS=: read -r v label ptime <<< "${jobs[$(( (i + r - 1) % nj ))]}"
		boot "$v" "$label" "$r" --kernel_args "printk.time=$ptime"
	done
	say "bench: round $r/$ROUNDS done in $(( $(date +%s) - t1 )) s"
done

python3 "$conf/report.py" "$logs" | tee "$logs/table.txt"
say "bench: done in $(( $(date +%s) - t0 )) s; table in out/bench/table.txt, raw logs in out/bench/"
