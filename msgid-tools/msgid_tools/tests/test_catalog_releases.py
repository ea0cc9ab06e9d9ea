# SPDX-License-Identifier: GPL-2.0
"""Catalog entries that follow a message across releases: several
X-Formats (with the releases that print them), "-- format" entries, and
the check of the shipped catalog against a database of several releases
(out/releases/msgid.db of make db-releases, when it is there)."""

import os
import re
import subprocess
import tempfile
import unittest
import zlib

from msgid_db import ids
from msgid_tools import database
from msgid_tools import catalog, releases
from msgid_tools.tests import clirun

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
RELEASES_DB = os.path.join(ROOT, "out", "releases", "msgid.db")

NEW = b"example: thing %d went away"
OLD = b"example: thing %hd went away"
NEWER = "%08x" % zlib.crc32(NEW)
OLDER = "%08x" % zlib.crc32(OLD)
TEXT = """\
-- %s
Subject: A thing went away
X-Format: "%s"
X-Format: "%s" (6.1 6.12)

Body.
""" % (NEWER, NEW.decode(), OLD.decode())
GERMAN = """\
-- %s de
Subject: Ein Ding ist weg
X-Format: "%s"

Text.
""" % (NEWER, NEW.decode())

# The OOM killer's "Killed process" line of Debian's linux-source-6.12
# (mm/oom_kill.c): the shipped entry is keyed by 7.3's format.
OOM_612 = (b"%s: Killed process %d (%s) total-vm:%lukB, "
           b"anon-rss:%lukB, file-rss:%lukB, shmem-rss:%lukB, UID:%u "
           b"pgtables:%lukB oom_score_adj:%hd")
# ... its "invoked oom-killer" and RCU's "kthread starved" line.
OTHERS_612 = (
    (b"%s invoked oom-killer: gfp_mask=%#x(%pGg), order=%d, "
     b"oom_score_adj=%hd", "invoked"),
    (b"rcu: %s kthread starved for %ld jiffies! g%ld f%#x %s(%d) "
     b"->state=%#x ->cpu=%d", "kthread"))


class CatalogReleasesTest(unittest.TestCase):
    def test_every_format_names_the_entry(self) -> None:
        entries = catalog.parse(TEXT, "t.catalog")
        self.assertEqual(entries[0].ids(), [NEWER, OLDER])
        self.assertEqual(entries[0].formats()[1], (OLD, ["6.1", "6.12"]))
        cat = catalog.Catalog(entries + catalog.parse(GERMAN, "t.de.catalog",
                                                      "de"), "de")
        self.assertEqual(cat.get(OLDER).subject, "Ein Ding ist weg")
        self.assertEqual(catalog.Catalog(entries).get(OLDER).id, NEWER)

    def test_named_by_format(self) -> None:
        text = TEXT.replace("-- %s" % NEWER, "-- format")
        e = catalog.parse(text, "t.catalog")[0]
        self.assertEqual(e.id, NEWER)
        with self.assertRaisesRegex(catalog.CatalogError,
                                    r"t.catalog:1: entry '-- format' has no "
                                    r"X-Format"):
            catalog.parse("-- format\nSubject: x\n\nBody\n", "t.catalog")

    def test_bad_format_and_duplicates(self) -> None:
        with self.assertRaisesRegex(catalog.CatalogError,
                                    r"t.catalog:1: entry 12345678: bad "
                                    r"X-Format"):
            catalog.parse('-- 12345678\nSubject: x\nX-Format: "a" 6.1\n',
                          "t.catalog")
        other = '-- 12345678\nSubject: y\nX-Format: "%s"\n' % OLD.decode()
        with self.assertRaisesRegex(catalog.CatalogError,
                                    "duplicate entry %s" % OLDER):
            catalog.check_duplicates(catalog.parse(TEXT + other,
                                                   "t.catalog"))

    def test_explain_any_release_id(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "k.catalog"), "w") as f:
                f.write(TEXT)
            status, out, err = clirun.run(
                ["--db", os.path.join(d, "none.db"), "explain", OLDER,
                 "--catalog", d])
        self.assertEqual(status, 0, err)
        self.assertIn("Subject: A thing went away", out)
        self.assertIn("the entry of %s, whose format in 6.1 6.12" % NEWER,
                      err)

    def test_missing_formats(self) -> None:
        entries = catalog.parse(TEXT, "t.catalog")
        self.assertEqual(catalog.missing_formats(
            entries, {"6.12": {OLDER}, "7.3": {NEWER}}), [])
        # the old format is said to be 6.12's, and 6.12 does not print it
        problems = catalog.missing_formats(entries, {"6.12": {NEWER}})
        self.assertEqual(len(problems), 1)
        self.assertIn("names release 6.12", problems[0])
        # no release prints any of its formats: the check fails
        problems = catalog.missing_formats(entries, {"7.3": {"00000000"}})
        self.assertEqual(len(problems), 1)
        self.assertIn("no X-Format is printed by any release", problems[0])

    def test_shipped_oom_entry_follows_6_12(self) -> None:
        cat = catalog.Catalog.load()
        old = "%08x" % zlib.crc32(OOM_612)
        entry = cat.get(old)
        self.assertIsNotNone(entry, "no entry answers %s (6.12)" % old)
        assert entry is not None
        self.assertIn("killed a process", entry.subject)
        for lang in ("de", "ja"):
            e = catalog.Catalog.load(lang=lang).get(old)
            self.assertIsNotNone(e)
        for fmt, word in OTHERS_612:
            e = cat.get("%08x" % zlib.crc32(fmt))
            self.assertIsNotNone(e, fmt)
            assert e is not None
            self.assertIn(word, e.subject + e.header("X-Format"))

    @unittest.skipUnless(os.path.isfile(RELEASES_DB),
                         "no out/releases/msgid.db (make db-releases)")
    def test_shipped_catalog_against_releases(self) -> None:
        """Every entry's message is printed by one of the releases of
        make db-releases' database, and each X-Format by the releases it
        names; entries of the series' own files (lib/test_msgid.c) are
        in no distribution's source and are left out.  The database is a
        source scan: a format it lacks because the scanner does not
        follow its wrapper (ext4_msg(), warn_alloc()) counts when its
        text, with or without its pr_fmt() prefix, is in its X-Source
        file of one of the releases' trees (out/releases/src-*)."""
        db = database.open_db(RELEASES_DB)
        try:
            ids_of = {name: releases.release_ids(db, name)
                      for name in releases.held(db)}
        finally:
            db.close()
        ours = set(subprocess.run(["git", "-C", ROOT, "ls-files"],
                                  capture_output=True, text=True,
                                  check=False).stdout.split())
        entries = [e for e in catalog.load_dir(catalog.DEFAULT_DIR)
                   if e.header("X-Source") not in ours]
        by_line = {(e.path, e.line): e for e in entries}
        problems, literal = [], 0
        for problem in catalog.missing_formats(entries, ids_of):
            path, line, _ = problem.split(":", 2)
            e = by_line[(path, int(line))]
            if "no X-Format" in problem and _in_a_tree(e, list(ids_of)):
                literal += 1
            else:
                problems.append(problem)
        print("\n%d catalog entries against %s: %d confirmed by the scan, "
              "%d by their text in the source only"
              % (len([e for e in entries if not e.lang]), RELEASES_DB,
                 len([e for e in entries if not e.lang]) - literal
                 - len(problems), literal))
        self.assertEqual(problems, [], "\n".join(problems))


def _in_a_tree(entry: catalog.Entry, names: list[str]) -> bool:
    """Whether a format of @entry is written in its X-Source file of one
    of the release trees @names of make db-releases."""
    source = entry.header("X-Source") or ""
    for fmt, _ in entry.formats():
        body = ids.escape(fmt)
        wanted = [body] + [body[m.end():]
                           for m in re.finditer(r": ", body)]
        for name in names:
            path = os.path.join(ROOT, "out", "releases", "src-" + name,
                                source)
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            # adjacent literals ("a, "\n "b") are one string
            text = re.sub(r'"\s*\n\s*"', "", text)
            if any(w and w in text for w in wanted):
                return True
    return False

if __name__ == "__main__":
    unittest.main()
