# SPDX-License-Identifier: GPL-2.0
"""The lines of the logs annotate reads: files, standard input, pipes,
/dev/kmsg.

A regular file is read through Python's buffered reader.  A pipe, a
terminal or /dev/kmsg is read as its data comes (os.read() returns what
is there), so that every line is out as soon as it is written
(``dmesg -w | msgid-db.py annotate``); idle() says when no further line
is ready, the moment to flush the output.
"""

import os
import select
import stat
import sys
from typing import BinaryIO, Callable, Iterator, Optional

from msgid_tools.core.ids import InputError

#: How long a pipe may stay silent before the output is flushed.
IDLE_SECONDS = 0.01
CHUNK = 1 << 16


def lines(f: BinaryIO) -> Iterator[bytes]:
    """Yield the lines of @f.

    A reader of /dev/kmsg gets EPIPE when records it has not read yet were
    overwritten; the next read() returns the oldest record still there.
    """
    while True:
        try:
            yield from f
            return
        except BrokenPipeError:
            continue


class LogFiles:
    """Iterate over the lines of @paths ("-" or none: standard input).

    @opener opens a path (tests replace it)."""

    def __init__(self, paths: list[str],
                 opener: Optional[Callable[..., BinaryIO]] = None) -> None:
        self.paths = paths or ["-"]
        self.opener = opener or open
        self._fd: Optional[int] = None    # the stream read with os.read()
        self._buf = b""     # read, not yet yielded from self._pos on
        self._pos = 0

    def idle(self) -> bool:
        """Whether no further line is ready to read (a live stream that
        has nothing more yet); never for a regular file."""
        if self._fd is None or self._buf.find(b"\n", self._pos) >= 0:
            return False
        try:
            ready, _, _ = select.select([self._fd], [], [], IDLE_SECONDS)
        except (OSError, ValueError):
            return True
        return not ready

    def __iter__(self) -> Iterator[bytes]:
        for path in self.paths:
            if path == "-":
                if sys.stdin is None:
                    raise InputError("standard input is closed")
                yield from self._read(sys.stdin.buffer, "<stdin>")
                continue
            try:
                f = self.opener(path, "rb")
            except OSError as e:
                raise InputError("%s: %s" % (path, e.strerror)) from None
            with f:
                try:
                    yield from self._read(f, path)
                except IsADirectoryError:
                    raise InputError("%s: Is a directory" % path) from None
                except OSError as e:
                    if isinstance(e, BrokenPipeError):
                        raise
                    raise InputError("%s: %s" % (path, e.strerror or e)) \
                        from None

    def _read(self, f: BinaryIO, path: str) -> Iterator[bytes]:
        try:
            fd = f.fileno()
            mode = os.fstat(fd).st_mode
        except (AttributeError, OSError, ValueError):
            yield from lines(f)     # not a real file (tests)
            return
        if stat.S_ISREG(mode):
            yield from self.file_lines(f, path)
            return
        if stat.S_ISDIR(mode):
            raise InputError("%s: Is a directory" % path)
        self._fd = fd
        try:
            yield from self._stream(fd, path)
        finally:
            self._fd = None
            self._buf = b""
            self._pos = 0

    def file_lines(self, f: BinaryIO, path: str) -> Iterator[bytes]:
        """The lines of the regular file @f, named @path."""
        return lines(f)

    def chunks(self, fd: int, path: str) -> Iterator[bytes]:
        """The data of the stream @fd, named @path, as it comes."""
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except (BrokenPipeError, InterruptedError):
                continue        # /dev/kmsg: records were overwritten
            if not chunk:
                return
            yield chunk

    def _stream(self, fd: int, path: str) -> Iterator[bytes]:
        """A pipe, terminal or /dev/kmsg: each line as soon as it is
        there."""
        for chunk in self.chunks(fd, path):
            self._buf = self._buf[self._pos:] + chunk
            self._pos = 0
            while True:
                nl = self._buf.find(b"\n", self._pos)
                if nl < 0:
                    break
                line = self._buf[self._pos:nl + 1]
                self._pos = nl + 1
                yield line
        if self._pos < len(self._buf):
            line, self._buf, self._pos = self._buf[self._pos:], b"", 0
            yield line
