# SPDX-License-Identifier: GPL-2.0
"""Read the printk index (.printk_index section) from ELF files.

.printk_index is an array of pointers to struct pi_entry
(include/linux/printk.h)::

    struct pi_entry {
            const char *fmt, *func, *file;
            unsigned int line;
            const char *level, *subsys_fmt_prefix;
    } __packed;

In vmlinux (ET_EXEC) the pointers are absolute virtual addresses.  32- and
64-bit, little- and big-endian files are supported.  Modules (ET_REL) hold
zeroes plus relocations: every section gets a synthetic address here,
and ElfFile.relocate() refuses them (msgid-db.py reads a vmlinux).
"""

import bisect
import re
import struct
from dataclasses import dataclass
from typing import Optional

from msgid_db.ids import InputError

ET_REL = 1
SHT_SYMTAB = 2
SHT_RELA = 4
SHT_NOBITS = 8
SHT_REL = 9

_BANNER_RE = re.compile(rb"Linux version (\d+\.\d+[!-~]{0,120}) \(")
_REL_BASE = 0x100000  # synthetic load address of the first ET_REL section


class ElfError(InputError):
    """A file is not a readable ELF image (message names the file)."""


@dataclass
class IndexEntry:
    """One struct pi_entry, with its strings resolved (None for NULL)."""

    fmt: Optional[bytes]
    func: Optional[bytes]
    file: Optional[bytes]
    line: int
    level: Optional[bytes]
    subsys_fmt_prefix: Optional[bytes]


@dataclass
class Section:
    name: str
    type: int
    flags: int
    addr: int
    offset: int
    size: int
    link: int
    info: int
    entsize: int


class ElfFile:
    """Minimal ELF reader: section headers, relocations, string lookup."""

    def __init__(self, data: bytes, name: str = "<elf>") -> None:
        self.name = name
        self.data = data
        if len(data) < 16 or data[:4] != b"\x7fELF":
            raise self.error("not an ELF file")
        if data[4] not in (1, 2) or data[5] not in (1, 2):
            raise self.error("unsupported ELF class/encoding")
        self.is64 = data[4] == 2
        self.endian = "<" if data[5] == 1 else ">"
        self.ptr_size = 8 if self.is64 else 4
        hdr = self.endian + ("HHIQQQIHHHHHH" if self.is64 else "HHIIIIIHHHHHH")
        fields = self.unpack(hdr, 16, "ELF header")
        (self.type, self.machine, _, _, _, shoff, _, _, _, _,
         shentsize, shnum, shstrndx) = fields
        self.sections = self._read_sections(shoff, shentsize, shnum, shstrndx)
        self._by_name = {s.name: i for i, s in enumerate(self.sections)}
        self._cache: dict[int, bytes] = {}
        self._map_addresses()

    @classmethod
    def from_path(cls, path: str) -> "ElfFile":
        """Read the ELF file @path."""
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise ElfError("%s: %s" % (path, e.strerror)) from None
        if not data.startswith(b"\x7fELF"):
            raise ElfError("%s: not an ELF file (give the vmlinux)" % path)
        return cls(data, path)

    def error(self, what: str) -> ElfError:
        """The error @what about this file."""
        return ElfError("%s: %s" % (self.name, what))

    def unpack(self, fmt: str, offset: int, what: str) -> tuple:
        """struct.unpack_from() of @fmt at @offset; @what names it in
        the error of a truncated file."""
        try:
            return struct.unpack_from(fmt, self.data, offset)
        except struct.error:
            raise self.error("truncated ELF (%s at offset %#x)"
                              % (what, offset)) from None

    def _read_sections(self, shoff: int, shentsize: int, shnum: int,
                       shstrndx: int) -> list[Section]:
        fmt = self.endian + ("IIQQQQIIQQ" if self.is64 else "IIIIIIIIII")
        if shnum == 0 or shoff == 0:
            raise self.error("no section headers")
        if shentsize < struct.calcsize(fmt):
            raise self.error("bad section header size %d" % shentsize)
        if shoff + shnum * shentsize > len(self.data):
            raise self.error("truncated ELF (section headers beyond end "
                              "of file)")
        raw = []
        for i in range(shnum):
            (name, typ, flags, addr, off, size, link, info, _,
             entsize) = self.unpack(fmt, shoff + i * shentsize, "section")
            if typ != SHT_NOBITS and off + size > len(self.data):
                raise self.error("truncated ELF (section %d beyond end of "
                                  "file)" % i)
            raw.append((name, Section("", typ, flags, addr, off, size, link,
                                       info, entsize)))
        if shstrndx >= shnum:
            raise self.error("bad section name table index")
        strtab = raw[shstrndx][1]
        for name, sec in raw:
            sec.name = self._cstr(strtab.offset + name,
                                  strtab.offset + strtab.size).decode(
                                      "ascii", "replace")
        return [sec for _, sec in raw]

    def _cstr(self, start: int, end: int) -> bytes:
        stop = self.data.find(b"\0", start, end)
        if stop < 0:
            raise self.error("unterminated string at offset %#x" % start)
        return self.data[start:stop]

    def _map_addresses(self) -> None:
        """Give each section an address; ET_REL gets synthetic ones."""
        self.is_rel = self.type == ET_REL
        if self.is_rel:
            addr = _REL_BASE
            for sec in self.sections:
                sec.addr = addr
                addr += (sec.size + 15) & ~15
        mapped = sorted((s.addr, i) for i, s in enumerate(self.sections)
                        if s.size and s.addr and s.type != SHT_NOBITS)
        self._starts = [a for a, _ in mapped]
        self._order = [i for _, i in mapped]

    def section(self, name: str) -> Optional[int]:
        """Return the index of section @name, or None."""
        return self._by_name.get(name)

    def section_data(self, idx: int) -> bytes:
        """Return the contents of section @idx with relocations applied."""
        if idx not in self._cache:
            sec = self.sections[idx]
            data = (b"" if sec.type == SHT_NOBITS
                    else self.data[sec.offset:sec.offset + sec.size])
            if self.is_rel:
                data = self.relocate(idx, data)
            self._cache[idx] = data
        return self._cache[idx]

    def relocate(self, idx: int, data: bytes) -> bytes:
        """@data, section @idx of a relocatable object, relocated: not
        done here (a kernel module's index is in the live printk index)."""
        raise self.error("a relocatable object (a kernel module): give the "
                         "vmlinux, or the printk index")

    def string_at(self, addr: int) -> Optional[bytes]:
        """Return the NUL-terminated string at virtual address @addr."""
        if not addr:
            return None
        pos = bisect.bisect_right(self._starts, addr) - 1
        if pos < 0:
            return None
        idx = self._order[pos]
        sec = self.sections[idx]
        off = addr - sec.addr
        if off >= sec.size:
            return None
        data = self.section_data(idx)
        end = data.find(b"\0", off)
        return data[off:end if end >= 0 else len(data)]

    def read_pointer_struct(self, addr: int, fmt: str) -> Optional[tuple]:
        """Unpack a struct of format @fmt located at address @addr."""
        pos = bisect.bisect_right(self._starts, addr) - 1
        if pos < 0:
            return None
        idx = self._order[pos]
        off = addr - self.sections[idx].addr
        data = self.section_data(idx)
        if off + struct.calcsize(fmt) > len(data):
            return None
        return struct.unpack_from(fmt, data, off)

    def printk_index(self) -> list[IndexEntry]:
        """Return all entries of the .printk_index section.

        Raises ElfError when the file has no such section.
        """
        idx = self.section(".printk_index")
        if idx is None:
            raise self.error("no .printk_index section (kernel built "
                              "without CONFIG_PRINTK_INDEX?)")
        ptr = self.endian + ("Q" if self.is64 else "I")
        entry_fmt = self.endian + ("QQQIQQ" if self.is64 else "IIIIII")
        data = self.section_data(idx)
        entries = []
        for (addr,) in struct.iter_unpack(ptr, data[:len(data) - len(data)
                                                   % self.ptr_size]):
            fields = self.read_pointer_struct(addr, entry_fmt)
            if fields is None:
                continue
            fmt, func, file, line, level, prefix = fields
            entries.append(IndexEntry(
                fmt=self.string_at(fmt), func=self.string_at(func),
                file=self.string_at(file), line=line,
                level=self.string_at(level),
                subsys_fmt_prefix=self.string_at(prefix)))
        return entries

    def kernel_release(self) -> Optional[str]:
        """Return the release from the "Linux version X (" banner, if any."""
        m = _BANNER_RE.search(self.data)
        return m.group(1).decode("ascii", "replace") if m else None
