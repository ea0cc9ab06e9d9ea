# SPDX-License-Identifier: GPL-2.0
"""Kernel modules (ET_REL *.ko files): their relocations and names.

A module's .printk_index and the pi_entry structures it points to hold
zeroes plus relocations.  elf.ElfFile gives every section of a
relocatable file a synthetic address and calls relocate() for the data
of a section; the absolute pointer-sized relocations are applied for
x86, arm and riscv (REL and RELA).
"""

import os
import struct
from typing import Iterator, Optional

from msgid_tools.elf import SHT_REL, SHT_RELA, SHT_SYMTAB, ElfFile, Section

EM_386 = 3
EM_ARM = 40
EM_X86_64 = 62
EM_AARCH64 = 183
EM_RISCV = 243

#: Absolute pointer-sized relocation types per machine: {type: size}.
ABS_RELOCS: dict[int, dict[int, int]] = {
    EM_X86_64: {1: 8, 10: 4},           # R_X86_64_64, R_X86_64_32
    EM_AARCH64: {257: 8, 258: 4},       # R_AARCH64_ABS64, R_AARCH64_ABS32
    EM_386: {1: 4},                     # R_386_32
    EM_ARM: {2: 4},                     # R_ARM_ABS32
    EM_RISCV: {1: 4, 2: 8},             # R_RISCV_32, R_RISCV_64
}


def relocate(image: ElfFile, idx: int, data: bytes) -> bytes:
    """Apply absolute REL/RELA relocations targeting section @idx of
    @image, whose contents are @data."""
    relocs = [s for s in image.sections
              if s.type in (SHT_RELA, SHT_REL) and s.info == idx]
    if not relocs:
        return data
    kinds = ABS_RELOCS.get(image.machine)
    if kinds is None:
        raise image.error("relocations for machine %d not supported"
                          % image.machine)
    out = bytearray(data)
    for rel in relocs:
        symvals = _symbol_values(image, rel.link)
        for off, typ, sym, addend in relocations(image, rel):
            size = kinds.get(typ)
            if size is None or off + size > len(out):
                continue
            fmt = image.endian + ("Q" if size == 8 else "I")
            if addend is None:  # SHT_REL: implicit addend
                addend = struct.unpack_from(fmt, out, off)[0]
            value = symvals[sym] + addend if sym < len(symvals) else 0
            struct.pack_into(fmt, out, off, value & ((1 << size * 8) - 1))
    return bytes(out)


def relocations(image: ElfFile, rel: Section
                ) -> Iterator[tuple[int, int, int, Optional[int]]]:
    """(offset, type, symbol, addend; None for SHT_REL) of each entry of
    the relocation section @rel."""
    is_rela = rel.type == SHT_RELA
    if image.is64:
        fmt, shift, mask = "QQq" if is_rela else "QQ", 32, 0xffffffff
    else:
        fmt, shift, mask = "IIi" if is_rela else "II", 8, 0xff
    fmt = image.endian + fmt
    step = rel.entsize or struct.calcsize(fmt)
    if step < struct.calcsize(fmt):
        raise image.error("bad relocation entry size in %s" % rel.name)
    for pos in range(rel.offset, rel.offset + rel.size - step + 1, step):
        entry = image.unpack(fmt, pos, "relocation")
        info = entry[1]
        yield (entry[0], info & mask, info >> shift,
               entry[2] if is_rela else None)


def _symbol_values(image: ElfFile, symtab_idx: int) -> list[int]:
    """Return the synthetic address of every symbol in a symtab."""
    if symtab_idx >= len(image.sections):
        raise image.error("bad symbol table index")
    tab = image.sections[symtab_idx]
    if tab.type != SHT_SYMTAB:
        raise image.error("relocation without symbol table")
    if image.is64:
        fmt, vpos, spos = "IBBHQQ", 4, 3
    else:
        fmt, vpos, spos = "IIIBBH", 1, 5
    fmt = image.endian + fmt
    step = tab.entsize or struct.calcsize(fmt)
    values = []
    for pos in range(tab.offset, tab.offset + tab.size - step + 1, step):
        sym = image.unpack(fmt, pos, "symbol")
        shndx = sym[spos]
        base = (image.sections[shndx].addr
                if 0 < shndx < len(image.sections) else 0)
        values.append(base + sym[vpos] if shndx < 0xff00 else sym[vpos])
    return values


def modinfo(image: ElfFile, key: str) -> Optional[str]:
    """Return the value of @key in .modinfo, if any."""
    idx = image.section(".modinfo")
    if idx is None:
        return None
    prefix = key.encode() + b"="
    for item in image.section_data(idx).split(b"\0"):
        if item.startswith(prefix):
            return item[len(prefix):].decode("utf-8", "replace")
    return None


def module_name(image: ElfFile, path: str) -> str:
    """Return a module's name from .modinfo, else from its file name."""
    name = modinfo(image, "name")
    if name:
        return name
    base = os.path.basename(path)
    for ext in (".gz", ".xz", ".zst", ".ko"):
        if base.endswith(ext):
            base = base[:-len(ext)]
    return base.replace("-", "_")
