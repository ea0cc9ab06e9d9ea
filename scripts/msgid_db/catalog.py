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
"""

import glob
import os
import re
from dataclasses import dataclass, field
from typing import Optional

from msgid_db.ids import CLASSES, InputError

DEFAULT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "catalog")
KNOWN_HEADERS = ("Subject", "Class", "Documentation", "Defined-By",
                 "Support", "X-Format", "X-Source")
_SEPARATOR_RE = re.compile(r"-- ([0-9a-f]{8})(?: ([A-Za-z_]+))?")
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

    @property
    def subject(self) -> str:
        """The Subject header (always present)."""
        return self.header("Subject") or ""


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
            entry.body = "\n".join(body).strip("\n")
            entries.append(entry)

    for lineno, line in enumerate(text.splitlines(), 1):
        if line.startswith("-- "):
            m = _SEPARATOR_RE.fullmatch(line.rstrip())
            if not m:
                raise CatalogError("%s:%d: bad entry header %r (expected "
                                   "'-- <8 hex digits>')"
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
    """Raise CatalogError if an ID has two entries in one language."""
    seen: dict[tuple[str, str], Entry] = {}
    for e in entries:
        first = seen.setdefault((e.id, e.lang), e)
        if first is not e:
            raise CatalogError("%s:%d: duplicate entry %s%s (first at %s:%d)"
                               % (e.path, e.line, e.id,
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
                self._by_id.setdefault(e.id, e)
        for e in entries:
            if lang and e.lang == lang:
                self._by_id[e.id] = e

    @classmethod
    def load(cls, directory: Optional[str] = None,
             lang: Optional[str] = None) -> "Catalog":
        """Load @directory (default: the shipped catalog) for @lang."""
        return cls(load_dir(directory or DEFAULT_DIR), language(lang))

    def get(self, msgid: str) -> Optional[Entry]:
        """Return the entry for @msgid, or None."""
        return self._by_id.get(msgid)

    def ids(self) -> list[str]:
        """Return all IDs with an entry."""
        return sorted(self._by_id)
