# SPDX-License-Identifier: GPL-2.0
"""Turn the kernel files distributions ship into ELF bytes.

- a vmlinux (ELF) is returned as is;
- an x86 bzImage ("HdrS" boot header) holds the ELF vmlinux compressed
  behind payload_offset/payload_length: gzip, xz, lzma and bzip2 payloads
  are decompressed with the standard library, zstd and lz4 ones with the
  zstd/lz4 programs;
- modules *.ko, *.ko.gz, *.ko.xz, *.ko.zst the same way, by magic number.

Every failure is an ImageError with a one-line message naming the file.
"""

import bz2
import lzma
import shutil
import struct
import subprocess
import zlib

from msgid_tools.elf import ElfError

#: Magic numbers of the compressed formats, as the kernel writes them.
MAGICS: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "gzip"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"BZh", "bzip2"),
    (b"\x02\x21\x4c\x18", "lz4"),      # lz4 legacy frame (kernel's lz4 -l)
    (b"\x04\x22\x4d\x18", "lz4"),
    (b"\x5d\x00\x00", "lzma"),
)
#: Programs for the formats Python cannot read, and their Debian package.
PROGRAMS = {"zstd": ("zstd", "zstd"), "lz4": ("lz4", "lz4")}
MODULE_SUFFIXES = (".ko", ".ko.gz", ".ko.xz", ".ko.zst")


#: Compression of modules by file name (kmod's suffixes).
SUFFIXES = {".gz": "gzip", ".xz": "xz", ".zst": "zstd"}


class ImageError(ElfError):
    """A kernel image or module cannot be read (message names the file)."""


def compression(data: bytes) -> str:
    """Return the compressed format of @data by magic, or ""."""
    for magic, name in MAGICS:
        if data.startswith(magic):
            return name
    return ""


def decompress(data: bytes, name: str, what: str) -> bytes:
    """Decompress @data of format @name; @what names the file in errors."""
    try:
        if name == "gzip":
            # The kernel's payload may be followed by other data (the size
            # appended by the build): read one member, ignore the rest.
            d = zlib.decompressobj(16 + zlib.MAX_WBITS)
            out = d.decompress(data)
            if not d.eof:
                raise EOFError("compressed data ended early")
            return out
        if name in ("xz", "lzma"):
            fmt = lzma.FORMAT_XZ if name == "xz" else lzma.FORMAT_ALONE
            d = lzma.LZMADecompressor(fmt)
            out = d.decompress(data)
            if not d.eof and name == "xz":
                raise EOFError("compressed data ended early")
            return out
        if name == "bzip2":
            d = bz2.BZ2Decompressor()
            out = d.decompress(data)
            if not d.eof:
                raise EOFError("compressed data ended early")
            return out
        if name in PROGRAMS:
            return _run_program(data, name, what)
    except (OSError, EOFError, lzma.LZMAError, zlib.error, ValueError) as e:
        raise ImageError("%s: cannot decompress %s data: %s"
                         % (what, name, e)) from None
    raise ImageError("%s: unknown compression %s" % (what, name))


def _run_program(data: bytes, name: str, what: str) -> bytes:
    prog, package = PROGRAMS[name]
    if shutil.which(prog) is None:
        raise ImageError("%s: %s-compressed; the '%s' program is needed "
                         "(Debian package %s)" % (what, name, prog, package))
    proc = subprocess.run([prog, "-d", "-c", "-q"], input=data,
                          capture_output=True, check=False)
    # zstd stops with an error on the bytes the kernel appends after the
    # frame (the decompressed size) but has written the whole frame.
    if proc.returncode != 0 and not proc.stdout.startswith(b"\x7fELF"):
        err = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ImageError("%s: cannot decompress %s data: %s"
                         % (what, name, err[-1] if err else "%s failed"
                            % prog))
    return proc.stdout


def bzimage_payload(data: bytes) -> bytes:
    """Return the compressed payload of an x86 bzImage, or b""."""
    if len(data) < 0x250 or data[0x202:0x206] != b"HdrS":
        return b""
    version = struct.unpack_from("<H", data, 0x206)[0]
    if version < 0x208:  # payload fields appeared in boot protocol 2.08
        return b""
    setup_sects = data[0x1f1] or 4
    offset, length = struct.unpack_from("<II", data, 0x248)
    start = (setup_sects + 1) * 512 + offset
    return data[start:start + length]


def to_elf(data: bytes, what: str) -> bytes:
    """Return the ELF file held by @data (ELF, compressed, or bzImage)."""
    if data.startswith(b"\x7fELF"):
        return data
    kind = compression(data)
    if kind:
        out = decompress(data, kind, what)
        if not out.startswith(b"\x7fELF"):
            raise ImageError("%s: %s data that is not an ELF file"
                             % (what, kind))
        return out
    payload = bzimage_payload(data)
    if payload:
        kind = compression(payload)
        if not kind:
            raise ImageError("%s: bzImage with an unknown payload format "
                             "(magic %s)" % (what, payload[:4].hex()))
        out = decompress(payload, kind, what + ": bzImage payload")
        if not out.startswith(b"\x7fELF"):
            raise ImageError("%s: the bzImage's %s payload is not an ELF "
                             "vmlinux" % (what, kind))
        return out
    raise ImageError("%s: not an ELF file, a compressed module or a "
                     "bzImage" % what)


def read(path: str) -> bytes:
    """Read @path and return the ELF bytes it holds (see to_elf())."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise ImageError("%s: %s" % (path, e.strerror)) from None
    for suffix, kind in SUFFIXES.items():
        if path.endswith(suffix) and compression(data) != kind:
            raise ImageError("%s: cannot decompress: not %s data (the "
                             "file is damaged or misnamed)" % (path, kind))
    return to_elf(data, path)
