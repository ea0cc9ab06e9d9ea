# SPDX-License-Identifier: GPL-2.0
"""The SQLite database: sites (a row per call site), meta (how it was
built), written to a temporary file renamed over it when complete."""

import os
import sqlite3
from typing import Iterable

from msgid_db.ids import CallSite, InputError

COLUMNS = ("id", "canonical", "format", "file", "line", "function", "level",
           "module", "class", "origin")
_SCHEMA = "CREATE TABLE sites (%s); CREATE TABLE meta (key TEXT PRIMARY " \
    "KEY, value TEXT NOT NULL);" % ", ".join("%s %s NOT NULL" % (
        c, "INTEGER" if c == "line" else "TEXT") for c in COLUMNS)
#: The columns, with the types of the schema whatever a file holds.
_TYPED = ", ".join("CAST(%s AS %s)" % (c, "INTEGER" if c == "line" else
                                       "TEXT") for c in COLUMNS)


class DatabaseError(Exception):
    """The database cannot be read or written: exit status 3."""


def write(path: str, sites: Iterable[CallSite], meta: dict[str, str]) -> int:
    """Write the database @path of @sites and @meta; return the count.
    If @sites raises, or finds nothing, @path is left as it was."""
    if os.path.lexists(path) and not os.path.isfile(path):
        raise DatabaseError("%s: not a regular file" % path)
    tmp = os.path.join(os.path.dirname(os.path.abspath(path)),
                       ".%s.%d.tmp" % (os.path.basename(path), os.getpid()))
    try:
        conn = sqlite3.connect(tmp)
        try:
            conn.executescript(_SCHEMA)
            conn.executemany("INSERT INTO sites VALUES (%s)" % ",".join(
                "?" * len(COLUMNS)), sites)
            count = conn.execute("SELECT COUNT(*) FROM sites").fetchone()[0]
            if not count:
                raise InputError("found no call sites in %s: %s is left as "
                                 "it was" % (meta["sources"], path))
            conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(
                dict(meta, sites=str(count)).items()))
            conn.execute("CREATE INDEX sites_id ON sites (id)")
            conn.commit()
        finally:
            conn.close()
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except (sqlite3.Error, OSError) as e:
        raise DatabaseError("%s: %s" % (path, getattr(e, "strerror", None)
                                        or e)) from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return count


class Database:
    """A database file, read."""

    def __init__(self, path: str) -> None:
        self.path = path
        if not os.path.isfile(path):
            raise DatabaseError("%s: no such database (run 'msgid-db.py "
                                "build' first, or set MSGID_DB)" % path)
        self.conn = sqlite3.connect(path)
        self.lookup("")     # fails if it is not a database of call sites

    def lookup(self, msgid: str) -> list[CallSite]:
        """The call sites of @msgid."""
        try:
            return [CallSite(*row) for row in self.conn.execute(
                "SELECT %s FROM sites WHERE id = ? ORDER BY module, file, "
                "line" % _TYPED, (msgid,))]
        except (sqlite3.Error, UnicodeDecodeError) as e:
            raise DatabaseError("%s: not a msgid database (%s)"
                                % (self.path, str(e)[:160])) from None
