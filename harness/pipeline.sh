#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# pipeline.sh: message IDs through a real log daemon (rsyslogd from Debian):
# a kernel log with IDs, enriched with msgid-tools/msgid-db export's lookup table.
# Runs rsyslogd in the foreground with its own config in a temp dir.
set -eu
. "$(dirname "$0")/env.sh"
export OUT BASE_TARBALL
exec python3 "$ROOT/harness/pipeline.py"
