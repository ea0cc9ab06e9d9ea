# SPDX-License-Identifier: GPL-2.0
"""Read the .printk_index of a vmlinux (32- or 64-bit, either byte order):
pointers, at the link addresses, to struct pi_entry (__packed) { fmt,
func, file, line, level, subsys_fmt_prefix } (include/linux/printk.h)."""

import bisect
import re
import struct
from typing import Iterator, Optional

from msgid_db.ids import CallSite, InputError, decode, level_of

_BANNER_RE = re.compile(rb"Linux version (\d+\.\d+[!-~]{0,120}) \(")


class ElfFile:
    """The sections of an ELF file and the strings at their addresses."""

    def __init__(self, path: str) -> None:
        self.name = path
        try:
            with open(path, "rb") as f:
                self.data = data = f.read()
        except OSError as e:
            raise InputError("%s: %s" % (path, e.strerror)) from None
        if data[:4] != b"\x7fELF" or data[4:5] not in (b"\1", b"\2"):
            raise self.error("not an ELF file (give the vmlinux)")
        self.is64 = data[4] == 2
        self.endian = "<" if data[5:6] == b"\1" else ">"
        if self.unpack("H", 16)[0] == 1:
            raise self.error("a relocatable object (a kernel module): give "
                             "the vmlinux, or the printk index")
        shoff, shentsize, shnum, shstrndx = (
            self.unpack("Q", 40) + self.unpack("HHH", 58) if self.is64
            else self.unpack("I", 32) + self.unpack("HHH", 46))
        fmt = "IIQQQQ" if self.is64 else "IIIIII"
        if not shnum or shentsize < struct.calcsize(fmt) or shstrndx >= shnum:
            raise self.error("no usable section headers")
        heads = [self.unpack(fmt, shoff + i * shentsize)
                 for i in range(shnum)]
        if any(typ != 8 and off + size > len(data)  # 8: SHT_NOBITS
               for _, typ, _, _, off, size in heads):
            raise self.error("truncated ELF (a section beyond the end)")
        #: (name, address, offset, size) of each section holding data
        self.sections = [(self.cstr(heads[shstrndx][4] + name), addr, off,
                          size) for name, typ, _, addr, off, size in heads
                         if typ != 8]
        self.mapped = sorted(s[1:] for s in self.sections if s[1] and s[3])
        self.starts = [addr for addr, _, _ in self.mapped]

    def error(self, what: str) -> InputError:
        return InputError("%s: %s" % (self.name, what))

    def unpack(self, fmt: str, offset: int) -> tuple:
        """struct.unpack_from() of @fmt at file offset @offset."""
        try:
            return struct.unpack_from(self.endian + fmt, self.data, offset)
        except (struct.error, OverflowError):
            raise self.error("truncated ELF (at %#x)" % offset) from None

    def cstr(self, offset: int) -> bytes:
        """The NUL-terminated string at file offset @offset."""
        end = self.data.find(b"\0", offset)
        return self.data[offset:end] if end >= 0 else b""

    def offset(self, addr: int, size: int = 1) -> Optional[int]:
        """The file offset of @size bytes at address @addr, or None."""
        pos = bisect.bisect_right(self.starts, addr) - 1
        if not addr or pos < 0:
            return None
        start, off, length = self.mapped[pos]
        return off + addr - start if addr + size <= start + length else None

    def string(self, addr: int) -> Optional[bytes]:
        off = self.offset(addr)         # None for NULL or outside
        return None if off is None else self.cstr(off)

    def printk_index(self) -> Iterator[CallSite]:
        """The call sites of the .printk_index section."""
        sec = next((s for s in self.sections if s[0] == b".printk_index"),
                   None)
        if sec is None:
            raise self.error("no .printk_index section (kernel built "
                             "without CONFIG_PRINTK_INDEX?)")
        ptr, entry = ("Q", "QQQIQ") if self.is64 else ("I", "IIIII")
        step = struct.calcsize(ptr)
        for pos in range(sec[2], sec[2] + sec[3] - step + 1, step):
            where = self.offset(self.unpack(ptr, pos)[0],
                                struct.calcsize("<" + entry))
            fields = self.unpack(entry, where) if where is not None else None
            text = self.string(fields[0]) if fields else None
            if fields and text is not None:
                yield CallSite.from_format(
                    text, decode(self.string(fields[2]) or b"?"), fields[3],
                    decode(self.string(fields[1]) or b"?"), "vmlinux",
                    "elf", level_of(text, self.string(fields[4])))

    def kernel_release(self) -> Optional[str]:
        """The release of the "Linux version X (" banner, if any."""
        m = _BANNER_RE.search(self.data)
        return m.group(1).decode("ascii", "replace") if m else None
