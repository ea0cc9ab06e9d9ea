# SPDX-License-Identifier: GPL-2.0
"""Annotate the lines of kernel logs that carry a printed message ID.

A kernel booted with printk.msgid=1 prints "(xxxxxxxx): " in front of
every message; dmesg, syslog, journalctl, serial consoles and Android's
logcat put their envelope (timestamp, host and tag, /dev/kmsg header)
before it.  Each
line is copied as it is; a line with an ID is followed by the call sites
of the ID, or by a mark if the database does not know it::

    [   12.345678] (1a2b3c4d): foo: ready 3
      -> kernel/foo.c:12 foo_init <6>

Lines that start with a space (/dev/kmsg dictionary lines, dmesg's
continuation lines) belong to the record before them: its annotation
follows them.  Other lines, binary data included, pass through.
"""

import re
from dataclasses import dataclass
from typing import BinaryIO, Callable, Iterable, Optional, Protocol

from msgid_db.ids import CLASS_NONE, classify

#: A printed ID: at the start of a line or after its envelope (a space,
#: "]", ":", ";" or ">" before it); Android's logcat shows it as the
#: record's tag, "/(xxxxxxxx)(    0): " in its brief and time forms.
ID_RE = re.compile(rb"(?:^|(?<=[\s\];:>/]))\((?P<id>[0-9a-f]{8})\)"
                   rb"(?:: |\(\ *(?:\w{1,16}:)?\ *\d{1,10}\): )")
#: Call sites shown for one ID; lookup shows them all.
MAX_SITES = 3
_HINT_RE = re.compile(rb"[A-Za-z][A-Za-z0-9_]{2,31}")

#: One call site: (file, line, function, module, class, level).
Site = tuple[str, int, str, str, str, str]


class Sites(Protocol):
    """The call sites of each ID: database.SiteMap, or a dict."""

    def get(self, msgid: str, default: Optional[list] = None
            ) -> Optional[list[Site]]:
        """The call sites of @msgid, or @default if there are none."""

    def __contains__(self, msgid: object) -> bool:
        """Whether @msgid has call sites."""


@dataclass
class Stats:
    """Counters of one annotate run."""

    lines: int = 0
    with_id: int = 0
    resolved: int = 0

    @property
    def unknown(self) -> int:
        """Printed IDs that the database does not have."""
        return self.with_id - self.resolved


class Annotator:
    """Annotate log lines with the call sites of their printed IDs."""

    def __init__(self, sites: Sites, max_sites: int = MAX_SITES) -> None:
        self.sites = sites
        self.max_sites = max_sites
        self._cache: dict[tuple[str, str, str], bytes] = {}

    def forget(self) -> None:
        """Drop the annotations made so far (the call sites changed)."""
        self._cache.clear()

    def notes(self, msgid: str) -> str:
        """Lines to add after the call sites of @msgid (none here)."""
        return ""

    def annotation(self, msgid: str, text_class: str,
                   text: bytes = b"") -> bytes:
        """Return the annotation lines for @msgid (b"" if unknown).

        An ID of many call sites ("%s" is printed by dozens) lists first
        those whose file or function names the first word of @text (the
        "ACPI" of "ACPI: FACS ..."), not the same unrelated ones for
        every line."""
        sites = self.sites.get(msgid, []) or []
        hint = _hint(text) if len(sites) > self.max_sites else ""
        key = (msgid, text_class, hint)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        if hint:
            sites = sorted(sites, key=lambda site: hint not in (
                site[0].lower() + " " + site[2].lower()))
        out = []
        for file, line, func, module, site_class, level in \
                sites[:self.max_sites]:
            cls = text_class if text_class != CLASS_NONE else site_class
            # A row from a binary's strings has no place: name the binary.
            place = ("%s:%d" % (file, line) if file != "?"
                     else "(%s, no file:line)" % (module or "?"))
            out.append("  -> %s %s <%s>%s%s\n" % (
                place, func, level,
                " [%s]" % module if module and module != "vmlinux"
                and file != "?" else "",
                " [%s]" % cls if cls != CLASS_NONE else ""))
        if len(sites) > self.max_sites:
            out.append("  -> ... and %d more call sites (msgid-db.py lookup "
                       "%s)\n" % (len(sites) - self.max_sites, msgid))
        if out:
            out.append(self.notes(msgid))
        data = "".join(out).encode("utf-8", "backslashreplace")
        self._cache[key] = data
        return data

    def known(self, msgid: str, text: bytes, stats: Stats) -> bytes:
        """The annotation of a record with the printed ID @msgid and the
        text @text: its call sites, or a mark if the database does not
        know the ID (never a guess)."""
        stats.with_id += 1
        if msgid in self.sites:
            stats.resolved += 1
            return self.annotation(msgid, classify(text), text)
        return ("  ?? (%s) is not in the database: built from another "
                "kernel?\n" % msgid).encode()

    def annotate(self, lines: Iterable[bytes], out: BinaryIO,
                 idle: Optional[Callable[[], bool]] = None) -> Stats:
        """Copy @lines to @out, adding annotations after lines with IDs.

        Each line is written as it is read; the annotation of a record
        waits for the lines after it that start with a space.  @idle, if
        given, says that no further line is ready to read: the
        annotation is then written and @out flushed, so that a live log
        (dmesg -w) shows every record and its annotation at once."""
        stats = Stats()
        pending = b""
        line = b"\n"
        try:
            for line in lines:
                stats.lines += 1
                m = ID_RE.search(line)
                if pending and (m is not None or not line.startswith(b" ")):
                    out.write(pending)
                    pending = b""
                out.write(line)
                if m is not None:
                    pending = self.known(m.group("id").decode(),
                                         line[m.end():].rstrip(b"\r\n"),
                                         stats)
                if idle is not None and idle():
                    pending = self.flush(out, line, pending)
        finally:
            # Also when the next input fails (a missing file): what was
            # read is annotated.
            self.flush(out, line, pending)
        return stats

    @staticmethod
    def flush(out: BinaryIO, line: bytes, pending: bytes) -> bytes:
        """Write @pending, the annotation waiting after @line (which may
        be cut short: it starts on a line of its own), and flush @out;
        return b"", nothing pending."""
        if pending:
            if not line.endswith(b"\n"):
                out.write(b"\n")
            out.write(pending)
        out.flush()
        return b""


def _hint(text: bytes) -> str:
    """The first word of a message, lower case ("acpi"), or ""."""
    m = _HINT_RE.match(text)
    return m.group().decode().lower() if m else ""
