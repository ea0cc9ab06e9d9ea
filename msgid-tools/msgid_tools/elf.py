# SPDX-License-Identifier: GPL-2.0
"""ELF files as msgid-tools reads them: the kernel tree's reader
(scripts/msgid_db/elf.py), which reads a vmlinux, plus compressed kernel
images and modules (image.py) and the relocations of modules
(modules.py)."""

from msgid_db import elf as _core
from msgid_db.elf import (  # noqa: F401 (what this module offers)
    ET_REL, SHT_NOBITS, SHT_REL, SHT_RELA, SHT_SYMTAB, ElfError, IndexEntry,
    Section)


class ElfFile(_core.ElfFile):
    """An ELF file: a vmlinux, a kernel module (relocated), or either
    compressed (bzImage, *.ko.xz ...)."""

    @classmethod
    def from_path(cls, path: str) -> "ElfFile":
        """Read the ELF file, compressed kernel image or module @path."""
        from msgid_tools import image
        return cls(image.read(path), path)

    def relocate(self, idx: int, data: bytes) -> bytes:
        """@data, section @idx of a module, with its relocations applied."""
        from msgid_tools import modules
        return modules.relocate(self, idx, data)
