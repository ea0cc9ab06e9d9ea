#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pytest.sh: run the unit tests of scripts/msgid-db.py (host, no root).
# Tests against out/build/msgid and out/boot/boot.log skip when absent.
set -eu
cd "$(dirname "$0")/.."
exec python3 -m unittest discover -s scripts/msgid_db/tests -t scripts "$@"
