# SPDX-License-Identifier: GPL-2.0
"""Integration tests against the harness kernel, when it has been built.

out/build/msgid/vmlinux (and its modules) and out/boot/boot.log (a serial
log booted with printk.msgid=1) are produced by the harness; the tests
skip when they are absent.
"""

import ast
import glob
import json
import os
import re
import tempfile
import unittest
import zlib

from msgid_tools import database, elf
from msgid_tools import cli
from msgid_tools import figures, match, queries

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
BUILD = os.path.join(ROOT, "out", "build", "msgid")
VMLINUX = os.path.join(BUILD, "vmlinux")
BOOT_LOG = os.path.join(ROOT, "out", "boot", "boot.log")

# (file, function, canonical format) present in every CONFIG_PRINTK_INDEX
# build of 6.12.
KNOWN = [
    ("init/main.c", "print_kernel_cmdline", b"%s%s"),
    ("init/main.c", "run_init_process", b"Run %s as init process"),
    ("kernel/printk/printk.c", "print_log_buf_usage_stats",
     b"printk: log buffer data + meta data: %u + %zu = %zu bytes"),
]


def build_db(path: str) -> None:
    argv = ["--db", path, "build", "--vmlinux", VMLINUX]
    if os.path.isdir(BUILD):
        argv += ["--modules", BUILD]
    status = cli.main(argv)
    if status:
        raise AssertionError("build failed with status %d" % status)


@unittest.skipUnless(os.path.isfile(VMLINUX),
                     "no harness kernel at out/build/msgid/vmlinux "
                     "(build it with the harness first)")
class VmlinuxTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.db_path = os.path.join(cls.tmp.name, "msgid.db")
        build_db(cls.db_path)
        cls.db = database.Database(cls.db_path)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.db.close()
        cls.tmp.cleanup()

    def test_known_call_sites(self) -> None:
        for file, func, fmt in KNOWN:
            sites = self.db.lookup("%08x" % zlib.crc32(fmt))
            self.assertIn((file, func), [(s.file, s.function) for s in sites],
                          fmt)

    def test_file_names_do_not_depend_on_the_build_path(self) -> None:
        # The harness builds out of tree, in a directory beside the
        # sources, and any clone of the repo can build: a call site's
        # file must be named as in the kernel tree ("init/main.c"), never
        # with the path of the source or build directory in it
        # ("../init/main.c", "/home/.../out/linux/init/main.c").
        # The harness's out-of-tree modules (harness/modules/NAME/, built
        # with M=) name their files relative to their own directory.
        tree = os.path.join(ROOT, "out", "linux")
        oot = glob.glob(os.path.join(ROOT, "harness", "modules", "*"))
        bad = []
        for site in self.db.all_sites():
            f = site.file
            if (f.startswith(("/", "./", "../")) or "/../" in f
                    or not (os.path.isfile(os.path.join(tree, f))
                            or os.path.isfile(os.path.join(BUILD, f))
                            or any(os.path.isfile(os.path.join(d, f))
                                   for d in oot))):
                bad.append("%s:%s %s" % (f, site.line, site.function))
        self.assertEqual(bad[:10], [], "%d of %d call sites name a file "
                         "that is not a path in the kernel tree"
                         % (len(bad), len(self.db.all_sites())))

    def test_catalog_ids_are_the_kernels(self) -> None:
        # The kernel's own printk index is the reference for the
        # catalog. For each entry, the source scanner finds the call
        # sites of X-Format in X-Source (in out/linux, the tree this
        # kernel was built from); where the index has a call site on the
        # same line, the index's format must give the entry's ID. This
        # catches a wrong pr_fmt() or KBUILD_MODNAME guess; call sites
        # compiled out of this kernel, or reached only through wrappers
        # such as warn_alloc(), are not in the index and are skipped.
        from msgid_tools import catalog, source
        tree = os.path.join(ROOT, "out", "linux")
        if not os.path.isdir(tree):
            self.skipTest("no out/linux")
        index: dict[tuple[str, int], set[str]] = {}
        for site in self.db.all_sites():
            index.setdefault((site.file, site.line), set()).add(site.id)
        files = {f for f, _ in index}
        scanned: dict[str, list] = {}
        checked, wrong = 0, []
        for e in catalog.load_dir(catalog.DEFAULT_DIR):
            src = e.header("X-Source")
            if e.lang or src not in files:
                continue
            if src not in scanned:
                scanned[src] = source.scan_file(os.path.join(tree, src), src)
            fmt = ast.literal_eval("b" + e.header("X-Format")).decode()
            for site in scanned[src]:
                if site.canonical != fmt or (src, site.line) not in index:
                    continue
                checked += 1
                if e.id not in index[(src, site.line)]:
                    wrong.append("%s %s:%d index %s" % (
                        e.id, src, site.line,
                        sorted(index[(src, site.line)])))
        self.assertEqual(wrong, [], "%d of %d call sites" % (len(wrong),
                                                            checked))
        self.assertGreater(checked, 20)

    def test_index_size(self) -> None:
        image = elf.ElfFile.from_path(VMLINUX)
        self.assertGreater(len(image.printk_index()), 500)
        self.assertTrue(image.kernel_release())


@unittest.skipUnless(os.path.isfile(VMLINUX) and os.path.isfile(BOOT_LOG),
                     "needs out/build/msgid/vmlinux and out/boot/boot.log "
                     "(boot the harness kernel with printk.msgid=1)")
class BootLogTest(unittest.TestCase):
    def test_every_id_resolves(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "msgid.db")
            build_db(path)
            known = set(queries.id_map(database.Database(path)))
        rx = re.compile(rb"^\[[ \d.]+\] (?:\[[^\]]*\] )?\(([0-9a-f]{8})\): "
                        rb"(.*)")
        missing, seen = [], 0
        with open(BOOT_LOG, "rb") as f:
            for line in f:
                m = rx.match(line)
                if m:
                    seen += 1
                    if m.group(1).decode() not in known:
                        missing.append(line.rstrip().decode("utf-8",
                                                            "replace"))
        self.assertGreater(seen, 0, "no (id): lines in %s" % BOOT_LOG)
        self.assertEqual(missing, [], "%d of %d IDs unresolved"
                         % (len(missing), seen))


TREE = os.path.join(ROOT, "out", "linux")
#: The database of several releases that make db-releases writes.
RELEASES_DB = os.environ.get("MSGID_CORPUS_DB") or os.path.join(
    ROOT, "out", "releases", "msgid.db")

#: The databases the tests below share: built once per run, removed with
#: the process (kind -> path).
_SHARED: dict[str, str] = {}
_SHARED_DIR: list[tempfile.TemporaryDirectory] = []


def shared_db(kind: str) -> str:
    """The database of the harness kernel's printk index ("index": its
    vmlinux and modules) or of the C sources of its tree ("source":
    out/linux, the base and the series), built on first use."""
    path = _SHARED.get(kind)
    if path is None:
        if not _SHARED_DIR:
            _SHARED_DIR.append(tempfile.TemporaryDirectory())
        path = os.path.join(_SHARED_DIR[0].name, kind + ".db")
        argv = ["--vmlinux", VMLINUX] if kind == "index" else \
            ["--source", TREE]
        if kind == "index" and os.path.isdir(BUILD):
            argv += ["--modules", BUILD]
        status = cli.main(["--db", path, "build"] + argv)
        if status:
            raise AssertionError("build %s failed with status %d"
                                 % (" ".join(argv), status))
        _SHARED[kind] = path
    return path


def boot_records() -> list[tuple[float, int, int, str, bytes]]:
    """The records of the boot log that carry an ID, as
    logforms.write_forms() takes them: (seconds since boot, facility 0,
    level 6 (a serial console does not show it), the printed ID, the text
    without it)."""
    from msgid_tools.logreader import LogReader
    reader = LogReader()
    records = []
    with open(BOOT_LOG, "rb") as f:
        for line in f:
            line = line.rstrip(b"\r\n")
            rec = reader.parse(line)
            m = re.match(rb"\[ *(\d+\.\d+)\] ", line)
            if rec.msgid is None or not rec.is_record or not m:
                continue
            records.append((float(m.group(1)), 0, 6, rec.msgid, rec.text))
    return records


@unittest.skipUnless(os.path.isfile(VMLINUX) and os.path.isfile(BOOT_LOG),
                     "needs out/build/msgid/vmlinux and out/boot/boot.log "
                     "(boot the harness kernel with printk.msgid=1)")
class MatchFiguresTest(unittest.TestCase):
    """The boot log's records with their IDs removed, identified by their
    text alone: the ID the kernel printed is the truth (issue goals)."""

    def figures(self, kind: str) -> tuple["figures.Figures", set[str]]:
        """The figures against the database of @kind (shared_db()), and
        the IDs of the log's records whose formats hold no literal word."""
        path = shared_db(kind)
        fig = figures.match_figures(path, BOOT_LOG)
        db = database.Database(path)
        printed = {x[0] for x in fig.unmatched + fig.ambiguous}
        wordless = {i for i in printed if all(
            not match.literal_words(f[1])
            for f in match.formats_of(db, i))}
        db.close()
        self.assertGreater(fig.records, 100, "too few records with an ID")
        return fig, wordless

    def test_against_the_index(self) -> None:
        fig, wordless = self.figures("index")
        report = "\n".join([fig.summary("index")] + fig.details())
        self.assertEqual(fig.wrong, [], report)
        # Every record not identified was printed by a format without a
        # literal word ("%s", "%s %pR", the KERN_CONT start "  %-8s "),
        # which by rule never identifies a line...
        self.assertEqual([x for x in fig.unmatched + fig.ambiguous
                          if x[0] not in wordless], [], report)
        # ... and of the others, at least INDEX_RIGHT percent are right.
        with_words = fig.records - sum(
            1 for x in fig.unmatched + fig.ambiguous if x[0] in wordless)
        self.assertGreaterEqual(100.0 * fig.right / with_words, INDEX_RIGHT,
                                report)
        self.assertGreater(len(fig.early_matched), 0, report)

    @unittest.skipUnless(os.path.isdir(TREE), "needs the tree out/linux")
    def test_against_the_source(self) -> None:
        fig, _ = self.figures("source")
        report = "\n".join([fig.summary("source")] + fig.details())
        self.assertEqual(fig.wrong, [], report)
        self.assertGreaterEqual(fig.share(fig.right), SOURCE_RIGHT, report)

    @unittest.skipUnless(os.path.isfile(RELEASES_DB),
                         "no database of several releases at %s (make "
                         "db-releases)" % RELEASES_DB)
    def test_against_the_releases(self) -> None:
        """Issue 48: never a wrong answer against the database of five
        releases either (7.3 prints its command line with "%s%s" and
        a macro, which older releases' "Kernel command line: %s" fits
        too: the log's release decides)."""
        fig = figures.match_figures(RELEASES_DB, BOOT_LOG)
        report = "\n".join([fig.summary("releases")] + fig.details())
        print("\n" + fig.summary("releases"))
        self.assertGreater(fig.records, 100, report)
        self.assertEqual(fig.wrong, [], report)


@unittest.skipUnless(os.path.isfile(VMLINUX) and os.path.isfile(BOOT_LOG),
                     "needs out/build/msgid/vmlinux and out/boot/boot.log "
                     "(boot the harness kernel with printk.msgid=1)")
class BootFormsTest(unittest.TestCase):
    """Issue 37: the boot's records written in every form people paste
    (tests/logforms.py: util-linux dmesg's own output, kern.log,
    journalctl's forms, /dev/kmsg, pstore, logcat...), with their IDs and
    with them stripped, annotated against the kernel's index and against
    the source of its tree: every printed ID honoured, no wrong ID.
    Prints, per form and database, how many were identified."""

    def tally(self, db: str, path: str, records: list) -> tuple[int, ...]:
        """(records, honoured, right, wrong, ambiguous, missed) of
        annotate --json @path against @db; the wrong ones are listed in
        self.wrong."""
        from msgid_tools.tests import clirun
        status, out, err = clirun.run(["--db", db, "annotate", "--json",
                                       path])
        self.assertEqual(status, 0, err)
        objs = [o for o in map(json.loads, out.splitlines())
                if o.get("origin") == "kernel" and not o.get("fragment")]
        if objs and objs[0]["line"].startswith("Panic#1 Part"):
            objs = objs[1:]     # the pstore dump's header
        self.assertEqual(len(objs), len(records), path)
        honoured = right = wrong = ambiguous = missed = 0
        for obj, rec in zip(objs, records):
            truth = rec[3]
            if obj["id"] == truth:
                right += 1
                honoured += obj.get("id_from") == "prefix"
            elif obj["id"]:
                wrong += 1
                self.wrong.append("%s: %s given for %s: %s" % (
                    os.path.basename(path), obj["id"], truth, obj["line"]))
            elif obj.get("id_from") == "ambiguous":
                ambiguous += 1
            else:
                missed += 1
        return len(objs), honoured, right, wrong, ambiguous, missed

    def test_every_form(self) -> None:
        from msgid_tools.tests import logforms
        records = boot_records()
        self.assertGreater(len(records), 100, "too few records with an ID")
        kinds = ["index"] + (["source"] if os.path.isdir(TREE) else [])
        self.wrong: list[str] = []
        rows = []
        with tempfile.TemporaryDirectory() as tmp:
            forms = {}
            for with_ids in (True, False):
                d = os.path.join(tmp, "ids" if with_ids else "stripped")
                os.mkdir(d)
                forms[with_ids] = logforms.write_forms(d, with_ids, records)
            for kind in kinds:
                db = shared_db(kind)
                for name in sorted(forms[True]):
                    with_ids = self.tally(db, forms[True][name], records)
                    stripped = self.tally(db, forms[False][name], records)
                    rows.append((kind, name, with_ids, stripped))
                    with self.subTest(form=name, db=kind):
                        self.assertEqual(with_ids[1], with_ids[0],
                                         "printed IDs not honoured")
        print("\nThe boot's %d records in every form (%s): printed IDs "
              "honoured; IDs stripped: right / wrong / ambiguous / missed"
              % (len(records), BOOT_LOG))
        for kind, name, ids, st in rows:
            print("  %-6s %-24s %4d of %4d   %4d / %d / %d / %d"
                  % (kind, name, ids[1], ids[0], st[2], st[3], st[4],
                     st[5]))
        self.assertEqual(self.wrong, [])


#: Percent of the records with an ID. Against the index: the issue's goal,
#: of the records whose format has a literal word (the others, 24 of 199
#: on the selftest boot of 2026-12-06, cannot be matched by rule). Against
#: the source: the issue's goal, 85% right; measured 85.9% once the scan
#: followed files' own wrapper macros and local headers (82.4% before).
#: No wrong answer against any database (issue 48).
INDEX_RIGHT = 97.0
SOURCE_RIGHT = 85.0


if __name__ == "__main__":
    unittest.main()
