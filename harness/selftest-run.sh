#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# selftest-run.sh: /run.sh of the selftest initramfs (busybox, run by /init
# of harness/initramfs.sh). Dumps the kernel's records of the boot, runs
# the installed kselftests, then prints their TAP output again between
# markers, with the console quiet, for harness/selftest.sh to parse.

# The console shows only emergencies while we print what the host parses.
dmesg -n 1

# Kernel records only (facility 0: "<0>" to "<7>"), console style.
echo "msgid-boot: begin"
dmesg -r -s 4194304 | sed -n 's/^<[0-7]>\[/msgid-boot: [/p'
echo "msgid-boot: end"

# kselftest/runner.sh logs to /dev/stdout, which devtmpfs does not provide.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
[ -e /dev/stdin ] || ln -s /proc/self/fd/0 /dev/stdin
[ -e /dev/stdout ] || ln -s /proc/self/fd/1 /dev/stdout
[ -e /dev/stderr ] || ln -s /proc/self/fd/2 /dev/stderr

# kselftest/runner.sh calls "timeout --foreground", which busybox lacks.
rm -f /usr/bin/timeout
# shellcheck disable=SC2016 # the shim's own "$1" and "$@"
printf '#!/bin/sh\n[ "$1" = --foreground ] && shift\nexec busybox timeout "$@"\n' > /usr/bin/timeout
chmod +x /usr/bin/timeout

dmesg -n 7
cd /kselftest || exit 1
# The TAP output goes to the console live, where the kernel's messages
# interleave with it, and to a file.
# The harness boots print through no unindexed wrapper: every record must
# be in the index (msgid_test.c, test_index_coverage()).
{ MSGID_TEST_INDEX_ALL=1 ./run_kselftest.sh; echo $? > /tmp/rc; } 2>&1 | tee /tmp/tap.log
rc=$(cat /tmp/rc 2>/dev/null || echo 1)

dmesg -n 1
echo "msgid-tap: begin"
sed 's/^/msgid-tap: /' /tmp/tap.log
echo "msgid-tap: end (run_kselftest.sh exit $rc)"
exit "$rc"
