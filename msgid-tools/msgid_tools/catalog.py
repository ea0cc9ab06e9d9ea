# SPDX-License-Identifier: GPL-2.0
"""Message catalogs in the style of systemd's journal catalog.

A catalog file holds entries::

    # comment
    -- 1a2b3c4d
    Subject: Short description
    Class: hardware
    Documentation: https://...
    X-Format: "mce: [Hardware Error]: CPU %d: ..."

    Free text explaining the message and what to do.

English entries live in NAME.catalog, translations in NAME.<lang>.catalog
(e.g. kernel.de.catalog).  X-Format records the canonical format (as a C
string literal) the ID was computed from, so tests can re-check it.

A message whose format changed between releases keeps one entry: each
of its formats is an X-Format header, optionally followed by the
release series that print it::

    -- 8db4032d
    Subject: The out-of-memory killer killed a process
    X-Format: "Out of memory: Killed process %d ... oom_score_adj:%d"
    X-Format: "Out of memory: Killed process %d ... oom_score_adj:%hd" (6.1 6.12)

The entry answers for the ID of every one of its formats (Entry.ids()),
so explain finds it from the ID any release printed.  The "-- <id>"
line names the ID of its first X-Format; "-- format" (in a translation
"-- format de") names an entry by its X-Formats alone.
"""

import glob
import os
import re
import zlib
from dataclasses import dataclass, field
from typing import Optional

from msgid_db.ids import CLASSES, InputError

DEFAULT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "catalog")
KNOWN_HEADERS = ("Subject", "Class", "Documentation", "Defined-By",
                 "Support", "X-Format", "X-Source")
_SEPARATOR_RE = re.compile(r"-- ([0-9a-f]{8}|format)(?: ([A-Za-z_]+))?")
#: An X-Format value: a C string literal, then the releases that print it.
_FORMAT_RE = re.compile(r'"((?:[^"\\]|\\.)*)"(?:\s+\(([0-9. ]*)\))?\s*')
_ESCAPES = {"n": 0x0a, "t": 0x09, "\\": 0x5c, '"': 0x22, "'": 0x27,
            "r": 0x0d, "a": 0x07, "b": 0x08, "f": 0x0c, "v": 0x0b,
            "e": 0x1b}
_HEADER_RE = re.compile(r"([A-Za-z][A-Za-z0-9-]*): ?(.*)")


class CatalogError(InputError):
    """A catalog file is malformed (message names file:line)."""


@dataclass
class Entry:
    """One catalog entry."""

    id: str
    lang: str
    path: str
    line: int
    headers: dict[str, list[str]] = field(default_factory=dict)
    body: str = ""

    def header(self, name: str) -> Optional[str]:
        """Return the first value of header @name, or None."""
        values = self.headers.get(name)
        return values[0] if values else None

    def formats(self) -> list[tuple[bytes, list[str]]]:
        """Every X-Format as (canonical format, release series that print
        it, [] if not said); raises CatalogError for a bad value."""
        out = []
        for value in self.headers.get("X-Format", []):
            m = _FORMAT_RE.fullmatch(value)
            if not m:
                raise CatalogError(
                    "%s:%d: entry %s: bad X-Format %s (expected a C string "
                    'literal, "...", optionally followed by its releases, '
                    "(6.1 6.12))" % (self.path, self.line, self.id,
                                     _clip(value)))
            out.append((unescape(m.group(1)), (m.group(2) or "").split()))
        return out

    def ids(self) -> list[str]:
        """The entry's ID, then those of its other X-Formats."""
        out = [self.id]
        for fmt, _ in self.formats():
            msgid = "%08x" % zlib.crc32(fmt)
            if msgid not in out:
                out.append(msgid)
        return out

    @property
    def subject(self) -> str:
        """The Subject header (always present)."""
        return self.header("Subject") or ""


def unescape(body: str) -> bytes:
    """The bytes of the C string literal body @body (\\n, \\ooo, \\xhh)."""
    out = bytearray()
    data = body.encode("utf-8")
    i = 0
    while i < len(data):
        c = data[i]
        if c != 0x5c or i + 1 == len(data):
            out.append(c)
            i += 1
            continue
        nxt = chr(data[i + 1])
        if nxt in "01234567":
            j = i + 1
            while j < min(i + 4, len(data)) and chr(data[j]) in "01234567":
                j += 1
            out.append(int(data[i + 1:j], 8) & 0xff)
            i = j
        elif nxt == "x":
            j = i + 2
            while j < len(data) and chr(data[j]) in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(data[i + 2:j] or b"0", 16) & 0xff)
            i = j
        else:
            out.append(_ESCAPES.get(nxt, data[i + 1]))
            i += 2
    return bytes(out)


def _clip(text: str, limit: int = 60) -> str:
    """Shorten @text for an error message."""
    return text if len(text) <= limit else text[:limit] + "..."


def parse(text: str, path: str, lang: str = "") -> list[Entry]:
    """Parse catalog @text read from @path; raise CatalogError if bad."""
    entries: list[Entry] = []
    entry: Optional[Entry] = None
    in_headers = False
    body: list[str] = []

    def finish() -> None:
        if entry is not None:
            if "Subject" not in entry.headers:
                raise CatalogError("%s:%d: entry %s has no Subject header"
                                   % (path, entry.line, entry.id))
            formats = entry.formats()  # raises for a bad X-Format
            if entry.id == "format":
                if not formats:
                    raise CatalogError(
                        "%s:%d: entry '-- format' has no X-Format header "
                        "(it names its message by its formats: give one, "
                        "or name its ID)" % (path, entry.line))
                entry.id = "%08x" % zlib.crc32(formats[0][0])
            entry.body = "\n".join(body).strip("\n")
            entries.append(entry)

    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("-- "):
            m = _SEPARATOR_RE.fullmatch(line.rstrip())
            if not m:
                raise CatalogError("%s:%d: bad entry header %r (expected "
                                   "'-- <8 hex digits>' or '-- format')"
                                   % (path, lineno, _clip(line)))
            finish()
            entry = Entry(m.group(1), m.group(2) or lang, path, lineno)
            in_headers, body = True, []
        elif entry is None:
            if line.strip() and not line.startswith("#"):
                raise CatalogError("%s:%d: text before the first '-- <id>' "
                                   "line" % (path, lineno))
        elif in_headers:
            if not line.strip():
                in_headers = False
                continue
            m = _HEADER_RE.fullmatch(line)
            if not m:
                raise CatalogError("%s:%d: bad header line %r (expected "
                                   "'Name: value')"
                                   % (path, lineno, _clip(line)))
            name, value = m.group(1), m.group(2).strip()
            if name not in KNOWN_HEADERS and not name.startswith("X-"):
                raise CatalogError("%s:%d: unknown header %r"
                                   % (path, lineno, _clip(name)))
            if name == "Class" and value not in CLASSES:
                raise CatalogError("%s:%d: unknown class %r (one of %s)"
                                   % (path, lineno, _clip(value),
                                      ", ".join(CLASSES)))
            entry.headers.setdefault(name, []).append(value)
        elif not line.startswith("#"):
            body.append(line)
    finish()
    return entries


def _file_lang(path: str) -> str:
    parts = os.path.basename(path).split(".")
    return parts[-2] if len(parts) >= 3 else ""


def read_file(path: str) -> str:
    """Return the text of catalog file @path (UTF-8, optional BOM)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise CatalogError("%s: %s" % (path, e.strerror or e)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        start = e.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        raise CatalogError("%s:%d: not UTF-8 (byte 0x%02x); catalogs are "
                           "UTF-8 text" % (path, data.count(b"\n", 0, start)
                                           + 1, data[start])) from None


def check_duplicates(entries: list[Entry]) -> None:
    """Raise CatalogError if an ID has two entries in one language (an
    ID of any of their X-Formats)."""
    seen: dict[tuple[str, str], Entry] = {}
    for e in entries:
        for msgid in e.ids():
            first = seen.setdefault((msgid, e.lang), e)
            if first is not e:
                raise CatalogError(
                    "%s:%d: duplicate entry %s%s (first at %s:%d)"
                    % (e.path, e.line, msgid,
                       " (%s)" % e.lang if e.lang else "",
                       first.path, first.line))


def load_dir(directory: str) -> list[Entry]:
    """Parse every *.catalog file in @directory."""
    if not os.path.isdir(directory):
        raise CatalogError("%s: no such catalog directory" % directory)
    entries = []
    for path in sorted(glob.glob(os.path.join(glob.escape(directory),
                                              "*.catalog"))):
        entries.extend(parse(read_file(path), path, _file_lang(path)))
    check_duplicates(entries)
    return entries


def missing_formats(entries: list[Entry], ids_of: "dict[str, set[str]]"
                    ) -> list[str]:
    """What a database of several releases does not confirm: for each
    English entry none of whose X-Formats any release prints, and each
    X-Format that names a release of the database that does not print
    it, one line "path:line: id: reason".  @ids_of: release series ->
    the IDs it prints (Database.release_ids())."""
    every: set[str] = set().union(*ids_of.values()) if ids_of else set()
    problems = []
    for e in entries:
        if e.lang:
            continue
        formats = e.formats()
        found = False
        for fmt, names in formats:
            msgid = "%08x" % zlib.crc32(fmt)
            found = found or msgid in every
            for name in names:
                if name in ids_of and msgid not in ids_of[name]:
                    problems.append(
                        "%s:%d: %s: the format %s names release %s, which "
                        "does not print it" % (e.path, e.line, e.id, msgid,
                                               name))
        if formats and not found:
            problems.append("%s:%d: %s: no X-Format is printed by any "
                            "release of the database (%s)"
                            % (e.path, e.line, e.id, " ".join(sorted(ids_of))))
    return problems


def language(explicit: Optional[str] = None) -> str:
    """Return the language code from @explicit or $LC_ALL/$LC_MESSAGES/$LANG."""
    value = explicit
    if not value:
        for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
            value = os.environ.get(var)
            if value:
                break
    if not value or value in ("C", "POSIX") or value.startswith("C."):
        return ""
    return re.split(r"[_.@]", value, maxsplit=1)[0].lower()


class Catalog:
    """Catalog entries for one language, with English fallback."""

    def __init__(self, entries: list[Entry], lang: str = "") -> None:
        self.lang = lang
        self._by_id: dict[str, Entry] = {}
        for e in entries:
            if e.lang == "":
                for msgid in e.ids():
                    self._by_id.setdefault(msgid, e)
        english = dict(self._by_id)
        for e in entries:
            if lang and e.lang == lang:
                # a translation answers for every format of its message
                wanted = set(e.ids())
                for msgid in e.ids():
                    if msgid in english:
                        wanted.update(english[msgid].ids())
                for msgid in wanted:
                    self._by_id[msgid] = e

    @classmethod
    def load(cls, directory: Optional[str] = None,
             lang: Optional[str] = None) -> "Catalog":
        """Load @directory (default: the shipped catalog) for @lang."""
        return cls(load_dir(directory or DEFAULT_DIR), language(lang))

    def get(self, msgid: str) -> Optional[Entry]:
        """Return the entry for @msgid, or None."""
        return self._by_id.get(msgid)

    def entries(self) -> list[Entry]:
        """Every entry once."""
        out: dict[int, Entry] = {}
        for e in self._by_id.values():
            out.setdefault(id(e), e)
        return list(out.values())

    def ids(self) -> list[str]:
        """Return all IDs with an entry."""
        return sorted(self._by_id)
