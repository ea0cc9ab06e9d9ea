# SPDX-License-Identifier: GPL-2.0
"""Copy log lines (dmesg, journalctl -k, /dev/kmsg, serial consoles...),
each record with a printed "(xxxxxxxx): " followed by its call sites (or
a mark if the ID is unknown), after the lines that follow it and start
with a space (/dev/kmsg's dictionary, continuation lines)."""

import os
import re
import select
from typing import BinaryIO, Iterator

from msgid_db.database import Database
from msgid_db.ids import CLASS_NONE, classify

#: A printed ID, at the start of a line or after the envelope; logcat
#: shows it as the tag, "F/(xxxxxxxx)(    0): " in its brief form.
ID_RE = re.compile(rb"(?:^|(?<=[\s\];:>/]))\((?P<id>[0-9a-f]{8})\)"
                   rb"(?:: |\(\ *(?:\w{1,16}:)?\ *\d{1,10}\): )")
MAX_SITES = 3       # call sites shown for one ID; lookup shows them all


def read_lines(f: BinaryIO) -> Iterator[tuple[bytes, bool]]:
    """Yield (line, idle) for the lines of @f as they come; idle: no
    further line is ready yet (dmesg -w, /dev/kmsg), time to flush."""
    fd, rest = f.fileno(), b""
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except BrokenPipeError:     # /dev/kmsg: records were overwritten
            continue
        if not chunk:
            break
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop()
        for i, line in enumerate(lines, 1 - len(lines)):
            yield line + b"\n", not (i or rest or select.select(
                [fd], [], [], 0.01)[0])
    if rest:
        yield rest, False


class Annotator:
    """Adds the call sites of printed IDs to log lines."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.cache: dict[tuple[str, str], bytes] = {}
        self.with_id = self.unknown = 0

    def annotation(self, msgid: str, text: bytes) -> bytes:
        """The lines to add after a record of @msgid with the text @text."""
        key = (msgid, classify(text))
        if key not in self.cache:
            sites = self.db.lookup(msgid)
            out = ["  ?? (%s) is not in the database: built from another "
                   "kernel?\n" % msgid] if not sites else []
            for s in sites[:MAX_SITES]:
                cls = key[1] if key[1] != CLASS_NONE else s.msg_class
                out.append("  -> %s:%d %s <%s>%s%s\n" % (
                    s.file, s.line, s.function, s.level,
                    "" if s.module in ("", "vmlinux") else " [%s]" % s.module,
                    " [%s]" % cls if cls != CLASS_NONE else ""))
            if len(sites) > MAX_SITES:
                out.append("  -> ... and %d more call sites (msgid-db.py "
                           "lookup %s)\n" % (len(sites) - MAX_SITES, msgid))
            self.cache[key] = "".join(out).encode("utf-8", "backslashreplace")
        self.with_id += 1
        self.unknown += self.cache[key].startswith(b"  ??")
        return self.cache[key]

    def annotate(self, f: BinaryIO, out: BinaryIO) -> None:
        """Copy the lines of @f to @out, each record's annotation after
        it and after the lines that start with a space."""
        pending = b""
        try:
            for line, idle in read_lines(f):
                m = ID_RE.search(line)
                if pending and (m or not line.startswith(b" ")):
                    out.write(pending)
                    pending = b""
                out.write(line)
                if m:
                    pending = (b"" if line.endswith(b"\n") else b"\n") + \
                        self.annotation(m.group("id").decode(),
                                        line[m.end():].rstrip(b"\r\n"))
                if idle:
                    out.write(pending)
                    out.flush()
                    pending = b""
        finally:
            out.write(pending)
            out.flush()
