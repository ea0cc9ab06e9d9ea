# SPDX-License-Identifier: GPL-2.0
"""The kernel tree's msgid-db.py: scripts/msgid-db.py and the modules of
scripts/msgid_db/, alone.

They are copied into a folder of their own and run as a user runs them:
build from a saved printk index and from a vmlinux, lookup, annotate.
They name nothing outside the kernel tree, and a command of msgid-tools
is an unknown command there.  A module the in-tree code imports but
scripts/msgid_db/ lacks fails every test here.
"""

import ast
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import zlib

import msgid_db
from msgid_db import cli
from msgid_tools import cli as tools_cli
from msgid_tools.tests import clirun
from msgid_tools.tests import elf_builder as eb

PACKAGE = os.path.dirname(os.path.abspath(msgid_db.__file__))
ROOT = os.path.dirname(os.path.dirname(PACKAGE))

INDEX = b"""\
# <level/flags> filename:line function "format"
<0> arch/x86/kernel/cpu/mce/core.c:176 __print_mce "mce: [Hardware Error]: CPU %d: Machine Check%s: %Lx Bank %d: %016Lx\\n"
<3> drivers/base/core.c:12 probe_it "%s %s: probe failed: %d\\n"
<6> kernel/a.c:1 a "same\\n"
<6> kernel/b.c:2 b "same\\n"
"""
MCE = "%08x" % zlib.crc32(b"mce: [Hardware Error]: CPU %d: Machine Check%s: "
                          b"%Lx Bank %d: %016Lx")
PROBE = "%08x" % zlib.crc32(b"probe failed: %d")
SAME = "%08x" % zlib.crc32(b"same")
UNKNOWN = "0badc0de"

LOG = ("[    0.100000] (%s): mce: [Hardware Error]: CPU 0: Machine Check: "
       "0 Bank 4: b200000000070005\n"
       "6,12,345,-;(%s): e1000 0000:00:03.0: probe failed: -5\n"
       " SUBSYSTEM=pci\n"
       " DEVICE=+pci:0000:00:03.0\n"
       "Dec  6 18:45:46 host kernel: [    2.5] (%s): same\n"
       "[    3.000000] (%s): a kernel that is not this one\n"
       % (MCE, PROBE, SAME, UNKNOWN)).encode()
ANNOTATED = ("[    0.100000] (%s): mce: [Hardware Error]: CPU 0: Machine "
             "Check: 0 Bank 4: b200000000070005\n"
             "  -> arch/x86/kernel/cpu/mce/core.c:176 __print_mce <0> "
             "[hardware]\n"
             "6,12,345,-;(%s): e1000 0000:00:03.0: probe failed: -5\n"
             " SUBSYSTEM=pci\n"
             " DEVICE=+pci:0000:00:03.0\n"
             "  -> drivers/base/core.c:12 probe_it <3>\n"
             "Dec  6 18:45:46 host kernel: [    2.5] (%s): same\n"
             "  -> kernel/a.c:1 a <6>\n"
             "  -> kernel/b.c:2 b <6>\n"
             "[    3.000000] (%s): a kernel that is not this one\n"
             "  ?? (%s) is not in the database: built from another kernel?\n"
             % (MCE, PROBE, SAME, UNKNOWN, UNKNOWN)).encode()
#: Words that name what is not in the kernel tree.
NOT_IN_TREE = re.compile(r"\bfull\b|catalog|explain|msgid.tools|harness|"
                         r"README|MANUAL|http|out/|make ")


def intree_files() -> list[str]:
    """The kernel tree's files of msgid-db.py, relative to the repository's
    root."""
    return ["scripts/msgid-db.py"] + sorted(
        os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(PACKAGE,
                                                               "*.py")))


class InTreeTest(unittest.TestCase):
    """msgid-db.py of the kernel tree's files alone."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.root = cls.tmp.name
        for path in intree_files():
            dest = os.path.join(cls.root, path)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            shutil.copyfile(os.path.join(ROOT, path), dest)
        cls.index = os.path.join(cls.root, "index")
        os.mkdir(cls.index)
        with open(os.path.join(cls.index, "vmlinux"), "wb") as f:
            f.write(INDEX)
        cls.db = os.path.join(cls.root, "msgid.db")

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def run_intree(self, *argv: str, stdin: bytes = b""
                   ) -> subprocess.CompletedProcess:
        """Run the copied msgid-db.py with @argv: isolated (-I), so that
        no other msgid_db is found, in the copy's folder."""
        proc = subprocess.run(
            [sys.executable, "-I",
             os.path.join(self.root, "scripts", "msgid-db.py"),
             "--db", self.db] + list(argv),
            input=stdin, capture_output=True, timeout=60, cwd=self.root)
        self.assertNotIn(b"Traceback", proc.stderr, argv)
        return proc

    def build(self) -> None:
        proc = self.run_intree("build", "--index-dir", self.index)
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_the_list(self) -> None:
        """scripts/msgid_db/ holds the modules only (no tests, data or
        documents), and none of them names what is not in the kernel
        tree: no other program, no catalogs, no explain."""
        files = intree_files()
        self.assertIn("scripts/msgid_db/__init__.py", files)
        self.assertEqual(sorted(os.listdir(PACKAGE)), sorted(
            [os.path.basename(f) for f in files[1:]]
            + (["__pycache__"] if os.path.isdir(os.path.join(
                PACKAGE, "__pycache__")) else [])))
        for path in files:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                text = f.read()
            self.assertIsNone(NOT_IN_TREE.search(text), path)

    def test_imports(self) -> None:
        """Every module the in-tree files import is the standard
        library's or in scripts/msgid_db/."""
        files = set(intree_files())
        for path in files:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                tree = ast.parse(f.read(), path)
            for node in ast.walk(tree):
                names = []
                if isinstance(node, ast.ImportFrom) and node.module and \
                        node.module.startswith("msgid_db"):
                    names = ([node.module] if node.module != "msgid_db"
                             else ["msgid_db." + a.name for a in node.names])
                elif isinstance(node, ast.Import):
                    names = [a.name for a in node.names
                             if a.name.startswith("msgid_db")]
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    module = getattr(node, "module", None) or ""
                    for name in [module] + [a.name for a in node.names]:
                        self.assertNotIn("msgid_tools", name, path)
                for name in names:
                    module = "scripts/%s.py" % name.replace(".", "/")
                    self.assertIn(module, files, "%s imports %s"
                                  % (path, name))

    def test_build_and_lookup(self) -> None:
        """The same call sites as msgid-tools' build."""
        self.build()
        _, full_db = clirun.index_db(self, INDEX)
        for ids in ([MCE], ["(%s)" % PROBE, SAME], ["--json", SAME]):
            proc = self.run_intree("lookup", *ids)
            status, out, err = clirun.run(["--db", full_db, "lookup"]
                                          + ids)
            self.assertEqual((proc.returncode, proc.stderr), (0, b""), ids)
            self.assertEqual(proc.stdout.decode(), out, ids)
        self.assertEqual(proc.stdout.count(b'"file": "kernel/'), 2)
        proc = self.run_intree("lookup", UNKNOWN)
        self.assertEqual(proc.returncode, cli.EXIT_NOT_FOUND)
        self.assertEqual(proc.stderr, b"msgid-db.py: %s: unknown message "
                         b"ID\n" % UNKNOWN.encode())
        proc = self.run_intree("lookup", "1a2b3c")
        self.assertEqual(proc.returncode, cli.EXIT_USAGE)
        self.assertIn(b"invalid message ID", proc.stderr)

    def test_build_from_a_vmlinux(self) -> None:
        vmlinux = os.path.join(self.root, "vmlinux")
        with open(vmlinux, "wb") as f:
            f.write(eb.build_exec([eb.Entry(b"\x016hello %d\n", b"hi",
                                            b"init/main.c", 42)]))
        db = os.path.join(self.root, "vmlinux.db")
        proc = self.run_intree("--db", db, "build", "--vmlinux", vmlinux)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        proc = self.run_intree("--db", db, "lookup",
                               "%08x" % zlib.crc32(b"hello %d"))
        self.assertEqual(proc.stdout, b'init/main.c:42 hi <6> "hello %d\\n" '
                         b'(vmlinux) origin=elf\n')
        # A module needs relocations, which the kernel tree's tool does not
        # apply: its call sites are in the live printk index.
        module = os.path.join(self.root, "m.ko")
        with open(module, "wb") as f:
            f.write(eb.build_rel([eb.Entry(b"x\n", b"f", b"m.c", 1)]))
        proc = self.run_intree("--db", db, "build", "--vmlinux", module)
        self.assertEqual(proc.returncode, cli.EXIT_USAGE)
        self.assertIn(b"m.ko: a relocatable object (a kernel module): give "
                      b"the vmlinux, or the printk index", proc.stderr)

    def test_rust_call_sites(self) -> None:
        """Rust's index entries: their literal's ID, their file in the
        tree (rustc's file!() is not remapped as C's __FILE__ is)."""
        vmlinux = os.path.join(self.root, "vmlinux-rust")
        with open(vmlinux, "wb") as f:
            f.write(eb.build_exec([
                eb.Entry(b"rust pr_info: {} apples\n", b"test_msgid_rust",
                         b"../lib/test_msgid_rust.rs", 28, b"\x016%s: %pAl",
                         b"%s: "),
                eb.Entry(b"rust dev_err on a faux device: {:#x}\n",
                         b"test_msgid_rust", b"/usr/src/linux/lib/"
                         b"test_msgid_rust.rs", 38, b"\x013", b"%s %s: ")]))
        db = os.path.join(self.root, "rust.db")
        proc = self.run_intree("--db", db, "build", "--vmlinux", vmlinux)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        proc = self.run_intree("--db", db, "lookup", "bbbdacf3", "ce143efc")
        self.assertEqual(proc.stdout.decode(), (
            'bbbdacf3 lib/test_msgid_rust.rs:28 test_msgid_rust <6> "rust '
            'pr_info: {} apples\\n" (vmlinux) origin=elf\n'
            'ce143efc lib/test_msgid_rust.rs:38 test_msgid_rust <3> "rust '
            'dev_err on a faux device: {:#x}\\n" (vmlinux) origin=elf\n'))

    def test_annotate(self) -> None:
        """Lines with printed IDs, as msgid-tools annotates them."""
        self.build()
        proc = self.run_intree("annotate", stdin=LOG)
        self.assertEqual(proc.returncode, 0)
        self.assertEqual(proc.stdout, ANNOTATED)
        self.assertEqual(proc.stderr, b"msgid-db.py: warning: 1 of 4 printed "
                         b"IDs unknown: is this database built from this "
                         b"kernel? (msgid-db.py build on the kernel that "
                         b"wrote the log)\n")
        log = os.path.join(self.root, "kern.log")
        with open(log, "wb") as f:
            f.write(LOG)
        self.assertEqual(self.run_intree("annotate", log).stdout, ANNOTATED)
        # msgid-tools, without catalogs (their subject lines), the same.
        tmp, full_db = clirun.index_db(self, INDEX)
        full = subprocess.run([sys.executable, os.path.join(
            ROOT, "msgid-tools", "msgid-db"), "--db", full_db, "annotate",
            "--catalog", tmp, log], capture_output=True, timeout=60,
            check=True)
        self.assertEqual(full.stdout, ANNOTATED)
        proc = self.run_intree("annotate", log + ".none")
        self.assertEqual(proc.returncode, cli.EXIT_USAGE)
        self.assertIn(b"No such file", proc.stderr)

    def test_annotate_logcat(self) -> None:
        """Android's logcat -b kernel shows a printed ID as the record's
        tag: -v threadtime "F (xxxxxxxx): ", -v brief and -v time
        "F/(xxxxxxxx)(    0): "."""
        self.build()
        text = (b"mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 4: "
                b"b200000000070005\n")
        site = (b"  -> arch/x86/kernel/cpu/mce/core.c:176 __print_mce <0> "
                b"[hardware]\n")
        mce = MCE.encode()
        for head in (b"12-06 18:45:46.980     0     0 F (%s): " % mce,
                     b"F/(%s)(    0): " % mce,
                     b"12-06 18:45:46.980 F/(%s)(    0): " % mce,
                     b"F/(%s)( root:    0): " % mce):
            proc = self.run_intree("annotate", stdin=head + text)
            self.assertEqual(proc.stdout, head + text + site, head)
        proc = self.run_intree("annotate", stdin=b"F/(%s)(x): " % mce + text)
        self.assertNotIn(b"->", proc.stdout)

    def test_not_here(self) -> None:
        """msgid-tools' commands and options are unknown ones here: the
        usage error of any unknown command or option, status 2."""
        self.build()
        for argv in (["explain", MCE], ["export"], ["merge", "a.db", "b.db"],
                     ["stats"], ["build", "--source", self.root],
                     ["build", "--kernel", "/boot/vmlinuz"],
                     ["lookup", "--text", "probe failed: -5"],
                     ["annotate", "--no-match"]):
            proc = self.run_intree(*argv)
            self.assertEqual(proc.returncode, cli.EXIT_USAGE, argv)
            self.assertEqual(proc.stdout, b"", argv)
            self.assertRegex(proc.stderr.decode(), r"^usage: msgid-db\.py "
                             r"(.|\n)*error: (argument COMMAND: invalid "
                             r"choice|unrecognized arguments)", argv)
            self.assertEqual(proc.stderr.count(b"\n"), 2, argv)

    def test_help(self) -> None:
        """--help lists build, lookup and annotate, and nothing else."""
        text = self.run_intree("--help").stdout.decode()
        commands = re.findall(r"\n    (\S+) ", text)
        self.assertEqual(commands, ["build", "lookup", "annotate"])
        for command in commands:
            proc = self.run_intree(command, "--help")
            self.assertEqual(proc.returncode, 0)
            self.assertIsNone(NOT_IN_TREE.search(proc.stdout.decode()),
                              command)


class ToolsTest(unittest.TestCase):
    """msgid-tools' msgid-db: the kernel tree's commands and options,
    and its own."""

    def test_commands_and_options(self) -> None:
        core = cli.build_parser()._subparsers._group_actions[0].choices  # type: ignore
        tools = tools_cli.build_parser()._subparsers._group_actions[0].choices  # type: ignore
        self.assertEqual(set(core), {"build", "lookup", "annotate"})
        self.assertEqual(set(tools) - set(core), {
            "explain", "merge", "collisions", "list", "diff", "stats",
            "export", "metrics", "catalog-todo"})
        for command, parser in core.items():
            self.assertLessEqual(set(parser._option_string_actions),
                                 set(tools[command]._option_string_actions),
                                 command)
        self.assertIn("--source", tools["build"]._option_string_actions)

    def test_catalog_dir(self) -> None:
        from msgid_tools import catalog
        self.assertEqual(tools_cli.CATALOG_DIR, catalog.DEFAULT_DIR)
        text = clirun.run(["explain", "--help"])[1]
        self.assertIn(tools_cli.CATALOG_DIR, " ".join(text.split()))


if __name__ == "__main__":
    unittest.main()
