# SPDX-License-Identifier: GPL-2.0
"""The full msgid-db package's reads of a database: the call sites of a
class (list, catalog-todo), counts (stats), collisions, and the call
sites of every ID at once (bench)."""

from msgid_tools.database import Database, select, text_col
from msgid_db.ids import CallSite


def by_class(db: Database, msg_class: str) -> list[CallSite]:
    """Return all call sites of class @msg_class."""
    return db.sites("WHERE class = ? ORDER BY id, module, file, line",
                    (msg_class,))


def counts(db: Database, column: str) -> list[tuple[str, int]]:
    """Return (value, count) pairs for column "origin", "class" or
    "module"."""
    if column not in ("origin", "class", "module"):
        raise ValueError(column)
    return db.query("SELECT %s, COUNT(*) FROM sites GROUP BY 1 "
                    "ORDER BY 2 DESC, 1" % text_col(column))


def collisions(db: Database) -> tuple[list[tuple[str, int, int]],
                                      list[tuple[str, int]]]:
    """Return (crc collisions, shared IDs).

    crc collisions: (id, distinct canonical formats, sites) for IDs
    with more than one canonical format; shared IDs: (id, sites) for
    IDs of a single format used at several call sites.
    """
    rows = db.query(
        "SELECT %s, COUNT(DISTINCT canonical), COUNT(*) FROM sites "
        "GROUP BY id HAVING COUNT(*) > 1 ORDER BY 3 DESC, 1"
        % text_col("id"))
    crc = [(i, f, n) for i, f, n in rows if f > 1]
    shared = [(i, n) for i, f, n in rows if f == 1]
    return crc, shared


def id_map(db: Database
           ) -> dict[str, list[tuple[str, int, str, str, str, str]]]:
    """Return {id: [(file, line, function, module, class, level)]}."""
    out: dict[str, list[tuple[str, int, str, str, str, str]]] = {}
    cols = ("id", "file", "line", "function", "module", "class", "level")
    for row in db.query("SELECT %s FROM sites ORDER BY module, file, line"
                        % ", ".join(select(c) for c in cols)):
        out.setdefault(row[0], []).append(row[1:])
    return out
