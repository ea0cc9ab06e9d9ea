# SPDX-License-Identifier: GPL-2.0
"""Run msgid-db.py's command line in the test's process."""

import contextlib
import io

from msgid_db import cli


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
