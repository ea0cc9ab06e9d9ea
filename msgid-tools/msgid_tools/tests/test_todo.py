# SPDX-License-Identifier: GPL-2.0
"""Tests of msgid-db.py catalog-todo: IDs that have no catalog entry."""

import json
import os
import tempfile
import unittest
import zlib

from msgid_tools.tests import clirun

INDEX = b"""\
# <level/flags> filename:line function "format"
<0> arch/x86/kernel/cpu/mce/core.c:176 __print_mce "mce: [Hardware Error]: CPU %d: Machine Check%s: %Lx Bank %d: %016Lx\\n"
<3> drivers/edac/x.c:5 report "[Hardware Error]: bank %d broke\\n"
<3> drivers/edac/y.c:9 report2 "[Hardware Error]: bank %d broke\\n"
<6> kernel/a.c:1 a "hello %s\\n"
"""
CATALOG = """\
-- %s
Subject: Machine check

Text.
""" % ("%08x" % zlib.crc32(b"mce: [Hardware Error]: CPU %d: Machine Check%s:"
                           b" %Lx Bank %d: %016Lx"))
BANK = "%08x" % zlib.crc32(b"[Hardware Error]: bank %d broke")
HELLO = "%08x" % zlib.crc32(b"hello %s")
MCE = "%08x" % zlib.crc32(b"mce: [Hardware Error]: CPU %d: Machine Check%s: "
                          b"%Lx Bank %d: %016Lx")


class TodoTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.db = os.path.join(self.tmp.name, "msgid.db")
        self.cat = os.path.join(self.tmp.name, "cat")
        index = os.path.join(self.tmp.name, "index")
        os.mkdir(index)
        os.mkdir(self.cat)
        with open(os.path.join(index, "vmlinux"), "wb") as f:
            f.write(INDEX)
        with open(os.path.join(self.cat, "k.catalog"), "w") as f:
            f.write(CATALOG)
        self.assertEqual(self.run_cli("build", "--index-dir", index)[0], 0)

    def run_cli(self, *argv: str) -> tuple[int, str, str]:
        return clirun.run(["--db", self.db, *argv])

    def test_class(self) -> None:
        status, out, err = self.run_cli("catalog-todo", "--class", "hardware",
                                        "--catalog", self.cat)
        self.assertEqual(status, 0)
        # The MCE has an entry; the bank message (2 call sites) has none.
        self.assertEqual(out, '%s 2 "[Hardware Error]: bank %%d broke"\n'
                         % BANK)
        self.assertIn("1 IDs without a catalog entry", err)

    def test_logs(self) -> None:
        log = os.path.join(self.tmp.name, "dmesg")
        with open(log, "wb") as f:
            f.write(b"[    1.000000] (%s): mce: [Hardware Error]: CPU 0\n"
                    b"[    2.000000] (%s): hello world\n"
                    b"[    3.000000] no identifier\n"
                    b"[    4.000000] (%s): [Hardware Error]: bank 3 broke\n"
                    b"[    5.000000] (%s): hello again \x1b\xff\n"
                    % (MCE.encode(), HELLO.encode(), BANK.encode(),
                       HELLO.encode()))
        status, out, err = self.run_cli("catalog-todo", "--catalog",
                                        self.cat, log)
        self.assertEqual(status, 0)
        # Most frequent first; the sample is the first record's text.
        self.assertEqual(out.splitlines(),
                         ['%s 2 "hello world"' % HELLO,
                          '%s 1 "[Hardware Error]: bank 3 broke"' % BANK])
        self.assertIn("2 IDs without a catalog entry (count: records)", err)

    def test_logs_in_other_forms(self) -> None:
        """The IDs of journalctl -o json and kern.log lines count too
        (msgid_tools.logreader)."""
        log = os.path.join(self.tmp.name, "journal")
        with open(log, "wb") as f:
            f.write(json.dumps({"MESSAGE": "(%s): hello world" % HELLO,
                                "_TRANSPORT": "kernel"}).encode() + b"\n"
                    + b"Dec  6 18:45:46 host kernel: [    2.0] (%s): hello "
                    b"again\n" % HELLO.encode())
        status, out, _ = self.run_cli("catalog-todo", "--catalog",
                                      self.cat, log)
        self.assertEqual(status, 0)
        self.assertEqual(out.splitlines(), ['%s 2 "hello world"' % HELLO])

    def test_class_and_logs_exclusive(self) -> None:
        status, _, err = self.run_cli("catalog-todo", "--class", "hardware",
                                      "x.log")
        self.assertEqual(status, 2)
        self.assertIn("not both", err)


if __name__ == "__main__":
    unittest.main()
