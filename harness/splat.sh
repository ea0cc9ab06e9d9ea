#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# splat.sh: what counts as a splat in a booted test kernel, both sides.
#   splat.sh overlay DIR   put /splat.re (harness/splat.re: one extended
#                          regular expression a line) and /splat.sh
#                          (harness/splat-guest.sh, run by the guest after
#                          its tests) into the initramfs overlay DIR
#   splat.sh check LOG TAINT
#                          fail on any splat in the console LOG or in the
#                          kernel log the guest scanned, on a taint other
#                          than TAINT (a number: 0, or the flags the run
#                          sets on purpose), or when lockdep turned off
set -eu
. "$(dirname "$0")/env.sh"

case "${1:-}" in
overlay)
	dir=$2
	mkdir -p "$dir"
	install -m 644 "$ROOT/harness/splat.re" "$dir/splat.re"
	install -m 755 "$ROOT/harness/splat-guest.sh" "$dir/splat.sh"
	;;
check)
	log=$2 taint=$3 bad=0
	end=$(grep '^msgid-splat: end ' "$log" || true)
	[ -n "$end" ] || die "no splat scan from the guest, console in $log"
	# The backtraces SysRq 'l' prints on purpose, as in splat-guest.sh.
	if awk '/NMI backtrace for cpu [0-9]+$/ { bt++ } /Call Trace:/ && bt > 0 { bt--; next } { print }' "$log" |
		grep -E -f "$ROOT/harness/splat.re" >&2; then
		echo "error: splats in the console or the kernel log (lines above)" >&2
		bad=1
	fi
	if grep '^msgid-splat: the log wrapped' "$log" >&2; then
		echo "error: the kernel log of the run was not kept whole (log_buf_len)" >&2
		bad=1
	fi
	if grep '^msgid-splat: /dev/kmsg not read' "$log" >&2; then
		echo "error: the guest did not read the kernel log to its end: no splat scan of all of it" >&2
		bad=1
	fi
	# "debug_locks: 1" with lockdep; nothing in a kernel without it (the
	# Rust kernel): no /proc/lockdep_stats.
	case "$end" in
	*"(tainted $taint, debug_locks: 1)" | *"(tainted $taint, )") ;;
	*)
		echo "error: $end: tainted (but $taint), or lockdep turned itself off" >&2
		bad=1
		;;
	esac
	[ "$bad" = 0 ] || die "the kernel splatted: console in $log"
	;;
*)
	die "usage: splat.sh overlay DIR | check LOG TAINT"
	;;
esac
