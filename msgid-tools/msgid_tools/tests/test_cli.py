# SPDX-License-Identifier: GPL-2.0
"""End-to-end tests of the command line (msgid_db.cli, msgid-db.py)."""

import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest
import zlib

from msgid_tools import cli
from msgid_tools.tests import elf_builder as eb
from msgid_tools.tests import clirun

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "msgid-db")
INDEX = b"""\
# <level/flags> filename:line function "format"
<0> arch/x86/kernel/cpu/mce/core.c:176 __print_mce "mce: [Hardware Error]: CPU %d: Machine Check%s: %Lx Bank %d: %016Lx\\n"
<3> drivers/base/core.c:12 probe_it "%s %s: probe failed: %d\\n"
<4> arch/x86/kernel/tsc_sync.c:76 tsc_verify_tsc_adjust "[Firmware Bug]: TSC ADJUST differs: CPU%u %lld --> %lld. Restoring\\n"
<6> kernel/a.c:1 a "same\\n"
<6> kernel/b.c:2 b "same\\n"
"""
MCE = "%08x" % zlib.crc32(b"mce: [Hardware Error]: CPU %d: Machine Check%s: "
                          b"%Lx Bank %d: %016Lx")
PROBE = "%08x" % zlib.crc32(b"probe failed: %d")
SAME = "%08x" % zlib.crc32(b"same")


class CliTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.db = os.path.join(self.tmp.name, "msgid.db")
        self.index = os.path.join(self.tmp.name, "index")
        os.mkdir(self.index)
        with open(os.path.join(self.index, "vmlinux"), "wb") as f:
            f.write(INDEX)

    def run_cli(self, *argv: str) -> tuple[int, str, str]:
        return clirun.run(list(argv))

    def build(self) -> None:
        status, _, err = self.run_cli("--db", self.db, "build",
                                      "--index-dir", self.index)
        self.assertEqual(status, 0, err)

    def test_lookup(self) -> None:
        self.build()
        status, out, _ = self.run_cli("--db", self.db, "lookup",
                                      "(%s)" % MCE)
        self.assertEqual(status, 0)
        self.assertEqual(out, 'arch/x86/kernel/cpu/mce/core.c:176 __print_mce '
                         '<0> "mce: [Hardware Error]: CPU %d: Machine Check%s:'
                         ' %Lx Bank %d: %016Lx\\n" [hardware] (vmlinux) '
                         'origin=index-computed\n')

    def test_lookup_several_and_unknown(self) -> None:
        self.build()
        status, out, err = self.run_cli("lookup", "--db", self.db, PROBE,
                                        "0x" + SAME, "deadbeef")
        self.assertEqual(status, 1)
        self.assertEqual(len(out.splitlines()), 3)
        self.assertTrue(out.startswith(PROBE + " drivers/base/core.c:12"))
        self.assertIn("deadbeef: unknown message ID", err)

    def test_lookup_json(self) -> None:
        self.build()
        _, out, _ = self.run_cli("--db", self.db, "lookup", "--json", PROBE)
        obj = json.loads(out)
        self.assertEqual((obj["id"], obj["canonical"], obj["origin"]),
                         (PROBE, "probe failed: %d", "index-computed"))

    def test_bad_id(self) -> None:
        self.build()
        status, _, err = self.run_cli("--db", self.db, "lookup", "xyz")
        self.assertEqual(status, 2)
        self.assertIn("invalid message ID", err)

    def test_missing_db(self) -> None:
        status, _, err = self.run_cli("--db", self.db, "lookup", MCE)
        self.assertEqual(status, 3)
        self.assertEqual(len(err.splitlines()), 1)

    def test_env_db(self) -> None:
        self.build()
        os.environ["MSGID_DB"] = self.db
        try:
            self.assertEqual(self.run_cli("lookup", MCE)[0], 0)
        finally:
            del os.environ["MSGID_DB"]

    def test_list_collisions_stats(self) -> None:
        self.build()
        status, out, _ = self.run_cli("--db", self.db, "list", "--class",
                                      "firmware-bug")
        self.assertEqual((status, len(out.splitlines())), (0, 1))
        self.assertEqual(self.run_cli("--db", self.db, "list", "--class",
                                      "deprecated")[0], 1)
        status, out, _ = self.run_cli("--db", self.db, "collisions")
        self.assertIn("CRC collisions (one ID, different formats): 0 IDs", out)
        self.assertIn("Shared IDs (one format, several call sites): 1 IDs, "
                      "2 call sites", out)
        self.assertIn('%s: 2 call sites "same"' % SAME, out)
        status, out, _ = self.run_cli("--db", self.db, "stats")
        self.assertIn("index-computed  5", out)

    def test_build_from_elf(self) -> None:
        vmlinux = os.path.join(self.tmp.name, "vmlinux")
        with open(vmlinux, "wb") as f:
            f.write(eb.build_exec([eb.Entry(b"\x016hi %d\n", b"f", b"a.c", 3)],
                                  extra=b"Linux version 6.12.0-t (x)\0"))
        mods = os.path.join(self.tmp.name, "lib", "modules")
        os.makedirs(mods)
        with open(os.path.join(mods, "test_msgid.ko"), "wb") as f:
            f.write(eb.build_rel([eb.Entry(b"\x010x\n", b"g", b"b.c", 4)],
                                 modinfo=b"name=test_msgid\0"))
        status, _, err = self.run_cli("--db", self.db, "build", "--vmlinux",
                                      vmlinux, "--modules", mods)
        self.assertEqual(status, 0, err)
        _, out, _ = self.run_cli("--db", self.db, "lookup",
                                 "%08x" % zlib.crc32(b"x"))
        self.assertEqual(out, 'b.c:4 g <0> "x\\n" (test_msgid) '
                         'origin=elf\n')
        _, out, _ = self.run_cli("--db", self.db, "stats")
        self.assertIn("kernel_release: 6.12.0-t", out)

    def test_bad_inputs_keep_old_db(self) -> None:
        self.build()
        bad = os.path.join(self.tmp.name, "bad.ko")
        with open(bad, "wb") as f:
            f.write(eb.build_rel([eb.Entry(b"x", b"g", b"b.c", 4)])[:200])
        for argv, pattern in (
                (["--vmlinux", bad], "bad.ko: truncated ELF"),
                (["--modules", self.tmp.name], "bad.ko: truncated ELF"),
                (["--index-dir", "/nonexistent"], "no printk index"),
                (["--source", "/nonexistent"], "no such directory")):
            status, _, err = self.run_cli("--db", self.db, "build", *argv)
            self.assertEqual(status, 2, argv)
            self.assertRegex(err, "^msgid-db.py: error: .*" + pattern)
            self.assertEqual(len(err.splitlines()), 1, err)
        self.assertEqual(self.run_cli("--db", self.db, "lookup", MCE)[0], 0)

    def test_source_jobs(self) -> None:
        """build --source -j N: the same database for any N; N >= 1."""
        src = os.path.join(self.tmp.name, "src")
        os.mkdir(src)
        for i in range(3):
            with open(os.path.join(src, "f%d.c" % i), "w") as f:
                f.write('void f(void)\n{\n\tpr_info("probe failed: %%d\\n",'
                        ' %d);\n}\n' % i)
        outs = []
        for jobs in ("1", "2"):
            status, _, err = self.run_cli("--db", self.db, "build",
                                          "--source", src, "-j", jobs)
            self.assertEqual(status, 0, err)
            outs.append(self.run_cli("--db", self.db, "lookup", PROBE)[1])
        self.assertEqual(outs[0], outs[1])
        self.assertEqual(outs[0].count("probe failed"), 3, outs[0])
        status, _, err = self.run_cli("--db", self.db, "build", "--source",
                                      src, "-j", "0")
        self.assertEqual(status, 2)
        self.assertIn("-j/--jobs: '0' is not a number >= 1", err)

    def test_malformed_index_warns(self) -> None:
        with open(os.path.join(self.index, "mod"), "wb") as f:
            f.write(b"# header\n<6> a.c:1 f \"ok\"\ngarbage\n\xff\n")
        status, _, err = self.run_cli("--db", self.db, "build",
                                      "--index-dir", self.index)
        self.assertEqual(status, 0)
        self.assertIn("mod:3: 2 malformed index line(s) skipped", err)

    def test_explain(self) -> None:
        status, out, _ = self.run_cli("explain", MCE, "--lang", "de")
        self.assertEqual(status, 0)
        self.assertTrue(out.startswith("-- %s\nSubject: Die CPU" % MCE))
        status, out, _ = self.run_cli("explain", MCE, "--lang", "en")
        self.assertIn("Subject: Machine check exception", out)
        self.assertEqual(self.run_cli("explain", "deadbeef")[0], 1)

    def test_explain_falls_back_to_english_and_says_so(self) -> None:
        cat = os.path.join(self.tmp.name, "cat")
        os.mkdir(cat)
        with open(os.path.join(cat, "k.catalog"), "w") as f:
            f.write("-- 0badf00d\nSubject: Both\n\nEn.\n\n"
                    "-- 1badf00d\nSubject: English only\n\nEn.\n")
        with open(os.path.join(cat, "k.de.catalog"), "w") as f:
            f.write("-- 0badf00d\nSubject: Beide\n\nDe.\n")
        status, out, err = self.run_cli("explain", "1badf00d", "--lang", "de",
                                        "--catalog", cat)
        self.assertEqual(status, 0)
        self.assertIn("Subject: English only", out)
        self.assertIn("1badf00d: no 'de' translation yet, showing the "
                      "English entry", err)
        status, out, err = self.run_cli("explain", "0badf00d", "--lang", "de",
                                        "--catalog", cat)
        self.assertEqual((status, err), (0, ""))
        self.assertIn("Subject: Beide", out)
        for lang in ("en", "C"):
            status, out, err = self.run_cli("explain", "1badf00d", "--lang",
                                            lang, "--catalog", cat)
            self.assertEqual((status, err), (0, ""), lang)

    def test_bad_catalog(self) -> None:
        cat = os.path.join(self.tmp.name, "cat")
        os.mkdir(cat)
        with open(os.path.join(cat, "x.catalog"), "w") as f:
            f.write("-- %s\nSubject: x\nbroken header\n" % MCE)
        status, _, err = self.run_cli("explain", MCE, "--catalog", cat)
        self.assertEqual(status, 2)
        self.assertRegex(err, r"x\.catalog:3: bad header line")

    def test_help_everywhere(self) -> None:
        for cmd in ("build", "lookup", "annotate", "collisions", "list",
                    "explain", "stats", "export", "metrics",
                    "catalog-todo", "diff"):
            status, out, _ = self.run_cli(cmd, "--help")
            self.assertEqual(status, 0)
            self.assertIn("exit status:", out)


class ScriptTest(unittest.TestCase):
    """Run the real script: no tracebacks, ever."""

    def run_script(self, *argv: str, stdin: bytes = b""
                   ) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, SCRIPT] + list(argv),
                              input=stdin, capture_output=True, timeout=60)

    def test_annotate_stdin(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            index = os.path.join(tmp, "index")
            os.mkdir(index)
            with open(os.path.join(index, "vmlinux"), "wb") as f:
                f.write(INDEX)
            db = os.path.join(tmp, "m.db")
            self.assertEqual(self.run_script("--db", db, "build",
                                             "--index-dir", index)
                             .returncode, 0)
            data = ("[    1.0] (%s): mce: [Hardware Error]: CPU 0: Machine "
                    "Check: 0 Bank 1: 0\n" % MCE).encode() + b"\xff\x00junk\n"
            proc = self.run_script("--db", db, "annotate", stdin=data)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn(b"  -> arch/x86/kernel/cpu/mce/core.c:176 "
                          b"__print_mce <0> [hardware]\n"
                          b"  -- Subject: Machine check exception", proc.stdout)
            self.assertTrue(proc.stdout.endswith(b"\xff\x00junk\n"))
            proc = self.run_script("--db", db, "annotate", "/nonexistent")
            self.assertEqual(proc.returncode, 2)
            self.assertNotIn(b"Traceback", proc.stderr)

    def test_errors_are_one_line(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            junk = os.path.join(tmp, "junk")
            with open(junk, "wb") as f:
                f.write(os.urandom(1000))
            for argv in (["build", "--vmlinux", junk, "-o",
                          os.path.join(tmp, "x.db")],
                         ["--db", junk, "lookup", "12345678"],
                         ["--db", junk, "annotate"],
                         ["lookup"], ["frobnicate"]):
                proc = self.run_script(*argv)
                self.assertIn(proc.returncode, (2, 3), argv)
                self.assertNotIn(b"Traceback", proc.stderr, argv)
            self.assertFalse(os.path.exists(os.path.join(tmp, "x.db")))


class BufferedStdoutTest(unittest.TestCase):
    """annotate writes a line at a time: under python3 -u (or
    PYTHONUNBUFFERED=1) each was a system call."""

    def setUp(self) -> None:
        self.addCleanup(setattr, sys, "stdout", sys.stdout)

    def test_unbuffered_stdout_gets_a_buffer(self) -> None:
        with tempfile.TemporaryFile() as f:
            # what python3 -u makes of standard output
            raw = io.FileIO(f.fileno(), "wb", closefd=False)
            sys.stdout = io.TextIOWrapper(raw, write_through=True)
            cli.buffered_stdout()
            self.assertIsInstance(sys.stdout.buffer, io.BufferedWriter)
            sys.stdout.buffer.write(b"line\n")
            print("text")
            self.assertEqual(os.fstat(f.fileno()).st_size, 0)
            sys.stdout.flush()
            f.seek(0)
            self.assertEqual(f.read(), b"line\ntext\n")
            # the file stays open when the buffer goes
            sys.stdout = io.StringIO()
            os.fstat(f.fileno())

    def test_buffered_stdout_is_kept(self) -> None:
        out = io.StringIO()
        sys.stdout = out
        cli.buffered_stdout()
        self.assertIs(sys.stdout, out)


# Runs msgid-db.py, stopping the build half-way: when the second index file
# is parsed, after 12000 rows of the first one went into the temporary
# database, it waits for a line on its standard input.
# A build that stops half-way until a line comes on its stdin. It polls:
# CPython runs a signal's Python handler between bytecodes, so a signal
# that came after print() but before a blocking read() of stdin would
# wait for that read to return, for ever (make check hung on it once,
# the parent's SIGINT a few microseconds early).
PAUSED_BUILD = """
import select
import sys
sys.path.insert(0, sys.argv[1])
from msgid_tools import cli
from msgid_db import index
real = index.parse_file
def parse_file(data, module, stats=None):
    if module == "z_second":
        print("ready", flush=True)
        while not select.select([sys.stdin], [], [], 0.05)[0]:
            pass
        sys.stdin.readline()
    return real(data, module, stats)
index.parse_file = parse_file
sys.exit(cli.main(sys.argv[2:]))
"""


#: Seconds a paused build may take to end once told to (it takes < 1).
WAIT = 60


class InterruptedBuildTest(unittest.TestCase):
    """A build killed half-way leaves the previous database intact."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.db = os.path.join(self.tmp.name, "msgid.db")
        old = os.path.join(self.tmp.name, "old")
        os.mkdir(old)
        with open(os.path.join(old, "vmlinux"), "wb") as f:
            f.write(INDEX)
        self.assertEqual(self.run_cli("--db", self.db, "build",
                                      "--index-dir", old)[0], 0)
        self.index = os.path.join(self.tmp.name, "new")
        os.mkdir(self.index)
        with open(os.path.join(self.index, "a_first"), "wb") as f:
            f.write(b"".join(b'<6> n.c:%d f "new %d\\n"\n' % (i, i)
                             for i in range(12000)))
        with open(os.path.join(self.index, "z_second"), "wb") as f:
            f.write(INDEX)

    def paused_build(self, ignored: tuple[int, ...] = ()) -> subprocess.Popen:
        """Start a paused build with the signals in @ignored ignored, as
        nohup does, and the others at their default, whatever the test
        runner inherited (a background job ignores SIGINT)."""
        def dispositions() -> None:
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                signal.signal(sig, signal.SIG_IGN if sig in ignored
                              else signal.SIG_DFL)

        proc = subprocess.Popen(
            [sys.executable, "-c", PAUSED_BUILD, os.path.dirname(SCRIPT),
             "--db", self.db, "build", "--index-dir", self.index],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, preexec_fn=dispositions)
        self.addCleanup(proc.stderr.close)
        self.addCleanup(proc.stdout.close)
        self.addCleanup(proc.stdin.close)
        self.addCleanup(proc.wait)
        self.addCleanup(proc.kill)  # a build that did not stop
        self.assertEqual(proc.stdout.readline(), b"ready\n")
        return proc

    @staticmethod
    def exit_status(proc: subprocess.Popen) -> int:
        """@proc's exit status; a build that does not end fails the test
        instead of hanging it."""
        return proc.wait(timeout=WAIT)

    def temporaries(self) -> list[str]:
        return sorted(n for n in os.listdir(self.tmp.name)
                      if n.startswith(".msgid.db."))

    def assert_database(self, sites: int) -> None:
        """The database is sound and holds @sites call sites."""
        import sqlite3
        conn = sqlite3.connect(self.db)
        try:
            self.assertEqual(conn.execute("PRAGMA integrity_check")
                             .fetchall(), [("ok",)])
            self.assertEqual(conn.execute("SELECT COUNT(*) FROM sites")
                             .fetchone(), (sites,))
        finally:
            conn.close()

    def assert_old_database(self) -> None:
        self.assert_database(5)
        status, out, _ = self.run_cli("--db", self.db, "lookup", MCE)
        self.assertEqual(status, 0)
        self.assertIn("__print_mce", out)

    run_cli = CliTest.run_cli

    def test_sigkill(self) -> None:
        proc = self.paused_build()
        self.assertEqual(len(self.temporaries()), 1)
        proc.kill()
        self.exit_status(proc)
        self.assert_old_database()
        # SIGKILL leaves the (hidden) temporary file; the next build
        # removes it, whatever its own result.
        self.assertEqual(len(self.temporaries()), 1)
        status, _, err = self.run_cli("--db", self.db, "build", "--vmlinux",
                                      "/nonexistent")
        self.assertEqual(status, 2, err)
        self.assertEqual(len(self.temporaries()), 1)  # failed before write
        status, _, err = self.run_cli("--db", self.db, "build",
                                      "--index-dir", self.index)
        self.assertEqual(status, 0, err)
        self.assertEqual(self.temporaries(), [])
        self.assertIn("12005 call sites", err)

    def test_sigterm(self) -> None:
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            proc = self.paused_build()
            proc.send_signal(sig)
            self.assertEqual(self.exit_status(proc), cli.EXIT_INTERRUPTED,
                             sig)
            self.assertNotIn(b"Traceback", proc.stderr.read())
            self.assert_old_database()
            self.assertEqual(self.temporaries(), [], sig)

    def test_nohup(self) -> None:
        """Under nohup a hangup does not stop the build."""
        proc = self.paused_build(ignored=(signal.SIGHUP,))
        proc.send_signal(signal.SIGHUP)
        proc.stdin.write(b"go\n")
        proc.stdin.flush()
        self.assertEqual(self.exit_status(proc), 0, proc.stderr.read())
        self.assertEqual(self.temporaries(), [])
        self.assert_database(12005)  # the new database, not the old one

    def test_failure_during_write(self) -> None:
        """An input error found half-way: old database, no temporary."""
        mods = os.path.join(self.tmp.name, "mods")
        os.mkdir(mods)
        with open(os.path.join(mods, "a.ko"), "wb") as f:
            f.write(eb.build_rel([eb.Entry(b"x", b"g", b"b.c", 4)]))
        with open(os.path.join(mods, "b.ko"), "wb") as f:
            f.write(b"\x7fELF\x02\x01" + b"\0" * 100)
        status, _, err = self.run_cli("--db", self.db, "build",
                                      "--index-dir", self.index,
                                      "--modules", mods)
        self.assertEqual(status, 2)
        self.assertRegex(err, "^msgid-db.py: error: .*b.ko: ")
        self.assert_old_database()
        self.assertEqual(self.temporaries(), [])


if __name__ == "__main__":
    unittest.main()
