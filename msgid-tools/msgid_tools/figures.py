# SPDX-License-Identifier: GPL-2.0
"""How well the text matcher finds the IDs a kernel printed.

Each record of a boot log with IDs has its "(xxxxxxxx): " prefix removed
and is identified by its text alone; the ID the kernel printed is the
truth.  The records before the first one with an ID (printed before the
switch printk.msgid=1 was parsed) have no truth: only how many of them
get an ID is counted.  Records that user space wrote to /dev/kmsg
(systemd[1]: ...) are not kernel records and count nowhere.  Used by
msgid_tools.bench (--boot-log) and by the tests against a boot log
(tests/test_kernel.py).
"""

import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from msgid_tools import database
from msgid_tools import releases
from msgid_tools.dmesg import Annotator
from msgid_tools.logreader import ORIGIN_USER
from msgid_tools.match import load


@dataclass
class Figures:
    """The counts of one boot log against one database."""

    records: int = 0
    right: int = 0
    wrong: list[tuple[str, str, str]] = field(default_factory=list)
    ambiguous: list[tuple[str, list[str], str]] = field(default_factory=list)
    unmatched: list[tuple[str, str]] = field(default_factory=list)
    early: int = 0
    early_matched: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0

    def share(self, count: int) -> float:
        """@count in percent of the records."""
        return 100.0 * count / (self.records or 1)

    def summary(self, name: str) -> str:
        """One line: the shares and the early records."""
        return ("match %s: %d records: right %d (%.1f%%), wrong %d (%.1f%%), "
                "ambiguous %d (%.1f%%), unmatched %d (%.1f%%); before the "
                "switch: %d of %d early records get an ID (%.2f s)" % (
                    name, self.records, self.right, self.share(self.right),
                    len(self.wrong), self.share(len(self.wrong)),
                    len(self.ambiguous), self.share(len(self.ambiguous)),
                    len(self.unmatched), self.share(len(self.unmatched)),
                    len(self.early_matched), self.early, self.seconds))

    def details(self) -> list[str]:
        """Every record not right, and the early records identified."""
        out = ["  wrong: printed %s, matched %s: %s" % w for w in self.wrong]
        out += ["  ambiguous: printed %s, candidates %s: %s"
                % (p, " ".join(c), t) for p, c, t in self.ambiguous]
        out += ["  unmatched: printed %s: %s" % u for u in self.unmatched]
        out += ["  early: matched %s: %s" % e for e in self.early_matched]
        return out


def match_figures(db_path: str, log: str,
                  annotator: Optional[Annotator] = None) -> Figures:
    """Strip the ID of every record of the boot log @log and identify it
    by its text against the database @db_path (of several releases: the
    formats of the release the log names first, as annotate does)."""
    start = time.perf_counter()
    db = database.open_db(db_path)
    try:
        if annotator is None:
            annotator = Annotator({}, matcher=load(db))
            if releases.is_merged(db):
                annotator.on_release = _preferring(db, annotator)
        return _count(annotator, log, start)
    finally:
        db.close()


def _preferring(db: database.Database, annotator: Annotator
                ) -> Callable[[str], None]:
    """What to do when a log names its release (a "Linux version"
    record): match the formats of that release of @db first."""
    def prefer(release: str) -> None:
        name = releases.series(release) or ""
        assert annotator.matcher is not None
        annotator.matcher.set_preferred(
            releases.release_ids(db, name) if name in releases.held(db)
            else None)
    return prefer


def _count(annotator: Annotator, log: str, start: float) -> Figures:
    fig = Figures()
    seen_id = False
    with open(log, "rb") as f:
        for line in f:
            rec = annotator.parse(line)
            if rec.origin == ORIGIN_USER or not rec.is_record:
                # user space wrote it to /dev/kmsg: not a kernel record
                continue
            if rec.msgid is None:
                if not seen_id and line.startswith(b"["):
                    fig.early += 1
                    r = annotator.matcher.identify(  # type: ignore[union-attr]
                        rec.text)
                    if r.how == "match" and r.id:
                        fig.early_matched.append((r.id, _str(line)))
                continue
            seen_id = True
            fig.records += 1
            printed = rec.msgid
            stripped = line.replace(b"(%s): " % printed.encode(), b"", 1)
            r = annotator.matcher.identify(rec.text)  # type: ignore
            if r.how == "match" and r.id == printed:
                fig.right += 1
            elif r.how == "match" and r.id:
                fig.wrong.append((printed, r.id, _str(stripped)))
            elif r.how == "ambiguous":
                fig.ambiguous.append((printed, r.candidates, _str(stripped)))
            else:
                fig.unmatched.append((printed, _str(stripped)))
    fig.seconds = time.perf_counter() - start
    return fig


def _str(line: bytes) -> str:
    return line.rstrip().decode("utf-8", "backslashreplace")
