# SPDX-License-Identifier: GPL-2.0
"""Integration tests against the harness kernel, when it has been built.

out/build/msgid/vmlinux (and its modules) and out/boot/boot.log (a serial
log booted with printk.msgid=1) are produced by the harness; the tests
skip when they are absent.
"""

import ast
import os
import re
import tempfile
import unittest
import zlib

from msgid_db import cli, database, elf, figures, match, queries

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
        tree = os.path.join(ROOT, "out", "linux")
        bad = []
        for site in self.db.all_sites():
            f = site.file
            if (f.startswith(("/", "./", "../")) or "/../" in f
                    or not (os.path.isfile(os.path.join(tree, f))
                            or os.path.isfile(os.path.join(BUILD, f)))):
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
        from msgid_db import catalog, source
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


@unittest.skipUnless(os.path.isfile(VMLINUX) and os.path.isfile(BOOT_LOG),
                     "needs out/build/msgid/vmlinux and out/boot/boot.log "
                     "(boot the harness kernel with printk.msgid=1)")
class MatchFiguresTest(unittest.TestCase):
    """The boot log's records with their IDs removed, identified by their
    text alone: the ID the kernel printed is the truth (issue goals)."""

    def figures(self, *build: str) -> tuple["figures.Figures", set[str]]:
        """The figures against a database built with @build, and the IDs
        of the log's records whose formats hold no literal word."""
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "msgid.db")
            status = cli.main(["--db", path, "build"] + list(build))
            self.assertEqual(status, 0)
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
        argv = ["--vmlinux", VMLINUX]
        if os.path.isdir(BUILD):
            argv += ["--modules", BUILD]
        fig, wordless = self.figures(*argv)
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
        fig, _ = self.figures("--source", TREE)
        report = "\n".join([fig.summary("source")] + fig.details())
        self.assertLessEqual(fig.share(len(fig.wrong)), SOURCE_WRONG, report)
        self.assertGreaterEqual(fig.share(fig.right), SOURCE_RIGHT, report)


#: Percent of the records with an ID. Against the index: the issue's goal,
#: of the records whose format has a literal word (the others, 24 of 199
#: on the selftest boot of 2026-12-06, cannot be matched by rule). Against
#: the source: the issue's goals, 85% right and at most 0.5% wrong;
#: measured 85.9% and 0% once the scan followed files' own wrapper macros
#: and local headers (82.4% and 1.0% before).
INDEX_RIGHT = 97.0
SOURCE_RIGHT = 85.0
SOURCE_WRONG = 0.5


if __name__ == "__main__":
    unittest.main()
