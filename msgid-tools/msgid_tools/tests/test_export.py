# SPDX-License-Identifier: GPL-2.0
"""Tests of msgid-db.py export: the tables log pipelines load."""

import csv
import io
import json
import os
import tempfile
import unittest
import zlib

from msgid_tools import cli
from msgid_tools import export
from msgid_tools.tests import clirun

LONG = "x" * 5000
INDEX = ("""\
# <level/flags> filename:line function "format"
<0> arch/x86/kernel/cpu/mce/core.c:176 __print_mce "mce: [Hardware Error]: CPU %d: Machine Check%s: %Lx Bank %d: %016Lx\\n"
<3> drivers/base/core.c:12 probe_it "%s %s: probe failed, \\"%s\\", %d\\n"
<6> kernel/a.c:1 a "same\\n"
<6> kernel/b.c:2 b "same\\n"
<6> kernel/c.c:3 c "long %s LONG\\n"
""").replace("LONG", LONG).encode()
MCE = "%08x" % zlib.crc32(b"mce: [Hardware Error]: CPU %d: Machine Check%s: "
                          b"%Lx Bank %d: %016Lx")
PROBE = "%08x" % zlib.crc32(b'probe failed, "%s", %d')
SAME = "%08x" % zlib.crc32(b"same")
LONG_ID = "%08x" % zlib.crc32(b"long %s " + LONG.encode())
MCE_SUBJECT = "Machine check exception reported by the CPU"


class ExportTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.db = os.path.join(self.tmp.name, "msgid.db")
        index = os.path.join(self.tmp.name, "index")
        os.mkdir(index)
        with open(os.path.join(index, "vmlinux"), "wb") as f:
            f.write(INDEX)
        self.assertEqual(self.run_cli("build", "--index-dir", index)[0], 0)

    def run_cli(self, *argv: str) -> tuple[int, str, str]:
        return clirun.run(["--db", self.db, *argv])

    def export(self, *argv: str) -> str:
        status, out, err = self.run_cli("export", "--lang", "en", *argv)
        self.assertEqual(status, 0, err)
        return out

    def test_csv(self) -> None:
        out = self.export("--format", "csv")
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual(list(rows[0]), list(export.CSV_COLUMNS))
        by_id = {r["id"]: r for r in rows}
        self.assertEqual(sorted(by_id), sorted([MCE, PROBE, SAME, LONG_ID]))
        self.assertEqual(len(rows), 4)
        mce = by_id[MCE]
        self.assertEqual((mce["class"], mce["level"], mce["file"],
                          mce["line"], mce["function"], mce["sites"],
                          mce["subject"]),
                         ("hardware", "0", "arch/x86/kernel/cpu/mce/core.c",
                          "176", "__print_mce", "1", MCE_SUBJECT))
        self.assertEqual(mce["summary"], "arch/x86/kernel/cpu/mce/core.c:176"
                         " __print_mce [hardware] " + MCE_SUBJECT)
        self.assertEqual(by_id[SAME]["summary"], "kernel/a.c:1 a (+1 more)")
        self.assertEqual(by_id[SAME]["sites"], "2")
        # Quotes in a format survive CSV quoting, as a C literal body.
        self.assertEqual(by_id[PROBE]["format"], 'probe failed, \\"%s\\", %d')

    def test_csv_lines_for_line_based_readers(self) -> None:
        # Fluent Bit's lookup filter reads the file with fgets() into 4096
        # bytes and takes column 1 as the key, column 2 as the value: each
        # record must be one physical line, far below that.
        out = self.export("--format", "csv")
        lines = out.splitlines()
        self.assertEqual(len(lines), 5)
        for line in lines[1:]:
            self.assertLess(len(line.encode()), 2048, line[:80])
            key, value = next(csv.reader([line]))[:2]
            self.assertRegex(key, r"^[0-9a-f]{8}$")
            self.assertTrue(value)
        fmt = {r["id"]: r["format"] for r in
               csv.DictReader(io.StringIO(out))}[LONG_ID]
        self.assertEqual(len(fmt), export.FORMAT_LIMIT + 3)
        self.assertTrue(fmt.startswith("long %s xxx") and
                        fmt.endswith("..."))

    def test_json_is_an_rsyslog_lookup_table(self) -> None:
        obj = json.loads(self.export("--format", "json"))
        self.assertEqual((obj["version"], obj["type"], obj["nomatch"]),
                         (1, "string", ""))
        table = {t["index"]: t["value"] for t in obj["table"]}
        self.assertEqual(len(table), len(obj["table"]))
        self.assertEqual(sorted(table), sorted([MCE, PROBE, SAME, LONG_ID]))
        self.assertEqual(table[MCE], "arch/x86/kernel/cpu/mce/core.c:176 "
                         "__print_mce [hardware] " + MCE_SUBJECT)

    def test_cli_offers_every_format(self) -> None:
        self.assertEqual(cli.EXPORT_FORMATS, export.FORMATS)

    def test_json_nomatch(self) -> None:
        obj = json.loads(self.export("--format", "json", "--nomatch", "?"))
        self.assertEqual(obj["nomatch"], "?")
        status, _, err = self.run_cli("export", "--format", "csv",
                                      "--nomatch", "?")
        self.assertEqual(status, 2)
        self.assertIn("--nomatch is for --format json", err)

    def test_syslog_ng_contextual_data(self) -> None:
        rows = list(csv.reader(io.StringIO(self.export("--format",
                                                       "syslog-ng"))))
        self.assertTrue(all(len(r) == 3 for r in rows))
        got = {(r[0], r[1]): r[2] for r in rows}
        self.assertEqual(got[(MCE, "class")], "hardware")
        self.assertEqual(got[(MCE, "site")],
                         "arch/x86/kernel/cpu/mce/core.c:176")
        self.assertEqual(got[(MCE, "subject")], MCE_SUBJECT)
        self.assertEqual(got[(SAME, "function")], "a")
        # Empty values are left out rather than written as "".
        self.assertNotIn((SAME, "subject"), got)
        self.assertEqual({k[1] for k in got}, set(export.SYSLOG_NG_NAMES))

    def test_class_filter_and_language(self) -> None:
        out = self.export("--format", "csv", "--class", "hardware")
        self.assertEqual([r["id"] for r in csv.DictReader(io.StringIO(out))],
                         [MCE])
        status, out, _ = self.run_cli("export", "--lang", "de",
                                      "--class", "hardware")
        self.assertEqual(status, 0)
        subject = next(csv.DictReader(io.StringIO(out)))["subject"]
        self.assertTrue(subject.startswith("Die CPU"), subject)

    def test_output_file(self) -> None:
        path = os.path.join(self.tmp.name, "msgid.json")
        status, out, err = self.run_cli("export", "--format", "json",
                                        "-o", path)
        self.assertEqual((status, out), (0, ""))
        self.assertIn("4 IDs", err)
        with open(path) as f:
            self.assertEqual(len(json.load(f)["table"]), 4)
        self.assertEqual(oct(os.stat(path).st_mode & 0o777), "0o644")
        # No database: exit 3, and the table that was there stays.
        status, _, _ = self.run_cli("--db", os.path.join(self.tmp.name, "no"),
                                    "export", "-o", path)
        self.assertEqual(status, 3)
        with open(path) as f:
            self.assertEqual(len(json.load(f)["table"]), 4)
        self.assertEqual(sorted(os.listdir(self.tmp.name)),
                         ["index", "msgid.db", "msgid.json"])


if __name__ == "__main__":
    unittest.main()
