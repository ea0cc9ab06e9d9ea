#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh: what a message identifier costs printk, measured natively on
# UML with the KUnit-driven benchmark harness/modules/msgid_bench/, an
# out-of-tree module (it is not part of the series: reviewers need its
# figures, not its code).
#
# Builds three UML kernels with the stock kunit.py in
# out/build/bench-{off,on,caller} (modules and an initramfs on, see
# harness/bench/module.kunitconfig):
#   off     CONFIG_PRINTK_MSGID=n (the plain printk path)
#   on      CONFIG_PRINTK_MSGID=y (the bench switches printk.msgid off and on)
#   caller  CONFIG_PRINTK_MSGID=y + CONFIG_PRINTK_CALLER=y
# and the module against each (make M=harness/modules/msgid_bench, objects
# in out/build/bench-NAME/msgid_bench/), then boots them alternately,
# ROUNDS times each, plus the "on" kernel with printk.time=0 (all others
# run with printk.time=1), with a busybox initramfs (harness/initramfs.sh)
# whose /run.sh loads the module, which runs its KUnit suite, with the
# msgid_bench.* parameters of the kernel command line; loglevel=7, so that
# the console prints the KERN_INFO result lines and none of the KERN_DEBUG
# messages measured. Prints one table (harness/bench/report.py). Raw logs:
# out/bench/.
#
# ICOUNT=1 counts instructions instead of timing them: x86_64 kernels
# (out/build/bench-x86-{off,on,caller}) run under QEMU TCG
# (harness/boot.sh) with "-icount shift=0" and -cpu max (the CPU model of
# every boot here, with PCLMULQDQ), one vCPU, where the guest clock
# advances 1 ns per instruction executed, so every "ns" the benchmark
# reports is a number of guest instructions, free of host load and of the
# host's code-layout effects (but blind to cache misses and pipeline
# stalls), with a log buffer that holds every record of the run
# (log_buf_len=64M), so that no measurement pays for pushing older records
# out. Raw logs: out/bench-icount/.
#
# Knobs (environment): ROUNDS (11; 2 with ICOUNT=1, which is deterministic
# up to timer interrupts), COUNT messages per measurement (2000), REPS
# repetitions per boot (31; 7 with ICOUNT=1), BENCH_BUILD=0 to reuse the
# kernels, BENCH_BASE=DIR to also boot, in every round, a saved "before"
# build (a copy of out/build/bench-on made before a change to msgid.c,
# with ICOUNT=1 of out/build/bench-x86-on: its kernel and its
# msgid_bench/msgid_bench.ko): the table then gets a before/after section.
set -eu
. "$(dirname "$0")/env.sh"

ICOUNT=${ICOUNT:-0}
COUNT=${COUNT:-2000}
BENCH_BUILD=${BENCH_BUILD:-1}
BENCH_BASE=${BENCH_BASE:-}
# BENCH_VARIANTS: the kernels built and booted; "caller" (a comparison
# column: what CONFIG_PRINTK_CALLER costs) is left out when not named.
variants=${BENCH_VARIANTS:-off on caller}
if [ "$ICOUNT" = 1 ]; then
	ROUNDS=${ROUNDS:-2}
	REPS=${REPS:-7}
	logs=$OUT/bench-icount
	pre=bench-x86
	arch=(--arch=x86_64)
	karch=x86_64
	xconf=(--kunitconfig="$ROOT/harness/bench/x86_64.kunitconfig")
	command -v qemu-system-x86_64 >/dev/null ||
		die "qemu-system-x86_64 missing: run harness/deps.sh (qemu-system-x86)"
	what="x86_64 kernels ($variants) with kunit.py: cold about 7 minutes each on 2 idle cores (30 on a loaded machine), less with ccache"
	per_boot="5-10 s"
	secs=8
	kimg=arch/x86/boot/bzImage
else
	ROUNDS=${ROUNDS:-11}
	REPS=${REPS:-31}
	logs=$OUT/bench
	pre=bench
	arch=()
	karch=um
	xconf=()
	what="UML kernels ($variants) with kunit.py: cold on 2 shared cores about 20 minutes each"
	per_boot="1-3 s"
	secs=2
	kimg=linux
fi
conf=$ROOT/harness/bench
mod=$ROOT/harness/modules/msgid_bench
command -v busybox >/dev/null || die "busybox missing: run harness/deps.sh"

[ -d "$TREE" ] || die "no out/linux: run 'make tree' first"
mkdir -p "$logs" "$BUILD"

# The benchmark's kernels build from a copy of out/linux (a real copy, not
# hard links: an edit made in out/linux while a benchmark builds must not
# reach it; one directory per build beside it, as objdir has) with the
# benchmark's call
# sites built into vmlinux too: lib/msgid_bench_vmlinux.c includes the
# module's source with MSGID_BENCH_VMLINUX, so that every kind is measured
# with its format in vmlinux .rodata and in the module's.
btree=$OUT/bench-tree
if [ "$BENCH_BUILD" = 1 ]; then
	say "bench: copying out/linux to ${btree#"$ROOT"/} (about a minute, 1.5 GB)"
	# By content, and without the source's times: a file that differs
	# gets the time of the copy, so make rebuilds it even where the copy
	# was edited after its objects were built (-a would give it out/linux's
	# older time, and make would keep the stale object).
	rsync -rlpD --checksum --delete --exclude='/build-*' --exclude=/.git "$TREE/" "$btree/"
	{ cat "$TREE/lib/Makefile"; echo "obj-y += msgid_bench_vmlinux.o"; } > "$btree/lib/Makefile"
	printf '// SPDX-License-Identifier: GPL-2.0\n#define MSGID_BENCH_VMLINUX\n#include "%s/harness/modules/msgid_bench/msgid_bench.c"\n' \
		"$ROOT" > "$btree/lib/msgid_bench_vmlinux.c"
fi
rm -f "$logs"/run-*.log
# A relative BENCH_BASE is relative to where make ran, not to the tree.
if [ -n "$BENCH_BASE" ]; then
	BENCH_BASE=$(cd "$BENCH_BASE" 2>/dev/null && pwd) ||
		die "BENCH_BASE: no directory ${BENCH_BASE}"
fi
cd "$btree"
t0=$(date +%s)

# The guest's /run.sh: load the benchmark with the msgid_bench.*
# parameters of the command line (the kernel hands them only to built-in
# code), which runs its KUnit suite.
rundir=$logs/root
rm -rf "$rundir"
mkdir -p "$rundir"
cat > "$rundir/run.sh" <<'RUN'
#!/bin/sh
dmesg -n 7
# What the table says it ran on: the CPU model and the consoles.
echo "msgid_bench-env: cpu=$(sed -n 's/^model name[[:space:]]*: //p;T;q' /proc/cpuinfo)"
echo "msgid_bench-env: consoles=$(awk '{printf "%s%s", s, $1; s=","}' /proc/consoles)"
echo "msgid_bench-env: kernel=$(uname -r) cmdline=$(cat /proc/cmdline)"
# shellcheck disable=SC2046 # one insmod argument per parameter
insmod /msgid_bench.ko $(tr ' ' '\n' < /proc/cmdline | sed -n 's/^msgid_bench\.//p') ||
	echo "msgid_bench: insmod failed"
RUN
chmod +x "$rundir/run.sh"

if [ "$BENCH_BUILD" = 1 ]; then
	say "bench: building $what, about 10 s each when up to date"
	for v in $variants; do
		t1=$(date +%s)
		dir=$(objdir "$pre-$v" "$btree")
		if ! ./tools/testing/kunit/kunit.py build "${arch[@]}" \
			--kunitconfig="$conf/$v.kunitconfig" \
			--kunitconfig="$conf/module.kunitconfig" "${xconf[@]}" \
			--build_dir="$dir" --jobs="$(nproc)" \
			--make_options "CC=$(kcc)" > "$logs/build-$v.log" 2>&1 ||
		   ! make -s ARCH="$karch" CC="$(kcc)" O="$dir" M="$mod" MO="$dir/msgid_bench" \
			-j"$(nproc)" modules >> "$logs/build-$v.log" 2>&1; then
			tail -30 "$logs/build-$v.log" >&2
			die "bench: build of $v failed, log in $logs/build-$v.log"
		fi
		say "bench: built $v in $(( $(date +%s) - t1 )) s"
	done
fi

# One boot: variant (or a directory), label, round, extra kernel arguments.
boot() {
	local dir=$BUILD/$pre-$1 label=$2 log=$logs/run-$3-$2.log rc=0
	case "$1" in /*) dir=$1 ;; esac
	shift 3
	cp "$dir/msgid_bench/msgid_bench.ko" "$rundir/"
	"$ROOT/harness/initramfs.sh" "$logs/initramfs.cpio.gz" "$rundir"
	local args="loglevel=7 msgid_bench.count=$COUNT msgid_bench.reps=$REPS $*"
	if [ "$ICOUNT" = 1 ]; then
		SMP=1 QEMU_EXTRA="-icount shift=0" "$ROOT/harness/boot.sh" "$dir/$kimg" \
			"$logs/initramfs.cpio.gz" "$log" "log_buf_len=64M $args" 900 > /dev/null 2>&1 || rc=$?
	else
		# shellcheck disable=SC2086 # args is a list of kernel parameters
		timeout --foreground -k 5 900 "$dir/$kimg" mem=1G console=tty \
			initrd="$logs/initramfs.cpio.gz" $args < /dev/null > "$log" 2>&1 || rc=$?
		grep -q '^msgid-init: done' "$log" || rc=1
	fi
	if [ "$rc" != 0 ]; then
		tail -20 "$log" >&2
		die "bench: boot of $v ($label) failed, log in $log"
	fi
	grep -q 'msgid_bench: done' "$log" ||
		die "bench: no results from $v ($label), log in $log"
}

# The boots of a round: variant:label:printk.time:only_off. The order
# rotates from round to round, so that no boot always runs first (or right
# after a build). on-offonly never switches identifiers on (see only_off in
# harness/modules/msgid_bench/msgid_bench.c): its switch-off figures are the ones compared with off.
jobs=(off:off:1:0 on:on:1:0 on:on-offonly:1:1 on:on-time0:0:0)
case " $variants " in *" caller "*) jobs+=(caller:caller:1:0) ;; esac
if [ -n "$BENCH_BASE" ]; then
	[ -f "$BENCH_BASE/$kimg" ] || die "BENCH_BASE=$BENCH_BASE: no kernel $BENCH_BASE/$kimg"
	[ -f "$BENCH_BASE/msgid_bench/msgid_bench.ko" ] ||
		die "BENCH_BASE=$BENCH_BASE: no msgid_bench/msgid_bench.ko built for its kernel"
	jobs+=("$(cd "$BENCH_BASE" && pwd):base:1:0")
fi
nj=${#jobs[@]}
say "bench: $ROUNDS rounds of $nj boots (off, on, on switch off only, on printk.time=0${BENCH_BASE:+, base}; $variants), $REPS x $COUNT messages per kind and mode in each, $per_boot per boot: about $(( ROUNDS * nj * secs )) s"
for r in $(seq 1 "$ROUNDS"); do
	t1=$(date +%s)
	for i in $(seq 0 $((nj - 1))); do
		IFS=: read -r v label ptime offonly <<< "${jobs[$(( (i + r - 1) % nj ))]}"
		boot "$v" "$label" "$r" "printk.time=$ptime" "msgid_bench.only_off=$offonly"
	done
	say "bench: round $r/$ROUNDS done in $(( $(date +%s) - t1 )) s"
done

report=("$logs")
[ "$ICOUNT" = 1 ] && report=(--icount "$logs")
python3 "$conf/report.py" "${report[@]}" | tee "$logs/table.txt"
say "bench: done in $(( $(date +%s) - t0 )) s; table in ${logs#"$ROOT"/}/table.txt, raw logs in ${logs#"$ROOT"/}/"
