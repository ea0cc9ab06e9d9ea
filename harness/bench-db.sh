#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bench-db.sh [TREE]: benchmark scripts/msgid-db.py (build time, lookup
# latency, annotate lines/s) and compare with "git grep -F" in TREE
# (default /tmp/base/linux-source-6.12; a non-git tree is searched with
# --no-index).  Uses out/build/msgid/vmlinux and its modules when built,
# else scans the C sources of TREE.  Extra options go to msgid_db.bench.
set -eu
cd "$(dirname "$0")/.."
tree=${1:-/tmp/base/linux-source-6.12}
[ $# -gt 0 ] && shift
args=(--tree "$tree")
if [ -f out/build/msgid/vmlinux ]; then
	args+=(--vmlinux out/build/msgid/vmlinux --modules out/build/msgid)
fi
PYTHONPATH=scripts exec python3 -m msgid_db.bench "${args[@]}" "$@"
