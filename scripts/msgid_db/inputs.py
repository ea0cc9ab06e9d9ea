# SPDX-License-Identifier: GPL-2.0
"""The lines of the logs annotate reads: files, standard input, pipes,
/dev/kmsg, compressed rotated logs.

A regular file is read through Python's buffered reader.  A pipe, a
terminal or /dev/kmsg is read as its data comes (os.read() returns what
is there), so that every line is out as soon as it is written
(``dmesg -w | msgid-db.py annotate``); idle() says when no further line
is ready, the moment to flush the output.

Rotated logs compressed by logrotate are read as they are: gzip (also
from a pipe), xz and bzip2 files; a zstd file, or a damaged compressed
file, is an InputError that says what to run instead.
"""

import bz2
import gzip
import lzma
import os
import select
import stat
import sys
import zlib
from typing import BinaryIO, Callable, Iterator, Optional

from msgid_db.ids import InputError

GZIP_MAGIC = b"\x1f\x8b"
XZ_MAGIC = b"\xfd7zXZ\x00"
BZIP2_MAGIC = b"BZh"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
#: How long a pipe may stay silent before the output is flushed.
IDLE_SECONDS = 0.01
CHUNK = 1 << 16


def _lines(f: BinaryIO) -> Iterator[bytes]:
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


def _damaged(path: str, kind: str, e: BaseException) -> InputError:
    return InputError("%s: damaged %s file (%s): check it with %s -t" % (
        path, kind, e, {"gzip": "gzip", "xz": "xz", "bzip2": "bzip2"}[kind]))


class LogInputs:
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
                yield from self._read(sys.stdin.buffer, "<stdin>",
                                      close=False)
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

    def _read(self, f: BinaryIO, path: str,
              close: bool = True) -> Iterator[bytes]:
        try:
            fd = f.fileno()
            mode = os.fstat(fd).st_mode
        except (AttributeError, OSError, ValueError):
            yield from _lines(f)     # not a real file (tests)
            return
        if stat.S_ISREG(mode):
            yield from self._file(f, path)
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

    def _file(self, f: BinaryIO, path: str) -> Iterator[bytes]:
        """A regular file, decompressed if it is compressed."""
        head = f.peek(6)[:6] if hasattr(f, "peek") else b""
        if head.startswith(ZSTD_MAGIC):
            raise InputError("%s: zstd-compressed: run zstdcat %s | "
                             "msgid-db.py annotate" % (path, path))
        if head.startswith(GZIP_MAGIC):
            kind, z = "gzip", gzip.GzipFile(fileobj=f)  # type: BinaryIO
        elif head.startswith(XZ_MAGIC):
            kind, z = "xz", lzma.LZMAFile(f)  # type: ignore[assignment]
        elif head[:3] == BZIP2_MAGIC and head[3:4].isdigit():
            kind, z = "bzip2", bz2.BZ2File(f)  # type: ignore[assignment]
        else:
            yield from _lines(f)
            return
        try:
            with z:
                yield from z
        except (EOFError, zlib.error, lzma.LZMAError, OSError) as e:
            # gzip.BadGzipFile and bz2's "Invalid data stream" are
            # OSErrors; a write error is not raised in here.
            raise _damaged(path, kind, e) from None

    def _stream(self, fd: int, path: str) -> Iterator[bytes]:
        """A pipe, terminal or /dev/kmsg: each line as soon as it is
        there (a gzip stream is decompressed on the way)."""
        inflate: Optional["zlib._Decompress"] = None
        first = True
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except BrokenPipeError:
                continue            # /dev/kmsg: records were overwritten
            except InterruptedError:
                continue
            if first and chunk.startswith(GZIP_MAGIC):
                inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
            first = False
            if not chunk:
                break
            if inflate is not None:
                try:
                    chunk = inflate.decompress(chunk)
                except zlib.error as e:
                    raise _damaged(path, "gzip", e) from None
            self._buf = self._buf[self._pos:] + chunk
            self._pos = 0
            while True:
                nl = self._buf.find(b"\n", self._pos)
                if nl < 0:
                    break
                line = self._buf[self._pos:nl + 1]
                self._pos = nl + 1
                yield line
        if inflate is not None and not inflate.eof:
            raise _damaged(path, "gzip", EOFError("cut short"))
        if self._pos < len(self._buf):
            line, self._buf, self._pos = self._buf[self._pos:], b"", 0
            yield line
