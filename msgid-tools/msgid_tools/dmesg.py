# SPDX-License-Identifier: GPL-2.0
"""Find message IDs in kernel logs and annotate them with call sites.

The full msgid-db package's annotate: msgid_db.annotate.Annotator (the
call sites of printed IDs) extended.  Each line is read by
msgid_tools.logreader, which takes the message out of
its envelope (dmesg, syslog and journalctl forms, JSON, /dev/kmsg) and
finds a printed "(xxxxxxxx): " ID; a line without one is identified by
its text (msgid_tools.match), and a record of user space is labelled so.

Other lines, including binary data and invalid UTF-8, pass through
unchanged.  The annotation of a line is printed after it and after any
directly following lines that start with a space (/dev/kmsg dictionary
lines, dmesg multi-line continuations)::

      -> kernel/watchdog.c:751 watchdog_timer_fn <0>
      -- Subject: CPU stuck in kernel code (soft lockup)
"""

import json
import re
from dataclasses import dataclass
from typing import BinaryIO, Callable, Iterable, Optional, Sequence, TextIO

from msgid_tools.core import annotate, ids
from msgid_tools import database
from msgid_tools.core.annotate import MAX_SITES, Site, Sites
from msgid_tools.catalog import Catalog
from msgid_tools.core.ids import CLASS_NONE, classify
from msgid_tools.logreader import ORIGIN_KERNEL, ORIGIN_USER, LogReader, Record
from msgid_tools.match import Matcher, Result

#: A line with an ID in the forms dmesg and journalctl print (kept for
#: msgid_tools.bench; annotate reads lines with msgid_tools.logreader).
LINE_RE = re.compile(rb"""
    (?:<\d{1,3}>)?                                  # dmesg -r, syslog PRI
    (?: \d{1,3},\d+,-?\d+,[^;\n]{0,200};            # /dev/kmsg header
      | (?: [A-Z][a-z]{2}\ [ \d]\d\ \d\d:\d\d:\d\d(?:\.\d+)?   # short
          | \d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\S*               # short-iso
          | \[[ \d.]{1,32}\] )                                # short-monotonic
        \ \S{1,255}\ kernel:\ (?:\[[^\]\n]{1,64}\]\ ?)*
      | [a-z]{1,8}\ *:[a-z]{1,8}\ *:\ ?(?:\[[^\]\n]{1,64}\]\ ?)*  # dmesg -x
      | (?:\[[^\]\n]{1,64}\]\ ?)+                   # [timestamp] [T1] ...
    )?
    \((?P<id>[0-9a-f]{8})\):\ """, re.VERBOSE)

#: A line at least this long may have been wrapped by a terminal (80
#: columns) or a mail program (72, 76, 78: at the last space before, so
#: a long word makes the line much shorter).
WRAP_MIN = 40
#: Call sites listed in the JSON object of a line, at most ("more_sites"
#: counts the rest; "lookup ID" lists them all): the "%s" that ACPICA's
#: and SCSI's messages print has thousands.
JSON_SITES = 32
#: A format that prints a task as "comm[pid]: ".
TASK_RE = re.compile(rb"\[%[diu]\]: ")


@dataclass
class Stats(annotate.Stats):
    """Counters of one annotate run."""

    matched: int = 0
    ambiguous: int = 0
    user: int = 0           # records of user space, not the kernel's


class Annotator(annotate.Annotator):
    """Annotate log lines: printed IDs, texts matched by @matcher, records
    of user space; the catalog's subjects."""

    def __init__(self, sites: Sites, catalog: Optional[Catalog] = None,
                 max_sites: int = MAX_SITES,
                 matcher: Optional["Matcher"] = None,
                 form: str = "auto") -> None:
        super().__init__(sites, max_sites)
        self.catalog = catalog
        self.matcher = matcher
        self.reader = LogReader(form)
        # the last kernel record with an envelope, and its text with the
        # wrapped lines after it (see fragment())
        self._prev: Optional[Record] = None
        self._joined = b""
        #: the number of the line read last (1 for the first line of the
        #: first input), and those of the record before and of the
        #: wrapped lines joined to it
        self.lineno = 0
        self._joined_lines: list[int] = []
        #: what fragment() matched on the lines it joined last: the
        #: Result and the text, or None
        self.joined: Optional[tuple[Result, bytes]] = None
        #: the release of the kernel that wrote the log, from its "Linux
        #: version" record ("" if none was read)
        self.release = ""
        #: called with the release of each "Linux version" record that
        #: names another one (a merged database prefers its call sites)
        self.on_release: Optional[Callable[[str], None]] = None
        #: (id, matched texts) -> its call sites, those printing them
        #: first (ordered()); None: in the order of the database
        self._ordered: dict[tuple[str, tuple[bytes, ...]],
                            Optional[list[Site]]] = {}

    def find(self, line: bytes) -> Optional[tuple[str, bytes]]:
        """Return (id, message text) if @line carries an ID."""
        rec = self.reader.parse(line)
        if rec.msgid is None:
            return None
        return rec.msgid, rec.text

    def parse(self, line: bytes) -> Record:
        """The Record of @line; a text that looks like a program's
        ("name[pid]: ") is user space unless a kernel format matches it."""
        rec = self.reader.parse(line)
        self.lineno += 1
        if rec.text.startswith(b"Linux version ") and rec.is_record:
            # the first record of a boot names the kernel's release
            release = rec.text[14:].split(b" ", 1)[0].decode(
                "utf-8", "backslashreplace")
            if release != self.release:
                self.release = release
                if self.on_release is not None:
                    self.on_release(release)
        if not rec.is_record and self._prev is None and rec.form == "plain" \
                and rec.line.strip():
            # A log without envelopes (dmesg -t, journalctl -o cat): a
            # line that starts with a space is a kernel message of its
            # own ("  node   0: [mem ...]"), not a continuation line.
            rec.is_record = True
        if rec.maybe_user:
            r = (self.matcher.identify(rec.text) if self.matcher is not None
                 else None)
            if r is not None and r.how == "match" and r.id is not None \
                    and self._names_task(r.id, rec.tag):
                rec.tag = ""
            else:
                rec.origin = ORIGIN_USER
        return rec

    def _names_task(self, msgid: str, tag: str) -> bool:
        """Whether a format of @msgid prints the "name[pid]: " (or
        "init: ") a user-space record starts with: a kernel message about
        a task ("%s[%d]: segfault at ..."), not a program's own record."""
        assert self.matcher is not None
        for f in self.matcher.formats_of(msgid):
            if tag.endswith("]"):
                if TASK_RE.search(f.canon):
                    return True
            elif f.canon.startswith(tag.encode() + b": "):
                return True
        return False

    def subject(self, msgid: str) -> Optional[str]:
        """Return the catalog subject of @msgid, if any."""
        entry = self.catalog.get(msgid) if self.catalog else None
        return entry.subject if entry else None

    def notes(self, msgid: str) -> str:
        """The catalog subject of @msgid, after its call sites."""
        subject = self.subject(msgid)
        return "  -- Subject: %s\n" % subject if subject else ""

    def annotate(self, lines: Iterable[bytes], out: BinaryIO,
                 idle: Optional[Callable[[], bool]] = None) -> Stats:
        """Copy @lines to @out, adding annotations after lines with IDs.

        Each line is written as it is read.  The annotation of a record
        follows its dictionary and continuation lines (which start with
        a space), so it waits for the next line; @idle, if given, says
        that no further line is ready to read: the annotation is then
        written and @out flushed, so that a live log (dmesg -w) shows
        every record and its annotation at once."""
        stats = Stats()
        pending = b""
        line = b"\n"
        write = out.write
        try:
            for line in lines:
                stats.lines += 1
                rec = self.parse(line)
                joined = self.fragment(rec, stats)
                if joined:
                    # the record before, wrapped: its annotation follows
                    # this line, which ends it
                    pending = joined
                    write(line)
                elif pending and (rec.is_record or rec.form != "plain"
                                  or not line.startswith(b" ")):
                    write(pending)
                    pending = b""
                    write(line)
                else:
                    write(line)
                if joined is not None:
                    # a wrapped line of the record before, or console
                    # output between records: never matched on its own
                    pass
                elif rec.msgid is not None:
                    pending = self.printed(rec, stats)
                elif rec.origin == ORIGIN_USER and rec.is_record:
                    stats.user += 1
                    pending = ("  u> origin: user%s, not a kernel message\n"
                               % (" (%s)" % _one_line(rec.tag)
                                  if rec.tag else "")).encode(
                                      "utf-8", "backslashreplace")
                elif self.matcher and rec.is_record:
                    pending = self.matched(rec, stats)
                if idle is not None and idle():
                    pending = self.flush(out, line, pending)
        finally:
            # Also when the next input fails (a missing file): what was
            # read is annotated.
            self.flush(out, line, pending)
        return stats

    def fragment(self, rec: Record, stats: Stats) -> Optional[bytes]:
        """None if @rec is a record (or a continuation line that joins
        nothing).

        A line without an envelope right after a record that has one is
        no record of its own: a terminal or a mail program wrapped that
        record's line, or user space wrote to the console between two
        records.  It is never matched alone.  If the kernel record before
        was long enough to be wrapped and had no printed ID, its text
        joined with this line is matched again: the new annotation if
        that identifies it better, else b"" (None for a line that starts
        with a space, a continuation line as before)."""
        prev = self._prev
        self.joined = None
        if rec.is_record and (rec.form != "plain" or rec.msgid is not None
                              or prev is None or not rec.line):
            self._prev = rec if rec.form != "plain" else None
            self._joined = rec.text
            self._joined_lines = [self.lineno]
            return None
        cont = not rec.is_record
        if cont and (prev is None or rec.form != "plain"
                     or not rec.line.startswith(b" ")):
            return None
        assert prev is not None
        # (a record taken for user space by its text alone may be a
        # kernel message about a task, cut: "a.out[1234]: segfault at")
        if prev.msgid is not None or (prev.origin == ORIGIN_USER
                                      and prev.sure) \
                or self.matcher is None or len(prev.line) < WRAP_MIN:
            return None if cont else b""
        before = self.matcher.identify(self._joined)
        if prev.origin == ORIGIN_USER:
            before = Result()
        best = None
        for sep in (b"",) if cont else (b"", b" "):
            text = self._joined + sep + rec.line
            r = self.matcher.identify(text)
            if r.how == "match" and r.id is not None and (
                    best is None or r.literal > best[0].literal):
                best = (r, text)
        if best is None or (before.how == "match"
                            and best[0].literal <= before.literal):
            return None if cont else b""
        r, text = best
        assert r.id is not None
        if prev.origin == ORIGIN_USER:
            if not self._names_task(r.id, prev.tag):
                return None if cont else b""
            prev.origin = ORIGIN_KERNEL
            stats.user -= 1
        self._joined = text
        self._joined_lines.append(self.lineno)
        self.joined = (r, text)
        if before.how != "match":
            stats.matched += 1
            stats.ambiguous -= before.how == "ambiguous"
        return ("  ~> (%s) matched by text, joined with the line after it "
                "(wrapped)\n" % r.id).encode() \
            + self.matched_annotation(r, classify(self._joined),
                                      self._joined)

    def printed(self, rec: Record, stats: Stats) -> bytes:
        """The annotation of a record with a printed ID: its call sites,
        a mark if the database does not know the ID (never a guess), and
        a note if its text contradicts it."""
        assert rec.msgid is not None
        r = self.same_text(rec.msgid, rec.text)
        if r is not None:
            stats.with_id += 1
            stats.resolved += 1
            pending = self.matched_annotation(r, classify(rec.text),
                                              rec.text)
        else:
            pending = self.known(rec.msgid, rec.text, stats)
        if self.matcher:
            pending = self.contradiction(rec.msgid, rec.text) + pending
        return pending

    def same_text(self, msgid: str, text: bytes) -> Optional[Result]:
        """The match of @text if its ID is the printed @msgid and that ID
        has more call sites than are shown (ACPICA's "%s"): its call
        sites that print the text go first."""
        sites = self.sites.get(msgid, []) or []
        if self.matcher is None or len(sites) <= self.max_sites:
            return None
        r = self.matcher.identify(text)
        return r if r.how == "match" and r.id == msgid and r.canons \
            else None

    def text_of(self, line: bytes) -> bytes:
        """The message text of a line (envelope and printed ID removed)."""
        return self.reader.parse(line).text

    def identify(self, line: bytes) -> "Result":
        """Match a line without an ID against the database's formats."""
        assert self.matcher is not None
        return self.matcher.identify(self.text_of(line))

    def matched(self, rec: Record, stats: Stats) -> bytes:
        """The annotation of a line without an ID: the matched ID marked
        "~>" (not printed by the kernel), or the ambiguous candidates."""
        assert self.matcher is not None
        r = self.matcher.identify(rec.text)
        if r.how == "match" and r.id is not None:
            stats.matched += 1
            return ("  ~> (%s) matched by text%s\n" % (
                r.id, ", a KERN_CONT join" if r.cont else "")).encode() \
                + self.matched_annotation(r, classify(rec.text), rec.text)
        if r.how == "ambiguous":
            stats.ambiguous += 1
            return ("  ?> ambiguous: %s%s\n" % (" ".join(
                "(%s)" % c for c in r.candidates),
                ": %s" % r.why if r.why else "")).encode()
        return b""

    def contradiction(self, msgid: str, text: bytes) -> bytes:
        """A note if the text after the prefix @msgid matches another ID
        and not @msgid itself."""
        assert self.matcher is not None
        if self.matcher.fits(msgid, text):
            return b""
        r = self.matcher.identify(text)
        if r.how == "match" and r.id != msgid and msgid not in r.matched:
            return ("  !> the text matches (%s), not the printed ID\n"
                    % r.id).encode()
        return b""

    def record(self, line: bytes, stats: Optional[Stats] = None) -> dict:
        """Return the JSON object for one input line (@stats counts a
        record that a wrapped line identifies better)."""
        rec = self.parse(line)
        obj: dict = {"line": rec.line.decode("utf-8", "backslashreplace"),
                     "format": rec.form}
        if self.fragment(rec, stats or Stats()) is not None:
            # (the object of the record before is out already)
            obj["fragment"] = True
            if self.joined is None:
                obj["id"] = obj["id_from"] = None
                return obj
            # The record before, wrapped, is identified better on its
            # lines joined: this object names them and says so.
            r, text = self.joined
            assert r.id is not None
            obj["joined_lines"] = list(self._joined_lines)
            obj["text"] = text.decode("utf-8", "backslashreplace")
            obj["origin"] = ORIGIN_KERNEL
            obj["id_from"] = "joined"
            obj["cont"] = r.cont
            self._identified(obj, r.id, text, r.canons)
            return obj
        if rec.is_record:
            obj["origin"] = rec.origin
            if rec.tag and rec.origin == ORIGIN_USER:
                obj["tag"] = rec.tag
        if rec.msgid is None:
            obj["id"] = obj["id_from"] = None
            if not self.matcher or rec.origin == ORIGIN_USER \
                    or not rec.is_record:
                return obj
            r = self.matcher.identify(rec.text)
            if r.how == "ambiguous":
                obj["id_from"] = "ambiguous"
                obj["candidates"] = [self._sites({"id": c}, c)
                                     for c in r.candidates]
                if r.why:
                    obj["why"] = r.why
                return obj
            if r.how != "match" or r.id is None:
                return obj
            msgid = r.id
            canons = r.canons
            obj["id_from"] = "match"
            obj["cont"] = r.cont
        else:
            msgid = rec.msgid
            same = self.same_text(msgid, rec.text)
            canons = same.canons if same is not None else []
            obj["id_from"] = "prefix"
            if msgid not in self.sites:
                obj["unknown"] = True
            if self.matcher and not self.matcher.fits(msgid, rec.text):
                r = self.matcher.identify(rec.text)
                if r.how == "match" and r.id != msgid \
                        and msgid not in r.matched:
                    obj["contradicted_by"] = r.id
        self._identified(obj, msgid, rec.text, canons)
        return obj

    def _identified(self, obj: dict, msgid: str, text: bytes,
                    canons: Sequence[bytes] = ()) -> None:
        """Add @msgid, the ID of the message @text, its class, call sites
        (those that print the matched formats @canons first) and subject
        to the JSON object @obj."""
        text_class = classify(text)
        sites = self.ordered(msgid, canons)
        obj["id"] = msgid
        obj["class"] = (text_class if text_class != CLASS_NONE or not sites
                        else sites[0][4])
        self._sites(obj, msgid, sites)
        subject = self.subject(msgid)
        if subject:
            obj["subject"] = subject

    def _sites(self, obj: dict, msgid: str,
               sites: Optional[list[Site]] = None) -> dict:
        """Add the call sites of @msgid (@sites, in that order) to the
        JSON object @obj, at most JSON_SITES of them, and how many more
        there are ("more_sites"); return @obj."""
        if sites is None:
            sites = self.sites.get(msgid, []) or []
        obj["sites"] = [{"file": f, "line": n, "function": fn,
                         "module": mod, "class": c, "level": lvl}
                        for f, n, fn, mod, c, lvl in sites[:JSON_SITES]]
        if len(sites) > JSON_SITES:
            obj["more_sites"] = len(sites) - JSON_SITES
        return obj

    def printing(self, msgid: str, canons: Sequence[bytes]
                 ) -> set[tuple[str, int]]:
        """(file, line) of the call sites of @msgid whose format prints
        one of the texts @canons (Result.canons of a match): of an ID
        that many call sites print with different texts (the "%s" of
        ACPICA's messages, source_acpica.py), the ones that fit the line.
        Read from the database (self.sites a database.SiteMap); none
        otherwise."""
        db = getattr(self.sites, "db", None)
        if not canons or db is None:
            return set()
        want = set(canons)
        found = set()
        for file, line, canon, fmt in db.query(
                "SELECT %s FROM sites WHERE id = ?" % ", ".join(
                    database.select(c) for c in
                    ("file", "line", "canonical", "format")), (msgid,)):
            if canon.encode("utf-8", "surrogateescape") in want or \
                    ids.canonical(fmt.encode("utf-8", "surrogateescape")
                                  ) in want:
                found.add((file, line))
        return found

    def ordered(self, msgid: str, canons: Sequence[bytes] = ()
                ) -> list[Site]:
        """The call sites of @msgid, those that print @canons first
        (worked out once per ID and texts: "%s" has thousands)."""
        sites = self.sites.get(msgid, []) or []
        if len(sites) < 2 or not canons:
            return sites
        key = (msgid, tuple(canons))
        if key in self._ordered:
            return self._ordered[key] or sites
        first = self.printing(msgid, canons)
        got: Optional[list[Site]] = None
        if first and len(first) != len(sites):
            # (one call of ACPI_ERROR_NAMESPACE() is a site per message:
            # once)
            got = list(dict.fromkeys(s for s in sites
                                     if (s[0], s[1]) in first)) \
                + [s for s in sites if (s[0], s[1]) not in first]
        if len(self._ordered) >= 4096:
            self._ordered.clear()
        self._ordered[key] = got
        return got or sites

    def matched_annotation(self, r: Result, text_class: str, text: bytes
                           ) -> bytes:
        """annotation() of the ID of the match @r, the call sites that
        print the formats that fit first (not the same first few of an
        ID of many call sites for every line)."""
        assert r.id is not None
        sites = self.sites.get(r.id, []) or []
        if len(sites) <= self.max_sites:
            return self.annotation(r.id, text_class, text)
        ordered = self.ordered(r.id, r.canons)
        if ordered is sites:
            return self.annotation(r.id, text_class, text)
        view = annotate.Annotator({r.id: ordered}, self.max_sites)
        data = view.annotation(r.id, text_class)
        subject = self.subject(r.id)
        if subject and data:
            data += ("  -- Subject: %s\n" % subject).encode(
                "utf-8", "backslashreplace")
        return data

    def annotate_json(self, lines: Iterable[bytes], out: TextIO,
                      idle: Optional[Callable[[], bool]] = None) -> Stats:
        """Write one JSON object per line of @lines to @out."""
        stats = Stats()
        try:
            for line in lines:
                stats.lines += 1
                obj = self.record(line, stats)
                if obj.get("fragment"):
                    pass        # (record() counted a better join)
                elif obj.get("id_from") == "match":
                    stats.matched += 1
                elif obj.get("id_from") == "ambiguous":
                    stats.ambiguous += 1
                elif obj["id"]:
                    stats.with_id += 1
                    stats.resolved += bool(obj["sites"])
                elif obj.get("origin") == ORIGIN_USER:
                    stats.user += 1
                out.write(json.dumps(obj) + "\n")
                if idle is not None and idle():
                    out.flush()
        finally:
            out.flush()
        return stats


def _one_line(text: str) -> str:
    return "".join(c if c >= " " and c != "\x7f" else "\\x%02x" % ord(c)
                   for c in text)
