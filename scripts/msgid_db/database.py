# SPDX-License-Identifier: GPL-2.0
"""The SQLite call-site database.

Schema::

    sites(id, canonical, format, file, line, function, level, module,
          class, origin, releases)             -- one row per call site
    meta(key PRIMARY KEY, value)               -- build metadata
    match(word, id, canonical, cont, rest, starts) -- formats by word
    release_ids(release, id)                   -- merged: IDs by release

A database of several releases (msgid-db.py merge, msgid_db.releases)
names in sites.releases the series ("6.1 6.12") each call site is in,
and in release_ids the IDs each release prints; a database of one
release has neither (meta kernel_release names it, if known).

match files every distinct format that can start a record under its
rarest literal word (msgid_db.match.plan), so that identifying a line
without an ID reads only the buckets of its words, never the whole table;
starts says where in a line its text can start: "p" at the start or after
a wrapper's %pV prefix, "d" after a dev_printk()-style device prefix,
"=" and a subsystem prefix after that prefix, "" either (see
match.Format).
A database without it (built by an older version) still works: the
index is then built in memory.

A database is always written to a temporary file in the target directory
(".<name>.XXXXXXXX.tmp", locked with flock() while in use), flushed to
disk and renamed over the target only when complete, so an interrupted
build leaves the previous database intact.  A killed build leaves its
temporary file behind; the next build removes it.  Values reach SQL only
as parameters.
"""

import os
import re
import sqlite3
from typing import Callable, Iterable, Optional

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
CREATE TABLE match (
    word      BLOB NOT NULL,
    id        TEXT NOT NULL,
    canonical BLOB NOT NULL,
    cont      INTEGER NOT NULL,
    rest      BLOB NOT NULL,
    starts    TEXT NOT NULL
);
"""
#: The formats that can start a record (not a KERN_CONT fragment).
_STARTS_RECORD = "level != 'c'"
_COLUMNS = ("id, canonical, format, file, line, function, level, module, "
            "class, origin")


def _text_col(name: str) -> str:
    return "CAST(IFNULL(%s, '') AS TEXT)" % name


def _select(name: str) -> str:
    """SELECT expression of column @name with the type of the schema."""
    if name == "line":
        return "CAST(IFNULL(line, 0) AS INTEGER)"
    return _text_col(name)


#: The columns of sites, typed (a damaged file may hold anything).
_SELECT = ", ".join(_select(c.strip()) for c in _COLUMNS.split(","))


class DatabaseError(Exception):
    """The database cannot be read or written."""


def _reason(e: Exception) -> str:
    """sqlite's message, shortened: it may quote a whole damaged value."""
    text = str(e)
    return text if len(text) <= 160 else text[:160] + "..."


def default_path() -> str:
    """Return $MSGID_DB or msgid.db in the current directory."""
    return os.environ.get("MSGID_DB") or DEFAULT_DB


def write(path: str, sites: Iterable,
          meta: dict[str, str],
          check: Optional[Callable[[int], None]] = None,
          releases: bool = False) -> int:
    """Atomically write a database with @sites and @meta to @path.

    @sites may be a generator; if it raises (or the process is killed), the
    temporary file is removed (or left for the next build to remove) and
    @path is untouched.  @check, called with the number of rows before
    @path is replaced, may raise to keep @path as it is.  Returns the
    number of rows written.  With @releases, @sites yields (CallSite,
    its releases "6.1 6.12") pairs (msgid_db.releases.merge()).
    """
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.lexists(path) and not os.path.isfile(path):
        raise DatabaseError("%s: not a regular file, will not replace it"
                            % path)
    remove_stale_temporaries(path)
    fd, tmp = _create_temporary(path, directory)
    try:
        try:
            count = _fill(tmp, sites, meta, releases)
            if check is not None:
                check(count)
            os.fsync(fd)  # the rename must not expose unwritten data
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)
        except sqlite3.Error as e:
            raise DatabaseError("%s: %s" % (path, _reason(e))) from None
        except OSError as e:
            if e.filename not in (None, tmp, path):
                raise  # from an input, raised by @sites
            raise DatabaseError("%s: %s" % (path, e.strerror or e)) from None
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    finally:
        os.close(fd)
    _sync_directory(directory)
    return count


def _temporary_re(path: str) -> "re.Pattern[str]":
    """Names of the temporary files of builds of @path (see mkstemp)."""
    return re.compile(re.escape(".%s." % os.path.basename(path))
                      + r"[a-z0-9_]{8}\.tmp")


def is_own_file(path: str, name: str) -> bool:
    """Whether @name (a file name in the directory of @path) is the
    database @path or a temporary file of a build of it: never an input
    of that build."""
    return name == os.path.basename(path) or \
        _temporary_re(path).fullmatch(name) is not None


def count_sites(path: str) -> Optional[int]:
    """The number of call sites of the database @path, None if there is
    none there (or it is not one)."""
    if not os.path.isfile(path):
        return None
    try:
        db = Database(path)
        try:
            return db.count()
        finally:
            db.close()
    except (DatabaseError, sqlite3.Error, OSError):
        return None


def _create_temporary(path: str, directory: str) -> tuple[int, str]:
    """Create and lock (flock) a temporary file next to @path.

    The lock tells remove_stale_temporaries() of other builds that the
    file is in use; the kernel drops it when this process dies, however
    it dies.
    """
    import fcntl
    import tempfile  # only needed here; keeps "lookup" start-up fast
    for _ in range(10):
        try:
            fd, tmp = tempfile.mkstemp(
                prefix=".%s." % os.path.basename(path), suffix=".tmp",
                dir=directory)
        except OSError as e:
            raise DatabaseError("%s: %s" % (directory, e.strerror)) from None
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.path.samestat(os.fstat(fd), os.stat(tmp)):
                return fd, tmp
        except OSError:
            pass
        # Removed by another build between mkstemp() and flock(): retry.
        os.close(fd)
    raise DatabaseError("%s: cannot create a temporary file" % directory)


def remove_stale_temporaries(path: str) -> list[str]:
    """Remove temporary files left next to @path by killed builds.

    A build that is killed (SIGKILL, power loss) before it renames its
    temporary file ".<name>.XXXXXXXX.tmp" over @path leaves it behind.
    Files whose flock() can be taken belong to no running build and are
    removed; returns their names.
    """
    import fcntl
    import stat
    directory = os.path.dirname(os.path.abspath(path))
    pattern = _temporary_re(path)
    removed = []
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        if not pattern.fullmatch(name):
            continue
        full = os.path.join(directory, name)
        try:
            fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode) and os.path.samestat(
                    st, os.stat(full)):
                os.unlink(full)
                removed.append(name)
        except OSError:
            pass  # locked by a running build, or already gone
        finally:
            os.close(fd)
    return removed


def _sync_directory(directory: str) -> None:
    """Make a rename in @directory durable (best effort)."""
    try:
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _text(value: object) -> object:
    """Return @value storable as UTF-8 (file names may hold surrogates)."""
    if not isinstance(value, str) or value.isascii():
        return value
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        try:
            raw = value.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            return value.encode("utf-8", "backslashreplace").decode("ascii")
        return raw.decode("utf-8", "backslashreplace")


def _row(s: CallSite) -> tuple:
    line = s.line if isinstance(s.line, int) and 0 <= s.line < 1 << 63 else 0
    return (_text(s.id), _text(s.canonical), _text(s.format), _text(s.file),
            line, _text(s.function), _text(s.level), _text(s.module),
            _text(s.msg_class), _text(s.origin))


def _fill(tmp: str, sites: Iterable, meta: dict[str, str],
          releases: bool = False) -> int:
    conn = sqlite3.connect(tmp)
    try:
        # The file is private until renamed: no journal, and one fsync()
        # by write() instead of sqlite's.
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.executescript(_SCHEMA)
        count = 0
        batch: list[tuple] = []
        if releases:
            conn.execute("ALTER TABLE sites ADD COLUMN releases TEXT NOT "
                         "NULL DEFAULT ''")
            insert = "INSERT INTO sites (%s, releases) VALUES " \
                "(?,?,?,?,?,?,?,?,?,?,?)" % _COLUMNS
        else:
            insert = "INSERT INTO sites (%s) VALUES " \
                "(?,?,?,?,?,?,?,?,?,?)" % _COLUMNS
        formats: list[tuple[str, bytes, bool, Optional[str]]] = []
        by_release: set[tuple[str, str]] = set()
        for item in sites:
            if releases:
                s, rels = item
                for r in rels.split():
                    by_release.add((r, s.id))
                row = _row(s) + (_text(rels),)
            else:
                s = item
                row = _row(s)
            batch.append(row)
            if row[6] != "c":  # can start a record: see _STARTS_RECORD
                formats.append(_format(row[0], row[1], row[2], s.subsys))
            if len(batch) >= 10000:
                conn.executemany(insert, batch)
                count += len(batch)
                batch.clear()
        conn.executemany(insert, batch)
        count += len(batch)
        meta = dict(meta, schema=SCHEMA_VERSION, sites=str(count))
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                         sorted((_text(k), _text(v)) for k, v in meta.items()))
        conn.execute("CREATE INDEX sites_id ON sites (id)")
        conn.execute("CREATE INDEX sites_class ON sites (class)")
        if releases:
            conn.execute("CREATE TABLE release_ids (release TEXT NOT NULL, "
                         "id TEXT NOT NULL, PRIMARY KEY (release, id)) "
                         "WITHOUT ROWID")
            conn.executemany("INSERT INTO release_ids VALUES (?, ?)",
                             sorted(by_release))
        _fill_match(conn, formats)
        conn.commit()
    finally:
        conn.close()
    return count


def _format(msgid: object, canon: object, fmt: object,
            subsys: Optional[str] = None
            ) -> tuple[str, bytes, bool, Optional[str]]:
    """A call site as match.Matcher wants it: (id, canonical, may be
    continued, wrapper prefix)."""
    canon = canon if isinstance(canon, str) else str(canon)
    return (str(msgid), canon.encode("utf-8", "surrogateescape"),
            not str(fmt).endswith("\n"), subsys)


def _formats(rows: Iterable[tuple]
             ) -> list[tuple[str, bytes, bool, Optional[str]]]:
    """(id, canonical, format) rows as match.Matcher wants them."""
    return [_format(*row) for row in rows]


def _fill_match(conn: sqlite3.Connection,
                formats: list[tuple[str, bytes, bool, Optional[str]]]
                ) -> None:
    """Write the word index of @formats (see the schema)."""
    from msgid_db import match
    conn.executemany(
        "INSERT INTO match (word, id, canonical, cont, rest, starts) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        ((word, msgid, canon, int(cont), b" ".join(rest), where)
         for word, msgid, canon, cont, rest, where in match.plan(formats)))
    conn.execute("CREATE INDEX match_word ON match (word)")
    conn.execute("INSERT INTO meta (key, value) VALUES ('match', '1')")


class Database:
    """Read access to a database file.

    Every query error (a damaged or foreign file) raises DatabaseError, and
    values are read back with the types of the schema, whatever the file
    holds.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        if not os.path.isfile(path):
            raise DatabaseError("%s: no such database (run 'msgid-db.py "
                                "build' first, or set MSGID_DB)" % path)
        try:
            self.conn = sqlite3.connect(path)
            self.conn.execute("SELECT %s FROM sites LIMIT 1"
                              % _COLUMNS).fetchall()
        except sqlite3.Error as e:
            raise DatabaseError("%s: not a msgid database (%s)"
                                % (path, _reason(e))) from None

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def _query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Run @sql (values only as @params) and return all rows."""
        try:
            return self.conn.execute(sql, params).fetchall()
        except sqlite3.Error as e:
            raise DatabaseError("%s: %s" % (self.path, _reason(e))) from None

    def _sites(self, sql: str, params: tuple = ()) -> list[CallSite]:
        rows = self._query("SELECT %s FROM sites %s" % (_SELECT, sql), params)
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
        return dict(self._query("SELECT %s, %s FROM meta"
                                % (_text_col("key"), _text_col("value"))))

    def has_releases(self) -> bool:
        """Whether this is a database of several releases (merge)."""
        flag = getattr(self, "_has_releases", None)
        if flag is None:
            columns = {row[1] for row in self._query(
                "PRAGMA table_info(sites)")}
            flag = "releases" in columns and bool(self._query(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                "name = 'release_ids'")) and \
                bool(self.meta().get("releases"))
            self._has_releases = flag
        return flag

    def releases(self) -> dict[str, str]:
        """{series: release} of a merged database ("6.12": "6.12.118"),
        {} for a database of one release."""
        from msgid_db import releases
        if not self.has_releases():
            return {}
        return releases.parse_meta(self.meta().get("releases", ""))

    def release_ids(self, name: str) -> set[str]:
        """The IDs that release series @name prints (merged databases)."""
        if not self.has_releases():
            return set()
        return {str(r[0]) for r in self._query(
            "SELECT %s FROM release_ids WHERE release = ?" % _text_col("id"),
            (name,))}

    def release_rows(self) -> Iterable[tuple[tuple, str]]:
        """Every call site as (its sites row, its releases; "" for a
        database of one release)."""
        rel = _text_col("releases") if self.has_releases() else "''"
        return [(tuple(row[:10]), row[10]) for row in self._query(
            "SELECT %s, %s FROM sites" % (_SELECT, rel))]

    def lookup_releases(self, msgid: str) -> list[tuple[CallSite, str]]:
        """lookup(), each call site with its releases ("" if not known)."""
        rel = _text_col("releases") if self.has_releases() else "''"
        return [(CallSite(*row[:10]), row[10]) for row in self._query(
            "SELECT %s, %s FROM sites WHERE id = ? ORDER BY module, file, "
            "line" % (_SELECT, rel), (msgid,))]

    def match_starts(self) -> list[tuple[str, bytes, str]]:
        """(id, canonical, where its text starts) of the word index."""
        if not self.has_match_index():
            return []
        return [(bytes(i).decode("ascii", "replace"), bytes(c), str(w))
                for i, c, w in self._query(
                    "SELECT DISTINCT CAST(IFNULL(id, '') AS BLOB), "
                    "CAST(IFNULL(canonical, '') AS BLOB), "
                    "CAST(IFNULL(starts, '') AS TEXT) FROM match")]

    def count(self) -> int:
        """The number of call sites."""
        return int(self._query("SELECT COUNT(*) FROM sites")[0][0])

    def counts(self, column: str) -> list[tuple[str, int]]:
        """Return (value, count) pairs for column "origin" or "class"."""
        if column not in ("origin", "class", "module"):
            raise ValueError(column)
        return self._query("SELECT %s, COUNT(*) FROM sites GROUP BY 1 "
                           "ORDER BY 2 DESC, 1" % _text_col(column))

    def collisions(self) -> tuple[list[tuple[str, int, int]],
                                  list[tuple[str, int]]]:
        """Return (crc collisions, shared IDs).

        crc collisions: (id, distinct canonical formats, sites) for IDs
        with more than one canonical format; shared IDs: (id, sites) for
        IDs of a single format used at several call sites.
        """
        rows = self._query(
            "SELECT %s, COUNT(DISTINCT canonical), COUNT(*) FROM sites "
            "GROUP BY id HAVING COUNT(*) > 1 ORDER BY 3 DESC, 1"
            % _text_col("id"))
        crc = [(i, f, n) for i, f, n in rows if f > 1]
        shared = [(i, n) for i, f, n in rows if f == 1]
        return crc, shared

    def formats(self) -> list[tuple[str, bytes, bool, Optional[str]]]:
        """Return (id, canonical format, may start a continued record) for
        every call site that can start a record (not a KERN_CONT
        fragment); see match.Matcher."""
        return _formats(self._query(
            "SELECT %s FROM sites WHERE %s" % (", ".join(
                _select(c) for c in ("id", "canonical", "format")),
                _STARTS_RECORD)))

    def formats_of(self, msgid: str
                   ) -> list[tuple[str, bytes, bool, Optional[str]]]:
        """formats() of the call sites with ID @msgid."""
        return _formats(self._query(
            "SELECT DISTINCT %s FROM sites WHERE id = ? AND %s" % (
                ", ".join(_select(c) for c in ("id", "canonical", "format")),
                _STARTS_RECORD), (msgid,)))

    def has_match_index(self) -> bool:
        """Whether the database holds the word index of its formats."""
        return bool(self._query(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
            "name = 'match'")) and self.meta().get("match") == "1"

    def match_bucket(self, word: bytes
                     ) -> list[tuple[str, bytes, bool, list[bytes], str]]:
        """Return (id, canonical, may be continued, other words, where it
        starts) of the formats filed under @word in the word index."""
        return [(bytes(msgid).decode("ascii", "replace"), bytes(canon),
                 bool(cont), bytes(rest).split(), where)
                for msgid, canon, cont, rest, where in self._query(
                    "SELECT CAST(IFNULL(id, '') AS BLOB), "
                    "CAST(IFNULL(canonical, '') AS BLOB), "
                    "CAST(IFNULL(cont, 0) AS INTEGER), "
                    "CAST(IFNULL(rest, '') AS BLOB), "
                    "CASE WHEN starts IN ('p', 'd') OR "
                    "substr(starts, 1, 1) = '=' THEN starts "
                    "ELSE '' END FROM match WHERE word = ?", (word,))]

    def id_map(self) -> dict[str, list[tuple[str, int, str, str, str, str]]]:
        """Return {id: [(file, line, function, module, class, level)]}."""
        out: dict[str, list[tuple[str, int, str, str, str, str]]] = {}
        cols = ("id", "file", "line", "function", "module", "class", "level")
        for row in self._query("SELECT %s FROM sites ORDER BY module, file, "
                               "line" % ", ".join(_select(c) for c in cols)):
            out.setdefault(row[0], []).append(row[1:])
        return out


class SiteMap:
    """{id: [(file, line, function, module, class, level)]} read from the
    database one ID at a time, as a log asks for them (id_map() reads a
    whole tree's 189,000 call sites up front: about a second)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._cache: dict[str, list[tuple[str, int, str, str, str, str]]] = {}
        #: the release series whose call sites come first (merged
        #: databases): those of another release are left out when the
        #: release has some
        self.release = ""

    def set_release(self, name: str) -> None:
        """Prefer the call sites of release series @name ("" none)."""
        if name != self.release:
            self.release = name
            self._cache.clear()

    def get(self, msgid: str, default: Optional[list] = None
            ) -> Optional[list[tuple[str, int, str, str, str, str]]]:
        """The call sites of @msgid, or @default if there are none."""
        sites = self._cache.get(msgid)
        if sites is None:
            cols = ("file", "line", "function", "module", "class", "level")
            if self.release and self.db.has_releases():
                rows = self.db._query(
                    "SELECT %s, %s FROM sites WHERE id = ? ORDER BY module, "
                    "file, line" % (", ".join(_select(c) for c in cols),
                                    _text_col("releases")), (msgid,))
                mine = [r[:6] for r in rows
                        if self.release in r[6].split()]
                sites = mine or [r[:6] for r in rows]
            else:
                sites = self.db._query(
                    "SELECT %s FROM sites WHERE id = ? ORDER BY module, "
                    "file, line" % ", ".join(_select(c) for c in cols),
                    (msgid,))
            self._cache[msgid] = sites
        return sites or default

    def __contains__(self, msgid: object) -> bool:
        return isinstance(msgid, str) and bool(self.get(msgid))


def open_db(path: Optional[str] = None) -> Database:
    """Open the database at @path (default: default_path())."""
    return Database(path or default_path())
