#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# profile.sh [KIND...]: where printk's instructions go, per function, for
# the benchmark's kinds of message (harness/modules/msgid_bench; short,
# pr_fmt, dev, nested, long, cont, each also KIND@mod), with the
# identifiers switched on, switched off, and without CONFIG_PRINTK_MSGID.
#
# Uses the kernels and modules of "ICOUNT=1 make bench-icount"
# (out/build/bench-x86-{on,off}: build them first; BENCH_VARIANTS="off on"
# is enough). Each kind is booted three times under QEMU TCG, -cpu max,
# one vCPU, nokaslr, with a TCG plugin (harness/profile/insn_profile.c,
# built here with gcc) that counts the instructions executed at each
# translation block between the benchmark's markers: COUNT (2000)
# messages of the kind, after a warm-up. harness/profile/report.py maps
# the blocks to functions (System.map) and prints, per message, each
# function's instructions on, off and without the option, and the
# differences. About 1 minute a boot. Output: out/profile/KIND.txt.
set -eu
. "$(dirname "$0")/env.sh"

COUNT=${COUNT:-2000}
dir=$OUT/profile
logs=$OUT/bench-icount
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(short cont)
for v in on off; do
	[ -f "$BUILD/bench-x86-$v/arch/x86/boot/bzImage" ] &&
	[ -f "$BUILD/bench-x86-$v/msgid_bench/msgid_bench.ko" ] ||
		die "no bench kernel $v: run BENCH_VARIANTS='off on' ICOUNT=1 make bench-icount first"
done
command -v gcc >/dev/null || die "no gcc: run harness/deps.sh"
mkdir -p "$dir/root"
gcc -O2 -shared -fPIC -Wall -Werror -o "$dir/insn_profile.so" "$ROOT/harness/profile/insn_profile.c"

cat > "$dir/root/run.sh" <<'RUN'
#!/bin/sh
# shellcheck disable=SC2046 # one insmod argument per parameter
insmod /msgid_bench.ko $(tr ' ' '\n' < /proc/cmdline | sed -n 's/^msgid_bench\.//p') ||
	echo "msgid_bench: insmod failed"
RUN
chmod +x "$dir/root/run.sh"

# run VARIANT MODE KIND: one profiled boot; the profile in $dir/KIND-LABEL.prof
run() {
	local b=$BUILD/bench-x86-$1 label=$1-$2 kind=$3 begin end
	begin=$(awk '$3 == "msgid_bench_profile_begin" {print $1}' "$b/System.map")
	end=$(awk '$3 == "msgid_bench_profile_end" {print $1}' "$b/System.map")
	[ -n "$begin" ] && [ -n "$end" ] ||
		die "$b has no profile markers: rebuild it (ICOUNT=1 make bench-icount)"
	cp "$b/msgid_bench/msgid_bench.ko" "$dir/root/"
	"$ROOT/harness/initramfs.sh" "$dir/initramfs.cpio.gz" "$dir/root"
	say "profile: $kind, $label"
	SMP=1 QEMU_EXTRA="-icount shift=0 -plugin $dir/insn_profile.so,begin=$begin,end=$end,out=$dir/$kind-$label.prof" \
		"$ROOT/harness/boot.sh" "$b/arch/x86/boot/bzImage" "$dir/initramfs.cpio.gz" \
		"$dir/$kind-$label.log" "nokaslr log_buf_len=64M msgid_bench.count=$COUNT msgid_bench.reps=1 msgid_bench.profile=$kind msgid_bench.profile_mode=${2#mode}" 900 > /dev/null ||
		die "profile boot failed: $dir/$kind-$label.log"
	grep -q "msgid_bench: profiled kind=$kind" "$dir/$kind-$label.log" ||
		die "no profile in $dir/$kind-$label.log"
}

t0=$(date +%s)
for k in "${kinds[@]}"; do
	run on mode1 "$k"
	run on mode0 "$k"
	run off mode0 "$k"
	python3 "$ROOT/harness/profile/report.py" --count "$COUNT" \
		"$dir/$k-on-mode1.prof" "$BUILD/bench-x86-on/System.map" \
		"$dir/$k-on-mode0.prof" "$BUILD/bench-x86-on/System.map" \
		"$dir/$k-off-mode0.prof" "$BUILD/bench-x86-off/System.map" | tee "$dir/$k.txt"
done
say "profile: done in $(( $(date +%s) - t0 )) s; out/profile/KIND.txt"
