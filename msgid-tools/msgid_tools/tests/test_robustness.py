# SPDX-License-Identifier: GPL-2.0
"""msgid-db.py given garbage: one error line or a pass-through, never a
traceback, never a damaged database.

Every subcommand is fed random binary data, a 2 MB line, invalid UTF-8,
cut /dev/kmsg records, truncated and corrupted ELF files, malformed index
lines and bad catalogs, in-process (cli.main: any exception fails the
test) and, for a sample, as a real process (ScriptTest).
"""

import concurrent.futures
import hashlib
import io
import json
import lzma
import os
import random
import sqlite3
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib
from typing import Optional
from unittest import mock

from msgid_tools import database
from msgid_tools import cli
from msgid_tools.tests import elf_builder as eb

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "msgid-db")

INDEX = b"""\
# <level/flags> filename:line function "format"
<0> arch/x86/kernel/cpu/mce/core.c:176 __print_mce "mce: [Hardware Error]: CPU %d: Machine Check%s: %Lx Bank %d: %016Lx\\n"
<6> kernel/a.c:1 a "hello %d\\n"
"""
MCE = "%08x" % zlib.crc32(b"mce: [Hardware Error]: CPU %d: Machine Check%s: "
                          b"%Lx Bank %d: %016Lx")
HELLO = "%08x" % zlib.crc32(b"hello %d")
ENTRIES = [eb.Entry(b"\x016hello %d\n", b"a", b"kernel/a.c", 1),
           eb.Entry(b"\x013oops %s\n", b"b", b"kernel/b.c", 2)]

ERROR_PREFIX = "msgid-db.py: error: "


def run_main(argv: list[str], stdin: bytes = b"") -> tuple[int, bytes, str]:
    """Run cli.main() with byte-level standard streams.

    Exceptions other than SystemExit propagate: they fail the test.
    """
    out = io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8")
    stdin_w = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    err = io.StringIO()
    with mock.patch.object(sys, "stdout", stdout), \
            mock.patch.object(sys, "stdin", stdin_w), \
            mock.patch.object(sys, "stderr", err):
        try:
            status = cli.main(argv)
        except SystemExit as e:  # argparse
            status = e.code
        stdout.flush()
    data = out.getvalue()
    stdout.detach()
    return status, data, err.getvalue()


def section_headers(data: bytes) -> dict[str, tuple[int, int, int]]:
    """{name: (header offset, data offset, size)} of a 64-bit LE ELF."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", data, 0x3c)
    heads = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * 64)
             for i in range(shnum)]
    strtab = heads[shstrndx][4]
    out = {}
    for i, h in enumerate(heads):
        name = data[strtab + h[0]:data.index(b"\0", strtab + h[0])]
        out[name.decode()] = (shoff + i * 64, h[4], h[5])
    return out


def patched(data: bytes, offset: int, fmt: str, value: int) -> bytes:
    out = bytearray(data)
    struct.pack_into(fmt, out, offset, value)
    return bytes(out)


def bad_elves() -> dict[str, bytes]:
    """Truncated and corrupted ELF files, by name."""
    good = eb.build_exec(ENTRIES)
    secs = section_headers(good)
    hdr, off, size = secs[".printk_index"]
    shoff, = struct.unpack_from("<Q", good, 0x28)
    rng = random.Random(8)
    out = {
        "cut-ident": good[:10],
        "cut-header": good[:40],
        "cut-index-data": good[:off + size // 2],
        "cut-section-table": good[:shoff + 100],
        "cut-last-byte": good[:-1],
        "index-offset": patched(good, hdr + 24, "<Q", 1 << 40),
        "index-size": patched(good, hdr + 32, "<Q", 0xfffffffffffffff0),
        "shstrndx": patched(good, 0x3e, "<H", 999),
        "shnum": patched(good, 0x3c, "<H", 0xffff),
        "shoff": patched(good, 0x28, "<Q", 0xffffffffffff),
        "shentsize": patched(good, 0x3a, "<H", 3),
        "name-offset": patched(good, hdr, "<I", 0xffffff00),
        "index-pointers": good[:off] + rng.randbytes(size) + good[off + size:],
        "class": good[:4] + b"\x09" + good[5:],
    }
    rel = eb.build_rel(ENTRIES)
    rsecs = section_headers(rel)
    rhdr = rsecs[".rela.printk_index"][0]
    out["rel-symtab-link"] = patched(rel, rhdr + 40, "<I", 500)
    out["rel-entsize"] = patched(rel, rhdr + 56, "<Q", 1)
    out["rel-info"] = patched(rel, rhdr + 44, "<I", 0xffff)
    out["rel-machine"] = patched(rel, 18, "<H", 999)
    return out


def garbage() -> dict[str, bytes]:
    """Files that are nothing in particular, by name."""
    rng = random.Random(1)
    return {
        "empty": b"",
        "random": rng.randbytes(1 << 16),
        "long-line": b"x" * (2 << 20),
        "utf8": b"caf\xc3\x28 \xed\xa0\x80 \xff\xfe\n" * 100,
        "kmsg": b"6,123,4567,-;(" + HELLO.encode() + b"): hello 1\n"
                b" SUBSYSTEM=cpu\n DEVICE=c0\n6,124,4568,-;(1a2b",
        "nul": b"\0" * 5000,
        "not-elf": b"\x7fELF" + b"\0" * 60,
        "sqlite-header": b"SQLite format 3\0" + rng.randbytes(4096),
        "gzip-header": b"\x1f\x8b\x08\0\0\0\0\0\0\x03" + rng.randbytes(200),
    }


def assert_clean(test: unittest.TestCase, status: int, err: str,
                 allowed: tuple[int, ...], what: str) -> None:
    """Exit status in @allowed; an error is one 'msgid-db.py: error:' line
    (after warnings, if any)."""
    test.assertIn(status, allowed, "%s: %s" % (what, err))
    test.assertNotIn("Traceback", err, what)
    lines = err.splitlines()
    if status in (cli.EXIT_USAGE, cli.EXIT_DATABASE) and not err.startswith(
            "usage:"):
        test.assertTrue(lines and lines[-1].startswith(ERROR_PREFIX),
                        "%s: %r" % (what, err))
        test.assertTrue(all(line.startswith("msgid-db.py: warning: ")
                            for line in lines[:-1]), "%s: %r" % (what, err))


def count_lines(data: bytes) -> int:
    """Lines as a file object reads them (split after b"\\n" only)."""
    return data.count(b"\n") + (not data.endswith(b"\n") and data != b"")


def digest(path: str) -> Optional[str]:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except FileNotFoundError:
        return None


def integrity(path: str) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


class Fixture(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dbdir = os.path.join(self.tmp.name, "db")
        os.mkdir(self.dbdir)
        self.db = os.path.join(self.dbdir, "msgid.db")
        self.index = self.mkdir("index", {"vmlinux": INDEX})
        status, _, err = run_main(["--db", self.db, "build", "--index-dir",
                                   self.index])
        self.assertEqual(status, 0, err)

    def mkdir(self, name: str, files: dict) -> str:
        path = os.path.join(self.tmp.name, name)
        os.makedirs(path, exist_ok=True)
        for fname, data in files.items():
            with open(os.path.join(path, os.fsdecode(fname)), "wb") as f:
                f.write(data)
        return path

    def mkfile(self, name: str, data: bytes) -> str:
        path = os.path.join(self.tmp.name, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def check_db_after(self, status: int, before: Optional[str],
                       what: str) -> None:
        """Success: a sound new database; failure: the old one, as it was.
        Never a temporary file left behind."""
        self.assertEqual(os.listdir(self.dbdir), ["msgid.db"], what)
        if status == 0:
            self.assertEqual(integrity(self.db), "ok", what)
            database.Database(self.db).meta()
        else:
            self.assertEqual(digest(self.db), before, what)


class BuildGarbageTest(Fixture):
    def build(self, what: str, *argv: str,
              allowed: tuple[int, ...] = (0, 2)) -> tuple[int, str]:
        before = digest(self.db)
        status, out, err = run_main(["--db", self.db, "build"] + list(argv))
        assert_clean(self, status, err, allowed, what)
        self.assertEqual(out, b"", what)
        self.check_db_after(status, before, what)
        return status, err

    def test_vmlinux(self) -> None:
        inputs = dict(garbage(), **bad_elves())
        for name, data in inputs.items():
            path = self.mkfile("vmlinux-" + name, data)
            status, err = self.build(name, "--vmlinux", path)
            if name not in ("index-pointers", "rel-info"):  # no entries
                self.assertEqual(status, 2, name)
                self.assertIn(path + ": ", err, name)
        for path, pattern in ((self.tmp.name, "Is a directory"),
                              (os.path.join(self.tmp.name, "none"),
                               "No such file")):
            _, err = self.build(path, "--vmlinux", path, allowed=(2,))
            self.assertIn(pattern, err)

    def test_modules(self) -> None:
        inputs = dict(garbage(), **bad_elves())
        for name, data in inputs.items():
            mods = self.mkdir("mods-" + name, {
                "a_good.ko": eb.build_rel(ENTRIES), "b.ko": data,
                "c.ko.xz": data, "d.ko.gz": data})
            self.build(name, "--modules", mods)
        os.makedirs(os.path.join(self.tmp.name, "mods-dir", "x.ko"))
        # (no module found: nothing written, the old database kept)
        _, err = self.build("directory named .ko", "--modules",
                            os.path.join(self.tmp.name, "mods-dir"),
                            allowed=(2,))
        self.assertIn("found no call sites", err)

    def test_index_dir(self) -> None:
        """Garbage index files: skipped lines, with one warning a file."""
        for name, data in garbage().items():
            index = self.mkdir("index-" + name, {"vmlinux": data})
            # (an index without one good line is refused, the old
            # database kept: check_db_after)
            status, err = self.build(name, "--index-dir", index,
                                     allowed=(0, 2))
            if status:
                self.assertIn("is left as it was", err)
        for path in (os.path.join(self.tmp.name, "none"), self.db):
            self.build(path, "--index-dir", path, allowed=(2,))

    def test_malformed_index_lines(self) -> None:
        lines = [
            b"<6>", b"<6> a.c", b"<6> a.c:1", b"<6> a.c:1 f",
            b'<6> a.c:99999999999999999999999 f "too big"',
            b'<6> a.c:1 f "x" msgid=zzzzzzzz', b'<6> a.c:1 f "x" msgid=123',
            b'<6> a.c:1 f "x" msgid=DEADBEEF', b'<6> a.c:1 f "\\777\\x"',
            b'<6> \xff\xfe:1 \xc3\x28 "\xed\xa0\x80"',
            b'<6> a.c:1 f "' + b"a" * 100000 + b'"',
            b'<99> a.c:1 f "x"', b"\0" * 100, b"<6> a.c:1 f \"\\",
        ]
        index = self.mkdir("index-lines", {
            "vmlinux": INDEX + b"\n".join(lines) + b"\n",
            "\udcffmod".encode("utf-8", "surrogateescape"): INDEX})
        status, err = self.build("lines", "--index-dir", index,
                                 allowed=(0,))
        self.assertIn("vmlinux:4: 13 malformed index line(s) skipped", err)
        db = database.Database(self.db)
        self.assertEqual(sorted(s.module for s in db.lookup(HELLO)),
                         ["\\xffmod", "vmlinux"])
        self.assertEqual(len(db.all_sites()), 5)

    def test_source_dir(self) -> None:
        files = {"%s.c" % k: v for k, v in garbage().items()}
        files["dev_printk.c"] = (b"void f(void)\n{\n"
                                 b"\tdev_printk(KERN_INFO, d);\n}")
        files["include.c"] = b'#include "a\0b"\n#include "include.c"\n' * 50
        files["\udcff.c".encode("utf-8", "surrogateescape")] = \
            b'void f(void)\n{\n\tpr_info("hello %d\\n", 1);\n}\n'
        src = self.mkdir("src", files)
        os.mkdir(os.path.join(src, "dir.c"))
        self.build("source", "--source", src, allowed=(0,))
        sites = database.Database(self.db).lookup(HELLO)
        self.assertEqual([s.file for s in sites], ["\\xff.c"])

    def test_output_not_a_regular_file(self) -> None:
        for target in (self.tmp.name, "/dev/null"):
            status, _, err = run_main(["build", "--index-dir", self.index,
                                       "-o", target])
            assert_clean(self, status, err, (3,), target)
            self.assertIn("not a regular file", err)
        self.assertTrue(os.path.isdir(self.tmp.name))
        self.assertFalse(os.path.isfile("/dev/null"))


class DatabaseGarbageTest(Fixture):
    COMMANDS = (["lookup", MCE], ["lookup", "--json", MCE],
                ["list", "--class", "hardware"], ["collisions"], ["stats"],
                ["annotate", "/dev/null"],
                ["lookup", "--text", "mce: [Hardware Error]: CPU 1: Machine "
                 "Check: 0 Bank 4: be00000000800400"], ["explain", MCE])

    def test_garbage_databases(self) -> None:
        files = dict(garbage())
        files["foreign-sqlite"] = b""
        for name, data in files.items():
            path = self.mkfile("db-" + name, data)
            if name == "foreign-sqlite":
                conn = sqlite3.connect(path)
                conn.execute("CREATE TABLE sites (id TEXT, x BLOB)")
                conn.execute("CREATE TABLE meta (key INTEGER)")
                conn.commit()
                conn.close()
            for argv in self.COMMANDS:
                status, _, err = run_main(["--db", path] + argv)
                assert_clean(self, status, err, (3,), "%s %s" % (name, argv))
        for path in (self.tmp.name, os.path.join(self.tmp.name, "none")):
            for argv in self.COMMANDS[:-1]:
                status, _, err = run_main(["--db", path] + argv)
                assert_clean(self, status, err, (3,), path)

    def test_damaged_database_fuzz(self) -> None:
        """Truncated or bit-flipped databases: exit 3 or an answer."""
        sites = "".join('<6> f%d.c:%d fn "message number %d %s\\n"\n'
                        % (i, i, i, "x" * (i % 50)) for i in range(400))
        index = self.mkdir("big-index", {"vmlinux": INDEX + sites.encode()})
        run_main(["--db", self.db, "build", "--index-dir", index])
        with open(self.db, "rb") as f:
            good = f.read()
        rng = random.Random(3)
        path = os.path.join(self.tmp.name, "damaged.db")
        for i in range(120):
            data = bytearray(good)
            if i % 3 == 0:
                data = data[:rng.randrange(len(data))]
            else:
                for _ in range(rng.randrange(1, 30)):
                    data[rng.randrange(100, len(data))] = rng.randrange(256)
            with open(path, "wb") as f:
                f.write(data)
            argv = self.COMMANDS[i % len(self.COMMANDS)]
            status, _, err = run_main(["--db", path] + argv)
            assert_clean(self, status, err, (0, 1, 3), "%d %s" % (i, argv))

    def test_wrong_types_in_database(self) -> None:
        """A database whose columns hold other types is still printed."""
        conn = sqlite3.connect(self.db)
        conn.executescript(
            "ALTER TABLE sites RENAME TO old; CREATE TABLE sites (id, "
            "canonical, format, file, line, function, level, module, class, "
            "origin); INSERT INTO sites SELECT * FROM old; DROP TABLE old;"
            "UPDATE sites SET line = x'ff00', format = 12, file = NULL, "
            "canonical = 1.5, module = x'6d6f64', origin = NULL;"
            "INSERT INTO meta VALUES (NULL, x'41');")
        conn.close()
        for argv in self.COMMANDS:
            status, _, err = run_main(["--db", self.db] + argv)
            assert_clean(self, status, err, (0, 1, 3), str(argv))
        status, out, _ = run_main(["--db", self.db, "lookup", MCE])
        self.assertEqual(status, 0)
        self.assertIn(b':0 __print_mce <0> "12"', out)

    def test_wrong_types_in_match_index(self) -> None:
        """The word index (table match) holding other types, or formats
        that are not formats: the text matcher answers or finds nothing.
        (The columns of a database built before the column rust, which
        says which formats are Rust literals; a garbage one of those,
        test_wrong_types_in_rust_column.)"""
        conn = sqlite3.connect(self.db)
        conn.executescript(
            "ALTER TABLE match RENAME TO old; CREATE TABLE match (word, id, "
            "canonical, cont, rest, starts); INSERT INTO match SELECT word, "
            "id, canonical, cont, rest, starts FROM old; DROP TABLE old; "
            "UPDATE match SET cont = 'x', rest = 7, starts = x'ff';"
            "INSERT INTO match VALUES (x'68656c6c6f', NULL, 1.5, NULL, NULL, "
            "NULL);"
            "INSERT INTO match VALUES (x'68656c6c6f', 'abc', x'ff25', 2, "
            "x'00ff', 'p');"
            "INSERT INTO match VALUES (x'68656c6c6f', 'abd', "
            "'hello %*.*%%%999999999999d%pV%p', 1, 'hello', 'd');")
        conn.close()
        log = self.mkfile("log", b"hello 5\n\xff hello \xfe\n"
                          + b"hello " * 300 + b"\n")
        for argv in (["lookup", "--text", "hello 5"], ["annotate", log],
                     ["annotate", "--json", log]):
            status, _, err = run_main(["--db", self.db] + argv)
            assert_clean(self, status, err, (0, 1), str(argv))


    def test_wrong_types_in_rust_column(self) -> None:
        """The column rust of the word index holding other types."""
        conn = sqlite3.connect(self.db)
        conn.executescript(
            "ALTER TABLE match RENAME TO old; CREATE TABLE match (word, id, "
            "canonical, cont, rest, starts, rust); INSERT INTO match SELECT "
            "* FROM old; DROP TABLE old; UPDATE match SET rust = x'ff';"
            "INSERT INTO match VALUES (x'68656c6c6f', 'abc', "
            "'hello {:#x} {:>999999999999x} {:.*} {{', 0, '', 'p', 1);"
            "INSERT INTO match VALUES (x'68656c6c6f', 'abd', "
            "'hello {:\xff} {', 0, '', 'p', 2.5);")
        conn.close()
        log = self.mkfile("log", b"hello 0x5\n\xff hello \xfe\n"
                          + b"hello " * 300 + b"\n")
        for argv in (["lookup", "--text", "hello 0x5"], ["annotate", log],
                     ["annotate", "--json", log]):
            status, _, err = run_main(["--db", self.db] + argv)
            assert_clean(self, status, err, (0, 1), str(argv))


class LogGarbageTest(Fixture):
    def test_pass_through(self) -> None:
        """Lines without a known ID come out unchanged, byte for byte."""
        for name, data in garbage().items():
            if name in ("kmsg", "gzip-header"):
                # (a file that starts as gzip is read as one:
                # test_inputs.CompressedTest)
                continue
            path = self.mkfile("log-" + name, data)
            for argv, stdin in ((["annotate", path], b""),
                                (["annotate"], data)):
                status, out, err = run_main(["--db", self.db] + argv, stdin)
                assert_clean(self, status, err, (0,), name)
                self.assertEqual(out, data, name)
            status, out, err = run_main(["--db", self.db, "annotate",
                                         "--json", path])
            assert_clean(self, status, err, (0,), name)
            objs = [json.loads(x) for x in out.splitlines()]
            self.assertEqual(len(objs), count_lines(data), name)

    def test_cut_kmsg_records(self) -> None:
        hello = HELLO.encode()
        cases = [
            b"6,123,4567,-;(" + hello,                    # cut in the ID
            b"6,123,45",                                   # cut in header
            b"6,123,4567,-;(" + hello + b"): hello 1",     # no newline
            b"6,123,4567,-;(" + hello + b"): hello 1\n SUBSYSTEM=cp",
            b" SUBSYSTEM=cpu\n DEVICE=c0\n",               # orphan dict
            b"6,123,4567,-;(" + hello + b"): \xff\xfe\n KEY=\xc3\x28\n",
        ]
        for data in cases:
            status, out, err = run_main(["--db", self.db, "annotate"], data)
            assert_clean(self, status, err, (0,), repr(data))
            annotation = b"  -> kernel/a.c:1 a <6>\n"
            if b"): " in data:
                # The input, then the annotation on a line of its own.
                self.assertEqual(out, data + (b"" if data.endswith(b"\n")
                                              else b"\n") + annotation)
            else:
                self.assertEqual(out, data)

    def test_unreadable_inputs(self) -> None:
        for path in (self.tmp.name, os.path.join(self.tmp.name, "none")):
            status, _, err = run_main(["--db", self.db, "annotate", path])
            assert_clean(self, status, err, (2,), path)

    def test_kmsg_overrun(self) -> None:
        """EPIPE from /dev/kmsg (records overwritten) is not an error."""
        class Kmsg:
            items = [b"6,1,0,-;(%s): hello 1\n" % HELLO.encode(), None,
                     b"6,9,0,-;after\n"]

            def __enter__(self) -> "Kmsg":
                return self

            def __exit__(self, *exc: object) -> None:
                pass

            def __iter__(self) -> "Kmsg":
                return self

            def __next__(self) -> bytes:
                if not self.items:
                    raise StopIteration
                item = self.items.pop(0)
                if item is None:
                    raise BrokenPipeError(32, "Broken pipe")
                return item

        with mock.patch("msgid_tools.cli.open", lambda *a: Kmsg(), create=True):
            status, out, err = run_main(["--db", self.db, "annotate",
                                         "/dev/kmsg"])
        self.assertEqual((status, err), (0, ""))
        self.assertTrue(out.endswith(b"6,9,0,-;after\n"), out)
        self.assertIn(b"  -> kernel/a.c:1 a <6>\n", out)


class CatalogGarbageTest(Fixture):
    CATALOGS = {
        "binary": random.Random(2).randbytes(4096),
        "latin-1": ("-- %s\nSubject: caf\xe9\n" % MCE).encode("latin-1"),
        "utf-16": ("-- %s\nSubject: a\n" % MCE).encode("utf-16"),
        "no-separator": b"Subject: x\n\ntext\n",
        "bad-separator": b"-- 1a2b3c4\nSubject: x\n",
        "no-subject": ("-- %s\nClass: hardware\n\ntext\n" % MCE).encode(),
        "bad-header": ("-- %s\nSubject: x\nno colon\n" % MCE).encode(),
        "unknown-header": ("-- %s\nSubjekt: x\n" % MCE).encode(),
        "bad-class": ("-- %s\nSubject: x\nClass: weird\n" % MCE).encode(),
        "duplicate": ("-- %s\nSubject: a\n\n-- %s\nSubject: b\n"
                      % (MCE, MCE)).encode(),
        "nul": b"\0" * 100,
        "long-line": b"-- " + b"1" * (2 << 20),
    }

    def test_bad_catalogs(self) -> None:
        for name, data in self.CATALOGS.items():
            cat = self.mkdir("cat-" + name, {"kernel.catalog": data})
            for argv in (["explain", MCE], ["annotate", "/dev/null"]):
                status, out, err = run_main(
                    ["--db", self.db] + argv + ["--catalog", cat])
                assert_clean(self, status, err, (2,), name)
                self.assertIn(os.path.join(cat, "kernel.catalog") + ":", err,
                              name)
                self.assertLess(len(err), 300, name)

    def test_duplicate_across_files(self) -> None:
        entry = ("-- %s\nSubject: a\n" % MCE).encode()
        cat = self.mkdir("cat-dup", {"a.catalog": entry, "b.catalog": entry,
                                     "b.de.catalog": entry})
        status, _, err = run_main(["explain", MCE, "--catalog", cat])
        assert_clean(self, status, err, (2,), "dup")
        self.assertRegex(err, r"b\.catalog:1: duplicate entry %s \(first at "
                         r".*a\.catalog:1\)" % MCE)

    def test_accepted_variants(self) -> None:
        """A UTF-8 BOM and CRLF line ends are fine; a translation may
        repeat an English ID."""
        cat = self.mkdir("cat-ok", {
            "a.catalog": b"\xef\xbb\xbf-- " + MCE.encode()
            + b"\r\nSubject: a\r\n\r\nbody\r\n",
            "a.de.catalog": ("-- %s\nSubject: \u00e4\n" % MCE).encode()})
        status, out, err = run_main(["explain", MCE, "--catalog", cat,
                                     "--lang", "en"])
        self.assertEqual((status, err), (0, ""))
        self.assertIn(b"Subject: a\n\nbody\n", out)

    def test_not_a_file(self) -> None:
        cat = self.mkdir("cat-dir", {})
        os.mkdir(os.path.join(cat, "x.catalog"))
        status, _, err = run_main(["explain", MCE, "--catalog", cat])
        assert_clean(self, status, err, (2,), "dir")
        self.assertTrue(err.endswith("x.catalog: Is a directory\n"), err)


class UnreadableTest(Fixture):
    @unittest.skipIf(os.geteuid() == 0, "root reads files of mode 000")
    def test_mode_000(self) -> None:
        vmlinux = self.mkfile("vmlinux", eb.build_exec(ENTRIES))
        log = self.mkfile("log", b"x\n")
        cat = self.mkdir("cat", {"k.catalog": b"-- 1a2b3c4d\nSubject: x\n"})
        index = self.mkdir("index-000", {"vmlinux": INDEX})
        for path in (vmlinux, log, os.path.join(cat, "k.catalog"),
                     os.path.join(index, "vmlinux"), self.db):
            os.chmod(path, 0)
        for argv, allowed in (
                (["build", "--vmlinux", vmlinux, "-o", self.db + "2"], 2),
                (["build", "--index-dir", index, "-o", self.db + "2"], 2),
                (["annotate", log], 3),      # the database comes first
                (["explain", MCE, "--catalog", cat], 2),
                (["lookup", MCE], 3)):
            status, _, err = run_main(["--db", self.db] + argv)
            assert_clean(self, status, err, (allowed,), str(argv))


class FuzzTest(Fixture):
    """Seeded random mutations of every kind of input, in-process."""

    def test_fuzz(self) -> None:
        rng = random.Random(20261203)
        seeds = {
            "vmlinux": eb.build_exec(ENTRIES),
            "module": eb.build_rel(ENTRIES),
            # What a distribution ships: no index, a bzImage, compressed
            # modules; the strings fallback reads them.
            "bzimage": eb.build_bzimage(lzma.compress(eb.build_exec_calls(
                [(b"hello %d\n", 1, "_dev_err")]), check=lzma.CHECK_CRC32)),
            "stripped": eb.build_exec_calls(
                [(b"hello %d\n", 1, "_dev_err"), (b"\x016x\n", 0, "_printk")]),
            "module-calls": eb.build_module_calls(
                [b"\x013a %s\n"], [(b"b %d\n", 1, "_dev_err")]),
            "module-dyndbg": eb.build_module_dyndbg(
                [(b"c %d\n", b"f", b"x.c", 3), (b"d\n", b"g", b"y.c", 4)]),
            "index": INDEX,
            "log": b"[    1.0] (%s): hello 1\n6,1,2,-;(%s): mce\n SUB=x\n"
                   % (HELLO.encode(), MCE.encode()),
            "catalog": ("-- %s\nSubject: a\nClass: hardware\n\nbody\n"
                        % MCE).encode(),
            "source": b'#define pr_fmt(fmt) "x: " fmt\nvoid f(int a)\n{\n'
                      b'\tpr_err("hello %d\\n", a);\n\tdev_err(d, "y");\n}\n',
        }
        for i in range(270):
            kind = sorted(seeds)[i % len(seeds)]
            data = bytearray(seeds[kind])
            for _ in range(rng.randrange(1, 6)):
                op = rng.randrange(3)
                pos = rng.randrange(len(data) + 1)
                if op == 0 and data:
                    data[min(pos, len(data) - 1)] = rng.randrange(256)
                elif op == 1:
                    del data[pos:pos + rng.randrange(1, 64)]
                else:
                    data[pos:pos] = rng.randbytes(rng.randrange(1, 16))
            data = bytes(data)
            before = digest(self.db)
            if kind in ("vmlinux", "bzimage", "stripped"):
                argv = ["build", "--kernel", self.mkfile("f", data)]
            elif kind == "module":
                argv = ["build", "--modules",
                        self.mkdir("fm%d" % i, {"m.ko": data})]
            elif kind in ("module-calls", "module-dyndbg"):
                argv = ["build", "--modules",
                        self.mkdir("fm%d" % i, {"m.ko.xz": lzma.compress(
                            data, check=lzma.CHECK_CRC32)})]
            elif kind == "index":
                argv = ["build", "--index-dir",
                        self.mkdir("fi%d" % i, {"vmlinux": data})]
            elif kind == "source":
                argv = ["build", "--source",
                        self.mkdir("fs%d" % i, {"s.c": data})]
            elif kind == "catalog":
                argv = ["explain", MCE, "--catalog",
                        self.mkdir("fc%d" % i, {"k.catalog": data})]
            else:
                argv = ["annotate"]
            status, out, err = run_main(["--db", self.db] + argv, data)
            what = "%d %s %r" % (i, kind, data[:80])
            assert_clean(self, status, err, (0, 1, 2), what)
            if argv[0] == "build":
                self.check_db_after(status, before, what)
            if kind == "log":
                self.assertTrue(out.startswith(data.split(b"\n")[0]), what)


class SqlParametersTest(Fixture):
    """Values reach SQL only as parameters: hostile text round-trips."""

    HOSTILE = ["'); DROP TABLE sites; --", '" OR 1=1 --', "%s %d ?1 :x",
               "x'); DELETE FROM meta; SELECT ('"]

    def test_round_trip(self) -> None:
        lines = [b"# header"]
        for i, text in enumerate(self.HOSTILE):
            lines.append(b'<6> %s.c:%d f%d "%s\\n"'
                         % (text.replace('"', "").encode(), i + 1, i,
                            text.replace('"', '\\"').encode()))
        index = self.mkdir("index'); DROP TABLE meta; --",
                           {"vmlinux'--": b"\n".join(lines) + b"\n"})
        status, _, err = run_main(["--db", self.db, "build", "--index-dir",
                                   index])
        self.assertEqual(status, 0, err)
        db = database.Database(self.db)
        for text in self.HOSTILE:
            (site,) = db.lookup("%08x" % zlib.crc32(text.encode()))
            self.assertEqual((site.canonical, site.module),
                             (text, "vmlinux'--"))
        self.assertEqual(db.meta()["sources"], "index:" + index)
        self.assertEqual(len(db.all_sites()), len(self.HOSTILE))
        self.assertEqual(integrity(self.db), "ok")


def run_script(*argv: str, stdin: bytes = b"",
               env: Optional[dict[str, str]] = None,
               stdout: Optional[int] = subprocess.PIPE,
               redirect: str = "") -> tuple[int, bytes, str]:
    """Run the real script (with a shell @redirect such as "<&-");
    returns (status, stdout, stderr)."""
    cmd = [sys.executable, SCRIPT] + list(argv)
    if redirect:
        cmd = ["sh", "-c", 'exec "$0" "$@" ' + redirect] + cmd
    proc = subprocess.run(cmd, input=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, timeout=120,
                          env=dict(os.environ, **(env or {})))
    return (proc.returncode, proc.stdout or b"",
            proc.stderr.decode("utf-8", "backslashreplace"))


class ScriptTest(Fixture):
    """The real script: what a user sees, tracebacks included."""

    def test_as_a_user(self) -> None:
        elves = bad_elves()
        junk = self.mkfile("junk", random.Random(4).randbytes(1 << 16))
        trunc = self.mkfile("trunc", elves["cut-section-table"])
        latin = self.mkdir("cat", {"k.catalog": CatalogGarbageTest.CATALOGS[
            "latin-1"]})
        bad_index = self.mkdir("bad-index", {
            "vmlinux": INDEX + b'<6> a.c:99999999999999999999 f "x"\n'
                       b"\xff\xfe\n" + b"y" * (2 << 20) + b"\n",
            b"\xffmod": INDEX})
        log = (b"[    1.0] (" + HELLO.encode() + b"): hello 1\n"
               + b"z" * (2 << 20) + b"\n" + random.Random(5).randbytes(4096)
               + b"\ninvalid \xc3\x28\n6,1,2,-;(" + HELLO.encode()
               + b"): x\n SUBSYSTEM=cpu\n DEVICE=c0\n6,2,3,-;(1a2b")
        read_end, closed_pipe = os.pipe()
        os.close(read_end)
        db = ["--db", self.db]
        cases = [
            # (argv, kwargs, allowed status, stderr must contain)
            (["build", "--vmlinux", junk], {}, 2, "not an ELF file"),
            (["build", "--vmlinux", trunc], {}, 2, "truncated ELF"),
            (["build", "--index-dir", bad_index, "-o",
              os.path.join(self.tmp.name, "x.db")], {}, 0,
             "malformed index line"),
            (["build", "--index-dir", self.index, "-o", self.tmp.name], {},
             3, "not a regular file"),
            (["--db", junk, "lookup", MCE], {}, 3, "not a msgid database"),
            (["--db", junk, "annotate"], {}, 3, "not a msgid database"),
            (db + ["explain", MCE, "--catalog", latin], {}, 2, "not UTF-8"),
            (db + ["annotate"], {"stdin": log}, 0, ""),
            (db + ["annotate", "--json"], {"stdin": log}, 0, ""),
            (db + ["annotate"], {"redirect": "<&-"}, 2,
             "standard input is closed"),
            (db + ["lookup", MCE], {"redirect": ">&-"}, 0, ""),
            (db + ["lookup", MCE], {"stdout": closed_pipe}, 0, ""),
            (db + ["explain", MCE, "--lang", "de"],
             {"env": {"PYTHONIOENCODING": "ascii"}}, 0, ""),
        ]
        if os.path.exists("/dev/full"):
            cases.append((db + ["lookup", MCE], {"redirect": ">/dev/full"},
                          2, "No space left on device"))
        try:
            with concurrent.futures.ThreadPoolExecutor(4) as pool:
                results = list(pool.map(lambda c: run_script(*c[0], **c[1]),
                                        cases))
        finally:
            os.close(closed_pipe)
        for (argv, kwargs, allowed, pattern), (status, out, err) in zip(
                cases, results):
            what = "%s %s" % (argv, list(kwargs))
            assert_clean(self, status, err, (allowed,), what)
            self.assertIn(pattern, err, what)
            if argv[-1] == "annotate" and "stdin" in kwargs:
                self.assertEqual(out.replace(b"  -> kernel/a.c:1 a <6>\n",
                                             b""), log, what)
                self.assertEqual(out.count(b"  -> kernel/a.c:1 a <6>\n"), 2)
                self.assertIn(b" DEVICE=c0\n  -> kernel/a.c:1 a <6>\n", out)
            elif argv[-1] == "--json":
                self.assertEqual(len(out.splitlines()), count_lines(log))
                for line in out.splitlines():
                    json.loads(line)
            elif "env" in kwargs:
                self.assertIn(b"Die CPU hat \\xfcber", out)
        self.assertEqual(os.listdir(self.dbdir), ["msgid.db"])


if __name__ == "__main__":
    unittest.main()
