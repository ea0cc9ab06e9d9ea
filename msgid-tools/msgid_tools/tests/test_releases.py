# SPDX-License-Identifier: GPL-2.0
"""A database of several releases: build --release, merge, and lookup,
lookup --text and annotate preferring the log's release."""

import json
import os
import sqlite3
import tempfile
import unittest
import zlib

from msgid_tools import database
from msgid_tools import releases
from msgid_tools.tests import clirun

# The same message in two releases, its format changed in between (the
# shape of the OOM killer's "Killed process" line: %hd in 6.12).
OLD_FMT = (b"Out of memory: Killed process %d (%s) total-vm:%lukB, "
           b"oom_score_adj:%hd")
NEW_FMT = (b"Out of memory: Killed process %d (%s) total-vm:%lukB, "
           b"oom_score_adj:%d")
OLD_ID = "%08x" % zlib.crc32(OLD_FMT)
NEW_ID = "%08x" % zlib.crc32(NEW_FMT)
KEPT_FMT = b"example: kept %d"
KEPT_ID = "%08x" % zlib.crc32(KEPT_FMT)
GONE_FMT = b"example: only in the old one %s"
GONE_ID = "%08x" % zlib.crc32(GONE_FMT)
LINE = b"Out of memory: Killed process 412 (stress) total-vm:1024kB, " \
       b"oom_score_adj:0"


def _tree(root: str, version: str, patch: str, body: bytes) -> str:
    os.makedirs(os.path.join(root, "mm"))
    with open(os.path.join(root, "Makefile"), "w") as f:
        f.write("# SPDX\nVERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 9\n"
                "EXTRAVERSION =\nNAME = test\n" % (version, patch))
    with open(os.path.join(root, "mm", "oom_kill.c"), "wb") as f:
        f.write(b"#include <linux/printk.h>\n" + body)
    return root


def _c(fmt: bytes) -> bytes:
    return b'\tpr_err("' + fmt + b'\\n", 1);\n'


class ReleasesTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        d = self.tmp.name
        old = _tree(os.path.join(d, "old"), "6", "12",
                    b"void oom_kill(void)\n{\n" + _c(OLD_FMT) + _c(KEPT_FMT)
                    + _c(GONE_FMT) + b"}\n")
        new = _tree(os.path.join(d, "new"), "7", "3",
                    b"void oom_kill(void)\n{\n\n\n" + _c(NEW_FMT)
                    + _c(KEPT_FMT) + b"}\n")
        self.old_db = os.path.join(d, "old.db")
        self.new_db = os.path.join(d, "new.db")
        self.db = os.path.join(d, "all.db")
        for tree, db in ((old, self.old_db), (new, self.new_db)):
            status, _, err = self.cli("build", "--source", tree, "-o", db,
                                      "-j", "1")
            self.assertEqual(status, 0, err)

    def cli(self, *argv: str) -> tuple[int, str, str]:
        return clirun.run(list(argv))

    def merge(self) -> None:
        status, _, err = self.cli("merge", "-o", self.db, self.old_db,
                                  self.new_db)
        self.assertEqual(status, 0, err)
        self.assertIn("releases 6.12 7.3", err)

    def test_series(self) -> None:
        self.assertEqual(releases.series("6.12.41+deb13-amd64"), "6.12")
        self.assertEqual(releases.series("7.3.4-1~bpo13+1"), "7.3")
        self.assertEqual(releases.series("5.15.0-91-generic"), "5.15")
        self.assertIsNone(releases.series("vmlinux"))
        self.assertLess(releases.order("6.1"), releases.order("6.12"))

    def test_build_names_the_tree_release(self) -> None:
        _, out, _ = self.cli("--db", self.old_db, "stats")
        self.assertIn("kernel_release: 6.12.9", out)

    def test_merge_keeps_releases(self) -> None:
        self.merge()
        db = database.open_db(self.db)
        try:
            self.assertEqual(releases.held(db), {"6.12": "6.12.9",
                                                 "7.3": "7.3.9"})
            self.assertEqual(releases.release_ids(db, "6.12"),
                             {OLD_ID, KEPT_ID, GONE_ID})
            self.assertEqual(releases.release_ids(db, "7.3"),
                             {NEW_ID, KEPT_ID})
            kept = releases.lookup(db, KEPT_ID)
            # one site, moved two lines down: the newest release's line
            self.assertEqual([(s.line, r) for s, r in kept],
                             [(7, "6.12 7.3")])
        finally:
            db.close()
        status, out, _ = self.cli("--db", self.db, "lookup", GONE_ID)
        self.assertEqual(status, 0)
        self.assertTrue(out.rstrip().endswith("releases=6.12"), out)
        _, out, _ = self.cli("--db", self.db, "lookup", "--json", KEPT_ID)
        self.assertEqual(json.loads(out)["releases"], ["6.12", "7.3"])

    def test_merge_of_a_merged_database(self) -> None:
        self.merge()
        again = os.path.join(self.tmp.name, "again.db")
        status, _, err = self.cli("merge", "-o", again, self.db)
        self.assertEqual(status, 0, err)
        db = database.open_db(again)
        try:
            self.assertEqual(releases.release_ids(db, "7.3"),
                             {NEW_ID, KEPT_ID})
        finally:
            db.close()
        # a release twice is refused, and nothing is written
        status, _, err = self.cli("merge", "-o", again, self.db,
                                  self.new_db)
        self.assertEqual(status, 2)
        self.assertIn("both hold release 7.3", err)

    def test_merge_bad_inputs(self) -> None:
        status, _, err = self.cli("merge", "-o", self.db, self.old_db,
                                  os.path.join(self.tmp.name, "none.db"))
        self.assertEqual(status, 2)
        self.assertIn("build it first", err)
        self.assertFalse(os.path.exists(self.db))
        # a database that names no release: RELEASE=FILE says it
        conn = sqlite3.connect(self.new_db)
        conn.execute("DELETE FROM meta WHERE key = 'kernel_release'")
        conn.commit()
        conn.close()
        status, _, err = self.cli("merge", "-o", self.db, self.old_db,
                                  self.new_db)
        self.assertEqual(status, 2)
        self.assertIn("RELEASE=FILE", err)
        self.assertFalse(os.path.exists(self.db))
        self.assertEqual([n for n in os.listdir(self.tmp.name)
                          if n.endswith(".tmp")], [])
        status, _, err = self.cli("merge", "-o", self.db, self.old_db,
                                  "7.3.1=" + self.new_db)
        self.assertEqual(status, 0, err)
        # not a database: nothing written, no work file left
        bad = os.path.join(self.tmp.name, "bad.db")
        with open(bad, "w") as f:
            f.write("garbage\n")
        out = os.path.join(self.tmp.name, "out.db")
        status, _, err = self.cli("merge", "-o", out, self.old_db, bad)
        self.assertEqual(status, 3)
        self.assertIn("not a msgid database", err)
        self.assertFalse(os.path.exists(out))
        self.assertEqual([n for n in os.listdir(self.tmp.name)
                          if n.endswith(".tmp")], [])
        status, _, err = self.cli("merge", "-o", os.path.join(
            self.tmp.name, "none", "x.db"), self.old_db)
        self.assertEqual(status, 2)
        self.assertIn("no such directory", err)

    def test_lookup_text_prefers_the_release(self) -> None:
        self.merge()
        for release, want in (("6.12", OLD_ID), ("6.12.41+deb13-amd64",
                                                 OLD_ID), ("7.3", NEW_ID)):
            status, out, err = self.cli("--db", self.db, "lookup", "--text",
                                        LINE.decode(), "--release", release)
            self.assertEqual(status, 0, err)
            self.assertTrue(out.startswith(want + "~ "), (release, out))
        status, _, err = self.cli("--db", self.db, "lookup", "--release",
                                  "6.1", KEPT_ID)
        self.assertEqual(status, 0)
        self.assertIn("release 6.1 is not in", err)
        status, _, err = self.cli("--db", self.db, "lookup", "--release",
                                  "x", KEPT_ID)
        self.assertEqual(status, 2)
        self.assertIn("not a kernel release", err)

    def _annotate(self, log: bytes, *extra: str) -> list[dict]:
        path = os.path.join(self.tmp.name, "log")
        with open(path, "wb") as f:
            f.write(log)
        status, out, err = self.cli("--db", self.db, "annotate", "--json",
                                    path, *extra)
        self.assertEqual(status, 0, err)
        return [json.loads(x) for x in out.splitlines()]

    def test_annotate_takes_the_logs_release(self) -> None:
        self.merge()
        line = b"[  100.000000] " + LINE + b"\n"
        for version, want in ((b"6.12.41+deb13-amd64", OLD_ID),
                              (b"7.3.4-amd64", NEW_ID)):
            objs = self._annotate(b"[    0.000000] Linux version " + version
                                  + b" (gcc) #1 SMP\n" + line)
            self.assertEqual(objs[-1]["id"], want, version)
            self.assertEqual(objs[-1]["id_from"], "match")
        # --release wins over the log's own line
        objs = self._annotate(b"[    0.000000] Linux version 7.3.4 (x)\n"
                              + line, "--release", "6.12")
        self.assertEqual(objs[-1]["id"], OLD_ID)


if __name__ == "__main__":
    unittest.main()
