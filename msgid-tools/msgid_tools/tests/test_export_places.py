# SPDX-License-Identifier: GPL-2.0
"""export of rows without file:line (a distribution binary's strings):
the summary says what is known, never "?:0 ?"."""

import io
import json
import unittest

from msgid_tools import export
from msgid_db.ids import CallSite


def _site(msgid: str, file: str, line: int, function: str,
          module: str) -> CallSite:
    return CallSite(msgid, "fmt %d", "fmt %d\n", file, line, function, "6",
                    module, "none", "strings" if file == "?" else "elf")


class ExportPlacesTest(unittest.TestCase):
    def summaries(self, sites: list[CallSite]) -> dict[str, str]:
        out = io.StringIO()
        export.write_json(export.rows(sites), out)
        return {r["index"]: r["value"]
                for r in json.loads(out.getvalue())["table"]}

    def test_no_place(self) -> None:
        got = self.summaries([
            _site("00000001", "?", 0, "?", "vmlinux"),
            _site("00000002", "?", 0, "ext4_fill_super", "ext4"),
            _site("00000003", "?", 0, "?", ""),
            _site("00000004", "fs/ext4/super.c", 12, "ext4_fill_super",
                  "ext4")])
        self.assertEqual(got, {
            "00000001": "(vmlinux, no file:line)",
            "00000002": "ext4_fill_super (ext4, no file:line)",
            "00000003": "(module not known, no file:line)",
            "00000004": "fs/ext4/super.c:12 ext4_fill_super"})
        self.assertFalse(any("?:0" in v for v in got.values()))

    def test_a_row_with_a_place_represents_the_id(self) -> None:
        got = self.summaries([
            _site("00000001", "?", 0, "?", "vmlinux"),
            _site("00000001", "kernel/a.c", 3, "f", "vmlinux")])
        self.assertEqual(got["00000001"], "kernel/a.c:3 f (+1 more)")

    def test_syslog_ng_leaves_unknown_out(self) -> None:
        out = io.StringIO()
        export.write_syslog_ng(export.rows(
            [_site("00000001", "?", 0, "?", "vmlinux")]), out)
        self.assertEqual(out.getvalue(),
                         "00000001,summary,\"(vmlinux, no file:line)\"\n"
                         "00000001,class,none\n")


if __name__ == "__main__":
    unittest.main()
