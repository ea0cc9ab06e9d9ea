# SPDX-License-Identifier: GPL-2.0
"""Read the printk index, <debugfs>/printk/index/<vmlinux or module>:
lines such as '<6> kernel/foo.c:12 foo_init "foo: ready %d\\n" msgid=...',
the format escaped and after the prefix of wrappers such as dev_printk()
("%s %s: "); msgid= tells where that prefix ends."""

import os
import re
from typing import Iterator

from msgid_db.ids import CallSite, InputError

#: The prefixes printk_index_subsys_emit() is given, longest first.
SUBSYS_PREFIXES = (b"BTRFS: error (device %s%s) in %s:%d: errno=%d %s",
                   b"%sBTRFS %s (device %s): ", b"%sFAT-fs (%s): ",
                   b"%sXFS%s: ", b"%s %s %s%s: ", b"%s %s: ")
_LINE_RE = re.compile(
    rb'<(-?\d|c|-?\d,c)> (.+?):(\d{1,10}) (\S+) "((?:[^"\\]|\\.)*)"'
    rb'(?: msgid=([0-9a-f]{8}))?\r?')
_ESCAPE_RE = re.compile(rb"\\([0-7]{3}|.)", re.DOTALL)
_ESCAPES = {b"n": b"\n", b"t": b"\t", b"r": b"\r", b"f": b"\f", b"v": b"\v",
            b"a": b"\a", b"e": b"\x1b", b"0": b"\0"}


def unescape(text: bytes) -> bytes:
    """Undo seq_escape_str()."""
    def repl(m: "re.Match[bytes]") -> bytes:
        seq = m.group(1)
        if len(seq) == 3:
            return bytes([int(seq, 8) & 0xff])
        return _ESCAPES.get(seq, seq)
    return _ESCAPE_RE.sub(repl, text)


def parse(data: bytes, module: str, name: str) -> Iterator[CallSite]:
    """The call sites of index file @name, holding @data."""
    for lineno, line in enumerate(data.split(b"\n"), 1):
        if line.startswith(b"#") or not line.strip():
            continue
        m = _LINE_RE.fullmatch(line)
        if not m:
            raise InputError("%s:%d: not a printk index line" % (name, lineno))
        level, file, line_no, func, fmt, known = m.groups()
        fmt = unescape(fmt)
        prefix = next((p for p in SUBSYS_PREFIXES if fmt.startswith(p)),
                      b"%s: " if file.endswith(b".rs") and not known else b"")
        fmt = fmt[len(prefix):] if fmt.startswith(prefix) else fmt
        yield CallSite.from_format(
            fmt, file.decode("utf-8", "replace"), int(line_no),
            func.decode("utf-8", "replace"), module,
            "index-kernel" if known else "index-computed", level.decode(),
            known.decode() if known else None)


def read_dir(path: str, output: str) -> Iterator[CallSite]:
    """The call sites of the index directory @path (or a copy of it),
    but the database @output and hidden files."""
    try:
        names = sorted(os.listdir(path))
    except OSError as e:
        raise InputError("%s: %s (the printk index needs CONFIG_PRINTK_INDEX"
                         ", debugfs and root)" % (path, e.strerror)) from None
    for name in names:
        file = os.path.join(path, name)
        if not os.path.isfile(file) or name.startswith(".") or \
                os.path.realpath(file) == os.path.realpath(output):
            continue
        try:
            # One large read: seq_file restarts can lose entries otherwise.
            with open(file, "rb", buffering=0) as f:
                data = b"".join(iter(lambda: f.read(1 << 24), b""))
        except OSError as e:
            raise InputError("%s: %s" % (file, e.strerror)) from None
        yield from parse(data, name, file)
