# SPDX-License-Identifier: GPL-2.0
"""Figures of the corpus of real kernel logs (tests/corpus/, SOURCES).

Each file is run through ``msgid-db.py annotate --json`` against a
database, as an operator would run it, and counted:

``lines``
    the lines of the file;
``kernel``
    the kernel-origin lines: records of the kernel as the tool's log
    reader (msgid_tools.logreader, through msgid_tools.dmesg.Annotator) takes
    them: not user space (``systemd[1]: ...``, a syslog tag other than
    ``kernel``, a facility other than the kernel's), not the lines of an
    envelope that hold no message, and not the wrapped rest of the
    record before (``"fragment"``);
``identified``
    the kernel-origin lines given one identifier (``id_from`` ``match``,
    or one printed in the line); ambiguous lines are not;
``inconsistent``
    the identified lines whose text does not hold the literal text of
    any format of their identifier in order (literal_fits()).

Nothing here decides what the tool answers: it only reads its answers
and checks them against the formats of the database.
"""

import json
import os
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Optional

from msgid_tools import database
from msgid_tools import match
from msgid_tools.logreader import LogReader
from msgid_tools.tests import clirun

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
#: The database of several releases that make db-releases writes.
RELEASES_DB = os.path.join(ROOT, "out", "releases", "msgid.db")

#: A conversion of a printk format (vsnprintf()'s grammar: flags, field
#: width, precision, length, type; %p with its extension letters), or
#: "%%", which prints a "%".
CONV_RE = re.compile(
    rb"%(?:%|[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
    rb"(?:hh|h|ll|l|L|z|Z|t|j|q)?(?:p[A-Za-z0-9]*|[a-zA-Z]))")
_SPACE_RE = re.compile(rb"\s+")


def literal_pieces(canon: bytes) -> list[bytes]:
    """The literal text of the first line of the canonical format
    @canon, cut at its conversions ("%%" is a literal "%"); empty pieces
    left out.  A format of several lines prints a record whose first
    line is what a log line holds."""
    first = canon.split(b"\n", 1)[0]
    pieces, lit, pos = [], bytearray(), 0
    for m in CONV_RE.finditer(first):
        lit += first[pos:m.start()]
        if m.group() == b"%%":
            lit += b"%"
        else:
            if lit:
                pieces.append(bytes(lit))
            lit = bytearray()
        pos = m.end()
    lit += first[pos:]
    if lit:
        pieces.append(bytes(lit))
    return pieces


def literal_fits(canon: bytes, text: bytes) -> bool:
    """Whether the literal pieces of @canon occur in @text in order, each
    after the end of the one before.  Runs of whitespace compare equal
    (a terminal or a mail program turns a tab into spaces)."""
    text = _SPACE_RE.sub(b" ", text)
    pos = 0
    for piece in literal_pieces(canon):
        piece = _SPACE_RE.sub(b" ", piece)
        i = text.find(piece, pos)
        if i < 0:
            return False
        pos = i + len(piece)
    return True


#: What makes two unidentified lines the same kind of miss: numbers,
#: hex and addresses become "#".
_SHAPE_RE = re.compile(rb"(?:0x)?[0-9a-fA-F]*[0-9][0-9a-fA-F]*")


def shape(text: bytes, words: int = 4) -> str:
    """The first @words words of @text, numbers replaced by "#": a key
    for counting the misses of one kind."""
    head = b" ".join(text.split()[:words])
    return _SHAPE_RE.sub(b"#", head).decode("utf-8", "backslashreplace")


@dataclass
class FileFigures:
    """The counts of one log file against one database."""

    name: str
    lines: int = 0
    kernel: int = 0
    identified: int = 0
    ambiguous: int = 0
    user: int = 0
    inconsistent: list[tuple[str, str]] = field(default_factory=list)
    missed: Counter = field(default_factory=Counter)
    #: why the ambiguous lines could not be decided (annotate's "why")
    why: Counter = field(default_factory=Counter)
    warnings: str = ""

    @property
    def identified_pct(self) -> float:
        return 100.0 * self.identified / (self.kernel or 1)

    @property
    def inconsistent_pct(self) -> float:
        return 100.0 * len(self.inconsistent) / (self.identified or 1)

    def row(self) -> str:
        return "%-34s %6d %6d %6d %7.1f%% %5d %6.2f%%" % (
            self.name, self.lines, self.kernel, self.identified,
            self.identified_pct, len(self.inconsistent),
            self.inconsistent_pct)


HEADER = "%-34s %6s %6s %6s %8s %5s %7s" % (
    "file", "lines", "kernel", "ident", "ident%", "incon", "incon%")


def annotate_json(db_path: str, log: str, release: str = ""
                  ) -> tuple[list[dict], str]:
    """The objects annotate --json writes for @log, and its warnings;
    @release, if given, is passed as --release (the log's kernel, for an
    excerpt without its "Linux version" record)."""
    argv = ["--db", db_path, "annotate", "--json", log]
    if release:
        argv += ["--release", release]
    status, out, err = clirun.run(argv)
    if status != 0:
        raise AssertionError("annotate %s: exit status %s: %s"
                             % (log, status, err))
    return [json.loads(x) for x in out.splitlines()], err


def file_figures(db: database.Database, db_path: str, log: str,
                 name: Optional[str] = None, release: str = ""
                 ) -> FileFigures:
    """Count @log (see the module's comment) against the open database
    @db, whose file is @db_path (annotate --release @release, if given)."""
    fig = FileFigures(name or os.path.basename(log))
    objs, fig.warnings = annotate_json(db_path, log, release)
    with open(log, "rb") as f:
        lines = f.read().splitlines()
    if len(objs) != len(lines):
        raise AssertionError("%s: %d lines, %d objects from annotate"
                             % (log, len(lines), len(objs)))
    fig.lines = len(lines)
    # The texts of the records, as the reader annotate uses takes them
    # out of their envelope (a reader of its own, in the same state).
    reader = LogReader()
    formats: dict[str, list[bytes]] = {}
    for line, obj in zip(lines, objs):
        text = reader.parse(line).text
        if obj.get("fragment"):
            continue
        if obj.get("origin") == "user":
            fig.user += 1
            continue
        if obj.get("origin") != "kernel":
            continue    # the lines of an envelope that hold no message
        fig.kernel += 1
        msgid = obj.get("id")
        if obj.get("id_from") == "ambiguous":
            fig.ambiguous += 1
            fig.why[obj.get("why", "")] += 1
        if not msgid:
            fig.missed[shape(text)] += 1
            continue
        fig.identified += 1
        canons = formats.get(msgid)
        if canons is None:
            canons = formats[msgid] = [c for _, c, _, _ in
                                       match.formats_of(db, msgid)]
        if canons and not any(literal_fits(c, text) for c in canons):
            fig.inconsistent.append((msgid, text.decode(
                "utf-8", "backslashreplace")))
    return fig


def sources() -> list[dict[str, str]]:
    """The rows of corpus/SOURCES: file, repository, path, commit,
    machine, kernel, format (tab-separated, "#" starts a comment)."""
    keys = ("file", "repository", "path", "commit", "machine", "kernel",
            "format", "note")
    rows = []
    with open(os.path.join(CORPUS, "SOURCES"), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            rows.append(dict(zip(keys, line.split("\t"))))
    return rows
