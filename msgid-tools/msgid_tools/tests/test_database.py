# SPDX-License-Identifier: GPL-2.0
"""Tests of the SQLite database (msgid_tools.database)."""

import glob
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import unittest
import zlib
from typing import Iterator

from msgid_tools import database
from msgid_tools import queries
from msgid_db.ids import CallSite

SCRIPTS = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def site(fmt: bytes, file: str = "a.c", line: int = 1) -> CallSite:
    return CallSite.from_format(fmt, file=file, line=line, function="f",
                                module="vmlinux", origin="elf")


SITES = [
    site(b"\x016hello %d\n", "a.c", 1),
    site(b"\x013hello %d\n", "b.c", 2),     # same ID, other site
    site(b"\x010[Hardware Error]: boom\n", "c.c", 3),
    site(b"plain", "d.c", 4),
]


class WriteReadTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.path = os.path.join(self.tmp.name, "msgid.db")

    def test_roundtrip(self) -> None:
        self.assertEqual(database.write(self.path, SITES, {"source": "t"}), 4)
        db = database.Database(self.path)
        got = db.lookup("%08x" % zlib.crc32(b"hello %d"))
        self.assertEqual([(s.file, s.level) for s in got],
                         [("a.c", "6"), ("b.c", "3")])
        self.assertEqual(db.lookup("00000000"), [])
        self.assertEqual([s.file for s in queries.by_class(db, "hardware")],
                         ["c.c"])
        meta = db.meta()
        self.assertEqual((meta["source"], meta["sites"]), ("t", "4"))
        self.assertEqual(dict(queries.counts(db, "origin")), {"elf": 4})
        self.assertEqual(len(queries.id_map(db)), 3)

    def test_collisions(self) -> None:
        # Two different formats forced onto one ID, as a CRC collision.
        fake = site(b"other")._replace(id=SITES[3].id)
        database.write(self.path, SITES + [fake], {})
        crc, shared = queries.collisions(database.Database(self.path))
        self.assertEqual(crc, [(SITES[3].id, 2, 2)])
        self.assertEqual(shared, [(SITES[0].id, 2)])

    def test_interrupted_build_keeps_old_db(self) -> None:
        database.write(self.path, SITES[:1], {"source": "old"})

        def failing() -> Iterator[CallSite]:
            yield SITES[1]
            raise KeyboardInterrupt

        with self.assertRaises(KeyboardInterrupt):
            database.write(self.path, failing(), {"source": "new"})
        db = database.Database(self.path)
        self.assertEqual(db.meta()["source"], "old")
        self.assertEqual(len(db.all_sites()), 1)
        self.assertEqual(os.listdir(self.tmp.name), ["msgid.db"])

    def temporaries(self) -> list[str]:
        return glob.glob(os.path.join(self.tmp.name, ".msgid.db.*.tmp*"))

    def test_killed_build_keeps_old_db(self) -> None:
        """SIGKILL in the middle of a build leaves the old DB intact; the
        next build removes the temporary file the killed one left."""
        database.write(self.path, SITES, {"source": "old"})
        code = (
            "import sys, time\n"
            "from msgid_tools import database\n"
            "from msgid_db import ids\n"
            "def sites():\n"
            "    for i in range(10**9):\n"
            "        if i == 20000:\n"
            "            print('ready', flush=True)\n"
            "            time.sleep(60)\n"
            "        yield ids.CallSite.from_format(b'x%d' % i, file='a.c',\n"
            "            line=i, function='f', module='m', origin='elf')\n"
            "database.write(sys.argv[1], sites(), {'source': 'new'})\n")
        proc = subprocess.Popen([sys.executable, "-c", code, self.path],
                                stdout=subprocess.PIPE, cwd=SCRIPTS)
        try:
            self.assertEqual(proc.stdout.readline(), b"ready\n")
            # Half-way: the temporary file exists and is in use.
            (tmp,) = self.temporaries()
            self.assertEqual(database.remove_stale_temporaries(self.path), [])
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            proc.stdout.close()
        self.assert_old_database()
        # The temporary file is left behind, hidden, next to the database
        # (no journal: it is written with journal_mode=OFF)...
        self.assertEqual(self.temporaries(), [tmp])
        # ... until the next build, which removes it.
        database.write(self.path, SITES[:1], {"source": "next"})
        self.assertEqual(self.temporaries(), [])
        self.assertEqual(os.listdir(self.tmp.name), ["msgid.db"])

    def assert_old_database(self) -> None:
        conn = sqlite3.connect(self.path)
        try:
            self.assertEqual(conn.execute("PRAGMA integrity_check")
                             .fetchone(), ("ok",))
        finally:
            conn.close()
        db = database.Database(self.path)
        self.assertEqual(db.meta()["source"], "old")
        self.assertEqual(db.all_sites(),
                         sorted(SITES, key=lambda s: (s.id, s.module, s.file,
                                                      s.line)))

    def test_running_build_keeps_its_temporary(self) -> None:
        """A temporary file another build holds locked is not removed."""
        import fcntl
        other = os.path.join(self.tmp.name, ".msgid.db.abcd1234.tmp")
        stale = os.path.join(self.tmp.name, ".msgid.db.zz_99xyz.tmp")
        unrelated = os.path.join(self.tmp.name, ".msgid.db.abcd1234.tmp.x")
        for path in (other, stale, unrelated):
            with open(path, "wb") as f:
                f.write(b"partial")
        fd = os.open(other, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            database.write(self.path, SITES, {})
            self.assertTrue(os.path.exists(other))
            self.assertFalse(os.path.exists(stale))
            self.assertTrue(os.path.exists(unrelated))
        finally:
            os.close(fd)
        self.assertEqual(database.remove_stale_temporaries(self.path),
                         [os.path.basename(other)])

    def test_failed_write_leaves_nothing(self) -> None:
        """sqlite errors become DatabaseError; no temporary file stays."""
        database.write(self.path, SITES, {"source": "old"})
        bad = SITES[0]._replace(file=object())  # cannot be bound
        with self.assertRaisesRegex(database.DatabaseError,
                                    "^%s: " % self.path):
            database.write(self.path, SITES + [bad], {})
        self.assert_old_database()
        self.assertEqual(os.listdir(self.tmp.name), ["msgid.db"])

    def test_unstorable_values(self) -> None:
        """File names with undecodable bytes, huge line numbers."""
        odd = [SITES[0]._replace(file="\udcff.c", module="m\ud800",
                                 line=1 << 70)]
        database.write(self.path, odd, {"sources": "dir\udcfe"})
        db = database.Database(self.path)
        (site,) = db.all_sites()
        self.assertEqual((site.file, site.module, site.line),
                         ("\\xff.c", "m\\ud800", 0))
        self.assertEqual(db.meta()["sources"], "dir\\xfe")

    def test_target_not_a_regular_file(self) -> None:
        os.mkdir(self.path)
        with self.assertRaisesRegex(database.DatabaseError,
                                    "not a regular file"):
            database.write(self.path, SITES, {})
        self.assertEqual(os.listdir(self.tmp.name), ["msgid.db"])

    def test_missing_and_bad_db(self) -> None:
        with self.assertRaisesRegex(database.DatabaseError, "no such database"):
            database.Database(self.path)
        with open(self.path, "wb") as f:
            f.write(b"this is not sqlite" * 100)
        with self.assertRaisesRegex(database.DatabaseError,
                                    "not a msgid database"):
            database.Database(self.path)

    def test_unwritable_dir(self) -> None:
        with self.assertRaises(database.DatabaseError):
            database.write("/nonexistent/dir/msgid.db", SITES, {})

    def test_default_path(self) -> None:
        old = os.environ.pop("MSGID_DB", None)
        try:
            self.assertEqual(database.default_path(), "msgid.db")
            os.environ["MSGID_DB"] = "/x/y.db"
            self.assertEqual(database.default_path(), "/x/y.db")
        finally:
            os.environ.pop("MSGID_DB", None)
            if old is not None:
                os.environ["MSGID_DB"] = old


if __name__ == "__main__":
    unittest.main()
