# SPDX-License-Identifier: GPL-2.0
"""Run msgid-db.py's command line in the test's process."""

import contextlib
import io
import os
import tempfile
import unittest

from msgid_tools import cli


def run(argv: list[str]) -> tuple[int, str, str]:
    """Run cli.main(@argv); return its exit status, stdout and stderr.

    An argparse usage error (SystemExit) gives its exit status too.
    """
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(list(argv))
        except SystemExit as e:
            status = e.code
    return status, out.getvalue(), err.getvalue()


def index_db(test: unittest.TestCase, index: bytes) -> tuple[str, str]:
    """Build a database from @index, the text of a printk index file
    (<debugfs>/printk/index/vmlinux), in a temporary folder that @test
    removes when it ends; fail @test if the build fails.

    Return the folder and the database's path in it.
    """
    tmp = tempfile.TemporaryDirectory()
    test.addCleanup(tmp.cleanup)
    idir = os.path.join(tmp.name, "index")
    os.mkdir(idir)
    with open(os.path.join(idir, "vmlinux"), "wb") as f:
        f.write(index)
    db = os.path.join(tmp.name, "msgid.db")
    status, _, err = run(["--db", db, "build", "--index-dir", idir])
    test.assertEqual(status, 0, err)
    return tmp.name, db


def write_tree(root: str, files: dict[str, bytes]) -> None:
    """Write @files (path in the tree -> contents) below @root."""
    for name, data in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def annotate_json(test: unittest.TestCase, db: str, lines: list[bytes]
                  ) -> list[dict]:
    """The objects of msgid-db.py annotate --json of @lines against @db
    (exit status 0 asserted on @test)."""
    import json
    with tempfile.NamedTemporaryFile("wb", suffix=".log") as f:
        f.write(b"\n".join(lines) + b"\n")
        f.flush()
        status, out, err = run(["--db", db, "annotate", "--json", f.name])
    test.assertEqual(status, 0, err)
    return [json.loads(x) for x in out.splitlines()]
