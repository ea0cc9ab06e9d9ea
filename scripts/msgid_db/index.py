# SPDX-License-Identifier: GPL-2.0
"""Read the printk index from debugfs (/sys/kernel/debug/printk/index).

Each file (vmlinux, or one per loaded module) holds a header line and one
line per call site, printed by pi_show() in kernel/printk/index.c::

    # <level/flags> filename:line function "format"
    <6> kernel/foo.c:12 foo_init "foo: ready %d\\n"

The format is escaped by seq_escape_str(ESCAPE_ANY | ESCAPE_NAP |
ESCAPE_APPEND, "\\"\\\\"), and the subsystem prefix of wrappers such as
dev_printk() ("%s %s: ") is glued in front of it; it is stripped again here
to recover the caller's format.  An optional trailing " msgid=xxxxxxxx"
(the ID as computed by the kernel) is used when present.
"""

import os
import re
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

from msgid_db.ids import CallSite, InputError

#: subsys_fmt_prefix values passed to printk_index_subsys_emit() in 6.12
#: (include/linux/dev_printk.h, fs/xfs, fs/btrfs, fs/fat), longest first.
#: A plain printk() format that happens to begin with one of these is
#: misattributed; the kernel-provided msgid= field avoids the ambiguity.
SUBSYS_PREFIXES: tuple[bytes, ...] = (
    b"BTRFS: error (device %s%s) in %s:%d: errno=%d %s",
    b"%sBTRFS %s (device %s): ",
    b"%sFAT-fs (%s): ",
    b"%sXFS%s: ",
    b"%s %s %s%s: ",  # netdev_printk(), include/net/net_debug.h.patch
    b"%s %s: ",
)
#: The module name Rust's pr_*!() print before their literal: a prefix
#: only in a .rs file's entry (a C format may well start with it).
RUST_PREFIX = b"%s: "

#: Longer lines are malformed: the kernel's longest formats, escaped,
#: are a few kilobytes (and the parse stays linear in the input).
MAX_LINE = 1 << 16
_LINE_RE = re.compile(
    rb'<(?P<level>-?\d|c|-?\d,c)> (?P<file>.+?):(?P<line>\d{1,10}) '
    rb'(?P<func>\S+) "(?P<fmt>(?:[^"\\]|\\.)*)"'
    rb'(?: msgid=(?P<id>[0-9a-f]{8}))?\r?\n?')
_ESCAPE_RE = re.compile(rb"\\([0-7]{3}|x[0-9a-fA-F]{2}|.)", re.DOTALL)
_SIMPLE_ESCAPES = {
    b"n": b"\n", b"t": b"\t", b"r": b"\r", b"f": b"\f", b"v": b"\v",
    b"a": b"\a", b"e": b"\x1b", b"0": b"\0", b'"': b'"', b"\\": b"\\",
}


class IndexReadError(InputError):
    """The index directory or a file in it cannot be read."""


@dataclass
class ParseStats:
    """Counters for one parsed index file."""

    entries: int = 0
    malformed: int = 0
    first_malformed: Optional[int] = None


def unescape(text: bytes) -> bytes:
    """Undo seq_escape_str() escaping (also accepts \\xHH)."""
    def repl(m: "re.Match[bytes]") -> bytes:
        seq = m.group(1)
        if len(seq) == 3 and seq[0] != ord("x"):
            return bytes([int(seq, 8) & 0xff])
        if seq[:1] == b"x":
            return bytes([int(seq[1:], 16)])
        return _SIMPLE_ESCAPES.get(seq, b"\\" + seq)
    return _ESCAPE_RE.sub(repl, text)


def split_prefix(fmt: bytes) -> tuple[bytes, bytes]:
    """Split a known subsystem prefix off an index format."""
    for prefix in SUBSYS_PREFIXES:
        if fmt.startswith(prefix):
            return prefix, fmt[len(prefix):]
    return b"", fmt


def parse_line(line: bytes, module: str) -> Optional[CallSite]:
    """Parse one index line; None for the header, ValueError if malformed."""
    if line.startswith(b"#") or not line.strip():
        return None
    if len(line) > MAX_LINE:
        raise ValueError("index line too long")
    m = _LINE_RE.fullmatch(line)
    if not m:
        raise ValueError("malformed index line")
    line_no = int(m.group("line"))
    if line_no > 0xffffffff:  # printed as %u
        raise ValueError("line number out of range")
    prefix, fmt = split_prefix(unescape(m.group("fmt")))
    known = m.group("id")
    file = m.group("file").decode("utf-8", "replace")
    if not (prefix or known) and file.endswith(".rs") and \
            fmt.startswith(RUST_PREFIX):
        prefix, fmt = RUST_PREFIX, fmt[len(RUST_PREFIX):]
    return CallSite.from_format(
        fmt, file=file, line=line_no,
        function=m.group("func").decode("utf-8", "replace"), module=module,
        level=m.group("level").decode(),
        origin="index-kernel" if known else "index-computed",
        known_id=known.decode() if known else None,
        subsys=prefix.decode("utf-8", "replace"))


def parse_file(data: bytes, module: str,
               stats: Optional[ParseStats] = None) -> list[CallSite]:
    """Parse the contents of one index file; malformed lines are counted."""
    stats = stats if stats is not None else ParseStats()
    sites = []
    for lineno, line in enumerate(data.splitlines(), 1):
        try:
            site = parse_line(line, module)
        except ValueError:
            stats.malformed += 1
            if stats.first_malformed is None:
                stats.first_malformed = lineno
            continue
        if site:
            sites.append(site)
            stats.entries += 1
    return sites


def read_file(path: str) -> bytes:
    """Read an index file in one go (see the note on lost entries)."""
    # Reading in small chunks can lose entries with the 6.12 index
    # (seq_file restarts); one large read avoids that in practice.
    with open(path, "rb", buffering=0) as f:
        chunks = []
        while True:
            chunk = f.read(1 << 24)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def read_dir(path: str, skip: Optional[Callable[[str], bool]] = None
             ) -> Iterator[tuple[str, bytes]]:
    """Yield (module name, file contents) for every file in the index dir
    (but those whose name @skip returns True for)."""
    try:
        names = sorted(os.listdir(path))
    except OSError as e:
        raise IndexReadError("%s: %s" % (path, e.strerror)) from None
    for name in names:
        if skip is not None and skip(name):
            continue
        file = os.path.join(path, name)
        if not os.path.isfile(file):
            continue
        try:
            yield name, read_file(file)
        except OSError as e:
            raise IndexReadError("%s: %s" % (file, e.strerror)) from None
