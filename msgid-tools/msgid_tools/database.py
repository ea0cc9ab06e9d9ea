# SPDX-License-Identifier: GPL-2.0
"""The call-site database of msgid-tools: the kernel tree's
(scripts/msgid_db/database.py) with the tables msgid-tools adds.

Schema, beyond the kernel tree's sites and meta::

    sites.releases                             -- merged: a site's releases
    match(word, id, canonical, cont, rest, starts, rust) -- formats by word
    release_ids(release, id)                   -- merged: IDs by release

write() fills the word index of the text matcher (match) of every
database, and with releases=True the releases of a database of several
kernel releases (merge); a database without the word index (one the
kernel tree's msgid-db.py wrote) is one whose lines without an ID the
matcher identifies by an index built in memory.
"""

import sqlite3
from typing import Callable, Iterable, Iterator, Optional

from msgid_tools.core.database import (  # noqa: F401 (what this module offers)
    DEFAULT_DB, SCHEMA_VERSION, SITE_COLUMNS, Database, DatabaseError,
    SiteMap, count_sites, default_path, insert_rows, is_own_file, open_db,
    remove_stale_temporaries, row, select, text, text_col)
from msgid_tools.core import database as _core


def write(path: str, sites: Iterable,
          meta: dict[str, str],
          check: Optional[Callable[[int], None]] = None,
          releases: bool = False) -> int:
    """msgid_tools.database.write() of @sites with the word index of the
    text matcher; with @releases, @sites yields (CallSite, its releases
    "6.1 6.12") pairs (merge), kept in sites.releases and release_ids."""
    def insert(conn: sqlite3.Connection, items: Iterable) -> int:
        return _insert(conn, items, releases)
    return _core.write(path, sites, meta, check, insert)


def _insert(conn: sqlite3.Connection, items: Iterable,
            releases: bool) -> int:
    from msgid_tools import match
    formats: list = []
    texts: list[tuple[str, str, str, str, str, str]] = []
    by_release: set[tuple[str, str]] = set()

    def rows() -> Iterator[tuple]:
        for item in items:
            if releases:
                s, rels = item
                for r in rels.split():
                    by_release.add((r, s.id))
                r = row(s) + (text(rels),)
            else:
                s = item
                r = row(s)
            # (several match texts, NUL between them: a parameter the
            # function's callers all give a literal)
            for t in (s.text or "").split("\0") if s.text else [None]:
                if r[6] != "c":  # can start a record
                    formats.append(match.site_format(r[0], r[1], r[2],
                                                     s.subsys, s.file, t))
                if t:
                    texts.append((r[0], r[3], r[5], r[2], text(t),
                                  match.where(s.subsys)))
            yield r

    if releases:
        conn.execute("ALTER TABLE sites ADD COLUMN releases TEXT NOT "
                     "NULL DEFAULT ''")
    count = insert_rows(conn, rows(), ", releases" if releases else "")
    if releases:
        conn.execute("CREATE TABLE release_ids (release TEXT NOT NULL, "
                     "id TEXT NOT NULL, PRIMARY KEY (release, id)) "
                     "WITHOUT ROWID")
        conn.executemany("INSERT INTO release_ids VALUES (?, ?)",
                         sorted(by_release))
    conn.execute(_TEXTS_SCHEMA)
    conn.executemany("INSERT INTO site_texts VALUES (?, ?, ?, ?, ?, ?)",
                     sorted(set(texts)))
    match.fill_index(conn, formats)
    return count


#: The match texts of the sites that have one (CallSite.text), where
#: their text starts (match.where()): kept for merge, which builds the
#: word index of a database of several releases from their rows.
_TEXTS_SCHEMA = ("CREATE TABLE site_texts (id TEXT NOT NULL, file TEXT NOT "
                 "NULL, function TEXT NOT NULL, format TEXT NOT NULL, "
                 "text TEXT NOT NULL, starts TEXT NOT NULL)")


def site_texts(db: Database) -> dict[tuple[str, str, str, str],
                                      list[tuple[str, str]]]:
    """(id, file, function, format) -> [(match text, where it starts)] of
    the sites of @db that have a match text (none for a database written
    before they were kept)."""
    if not db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                    "AND name = 'site_texts'"):
        return {}
    out: dict[tuple[str, str, str, str], list[tuple[str, str]]] = {}
    for i, f, fn, fmt, t, w in db.query(
            "SELECT %s FROM site_texts" % ", ".join(
                text_col(c) for c in ("id", "file", "function", "format",
                                      "text", "starts"))):
        texts = out.setdefault((i, f, fn, fmt), [])
        if (t, w) not in texts:
            texts.append((t, w))
    return out
