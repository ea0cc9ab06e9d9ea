# SPDX-License-Identifier: GPL-2.0
"""Issue 38: the corpus of real kernel logs (tests/corpus/, its sources in
tests/corpus/SOURCES) identified against the database of several
releases that make db-releases writes (out/releases/msgid.db, or
$MSGID_CORPUS_DB).

Printed per file: lines, kernel-origin lines, identified lines and share,
inconsistent lines and share (tests/corpus.py says how each is counted),
then the kinds of kernel-origin lines most often left unidentified.
Asserted over the corpus: at least 90% of the kernel-origin lines
identified (issue 48), none of the identified ones inconsistent (a
wrong answer), and per file at most 0.5% inconsistent.

Without the database (a build artifact of make db-releases, not in the
repository) those figures are skipped, saying so; the same figures
against --source of the series' tree (out/linux, which make check has)
are checked against a floor; the checks of the corpus itself and of the
literal-text checker run everywhere.
"""

import os
import re
import sys
import tempfile
import unittest
from collections import Counter

from msgid_tools import database
from msgid_tools.tests import clirun, corpus, test_kernel
from msgid_tools.tests.corpus import literal_fits, literal_pieces

#: The floor against the database of several releases, what issue 48
#: asks (issue 38 asked 85%): measured on 2026-12-07 (make db-releases of
#: this tree, the 20 logs): 90.24%, 2,895 of 3,208 kernel lines, 37
#: ambiguous, 0 inconsistent (before net_<level>_ratelimited() and
#: choices of two literals: 89.96%, 2,886, 42 ambiguous).
MIN_IDENTIFIED = 90.0
MAX_INCONSISTENT = 0.5
#: The share identified against --source of out/linux alone (one
#: release): what issue 48 asks (CorpusSourceTest). Measured on
#: 2026-12-07: 87.6% (2,811 of 3,208 with the 20 logs, 37 ambiguous;
#: 87.5%, 2,806, before net_<level>_ratelimited() and choices of two
#: literals), 0 inconsistent; before issue 48 85.2% (2,733).
SOURCE_FLOOR = 87.0
#: Misses listed after the table.
TOP_MISSES = 25


def _db_path() -> str:
    return os.environ.get("MSGID_CORPUS_DB") or corpus.RELEASES_DB


class CorpusFilesTest(unittest.TestCase):
    """The corpus is what SOURCES says, and small."""

    def test_sources_list_every_file(self) -> None:
        rows = corpus.sources()
        listed = [r["file"] for r in rows]
        present = sorted(n for n in os.listdir(corpus.CORPUS)
                         if n != "SOURCES")
        self.assertEqual(sorted(listed), present)
        self.assertEqual(len(set(listed)), len(listed))
        for r in rows:
            self.assertEqual(len(r), 8, r)
            self.assertTrue(r["repository"].count("/") == 1, r)
            self.assertTrue(r["path"], r)
            # a commit, or (mail archives) the message's Message-ID
            self.assertTrue(re.fullmatch(r"[0-9a-f]{40}", r["commit"])
                            or (r["commit"] == "-"
                                and "Message-ID <" in r["note"]), r)
            self.assertTrue(r["file"].startswith(("x86-", "arm64-")), r)

    def test_corpus_figures_of_issue_38(self) -> None:
        """At least 15 machines, x86 and arm64, kernels 5.15 to 7.x,
        several forms; no more than 2 MB. Issue 48: a server, a VM on a
        public cloud, a suspend and resume, an oops and a panic too."""
        rows = corpus.sources()
        self.assertGreaterEqual(len(rows), 20)
        text = "\n".join("%s %s %s" % (r["file"], r["machine"],
                                        r["format"]) for r in rows)
        for kind in ("server", "Compute Engine", "suspend", "oops",
                     "panic"):
            self.assertIn(kind, text.lower() if kind.islower() else text)
        arches = Counter(r["file"].split("-", 1)[0] for r in rows)
        self.assertGreater(arches["x86"], 0)
        self.assertGreater(arches["arm64"], 0)
        series = {tuple(int(x) for x in r["file"].split("-")[1].split("."))
                  for r in rows}
        self.assertEqual(min(series), (5, 15))
        self.assertGreaterEqual(max(series), (7, 0))
        forms = {r["file"].rsplit(".", 1)[1] for r in rows}
        self.assertGreaterEqual(len(forms), 3, forms)
        size = sum(os.path.getsize(os.path.join(corpus.CORPUS, r["file"]))
                   for r in rows)
        self.assertLess(size, 2 << 20)


class LiteralCheckerTest(unittest.TestCase):
    """corpus.literal_fits(): a format's literal text, in order."""

    def test_pieces(self) -> None:
        self.assertEqual(literal_pieces(b"tsc: Detected %lu.%03lu MHz "
                                        b"processor"),
                         [b"tsc: Detected ", b".", b" MHz processor"])
        self.assertEqual(literal_pieces(b"%s: %d%% done"),
                         [b": ", b"% done"])
        self.assertEqual(literal_pieces(b"%pM is %pI4"), [b" is "])
        # a record of several lines: its first line
        self.assertEqual(literal_pieces(b"first %d\nsecond"), [b"first "])

    def test_fits(self) -> None:
        fmt = b"tsc: Detected %lu.%03lu MHz processor"
        self.assertTrue(literal_fits(fmt, b"tsc: Detected 2793.554 MHz "
                                          b"processor"))
        self.assertFalse(literal_fits(fmt, b"tsc: Detected 2793.554 GHz "
                                           b"processor"))
        # in order, not just present
        self.assertFalse(literal_fits(b"a %d b %d c", b"c 1 b 2 a"))
        # a device prefix before, a KERN_CONT continuation after
        self.assertTrue(literal_fits(b"PIIX3: Enabling Passive Release",
                                     b"pci 0000:00:01.0: PIIX3: Enabling "
                                     b"Passive Release"))
        self.assertTrue(literal_fits(b"x86: Booting SMP configuration:",
                                     b"x86: Booting SMP configuration: "
                                     b"#1 #2"))
        # a tab a terminal turned into spaces
        self.assertTrue(literal_fits(b"rcu: \tRCU restricting CPUs",
                                     b"rcu:     RCU restricting CPUs"))

    def test_figures_on_a_small_database(self) -> None:
        """file_figures() counts what annotate --json says: user space
        apart, identified lines, and a printed ID whose format's text the
        line does not hold as inconsistent."""
        import zlib
        fmt = b"example: device %s ready after %d ms"
        other = b"example: something else %d"
        index = (b'<6> drivers/x.c:1 f "%s\\n"\n<6> drivers/x.c:2 g '
                 b'"%s\\n"\n' % (fmt, other))
        tmp, db_path = clirun.index_db(self, index)
        log = os.path.join(tmp, "log")
        wrong = "%08x" % zlib.crc32(other)
        with open(log, "wb") as f:
            f.write(b"[    1.000000] example: device sda ready after 12 ms\n"
                    b"[    1.100000] systemd[1]: Started Journal Service.\n"
                    b"[    1.200000] something no format prints\n"
                    b"[    1.300000] (%s): example: device sdb ready "
                    b"after 3 ms\n" % wrong.encode())
        db = database.open_db(db_path)
        try:
            fig = corpus.file_figures(db, db_path, log)
        finally:
            db.close()
        self.assertEqual((fig.lines, fig.kernel, fig.user, fig.identified),
                         (4, 3, 1, 2))
        self.assertEqual([m for m, _ in fig.inconsistent], [wrong])
        self.assertEqual(list(fig.missed), ["something no format prints"])


def corpus_figures(path: str) -> tuple[list, "corpus.FileFigures", str]:
    """The figures of every corpus file against the database @path, their
    sum, and the report printed (per file, then the most frequent
    misses and every inconsistent line)."""
    db = database.open_db(path)
    try:
        figures = [
            corpus.file_figures(db, path, os.path.join(
                corpus.CORPUS, r["file"]), release=r["kernel"])
            for r in corpus.sources()]
    finally:
        db.close()
    out = ["", "corpus of real logs against %s:" % path, corpus.HEADER]
    out += [f.row() for f in figures]
    total = corpus.FileFigures("all")
    for f in figures:
        total.lines += f.lines
        total.kernel += f.kernel
        total.identified += f.identified
        total.ambiguous += f.ambiguous
        total.user += f.user
        total.inconsistent += f.inconsistent
        total.missed.update(f.missed)
        total.why.update(f.why)
    out.append(total.row())
    out.append("(%d user-space lines not counted; %d kernel-origin "
               "lines ambiguous, not counted as identified)"
               % (total.user, total.ambiguous))
    out.append("kernel-origin lines not identified, most frequent "
               "kinds first (numbers as #):")
    out += ["  %5d  %s" % (n, k)
            for k, n in total.missed.most_common(TOP_MISSES)]
    out.append("why the ambiguous lines stay so:")
    out += ["  %5d  %s" % (n, k) for k, n in total.why.most_common()]
    for f in figures:
        out += ["  inconsistent in %s: (%s) %s" % (f.name, m, t)
                for m, t in f.inconsistent]
    return figures, total, "\n".join(out) + "\n"


class _Figures:
    """The corpus against one database (path()): the figures printed per
    file, and checked over the corpus; no file more inconsistent than
    MAX_INCONSISTENT. A single file is not held to the share identified:
    one log is of a kernel no database release is near, another mostly a
    WARNING's stack dump, whose lines no format with a word prints.
    A mixin: only the classes below, TestCases too, are run."""

    #: at least this many percent of the kernel-origin lines identified
    min_identified = MIN_IDENTIFIED
    figures: list = []

    @classmethod
    def path(cls) -> str:
        raise NotImplementedError

    @classmethod
    def setUpClass(cls) -> None:
        cls.figures, cls.total, report = corpus_figures(cls.path())
        sys.stderr.write(report)

    def test_inconsistent_per_file(self) -> None:
        for f in self.figures:
            with self.subTest(file=f.name):
                self.assertLessEqual(
                    f.inconsistent_pct, MAX_INCONSISTENT,
                    "%s: %s" % (f.name, f.inconsistent[:5]))

    def test_whole_corpus(self) -> None:
        # Never a wrong answer (issue 48): no identified line lacks the
        # literal text of its identifier's formats.
        self.assertEqual(self.total.inconsistent, [])
        self.assertGreaterEqual(self.total.identified_pct,
                                self.min_identified)


@unittest.skipUnless(os.path.exists(_db_path()),
                     "no database of several releases at %s (make "
                     "db-releases builds it, about 100 MB; MSGID_CORPUS_DB "
                     "names another): the corpus figures of issue 38 are "
                     "not computed" % _db_path())
class CorpusFiguresTest(_Figures, unittest.TestCase):
    """The figures of issue 38: the corpus against the database of several
    releases."""

    @classmethod
    def path(cls) -> str:
        return _db_path()


@unittest.skipUnless(os.path.isdir(test_kernel.TREE) and
                     os.path.isfile(os.path.join(test_kernel.TREE,
                                                 "Makefile")),
                     "needs the tree out/linux (make tree)")
class CorpusSourceTest(_Figures, unittest.TestCase):
    """The corpus against --source of the series' own tree (out/linux,
    the database test_kernel builds once per run): one release, 7.3, for
    logs of 5.15 to 7.0, so fewer lines are identified than against
    several releases; what is identified must hold its format's text as
    much (make check runs this one: no download)."""

    #: A scanner or matcher change that loses lines fails here.
    min_identified = SOURCE_FLOOR

    @classmethod
    def path(cls) -> str:
        return test_kernel.shared_db("source")


if __name__ == "__main__":
    unittest.main()
