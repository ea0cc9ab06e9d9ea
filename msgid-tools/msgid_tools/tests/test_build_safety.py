# SPDX-License-Identifier: GPL-2.0
"""Issue 37 point 6: a build never replaces a good database with one
that found nothing (or far less), never reads its own output, and never
silently drops a repeated input."""

import hashlib
import os
import shutil
import tempfile
import unittest

from msgid_tools.tests import clirun

INDEX = b"".join(b'<6> kernel/s.c:%d f%d "site number %d of the kernel\\n"\n'
                 % (n, n, n) for n in range(1, 11))


def digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


class BuildSafetyTest(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name
        self.index = self.mkindex("index", INDEX)
        self.db = os.path.join(self.tmp, "good.db")
        status, _, err = self.build("--index-dir", self.index)
        self.assertEqual(status, 0, err)
        self.good = digest(self.db)

    def mkindex(self, name: str, data: bytes) -> str:
        path = os.path.join(self.tmp, name)
        os.mkdir(path)
        with open(os.path.join(path, "vmlinux"), "wb") as f:
            f.write(data)
        return path

    def build(self, *argv: str, db: str = "") -> tuple[int, str, str]:
        return clirun.run(["build", "-o", db or self.db] + list(argv))

    def assert_kept(self, status: int, err: str, pattern: str) -> None:
        self.assertEqual(status, 2, err)
        self.assertIn(pattern, err)
        self.assertEqual(err.count("error:"), 1, err)
        self.assertEqual(digest(self.db), self.good)
        self.assertFalse([n for n in os.listdir(self.tmp)
                          if n.endswith(".tmp")])

    def test_binary_without_formats(self) -> None:
        """build --vmlinux /bin/ls -o good.db: refused, good.db kept."""
        ls = shutil.which("ls")
        if ls is None:
            self.skipTest("no ls binary")
        status, _, err = self.build("--vmlinux", os.path.realpath(ls))
        self.assert_kept(status, err, "good.db is left as it was")

    def test_empty_inputs(self) -> None:
        empty = os.path.join(self.tmp, "empty")
        os.mkdir(empty)
        for argv in (["--modules", empty], ["--source", empty, "-j", "1"],
                     ["--index-dir", empty]):
            status, _, err = self.build(*argv)
            self.assert_kept(status, err, "found no call sites in ")
        status, _, err = self.build("--source", empty, "-j", "1",
                                    db=os.path.join(self.tmp, "new.db"))
        self.assertEqual(status, 2, err)
        self.assertIn("nothing written", err)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "new.db")))

    def test_far_fewer_sites(self) -> None:
        small = self.mkindex("small", INDEX.splitlines(keepends=True)[0]
                             + INDEX.splitlines(keepends=True)[1])
        status, _, err = self.build("--index-dir", small)
        self.assert_kept(status, err, "found 2 call sites in index:%s, the "
                         "database it would replace has 10" % small)
        self.assertIn("--force", err)
        status, _, err = self.build("--index-dir", small, "--force")
        self.assertEqual(status, 0, err)
        self.assertIn("good.db: 2 call sites", err)
        # as many sites, or a few less: no question asked
        status, _, err = self.build("--index-dir", self.index)
        self.assertEqual(status, 0, err)

    def test_output_inside_the_index_dir(self) -> None:
        """build --index-dir D -o D/x.db reads neither x.db nor its
        temporary file as index files, however often it runs."""
        out = os.path.join(self.index, "x.db")
        for _ in range(2):
            status, _, err = self.build("--index-dir", self.index, db=out)
            self.assertEqual(status, 0, err)
            self.assertNotIn("malformed", err)
            self.assertIn("x.db: 10 call sites", err)
        self.assertFalse([n for n in os.listdir(self.index)
                          if n.endswith(".tmp")])

    def test_repeated_inputs_are_refused(self) -> None:
        """build --kernel A --kernel B kept only B, silently."""
        other = self.mkindex("other", INDEX)
        for argv in (["--kernel", "/bin/true", "--kernel", "/bin/false"],
                     ["--index-dir", self.index, "--index-dir", other],
                     ["--modules", self.index, "--modules", other]):
            status, _, err = self.build(*argv)
            self.assertEqual(status, 2, argv)
            self.assertIn("given twice", err)
            self.assertIn("build one database for each", err)
        self.assertEqual(digest(self.db), self.good)

    def test_input_is_the_output(self) -> None:
        status, _, err = self.build("--kernel", self.db)
        self.assert_kept(status, err, "is the database being written")


if __name__ == "__main__":
    unittest.main()
