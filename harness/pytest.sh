#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pytest.sh: run the unit tests of scripts/msgid-db.py and of msgid-tools
# (host, no root), all in msgid-tools/msgid_tools/tests.
# Tests against out/build/msgid and out/boot/boot.log skip when absent.
# They take 2-9 minutes; a test that hangs fails the job after 30.
set -eu
. "$(dirname "$0")/env.sh"
cd "$ROOT"
rc=0
timeout -k 10 1800 python3 -m unittest discover -s msgid-tools/msgid_tools/tests -t msgid-tools "$@" || rc=$?
[ $rc != 124 ] || die "the tests did not end in 30 minutes: one hangs (run harness/pytest.sh -v to see which)"
exit $rc
