#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot.sh BZIMAGE INITRD LOG "EXTRA CMDLINE" [TIMEOUT]: boot under QEMU TCG
# with a serial console, log the console to LOG, and fail if the guest
# did not reach "msgid-init: done" within TIMEOUT seconds (default 300).
# SMP=N in the environment sets the number of CPUs (default 2), QEMU_MEM=MiB
# the memory (default 1024), QEMU_EXTRA more QEMU arguments, split at
# spaces (devices: a disk, a NIC).
set -eu
. "$(dirname "$0")/env.sh"

kernel=$1 initrd=$2 log=$3 extra=${4:-} limit=${5:-300}
say "booting $kernel under QEMU TCG, ${SMP:-2} CPUs, ${QEMU_MEM:-1024} MiB (seconds; limit ${limit}s)"
t0=$(date +%s)
set +e
# shellcheck disable=SC2086 # QEMU_EXTRA is a list of arguments
timeout --foreground -k 5 "$limit" qemu-system-x86_64 -accel tcg -m "${QEMU_MEM:-1024}" \
	-smp "${SMP:-2}" ${QEMU_EXTRA:-} -kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 oops=panic loglevel=7 $extra" \
	-display none -monitor none -serial stdio -no-reboot < /dev/null > "$log" 2>&1
rc=$?
set -e
tr -d '\r' < "$log" > "$log.tmp" && mv "$log.tmp" "$log"
[ "$rc" != 124 ] || die "QEMU timed out after ${limit}s, console in $log"
grep -q '^msgid-init: done' "$log" || die "the guest did not finish (QEMU exit $rc), console in $log"
say "booted and ran in $(( $(date +%s) - t0 )) s, console in $log"
