# SPDX-License-Identifier: GPL-2.0
"""Databases of several kernel releases.

A release is named by its series, "MAJOR.MINOR" ("6.12" for Debian's
"6.12.41+deb13-amd64", a tree's Makefile 6.12.118, a log's "Linux
version 6.12.41-..."): the formats of one series' stable updates hardly
move, and a log names the series its kernel was built from.

merge() reads the call sites of databases of single releases (or of
other merged ones) and yields each distinct call site once, with the
releases it is in; a site that moved to another line is one site, with
the line of the newest release that has it.  database.write() stores
them in the releases column of sites and the release_ids table (which
IDs each release prints), and meta "releases" lists "series=release"
of every input.  The functions below the merge read them back, and
SiteMap gives the call sites of the log's release first.
"""

import os
import re
import sqlite3
import tempfile
import weakref
from typing import Iterator, Optional

from msgid_tools import database
from msgid_db.ids import CallSite, InputError

_SERIES_RE = re.compile(r"(\d{1,3})\.(\d{1,3})(?![\d])")
_MAKEFILE_RE = re.compile(r"^(VERSION|PATCHLEVEL|SUBLEVEL|EXTRAVERSION)"
                          r"\s*=[ \t]*(\S*)", re.M)


class ReleaseError(InputError):
    """A release cannot be named, or databases cannot be merged."""


def series(release: str) -> Optional[str]:
    """The series "MAJOR.MINOR" of a kernel release string, or None."""
    m = _SERIES_RE.match(release.strip())
    if not m:
        return None
    return "%d.%d" % (int(m.group(1)), int(m.group(2)))


def order(name: str) -> tuple[int, ...]:
    """Sort key of a series: "6.1" < "6.12" < "7.3"."""
    return tuple(int(x) for x in name.split(".") if x.isdigit())


def _number(name: str) -> int:
    """order() as one number, for SQL."""
    major, _, minor = name.partition(".")
    return int(major) * 1000 + int(minor or 0)


def tree_release(directory: str) -> Optional[str]:
    """The release of the kernel tree @directory from its top Makefile
    ("6.12.118"), or None if it has none that says."""
    try:
        with open(os.path.join(directory, "Makefile"), "rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
    except OSError:
        return None
    values = dict(_MAKEFILE_RE.findall(head))
    if not values.get("VERSION", "").isdigit() or \
            not values.get("PATCHLEVEL", "").isdigit():
        return None
    text = "%s.%s" % (values["VERSION"], values["PATCHLEVEL"])
    if values.get("SUBLEVEL", "").isdigit():
        text += "." + values["SUBLEVEL"]
    return text + values.get("EXTRAVERSION", "")


def parse_input(text: str) -> tuple[Optional[str], str]:
    """A merge input "FILE" or "RELEASE=FILE": (release or None, file)."""
    name, sep, path = text.partition("=")
    if sep and series(name) is not None and "/" not in name:
        return name, path
    return None, text


#: Columns of sites that make a call site the same one in two releases
#: (not its line, which moves with every edit above it).
_KEY = "id, canonical, format, file, function, level, module, class, origin"


def _unwhere(starts: str) -> Optional[str]:
    """The wrapper prefix (CallSite.subsys) that match.where() made
    @starts from."""
    if starts == "p":
        return ""
    if starts == "d":
        return "%s %s: "
    if starts.startswith("="):
        return starts[1:]
    return None


def merge(inputs: list[tuple[Optional[str], str]], tmpdir: str
          ) -> "Merged":
    """Merge the databases @inputs, (release or None, path) each.

    A database of one release names it itself (meta kernel_release, which
    build sets from a kernel, the live index or a tree's Makefile), or
    its input says it ("6.12=old.db"); a merged database brings the
    releases of its sites.  Returns a Merged: the call sites, each with
    its releases, and series -> release of every input.  A work file in
    @tmpdir (the output's directory) holds every row while they are
    grouped: close() the result.
    """
    from msgid_tools import match
    seen: dict[str, str] = {}
    metas: dict[str, str] = {}
    fd, work = tempfile.mkstemp(prefix=".msgid-merge.", suffix=".tmp",
                                dir=tmpdir)
    os.close(fd)
    conn = sqlite3.connect(work)
    starts: dict[tuple[str, bytes], str] = {}
    try:
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("CREATE TABLE allr (id, canonical, format, file, line, "
                     "function, level, module, class, origin, rel, ord)")
        for given, path in inputs:
            db = database.open_db(path)
            try:
                meta = db.meta()
                own = parse_meta(meta.get("releases", ""))
                if own and given is None:
                    names = own
                else:
                    release = given or meta.get("kernel_release", "")
                    s = series(release) if release else None
                    if s is None:
                        raise ReleaseError(
                            "%s: the database names no kernel release: "
                            "give it as RELEASE=FILE (e.g. 6.12=%s), or "
                            "build it again with --release"
                            % (path, path))
                    names = {s: release}
                for s in names:
                    if s in seen:
                        raise ReleaseError(
                            "%s and %s both hold release %s: merge one "
                            "database per release" % (seen[s], path, s))
                    seen[s] = path
                metas.update(names)
                label = None if own and given is None else next(iter(names))
                rows = release_rows(db)
                for msgid, canon, where in match.index_starts(db):
                    key = (msgid, canon)
                    if starts.setdefault(key, where) != where:
                        starts[key] = ""
                conn.executemany(
                    "INSERT INTO allr VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    _labelled(rows, label))
            finally:
                db.close()
        conn.commit()
    except BaseException:
        conn.close()
        os.unlink(work)
        raise

    return Merged(conn, work, starts, metas)


class Merged:
    """The grouped rows of merge(); close() removes the work file."""

    def __init__(self, conn: sqlite3.Connection, work: str,
                 starts: dict[tuple[str, bytes], str],
                 metas: dict[str, str]) -> None:
        self.conn = conn
        self.work = work
        self.starts = starts
        self.metas = metas

    def sites(self) -> Iterator[tuple[CallSite, str]]:
        """Each distinct call site with its releases, "6.1 6.12", and
        the wrapper prefix its inputs' word index gave its format (that
        of the text, for a site printed as text: match.site_format())."""
        from msgid_tools import match
        cur = self.conn.execute(
            "SELECT %s, line, max(ord), group_concat(rel, ' ') FROM "
            "(SELECT * FROM allr ORDER BY ord) GROUP BY %s" % (_KEY, _KEY))
        for row in cur:
            (msgid, canon, fmt, file, function, level, module, cls,
             origin, line, _, rels) = row
            names = sorted(set(rels.split()), key=order)
            key = match.site_format(msgid, canon, fmt, None, file)[:2]
            yield (CallSite(msgid, canon, fmt, file, line, function,
                            level, module, cls, origin,
                            _unwhere(self.starts.get(key, ""))),
                   " ".join(names))

    def close(self) -> None:
        """Remove the work file."""
        self.conn.close()
        try:
            os.unlink(self.work)
        except OSError:
            pass


def _labelled(rows: Iterator[tuple[tuple, str]], label: Optional[str]
              ) -> Iterator[tuple]:
    """Rows of allr: a site, its releases (@label for a database of one
    release), the order of its newest."""
    for row, rels in rows:
        rels = label or rels
        if not rels:
            raise ReleaseError("a site of a merged database has no "
                               "release: merge its inputs again")
        yield row + (rels, max(_number(r) for r in rels.split()))


def meta_text(metas: dict[str, str]) -> str:
    """The meta "releases" value: "6.1=6.1.192 7.3=7.3.4", oldest first."""
    return " ".join("%s=%s" % (s, metas[s]) for s in sorted(metas, key=order))


def parse_meta(text: str) -> dict[str, str]:
    """The inverse of meta_text()."""
    out = {}
    for item in text.split():
        s, _, release = item.partition("=")
        out[s] = release or s
    return out


# ------------------------------------------- the releases of a database

#: is_merged() of each open database
_MERGED: "weakref.WeakKeyDictionary[database.Database, bool]" = \
    weakref.WeakKeyDictionary()


def is_merged(db: database.Database) -> bool:
    """Whether @db is a database of several releases (merge)."""
    flag = _MERGED.get(db)
    if flag is None:
        columns = {row[1] for row in db.query("PRAGMA table_info(sites)")}
        flag = "releases" in columns and bool(db.query(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
            "name = 'release_ids'")) and \
            bool(db.meta().get("releases"))
        _MERGED[db] = flag
    return flag


def held(db: database.Database) -> dict[str, str]:
    """{series: release} of a merged database ("6.12": "6.12.118"),
    {} for a database of one release."""
    if not is_merged(db):
        return {}
    return parse_meta(db.meta().get("releases", ""))


def release_ids(db: database.Database, name: str) -> set[str]:
    """The IDs that release series @name prints (merged databases)."""
    if not is_merged(db):
        return set()
    return {str(r[0]) for r in db.query(
        "SELECT %s FROM release_ids WHERE release = ?"
        % database.text_col("id"), (name,))}


def release_rows(db: database.Database) -> list[tuple[tuple, str]]:
    """Every call site as (its sites row, its releases; "" for a
    database of one release)."""
    rel = database.text_col("releases") if is_merged(db) else "''"
    return [(tuple(row[:10]), row[10]) for row in db.query(
        "SELECT %s, %s FROM sites" % (database.SITE_COLUMNS, rel))]


def lookup(db: database.Database, msgid: str) -> list[tuple[CallSite, str]]:
    """db.lookup(), each call site with its releases ("" if not known)."""
    rel = database.text_col("releases") if is_merged(db) else "''"
    return [(CallSite(*row[:10]), row[10]) for row in db.query(
        "SELECT %s, %s FROM sites WHERE id = ? ORDER BY module, file, "
        "line" % (database.SITE_COLUMNS, rel), (msgid,))]


class SiteMap(database.SiteMap):
    """database.SiteMap that gives, in a merged database, the call sites
    of one release series: those of other releases are left out when
    the release has some."""

    def __init__(self, db: database.Database) -> None:
        super().__init__(db)
        #: the release series whose call sites come first
        self.release = ""

    def set_release(self, name: str) -> None:
        """Prefer the call sites of release series @name ("" none)."""
        if name != self.release:
            self.release = name
            self._cache.clear()

    def rows(self, msgid: str) -> list[tuple[str, int, str, str, str, str]]:
        if not self.release or not is_merged(self.db):
            return super().rows(msgid)
        rows = self.db.query(
            "SELECT %s, %s FROM sites WHERE id = ? ORDER BY module, file, "
            "line" % (", ".join(database.select(c) for c in self.COLUMNS),
                      database.text_col("releases")), (msgid,))
        mine = [r[:6] for r in rows if self.release in r[6].split()]
        return mine or [r[:6] for r in rows]
