#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# jobs.sh: the wall time of each job the Makefile runs, so that a slow one
# shows in CI's log.
#   jobs.sh start            begin a run (make check): empty out/jobs.log
#   jobs.sh run NAME CMD...  run CMD, append "NAME SECONDS STATUS" to it
#   jobs.sh report           print the table and the run's total
# A failed job prints the table so far before make stops. With JOBS_TAG=1
# (make check, which runs two jobs at a time) every line a job prints
# starts with "[NAME] ", so that the interleaved output stays readable.
set -u
. "$(dirname "$0")/env.sh"

log=$OUT/jobs.log
mkdir -p "$OUT"

report() {
	local start total
	[ -s "$log" ] || return 0
	start=$(sed -n 's/^# start //p' "$log" | head -1)
	total=$(( $(date +%s) - ${start:-$(date +%s)} ))
	echo "job times (wall clock, s):"
	grep -v '^#' "$log" | awk -F'\t' '{ printf "  %-18s %6d  %s\n", $1, $2, $3 }'
	[ -n "$start" ] && printf '  %-18s %6d  (%d min %02d s)\n' total "$total" \
		$((total / 60)) $((total % 60))
	return 0
}

case "${1:-}" in
start)
	printf '# start %d\n' "$(date +%s)" > "$log"
	;;
run)
	name=$2
	shift 2
	t0=$(date +%s)
	if [ "${JOBS_TAG:-0}" = 1 ]; then
		# The kernel builds inside set their own -j; they must not see
		# the jobserver of the make that runs the jobs.
		unset MAKEFLAGS MFLAGS
		"$@" 2>&1 | sed -u "s/^/[$name] /"
		rc=${PIPESTATUS[0]}
	else
		"$@"
		rc=$?
	fi
	t=$(( $(date +%s) - t0 ))
	status=ok
	[ $rc = 0 ] || status="FAILED ($rc)"
	printf '%s\t%d\t%s\n' "$name" "$t" "$status" >> "$log"
	say "$name: $status in $t s"
	[ $rc = 0 ] || report >&2
	exit $rc
	;;
report)
	report
	;;
*)
	die "usage: jobs.sh start | run NAME CMD... | report"
	;;
esac
