# SPDX-License-Identifier: GPL-2.0
"""The logs annotate reads, compressed rotated logs too.

LogInputs is logfiles.LogFiles (files, standard input, pipes,
/dev/kmsg) that also reads the rotated logs logrotate compressed, as
they are: gzip (also from a pipe), xz and bzip2 files; a zstd file, or a
damaged compressed file, is an InputError that says what to run instead.
"""

import bz2
import gzip
import itertools
import lzma
import zlib
from typing import BinaryIO, Iterator

from msgid_db.ids import InputError
from msgid_db.logfiles import LogFiles

GZIP_MAGIC = b"\x1f\x8b"
XZ_MAGIC = b"\xfd7zXZ\x00"
BZIP2_MAGIC = b"BZh"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def _damaged(path: str, kind: str, e: BaseException) -> InputError:
    return InputError("%s: damaged %s file (%s): check it with %s -t" % (
        path, kind, e, {"gzip": "gzip", "xz": "xz", "bzip2": "bzip2"}[kind]))


class LogInputs(LogFiles):
    """Iterate over the lines of @paths ("-" or none: standard input),
    decompressed if they are compressed."""

    def file_lines(self, f: BinaryIO, path: str) -> Iterator[bytes]:
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
            yield from super().file_lines(f, path)
            return
        try:
            with z:
                yield from z
        except (EOFError, zlib.error, lzma.LZMAError, OSError) as e:
            # gzip.BadGzipFile and bz2's "Invalid data stream" are
            # OSErrors; a write error is not raised in here.
            raise _damaged(path, kind, e) from None

    def chunks(self, fd: int, path: str) -> Iterator[bytes]:
        """The data of a stream, inflated if it is a gzip stream."""
        data = super().chunks(fd, path)
        first = next(data, b"")
        if not first.startswith(GZIP_MAGIC):
            if first:
                yield first
            yield from data
            return
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        for chunk in itertools.chain((first,), data):
            try:
                yield inflate.decompress(chunk)
            except zlib.error as e:
                raise _damaged(path, "gzip", e) from None
        if not inflate.eof:
            raise _damaged(path, "gzip", EOFError("cut short"))
