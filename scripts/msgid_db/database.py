# SPDX-License-Identifier: GPL-2.0
"""The SQLite call-site database.

Schema::

    sites(id, canonical, format, file, line, function, level, module,
          class, origin)                       -- one row per call site
    meta(key PRIMARY KEY, value)               -- build metadata

A database is always written to a temporary file in the target directory
and renamed over the target only when complete, so an interrupted build
leaves the previous database intact.
"""

import os
import sqlite3
from typing import Iterable, Optional

from msgid_db.ids import CallSite

SCHEMA_VERSION = "1"
DEFAULT_DB = "msgid.db"

_SCHEMA = """
CREATE TABLE sites (
    id        TEXT NOT NULL,
    canonical TEXT NOT NULL,
    format    TEXT NOT NULL,
    file      TEXT NOT NULL,
    line      INTEGER NOT NULL,
    function  TEXT NOT NULL,
    level     TEXT NOT NULL,
    module    TEXT NOT NULL,
    class     TEXT NOT NULL,
    origin    TEXT NOT NULL
);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_COLUMNS = ("id, canonical, format, file, line, function, level, module, "
            "class, origin")


class DatabaseError(Exception):
    """The database cannot be read or written."""


def default_path() -> str:
    """Return $MSGID_DB or msgid.db in the current directory."""
    return os.environ.get("MSGID_DB") or DEFAULT_DB


def write(path: str, sites: Iterable[CallSite],
          meta: dict[str, str]) -> int:
    """Atomically write a database with @sites and @meta to @path.

    @sites may be a generator; if it raises, the temporary file is removed
    and @path is untouched.  Returns the number of rows written.
    """
    import tempfile  # only needed here; keeps "lookup" start-up fast

    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".%s." % os.path.basename(path),
                                   suffix=".tmp", dir=directory)
    except OSError as e:
        raise DatabaseError("%s: %s" % (directory, e.strerror)) from None
    os.close(fd)
    try:
        count = _fill(tmp, sites, meta)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return count


def _fill(tmp: str, sites: Iterable[CallSite], meta: dict[str, str]) -> int:
    conn = sqlite3.connect(tmp)
    try:
        conn.executescript(_SCHEMA)
        count = 0
        batch: list[tuple] = []
        insert = "INSERT INTO sites (%s) VALUES (?,?,?,?,?,?,?,?,?,?)" % _COLUMNS
        for s in sites:
            batch.append((s.id, s.canonical, s.format, s.file, s.line,
                          s.function, s.level, s.module, s.msg_class,
                          s.origin))
            if len(batch) >= 10000:
                conn.executemany(insert, batch)
                count += len(batch)
                batch.clear()
        conn.executemany(insert, batch)
        count += len(batch)
        meta = dict(meta, schema=SCHEMA_VERSION, sites=str(count))
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                         sorted(meta.items()))
        conn.execute("CREATE INDEX sites_id ON sites (id)")
        conn.execute("CREATE INDEX sites_class ON sites (class)")
        conn.commit()
    finally:
        conn.close()
    return count


class Database:
    """Read access to a database file."""

    def __init__(self, path: str) -> None:
        self.path = path
        if not os.path.isfile(path):
            raise DatabaseError("%s: no such database (run 'msgid-db.py "
                                "build' first, or set MSGID_DB)" % path)
        try:
            self.conn = sqlite3.connect(path)
            self.conn.execute("SELECT id FROM sites LIMIT 1").fetchall()
        except sqlite3.DatabaseError as e:
            raise DatabaseError("%s: not a msgid database (%s)"
                                % (path, e)) from None

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def _sites(self, sql: str, params: tuple = ()) -> list[CallSite]:
        try:
            rows = self.conn.execute(
                "SELECT %s FROM sites %s" % (_COLUMNS, sql), params).fetchall()
        except sqlite3.DatabaseError as e:
            raise DatabaseError("%s: %s" % (self.path, e)) from None
        return [CallSite(*row) for row in rows]

    def lookup(self, msgid: str) -> list[CallSite]:
        """Return all call sites with ID @msgid."""
        return self._sites("WHERE id = ? ORDER BY module, file, line",
                           (msgid,))

    def by_class(self, msg_class: str) -> list[CallSite]:
        """Return all call sites of class @msg_class."""
        return self._sites("WHERE class = ? ORDER BY id, module, file, line",
                           (msg_class,))

    def all_sites(self) -> list[CallSite]:
        """Return every call site."""
        return self._sites("ORDER BY id, module, file, line")

    def meta(self) -> dict[str, str]:
        """Return the build metadata."""
        try:
            return dict(self.conn.execute("SELECT key, value FROM meta"))
        except sqlite3.DatabaseError as e:
            raise DatabaseError("%s: %s" % (self.path, e)) from None

    def counts(self, column: str) -> list[tuple[str, int]]:
        """Return (value, count) pairs for column "origin" or "class"."""
        if column not in ("origin", "class", "module"):
            raise ValueError(column)
        return self.conn.execute(
            "SELECT %s, COUNT(*) FROM sites GROUP BY 1 ORDER BY 2 DESC"
            % column).fetchall()

    def collisions(self) -> tuple[list[tuple[str, int, int]],
                                  list[tuple[str, int]]]:
        """Return (crc collisions, shared IDs).

        crc collisions: (id, distinct canonical formats, sites) for IDs
        with more than one canonical format; shared IDs: (id, sites) for
        IDs of a single format used at several call sites.
        """
        rows = self.conn.execute(
            "SELECT id, COUNT(DISTINCT canonical), COUNT(*) FROM sites "
            "GROUP BY id HAVING COUNT(*) > 1 ORDER BY 3 DESC, 1").fetchall()
        crc = [(i, f, n) for i, f, n in rows if f > 1]
        shared = [(i, n) for i, f, n in rows if f == 1]
        return crc, shared

    def id_map(self) -> dict[str, list[tuple[str, int, str, str, str, str]]]:
        """Return {id: [(file, line, function, module, class, level)]}."""
        out: dict[str, list[tuple[str, int, str, str, str, str]]] = {}
        for row in self.conn.execute(
                "SELECT id, file, line, function, module, class, level "
                "FROM sites ORDER BY module, file, line"):
            out.setdefault(row[0], []).append(row[1:])
        return out


def open_db(path: Optional[str] = None) -> Database:
    """Open the database at @path (default: default_path())."""
    return Database(path or default_path())
