#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot.sh BZIMAGE INITRD LOG "EXTRA CMDLINE" [TIMEOUT]: boot under QEMU TCG
# with a serial console, log the console to LOG, and fail if the guest
# did not reach "msgid-init: done" within TIMEOUT seconds (default 300).
# SMP=N in the environment sets the number of CPUs (default 2), QEMU_MEM=MiB
# the memory (default 1024), QEMU_EXTRA more QEMU arguments, split at
# spaces (devices: a disk, a NIC), TCG_THREAD=multi one host thread per
# vCPU (only for a kernel without CONFIG_JUMP_LABEL, see below),
# QEMU_CPU the CPU model (default max: what TCG emulates of a current x86
# CPU, PCLMULQDQ included, which QEMU's default qemu64 lacks; the kernel
# then takes the paths it takes on hardware, such as the architecture's
# CRC-32).
set -eu
. "$(dirname "$0")/env.sh"

kernel=$1 initrd=$2 log=$3 extra=${4:-} limit=${5:-300}
thread=${TCG_THREAD:-single}
say "booting $kernel under QEMU TCG ($thread-threaded), -cpu ${QEMU_CPU:-max}, ${SMP:-2} CPUs, ${QEMU_MEM:-1024} MiB (seconds; limit ${limit}s)"
t0=$(date +%s)
set +e
# thread=single: one host thread runs every vCPU in turn. With one thread
# per vCPU (QEMU 7.2) a vCPU can keep executing a translation of kernel
# text that another vCPU has patched, and the kernel dies on a stale INT3
# when a static key is toggled under load (harness/research/jump-label-tcg.md).
# shellcheck disable=SC2086 # QEMU_EXTRA is a list of arguments
timeout --foreground -k 5 "$limit" qemu-system-x86_64 -accel "tcg,thread=$thread" -cpu "${QEMU_CPU:-max}" -m "${QEMU_MEM:-1024}" \
	-smp "${SMP:-2}" ${QEMU_EXTRA:-} -kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=7 $extra" \
	-display none -monitor none -serial stdio -no-reboot < /dev/null > "$log" 2>&1
rc=$?
set -e
tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
[ "$rc" != 124 ] || die "QEMU timed out after ${limit}s, console in $log"
if ! grep -q '^msgid-init: done' "$log"; then
	# panic=-1: a panic reboots at once, and -no-reboot makes that an exit 0,
	# often before the console has printed the panic.
	[ "$rc" != 0 ] || say "QEMU exit 0 without the end of the test: the guest rebooted," \
		"most likely a panic the console did not print (harness/research/jump-label-tcg.md" \
		"shows how to read the kernel log out of guest memory)"
	die "the guest did not finish (QEMU exit $rc), console in $log"
fi
say "booted and ran in $(( $(date +%s) - t0 )) s, console in $log"
