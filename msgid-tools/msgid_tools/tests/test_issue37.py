# SPDX-License-Identifier: GPL-2.0
"""Issue 37, points 8-10: honest answers from collisions, lookup,
explain, list, export, metrics and diff.  Expected IDs are zlib.crc32()
of the formats written here."""

import io
import contextlib
import json
import os
import unittest
import zlib

from msgid_tools import cli
from msgid_tools.tests import clirun


def crc(fmt: bytes) -> str:
    return "%08x" % zlib.crc32(fmt)


PROBE = b"probe of %s failed"
ACPI = b"_DSM evaluation failed, err=%d"
PIIX = b"PIIX3: Enabling Passive Release"
RUN = b"Run %s as init process"
# The kernel reports the ID of the caller's format (msgid=); the index
# glues the wrapper's prefix in front of it (dev_err_probe()'s
# "error %pe: ", acpi_handle_err()'s "ACPI: %s: ").
INDEX = (
    b'<3> drivers/base/core.c:5000 probe_a "error %%pe: %s\\n" msgid=%s\n'
    b'<3> drivers/base/dd.c:700 probe_b "%s\\n" msgid=%s\n'
    b'<3> drivers/acpi/utils.c:800 dsm_a "ACPI: %%s: %s\\n" msgid=%s\n'
    b'<3> drivers/acpi/utils.c:900 dsm_b "%s\\n"\n'
    b'<6> drivers/pci/quirks.c:332 quirk_passive_release '
    b'"%%s %%s: %s\\n"\n'
    b'<6> init/main.c:1354 run_init_process "%s\\n"\n'
    % (PROBE, crc(PROBE).encode(), PROBE, crc(PROBE).encode(), ACPI,
       crc(ACPI).encode(), ACPI, PIIX, RUN))


class Fixture(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp, self.db = clirun.index_db(self, INDEX)

    def run_cli(self, *argv: str) -> tuple[int, str, str]:
        raw, err = io.BytesIO(), io.StringIO()
        out = io.TextIOWrapper(raw, encoding="utf-8")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli.main(["--db", self.db] + list(argv))
            except SystemExit as e:
                status = e.code  # type: ignore[assignment]
            out.flush()
        return status, raw.getvalue().decode(), err.getvalue()


class CanonicalTest(Fixture):
    """Point 8: the canonical form is the caller's format alone."""

    def test_canonical_has_the_id(self) -> None:
        for fmt in (PROBE, ACPI):
            status, out, _ = self.run_cli("lookup", "--json", crc(fmt))
            self.assertEqual(status, 0)
            rows = [json.loads(x) for x in out.splitlines()]
            self.assertEqual(len(rows), 2)
            for row in rows:
                self.assertEqual(row["canonical"], fmt.decode())
                self.assertEqual(crc(row["canonical"].encode()), row["id"])

    def test_no_false_collisions(self) -> None:
        status, out, _ = self.run_cli("collisions")
        self.assertEqual(status, 0)
        self.assertIn("CRC collisions (one ID, different formats): 0 IDs",
                      out)
        self.assertIn("Shared IDs (one format, several call sites): 2 IDs, "
                      "4 call sites", out)

    def test_wrapped_row_still_matches_its_line(self) -> None:
        """The prefix moved out of the canonical form still matches."""
        status, out, _ = self.run_cli(
            "lookup", "--text", "error -ENODEV: probe of eth0 failed")
        self.assertEqual(status, 0, out)
        self.assertTrue(out.startswith(crc(PROBE) + "~ "), out)


    def test_prefix_before_an_empty_format(self) -> None:
        """drm_dbg(dev, "\\n") is indexed as "[drm:%ps] \\n" with the
        kernel's ID of "\\n", 00000000: its canonical form is "", as the
        other "\\n" rows' (the demo database's last false collision)."""
        _, db = clirun.index_db(self, (
            b'<7> drivers/gpu/drm/drm_drv.c:428 drm_put_dev '
            b'"[drm:%ps] \\n" msgid=00000000\n'
            b'<6> drivers/net/wireless/realtek/rtlwifi/core.c:1417 '
            b'rtl_op_sw_scan_start "rtlwifi: \\n" msgid=00000000\n'
            b'<c> arch/x86/kernel/apic/vector.c:1195 print_APIC_field '
            b'"\\n" msgid=00000000\n'))
        self.db = db
        status, out, _ = self.run_cli("collisions")
        self.assertEqual(status, 0)
        self.assertIn("CRC collisions (one ID, different formats): 0 IDs",
                      out)
        self.assertIn("00000000: 3 call sites", out)
        status, out, _ = self.run_cli("lookup", "--json", "00000000")
        self.assertEqual({json.loads(x)["canonical"]
                          for x in out.splitlines()}, {""})


class LookupTextTest(Fixture):
    """Point 9: lookup --text takes a line pasted from a log."""

    def test_pasted_lines(self) -> None:
        for text in (
                "[    9.882603] pci 0000:00:01.0: PIIX3: Enabling Passive "
                "Release",
                "Dec  6 18:45:46 host kernel: [    9.882603] pci "
                "0000:00:01.0: PIIX3: Enabling Passive Release",
                "2026-12-06T18:45:46,000000+00:00 pci 0000:00:01.0: PIIX3: "
                "Enabling Passive Release",
                "kern  :info  : [    9.882603] pci 0000:00:01.0: PIIX3: "
                "Enabling Passive Release",
                "pci 0000:00:01.0: PIIX3: Enabling Passive Release"):
            status, out, err = self.run_cli("lookup", "--text", text)
            self.assertEqual(status, 0, text + err)
            self.assertTrue(out.startswith(crc(PIIX) + "~ drivers/pci/"
                                           "quirks.c:332 "), out)

    def test_printed_id_is_the_answer(self) -> None:
        """The text matches RUN, but the printed ID is PIIX's: the
        printed one is looked up, never another guessed."""
        line = "[    1.0] (%s): Run /init as init process" % crc(PIIX)
        status, out, _ = self.run_cli("lookup", "--text", line)
        self.assertEqual(status, 0)
        self.assertTrue(out.startswith(crc(PIIX) + " drivers/pci/"), out)
        status, out, _ = self.run_cli("lookup", "--json", "--text", line)
        self.assertEqual(json.loads(out)["id_from"], "prefix")
        status, _, err = self.run_cli("lookup", "--text",
                                      "[ 1.0] (deadbeef): Run /init as init "
                                      "process")
        self.assertEqual(status, 1)
        self.assertIn("deadbeef: unknown message ID", err)

    def test_user_space_line(self) -> None:
        status, _, err = self.run_cli(
            "lookup", "--text", "Dec  6 18:45:46 host systemd[1]: Run /init "
            "as init process")
        self.assertEqual(status, 1)
        self.assertIn("a user-space record (systemd[1])", err)



class SmallerTest(Fixture):
    """Point 10."""

    def test_seven_digits(self) -> None:
        """lookup ed0153a was padded to 0ed0153a: "unknown", rc 1."""
        short = crc(PIIX)[:7]
        for argv in (["lookup", short], ["explain", short]):
            status, _, err = self.run_cli(*argv)
            self.assertEqual(status, 2, argv)
            self.assertIn("expected 8 hex digits, as the kernel prints them: "
                          "7 given, is one missing?", err)
        # a number may still be short: 0x1f is 0000001f
        status, _, err = self.run_cli("lookup", "0x1f")
        self.assertEqual(status, 1)
        self.assertIn("0000001f: unknown message ID", err)

    def test_explain_shows_the_call_site(self) -> None:
        status, out, err = self.run_cli("explain", crc(RUN))
        self.assertEqual(status, 1)
        self.assertIn("%s: no catalog entry" % crc(RUN), err)
        self.assertEqual(out, '  -> init/main.c:1354 run_init_process <6> '
                         '"Run %s as init process\\n" (vmlinux) '
                         'origin=index-computed\n')

    def test_list_of_an_empty_class(self) -> None:
        status, out, err = self.run_cli("list", "--class", "hardware")
        self.assertEqual((status, out), (1, ""))
        self.assertIn("no call site of class 'hardware' in ", err)

    def test_export_error_names_the_file(self) -> None:
        status, _, err = self.run_cli("export", "-o", "/nonexistent/x.csv")
        self.assertEqual(status, 2)
        self.assertIn("error: /nonexistent/x.csv: No such file or "
                      "directory", err)
        self.assertNotIn(".x.csv.", err)

    def test_metrics_without_debugfs(self) -> None:
        from unittest import mock

        from msgid_db import ids
        from msgid_tools import metrics
        missing = os.path.join(self.tmp, "debug", "printk", "msgid")
        with mock.patch.object(metrics, "DEFAULT_PATH", missing):
            with self.assertRaises(ids.InputError) as cm:
                metrics.read(missing)
        self.assertIn("mount -t debugfs none /sys/kernel/debug", str(cm.exception))

    def test_lookup_shows_no_level_bytes(self) -> None:
        """A strings or source row's format starts with KERN_SOH and its
        level: lookup shows the level as <6>, not as "\\0016"."""
        from msgid_tools import database
        from msgid_db.ids import CallSite
        db = os.path.join(self.tmp, "strings.db")
        database.write(db, [CallSite.from_format(
            b"\x016Run %s as init process\n", file="?", line=0,
            function="?", module="vmlinux", origin="strings")], {})
        status, out, _ = self.run_cli("--db", db, "lookup", crc(RUN))
        self.assertEqual(status, 0)
        self.assertEqual(out, '?:0 ? <6> "Run %s as init process\\n" '
                         '(vmlinux) origin=strings\n')


if __name__ == "__main__":
    unittest.main()
