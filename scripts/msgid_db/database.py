# SPDX-License-Identifier: GPL-2.0
"""The SQLite call-site database.

Schema::

    sites(id, canonical, format, file, line, function, level, module,
          class, origin)                       -- one row per call site
    meta(key PRIMARY KEY, value)               -- build metadata

build writes them; lookup and annotate read them.

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
"""
_COLUMNS = ("id, canonical, format, file, line, function, level, module, "
            "class, origin")


def text_col(name: str) -> str:
    """SELECT expression of the text column @name."""
    return "CAST(IFNULL(%s, '') AS TEXT)" % name


def select(name: str) -> str:
    """SELECT expression of column @name with the type of the schema."""
    if name == "line":
        return "CAST(IFNULL(line, 0) AS INTEGER)"
    return text_col(name)


#: The columns of sites, typed (a damaged file may hold anything).
SITE_COLUMNS = ", ".join(select(c.strip()) for c in _COLUMNS.split(","))


class DatabaseError(Exception):
    """The database cannot be read or written."""


def _reason(e: Exception) -> str:
    """sqlite's message, shortened: it may quote a whole damaged value."""
    text = str(e)
    return text if len(text) <= 160 else text[:160] + "..."


def default_path() -> str:
    """Return $MSGID_DB or msgid.db in the current directory."""
    return os.environ.get("MSGID_DB") or DEFAULT_DB


#: insert(conn, sites) fills the sites table; returns the rows written.
Inserter = Callable[[sqlite3.Connection, Iterable], int]


def write(path: str, sites: Iterable,
          meta: dict[str, str],
          check: Optional[Callable[[int], None]] = None,
          insert: Optional[Inserter] = None) -> int:
    """Atomically write a database with @sites and @meta to @path.

    @sites may be a generator; if it raises (or the process is killed), the
    temporary file is removed (or left for the next build to remove) and
    @path is untouched.  @check, called with the number of rows before
    @path is replaced, may raise to keep @path as it is.  Returns the
    number of rows written.  @insert, if given, fills the sites table
    (and may add tables of its own) in place of insert_sites().
    """
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.lexists(path) and not os.path.isfile(path):
        raise DatabaseError("%s: not a regular file, will not replace it"
                            % path)
    remove_stale_temporaries(path)
    fd, tmp = _create_temporary(path, directory)
    try:
        try:
            count = _fill(tmp, sites, meta, insert or insert_sites)
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
        file = os.path.join(directory, name)
        try:
            fd = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode) and os.path.samestat(
                    st, os.stat(file)):
                os.unlink(file)
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


def text(value: object) -> object:
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


def row(s: CallSite) -> tuple:
    """The values of @s in the order of the sites table's columns."""
    line = s.line if isinstance(s.line, int) and 0 <= s.line < 1 << 63 else 0
    return (text(s.id), text(s.canonical), text(s.format), text(s.file),
            line, text(s.function), text(s.level), text(s.module),
            text(s.msg_class), text(s.origin))


def insert_sites(conn: sqlite3.Connection, sites: Iterable[CallSite]
                 ) -> int:
    """Insert @sites into the sites table of @conn; return their count."""
    return insert_rows(conn, map(row, sites))


def insert_rows(conn: sqlite3.Connection, rows: Iterable[tuple],
                extra: str = "") -> int:
    """Insert @rows (row(), then the columns @extra, ", a, b") into the
    sites table of @conn, in batches; return their count."""
    insert = "INSERT INTO sites (%s%s) VALUES (%s)" % (
        _COLUMNS, extra, ",".join("?" * (10 + extra.count(","))))
    count = 0
    batch: list[tuple] = []
    for r in rows:
        batch.append(r)
        if len(batch) >= 10000:
            conn.executemany(insert, batch)
            count += len(batch)
            batch.clear()
    conn.executemany(insert, batch)
    return count + len(batch)


def _fill(tmp: str, sites: Iterable, meta: dict[str, str],
          insert: Inserter) -> int:
    conn = sqlite3.connect(tmp)
    try:
        # The file is private until renamed: no journal, and one fsync()
        # by write() instead of sqlite's.
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.executescript(_SCHEMA)
        count = insert(conn, sites)
        meta = dict(meta, schema=SCHEMA_VERSION, sites=str(count))
        conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)",
                         sorted((text(k), text(v)) for k, v in meta.items()))
        conn.execute("CREATE INDEX sites_id ON sites (id)")
        conn.execute("CREATE INDEX sites_class ON sites (class)")
        conn.commit()
    finally:
        conn.close()
    return count


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
        except (sqlite3.Error, UnicodeDecodeError) as e:  # a damaged schema
            raise DatabaseError("%s: not a msgid database (%s)"
                                % (path, _reason(e))) from None

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Run @sql (values only as @params) and return all rows."""
        try:
            return self.conn.execute(sql, params).fetchall()
        except (sqlite3.Error, UnicodeDecodeError) as e:
            raise DatabaseError("%s: %s" % (self.path, _reason(e))) from None

    def sites(self, sql: str, params: tuple = ()) -> list[CallSite]:
        """The call sites of "SELECT ... FROM sites @sql"."""
        rows = self.query("SELECT %s FROM sites %s" % (SITE_COLUMNS, sql),
                          params)
        return [CallSite(*row) for row in rows]

    def lookup(self, msgid: str) -> list[CallSite]:
        """Return all call sites with ID @msgid."""
        return self.sites("WHERE id = ? ORDER BY module, file, line",
                          (msgid,))

    def all_sites(self) -> list[CallSite]:
        """Return every call site."""
        return self.sites("ORDER BY id, module, file, line")

    def meta(self) -> dict[str, str]:
        """Return the build metadata."""
        return dict(self.query("SELECT %s, %s FROM meta"
                               % (text_col("key"), text_col("value"))))

    def count(self) -> int:
        """The number of call sites."""
        return int(self.query("SELECT COUNT(*) FROM sites")[0][0])


class SiteMap:
    """{id: [(file, line, function, module, class, level)]} read from the
    database one ID at a time, as a log asks for them (reading a whole
    tree's 189,000 call sites up front takes about a second)."""

    COLUMNS = ("file", "line", "function", "module", "class", "level")

    def __init__(self, db: Database) -> None:
        self.db = db
        self._cache: dict[str, list[tuple[str, int, str, str, str, str]]] = {}

    def rows(self, msgid: str) -> list[tuple[str, int, str, str, str, str]]:
        """The call sites of @msgid from the database."""
        return self.db.query(
            "SELECT %s FROM sites WHERE id = ? ORDER BY module, file, line"
            % ", ".join(select(c) for c in self.COLUMNS), (msgid,))

    def get(self, msgid: str, default: Optional[list] = None
            ) -> Optional[list[tuple[str, int, str, str, str, str]]]:
        """The call sites of @msgid, or @default if there are none."""
        sites = self._cache.get(msgid)
        if sites is None:
            sites = self._cache[msgid] = self.rows(msgid)
        return sites or default

    def __contains__(self, msgid: object) -> bool:
        return isinstance(msgid, str) and bool(self.get(msgid))


def open_db(path: Optional[str] = None) -> Database:
    """Open the database at @path (default: default_path())."""
    return Database(path or default_path())
