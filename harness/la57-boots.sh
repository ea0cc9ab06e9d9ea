#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# la57-boots.sh [RUN...]: whose is the KASAN report on 5-level paging
# (issue 47)? Boots each RUN LA57_BOOTS times (default 30) under QEMU TCG
# on -cpu ${QEMU_CPU:-max} WITH 5-level paging (no "no5lvl"), as make
# selftest boots the test kernel (4 CPUs, 2 GiB, the same command line
# but for no5lvl), and counts the boots with a KASAN report.
#
# A RUN is BUILD:MSGID: the kernel of out/build/BUILD, booted with
# printk.msgid=MSGID (empty: the parameter is not given, for the base).
# Default: "base: msgid:0 msgid:1", i.e. the base without the series
# (make kernel-base), and the series (make kernel) with the switch off
# and on.
#
# The report came from an interrupt during arch_cpu_finalize_init(), early
# in start_kernel(): each boot stops as soon as the console shows
# "Bringing up secondary CPUs" (smp_init(), after start_kernel() is done)
# or after LA57_TIMEOUT seconds (default 180; a boot that did not get
# there is counted apart, as incomplete, not as clean). The boots of all
# RUNs are interleaved (boot i of every RUN before boot i+1 of any), so
# that the host's load, which moves the timer interrupts of a TCG guest,
# falls on each RUN alike; LA57_JOBS (default 2) boot at once, niced.
# QEMU_EXTRA: more QEMU arguments (split at spaces), LA57_CMDLINE: more
# kernel parameters, QEMU_CPU: another CPU model, LA57_TAG: another
# output directory (out/la57-boots-TAG), for the runs that vary them.
#
# Out: out/la57-boots[-$LA57_TAG]/: RUN-i.log (console), results.tsv (a
# line a boot), table.txt (the counts), and for each boot with a report
# RUN-i.decoded (the report through scripts/decode_stacktrace.sh with
# that build's vmlinux). Exit 0 whatever the counts: it measures.
set -eu
. "$(dirname "$0")/env.sh"

boots=${LA57_BOOTS:-30}
limit=${LA57_TIMEOUT:-180}
jobs=${LA57_JOBS:-2}
cpu=${QEMU_CPU:-max}
work=$OUT/la57-boots${LA57_TAG:+-$LA57_TAG}
[ $# -gt 0 ] || set -- base: msgid:0 msgid:1
stop='Bringing up secondary CPUs'

mkdir -p "$work"
rm -f "$work"/*.log "$work"/*.decoded "$work/results.tsv" "$work/table.txt"
declare -A kdir src
for run in "$@"; do
	b=${run%%:*}
	d=$BUILD/$b
	[ -f "$d/arch/x86/boot/bzImage" ] || die "no kernel in out/build/$b (make kernel / make kernel-base)"
	grep -q '^CONFIG_KASAN=y' "$d/.config" || say "note: out/build/$b has no KASAN"
	kdir[$run]=$d
	# The source tree the build belongs to (out/linux or out/linux-base).
	src[$run]=$(dirname "$(realpath "$d")")
done

# disasm VMLINUX "BUG: KASAN: ... in FUNC+OFF/LEN": FUNC disassembled.
disasm() {
	local f addr len
	f=$(printf '%s\n' "$2" | sed -n -E 's/.* in ([A-Za-z0-9_.]+)\+0x[0-9a-f]+\/(0x[0-9a-f]+).*/\1 \2/p')
	[ -n "$f" ] || return 0
	addr=$(nm "$1" | awk -v s="${f% *}" '$3 == s { print $1; exit }')
	[ -n "$addr" ] || return 0
	len=${f#* }
	echo "--- objdump -d of ${f% *} ($1)"
	objdump -d --no-show-raw-insn --start-address="0x$addr" \
		--stop-address="$(printf '0x%x' $(( 0x$addr + len )))" "$1" | sed -n '/>:$/,$p'
}

# boot RUN I: one boot; a line to results.tsv.
boot() {
	local run=$1 i=$2 d=${kdir[$1]} tag log msgid extra pid t0 s outcome first
	tag=${run%%:*}-m${run#*:}
	tag=${tag%-m}-$i
	log=$work/$tag.log
	msgid=${run#*:}
	extra=
	[ -z "$msgid" ] || extra="printk.msgid=$msgid"
	: > "$log"
	t0=$(date +%s)
	# make selftest's command line (harness/selftest.sh, boot.sh), without
	# no5lvl and the initramfs: the boot stops long before user space.
	# shellcheck disable=SC2086 # QEMU_EXTRA is a list of arguments
	timeout -k 5 "$limit" nice -n 10 qemu-system-x86_64 -accel tcg,thread=single -cpu "$cpu" \
		-m 2048 -smp 4 ${QEMU_EXTRA:-} -kernel "$d/arch/x86/boot/bzImage" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=7 $extra rcupdate.rcu_cpu_stall_timeout=120 ${LA57_CMDLINE:-}" \
		-display none -monitor none -serial "file:$log" -no-reboot < /dev/null > "$log.qemu" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		if grep -q "$stop" "$log"; then
			kill "$pid" 2>/dev/null || true
			break
		fi
		sleep 0.5
	done
	wait "$pid" 2>/dev/null || true
	s=$(( $(date +%s) - t0 ))
	tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
	cat "$log.qemu" >> "$log" && rm -f "$log.qemu"
	first=$(grep -m1 -o 'BUG: KASAN: .*' "$log" || true)
	if [ -n "$first" ]; then
		outcome=report
		# The report, from its "BUG: KASAN" to its closing rule,
		# decoded with the vmlinux of this build.
		sed -n -E '/BUG: KASAN/,/^(\[[ 0-9.]*\] )?(\([0-9a-f]{8}\): )?={20,}$/p' "$log" |
			(cd "${src[$run]}" && scripts/decode_stacktrace.sh "$d/vmlinux" "${src[$run]}" 2>&1) \
			> "$work/$tag.decoded" || true
		# The test kernels have no debug info (no file:line from the
		# decoder): the code of the function the report names, as
		# objdump disassembles it from the same vmlinux.
		disasm "$d/vmlinux" "$first" >> "$work/$tag.decoded"
	elif grep -q "$stop" "$log"; then
		outcome=clean
	else
		outcome=incomplete
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$run" "$i" "$outcome" "$s" "$first" >> "$work/results.tsv"
	say "$tag: $outcome in ${s}s${first:+: $first}"
}

say "$boots boots each of: $* (-cpu $cpu, 5-level paging, $jobs at once, limit ${limit}s)"
t_all=$(date +%s)
# LA57_UNTIL: a time (date -d) after which no boot starts; the table
# then counts the boots done.
until_s=
[ -z "${LA57_UNTIL:-}" ] || until_s=$(date -d "$LA57_UNTIL" +%s)
for i in $(seq 1 "$boots"); do
	if [ -n "$until_s" ] && [ "$(date +%s)" -ge "$until_s" ]; then
		say "LA57_UNTIL=$LA57_UNTIL reached: no more boots after round $((i - 1))"
		break
	fi
	for run in "$@"; do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n || true
		done
		boot "$run" "$i" &
	done
done
wait

# The table. With 0 reports in n boots, (1 - r)^n is the chance of that
# 0 if the run's true rate were r: r is the rate pooled over the runs
# that reported, or the 1 in 11 of the first sighting (050bfbd: one
# report in 11 boots) when none did; 1 - 0.05^(1/n) is the rate a 0
# rules out at 95%.
{
	echo "# -cpu $cpu${QEMU_EXTRA:+ $QEMU_EXTRA}${LA57_CMDLINE:+, cmdline +$LA57_CMDLINE}, 4 CPUs, 2 GiB, TCG; up to $boots boots a run, $(( $(date +%s) - t_all )) s in all"
	awk -F'\t' -v runs="$*" '
	{ n[$1]++; if ($3 == "report") r[$1]++; if ($3 == "incomplete") inc[$1]++ }
	END {
		k = split(runs, rr, " ")
		for (j = 1; j <= k; j++) { if (r[rr[j]] > 0) { pr += r[rr[j]]; pn += n[rr[j]] - inc[rr[j]] } }
		rate = pn > 0 ? pr / pn : 1 / 11
		printf "%-10s %-13s %6s %8s %11s  %s\n", "build", "printk.msgid", "boots", "reports", "incomplete", "P(0 reports | rate)"
		for (j = 1; j <= k; j++) {
			run = rr[j]; split(run, p, ":")
			b = n[run] - inc[run]
			luck = "-"
			if (r[run] == 0 && b > 0)
				luck = sprintf("%.3f at rate %.3f; 95%% upper bound on its rate %.3f", (1 - rate) ^ b, rate, 1 - 0.05 ^ (1 / b))
			printf "%-10s %-13s %6d %8d %11d  %s\n", p[1], p[2] == "" ? "(none)" : p[2], b, r[run], inc[run], luck
		}
	}' "$work/results.tsv"
} | tee "$work/table.txt"
