#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench-db.sh [TREE]: benchmark msgid-tools/msgid-db (build time, lookup
# latency, annotate lines/s) and compare with "git grep -F" in TREE
# (default out/linux, the base plus the series; a non-git tree is searched
# with --no-index).  Uses out/build/msgid/vmlinux and its modules when
# built, else scans the C sources of TREE.  Extra options go to
# msgid_tools.bench (see there for the text matcher's figures). The tool runs under Debian's /usr/bin/python3 (what a
# distribution would ship it with) when it is there: start-up dominates a
# lookup, and a python3 with many site packages starts several times slower.
set -eu
cd "$(dirname "$0")/.."
tree=${1:-out/linux}
[ -d "$tree" ] || { echo "error: no $tree: run 'make tree' first" >&2; exit 1; }
py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
echo "bench-db: $($py --version) ($py)"
[ $# -gt 0 ] && shift
args=(--tree "$tree")
if [ -f out/build/msgid/vmlinux ]; then
	args+=(--vmlinux out/build/msgid/vmlinux --modules out/build/msgid)
fi
# The text matcher (lines without an ID): its figures on the boot log of
# make selftest, and its speed against the index database and against a
# --source database of the tree (built once, kept in out/bench-db/).
[ -f out/boot/boot.log ] && args+=(--boot-log out/boot/boot.log)
# It is this job's own file: built again when a scanner file is newer
# (msgid_tools.bench refuses a stale one and never removes a file it is given).
mkdir -p out/bench-db
db=out/bench-db/source.db
if [ -f "$db" ] && [ -n "$(find msgid-tools/msgid_tools -name 'source*.py' -newer "$db")" ]; then
	echo "bench-db: $db is older than the scanner: building it again"
	rm -f "$db"
fi
args+=(--source-db "$db")
# The database of several releases, when make db-releases built it.
[ -f out/releases/msgid.db ] && args+=(--releases-db out/releases/msgid.db)
PYTHONPATH=msgid-tools exec "$py" -m msgid_tools.bench "${args[@]}" "$@"
