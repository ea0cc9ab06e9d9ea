# SPDX-License-Identifier: GPL-2.0
"""annotate's inputs (msgid_tools.inputs): a live pipe is annotated line by
line, compressed rotated logs are read or refused with advice, and the
lines of a good file are out before the error of a bad one."""

import bz2
import gzip
import lzma
import os
import select
import subprocess
import sys
import time
import unittest
import zlib

from msgid_tools.tests import clirun

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "msgid-db")
INDEX = (b"# <level/flags> filename:line function \"format\"\n"
         b"<6> init/main.c:1354 run_init_process \"Run %s as init process"
         b"\\n\"\n"
         b"<6> kernel/a.c:1 hello \"hello from %s\\n\"\n")
RUN = "%08x" % zlib.crc32(b"Run %s as init process")
HELLO = "%08x" % zlib.crc32(b"hello from %s")
LOG = (b"[    1.366059] (%s): Run /init as init process\n"
       b"[    1.400000] hello from the test\n" % RUN.encode())
RUN_SITE = b"  -> init/main.c:1354 run_init_process <6>\n"
HELLO_MATCH = (b"  ~> (%s) matched by text\n  -> kernel/a.c:1 hello <6>\n"
               % HELLO.encode())


class Fixture(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp, self.db = clirun.index_db(self, INDEX)

    def mkfile(self, name: str, data: bytes) -> str:
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def script(self, *argv: str, stdin: bytes = b""
               ) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, SCRIPT, "--db", self.db]
                              + list(argv), input=stdin,
                              capture_output=True, timeout=60)


def read_until(fd: int, want: bytes, seconds: float) -> bytes:
    """Read @fd until @want has come or @seconds have passed."""
    got = b""
    end = time.monotonic() + seconds
    while want not in got:
        left = end - time.monotonic()
        if left <= 0:
            break
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            break
        chunk = os.read(fd, 4096)
        if not chunk:
            break
        got += chunk
    return got


class StreamTest(Fixture):
    def test_live_pipe(self) -> None:
        """Issue 37 point 5: dmesg -w | msgid-db.py annotate. Each record
        and its annotation are out while the writer still holds the pipe
        open; nothing waits for the end of the input."""
        proc = subprocess.Popen(
            [sys.executable, SCRIPT, "--db", self.db, "annotate"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)
        self.addCleanup(proc.wait, 30)
        self.addCleanup(proc.stdout.close)  # type: ignore[union-attr]
        self.addCleanup(proc.stderr.close)  # type: ignore[union-attr]
        assert proc.stdin is not None and proc.stdout is not None
        out_fd = proc.stdout.fileno()
        first, second = LOG.splitlines(keepends=True)
        proc.stdin.write(first)
        proc.stdin.flush()
        got = read_until(out_fd, RUN_SITE, 20)
        self.assertEqual(got, first + RUN_SITE)
        time.sleep(0.3)     # a slow writer
        proc.stdin.write(second)
        proc.stdin.flush()
        got = read_until(out_fd, HELLO_MATCH, 20)
        self.assertTrue(got.startswith(second + HELLO_MATCH), got)
        self.assertIsNone(proc.poll())      # the input is still open
        proc.stdin.close()
        self.assertEqual(proc.wait(30), 0)

    def test_json_live_pipe(self) -> None:
        proc = subprocess.Popen(
            [sys.executable, SCRIPT, "--db", self.db, "annotate", "--json"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
        self.addCleanup(proc.wait, 30)
        self.addCleanup(proc.stdout.close)  # type: ignore[union-attr]
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(LOG.splitlines(keepends=True)[0])
        proc.stdin.flush()
        got = read_until(proc.stdout.fileno(), b"}\n", 20)
        self.assertIn(b'"id": "%s"' % RUN.encode(), got)
        proc.stdin.close()
        self.assertEqual(proc.wait(30), 0)

    def test_good_file_then_missing_one(self) -> None:
        """annotate good.txt /nonexistent: the good file's lines and
        annotations are out, then the error."""
        good = self.mkfile("good.txt", LOG)
        proc = self.script("annotate", good, "/nonexistent")
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stdout, LOG.splitlines(keepends=True)[0]
                         + RUN_SITE + LOG.splitlines(keepends=True)[1]
                         + HELLO_MATCH)
        self.assertIn(b"/nonexistent: No such file or directory",
                      proc.stderr)

    def test_dictionary_lines_stay_with_their_record(self) -> None:
        """Through a pipe too, the annotation follows a record's
        /dev/kmsg dictionary lines when they come with it."""
        data = (b"6,1,2,-;(%s): Run /init as init process\n SUBSYSTEM=x\n"
                b"6,2,3,-;next\n" % RUN.encode())
        proc = self.script("annotate", "--no-match", stdin=data)
        self.assertEqual(proc.stdout, data.replace(
            b"x\n6,2", b"x\n" + RUN_SITE + b"6,2"))


class CompressedTest(Fixture):
    """Issue 37 point 3: kern.log.2.gz passed through as binary, rc 0."""

    def expected(self) -> bytes:
        lines = LOG.splitlines(keepends=True)
        return lines[0] + RUN_SITE + lines[1] + HELLO_MATCH

    def test_compressed_files(self) -> None:
        for name, data in (("kern.log.2.gz", gzip.compress(LOG)),
                           ("kern.log.2.xz", lzma.compress(LOG)),
                           ("kern.log.2.bz2", bz2.compress(LOG))):
            proc = self.script("annotate", self.mkfile(name, data))
            self.assertEqual((proc.returncode, proc.stdout),
                             (0, self.expected()), name)

    def test_gzip_from_a_pipe(self) -> None:
        proc = self.script("annotate", stdin=gzip.compress(LOG))
        self.assertEqual((proc.returncode, proc.stdout),
                         (0, self.expected()))

    def test_damaged_and_unknown(self) -> None:
        cut = gzip.compress(LOG * 50)[:60]
        for name, data, message in (
                ("cut.gz", cut, b"damaged gzip file"),
                ("junk.gz", b"\x1f\x8b\x08\0\0\0\0\0\0\x03" + os.urandom(200),
                 b"damaged gzip file"),
                ("log.zst", b"\x28\xb5\x2f\xfd" + os.urandom(20),
                 b"zstd-compressed: run zstdcat")):
            proc = self.script("annotate", self.mkfile(name, data))
            self.assertEqual(proc.returncode, 2, name)
            self.assertIn(message, proc.stderr, name)
            self.assertEqual(proc.stderr.count(b"\n"), 1, proc.stderr)
        proc = self.script("annotate", stdin=cut)
        self.assertEqual(proc.returncode, 2)
        self.assertIn(b"<stdin>: damaged gzip file", proc.stderr)


if __name__ == "__main__":
    unittest.main()
