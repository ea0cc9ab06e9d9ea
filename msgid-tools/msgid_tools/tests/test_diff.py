# SPDX-License-Identifier: GPL-2.0
"""Tests of msgid-db.py diff (msgid_tools.diff)."""

import json
import os
import tempfile
import unittest
import zlib

from msgid_tools import database
from msgid_tools import diff
from msgid_db.ids import CallSite
from msgid_tools.tests import clirun


def crc(text: bytes) -> str:
    return "%08x" % zlib.crc32(text)


def site(fmt: bytes, file: str = "?", line: int = 0,
         module: str = "vmlinux", origin: str = "elf") -> CallSite:
    return CallSite.from_format(fmt, file=file, line=line, function="f",
                                module=module, origin=origin)


OLD = [
    site(b"\x016same place\n", "a.c", 1),
    site(b"\x016moved %d\n", "a.c", 2),
    site(b"\x016moved %d\n", "b.c", 3),
    site(b"\x013removed: %s\n", "a.c", 4),
    site(b"\x016only strings\n", origin="strings"),
    site(b"\x016strings, then placed\n", origin="strings"),
]
NEW = [
    site(b"\x016same place\n", "a.c", 1),
    site(b"\x014same place\n", "a.c", 1),    # another level, same ID
    site(b"\x016moved %d\n", "a.c", 2),
    site(b"\x016moved %d\n", "b.c", 30),
    site(b"\x013added: %s\n", "c.c", 5, module="newmod"),
    site(b"\x016only strings\n", origin="strings"),
    site(b"\x016strings, then placed\n", "d.c", 6),
]
SAME, MOVED = crc(b"same place"), crc(b"moved %d")
GONE, ADDED = crc(b"removed: %s"), crc(b"added: %s")
STRINGS, PLACED = crc(b"only strings"), crc(b"strings, then placed")


class CompareTest(unittest.TestCase):
    def test_sets(self) -> None:
        d = diff.compare(diff.by_id(OLD), diff.by_id(NEW))
        self.assertEqual(d.kept, sorted([SAME, MOVED, STRINGS, PLACED]))
        self.assertEqual(d.gone, [GONE])
        self.assertEqual(d.new, [ADDED])
        # No place before or no place after: not moved.
        self.assertEqual(d.moved, [MOVED])
        self.assertEqual(d.counts(), {"kept": 4, "gone": 1, "new": 1,
                                      "moved": 1})

    def test_identical(self) -> None:
        d = diff.compare(diff.by_id(OLD), diff.by_id(OLD))
        self.assertEqual((d.gone, d.new, d.moved), ([], [], []))
        self.assertEqual(len(d.kept), 5)


class DiffCliTest(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.old = os.path.join(tmp.name, "old.db")
        self.new = os.path.join(tmp.name, "new.db")
        database.write(self.old, OLD, {})
        database.write(self.new, NEW, {})

    def run_cli(self, *argv: str) -> tuple[int, str, str]:
        return clirun.run(list(argv))

    def test_text(self) -> None:
        status, out, _ = self.run_cli("diff", self.old, self.new)
        self.assertEqual(status, 1)     # an ID is gone (issue 37)
        self.assertEqual(out.splitlines(), [
            "old: %s, 5 IDs" % self.old,
            "new: %s, 5 IDs" % self.new,
            "kept:  4 (80.0% of old)",
            "gone:  1",
            "new:   1",
            "moved: 1 (kept, at another file:line)",
            '- %s "removed: %%s" (vmlinux)' % GONE,
            '+ %s "added: %%s" (newmod)' % ADDED,
            '~ %s "moved %%d" (vmlinux): a.c:2 b.c:3 -> a.c:2 b.c:30' % MOVED,
        ])
        _, out, _ = self.run_cli("diff", "--summary", self.old, self.new)
        self.assertEqual(len(out.splitlines()), 6)

    def test_json(self) -> None:
        status, out, _ = self.run_cli("diff", "--json", self.old, self.new)
        self.assertEqual(status, 1)
        obj = json.loads(out)
        self.assertEqual(obj["counts"], {"kept": 4, "gone": 1, "new": 1,
                                         "moved": 1})
        self.assertEqual((obj["old"]["ids"], obj["new"]["ids"]), (5, 5))
        self.assertEqual(obj["gone"], [{"id": GONE, "canonical": "removed: %s",
                                        "modules": ["vmlinux"],
                                        "places": ["a.c:4"]}])
        self.assertEqual([e["id"] for e in obj["added"]], [ADDED])
        self.assertEqual(obj["moved"], [{"id": MOVED, "canonical": "moved %d",
                                         "old": ["a.c:2", "b.c:3"],
                                         "new": ["a.c:2", "b.c:30"]}])

    def test_nothing_gone(self) -> None:
        status, _, _ = self.run_cli("diff", "--summary", self.old, self.old)
        self.assertEqual(status, 0)

    def test_missing_database(self) -> None:
        status, out, err = self.run_cli("diff", self.old, self.old + ".x")
        self.assertEqual((status, out), (3, ""))
        self.assertIn("no such database", err)


if __name__ == "__main__":
    unittest.main()
