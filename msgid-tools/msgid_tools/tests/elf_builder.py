# SPDX-License-Identifier: GPL-2.0
"""Build tiny ELF files carrying a .printk_index, for the tests.

Independent of msgid_tools.elf: everything is packed by hand with struct.
"""

import struct
from dataclasses import dataclass, field
from typing import Optional

ET_EXEC, ET_REL = 2, 1
SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_RELA, SHT_REL = 1, 2, 3, 4, 9
SHF_ALLOC = 2
EM_386, EM_X86_64, EM_AARCH64 = 3, 62, 183


@dataclass
class Section:
    name: str
    type: int = SHT_PROGBITS
    data: bytes = b""
    addr: int = 0
    flags: int = SHF_ALLOC
    link: int = 0
    info: int = 0
    entsize: int = 0


@dataclass
class Entry:
    """A call site to put into the index."""

    fmt: Optional[bytes]
    func: bytes
    file: bytes
    line: int
    level: Optional[bytes] = None
    prefix: Optional[bytes] = None


@dataclass
class _Strings:
    data: bytearray = field(default_factory=bytearray)
    offsets: dict = field(default_factory=dict)

    def add(self, s: Optional[bytes]) -> Optional[int]:
        if s is None:
            return None
        if s not in self.offsets:
            self.offsets[s] = len(self.data)
            self.data += s + b"\0"
        return self.offsets[s]


def pack_elf(sections: list[Section], etype: int, machine: int,
             is64: bool = True, little: bool = True) -> bytes:
    """Return an ELF image with a NULL section, @sections and .shstrtab."""
    e = "<" if little else ">"
    names = bytearray(b"\0")
    name_off = []
    for s in sections + [Section(".shstrtab", SHT_STRTAB, flags=0)]:
        name_off.append(len(names))
        names += s.name.encode() + b"\0"
    all_secs = sections + [Section(".shstrtab", SHT_STRTAB, bytes(names),
                                   flags=0)]
    ehsize = 64 if is64 else 52
    shentsize = 64 if is64 else 40
    body = bytearray()
    offsets = []
    for s in all_secs:
        while (ehsize + len(body)) % 8:
            body.append(0)
        offsets.append(ehsize + len(body))
        body += s.data
    while (ehsize + len(body)) % 8:
        body.append(0)
    shoff = ehsize + len(body)
    shnum = len(all_secs) + 1
    ident = b"\x7fELF" + bytes([2 if is64 else 1, 1 if little else 2, 1]) \
        + b"\0" * 9
    if is64:
        hdr = struct.pack(e + "HHIQQQIHHHHHH", etype, machine, 1, 0, 0, shoff,
                          0, ehsize, 0, 0, shentsize, shnum, shnum - 1)
        shfmt = e + "IIQQQQIIQQ"
    else:
        hdr = struct.pack(e + "HHIIIIIHHHHHH", etype, machine, 1, 0, 0, shoff,
                          0, ehsize, 0, 0, shentsize, shnum, shnum - 1)
        shfmt = e + "IIIIIIIIII"
    shdrs = struct.pack(shfmt, *([0] * 10))
    for s, name, off in zip(all_secs, name_off, offsets):
        shdrs += struct.pack(shfmt, name, s.type, s.flags, s.addr, off,
                             len(s.data), s.link, s.info, 8, s.entsize)
    return ident + hdr + bytes(body) + shdrs


def build_exec(entries: list[Entry], is64: bool = True, little: bool = True,
               base: int = 0xffffffff81000000,
               extra: bytes = b"", index: bool = True) -> bytes:
    """vmlinux-like ET_EXEC: absolute pointers resolved at link time.
    @extra is appended to the strings; index=False leaves out the
    .printk_index section (a kernel built without CONFIG_PRINTK_INDEX)."""
    e = "<" if little else ">"
    ptr = "Q" if is64 else "I"
    if not is64:
        base &= 0xffffffff
    strings = _Strings()
    for ent in entries:
        for s in (ent.fmt, ent.func, ent.file, ent.level, ent.prefix):
            strings.add(s)
    strings.data += extra
    str_addr = base
    entry_addr = base + 0x10000
    index_addr = base + 0x20000

    def p(s: Optional[bytes]) -> int:
        off = strings.add(s) if s is not None else None
        return 0 if off is None else str_addr + off

    structs = b"".join(
        struct.pack(e + ptr * 3 + "I" + ptr * 2, p(x.fmt), p(x.func),
                    p(x.file), x.line, p(x.level), p(x.prefix))
        for x in entries)
    size = len(structs) // max(len(entries), 1)
    pointers = b"".join(struct.pack(e + ptr, entry_addr + i * size)
                        for i in range(len(entries)))
    sections = [
        Section(".rodata.str", data=bytes(strings.data), addr=str_addr),
        Section(".rodata", data=structs, addr=entry_addr),
    ]
    if index:
        sections.append(Section(".printk_index", data=pointers,
                                addr=index_addr))
    return pack_elf(sections, ET_EXEC, EM_X86_64 if is64 else EM_386, is64,
                    little)


def build_rel(entries: list[Entry], machine: int = EM_X86_64,
              is64: bool = True, modinfo: Optional[bytes] = None) -> bytes:
    """Module-like ET_REL: zero pointers plus RELA (64) / REL (32) relocs."""
    ptr = "<Q" if is64 else "<I"
    psize = 8 if is64 else 4
    abs_type = {EM_X86_64: 1, EM_AARCH64: 257, EM_386: 1}[machine]
    strings = _Strings()
    for ent in entries:
        for s in (ent.fmt, ent.func, ent.file, ent.level, ent.prefix):
            strings.add(s)
    esize = 3 * psize + 4 + 2 * psize
    structs = bytearray()
    str_relocs = []   # (offset in .data.rel.ro, addend in .rodata.str)
    for i, x in enumerate(entries):
        base = i * esize
        structs += b"\0" * esize
        struct.pack_into("<I", structs, base + 3 * psize, x.line)
        fields = [(0, x.fmt), (psize, x.func), (2 * psize, x.file),
                  (3 * psize + 4, x.level), (4 * psize + 4, x.prefix)]
        for off, s in fields:
            if s is not None:
                str_relocs.append((base + off, strings.add(s)))
    index = b"\0" * (psize * len(entries))
    idx_relocs = [(i * psize, i * esize) for i in range(len(entries))]
    # Section indices: 1 .rodata.str, 2 .data.rel.ro, 3 .printk_index,
    # 4 .rela.data.rel.ro, 5 .rela.printk_index, 6 .symtab, 7 .strtab,
    # 8 .modinfo
    if is64:
        syms = struct.pack("<IBBHQQ", 0, 0, 0, 0, 0, 0)
        for shndx in (1, 2):
            syms += struct.pack("<IBBHQQ", 0, 3, 0, shndx, 0, 0)
    else:
        syms = struct.pack("<IIIBBH", 0, 0, 0, 0, 0, 0)
        for shndx in (1, 2):
            syms += struct.pack("<IIIBBH", 0, 0, 0, 3, 0, shndx)

    def relocs(items: list[tuple[int, int]], sym: int) -> bytes:
        out = b""
        for off, addend in items:
            if is64:
                out += struct.pack("<QQq", off, (sym << 32) | abs_type, addend)
            else:
                out += struct.pack("<II", off, (sym << 8) | abs_type)
        return out

    if not is64:  # SHT_REL: the addend lives in the relocated field
        for off, addend in str_relocs:
            struct.pack_into(ptr, structs, off, addend)
        index = bytearray(index)
        for off, addend in idx_relocs:
            struct.pack_into(ptr, index, off, addend)
        index = bytes(index)
    rtype = SHT_RELA if is64 else SHT_REL
    rsize = 24 if is64 else 8
    rname = ".rela" if is64 else ".rel"
    sections = [
        Section(".rodata.str", data=bytes(strings.data)),
        Section(".data.rel.ro", data=bytes(structs)),
        Section(".printk_index", data=index),
        Section(rname + ".data.rel.ro", rtype, relocs(str_relocs, 1),
                flags=0, link=6, info=2, entsize=rsize),
        Section(rname + ".printk_index", rtype, relocs(idx_relocs, 2),
                flags=0, link=6, info=3, entsize=rsize),
        Section(".symtab", SHT_SYMTAB, syms, flags=0, link=7, info=3,
                entsize=24 if is64 else 16),
        Section(".strtab", SHT_STRTAB, b"\0", flags=0),
    ]
    if modinfo is not None:
        sections.append(Section(".modinfo", data=modinfo))
    return pack_elf(sections, ET_REL, machine, is64)


def build_bzimage(payload: bytes, setup_sects: int = 4,
                  trailer: bytes = b"") -> bytes:
    """x86 bzImage: boot sector + setup (boot protocol 2.15) and a
    protected-mode part holding @payload (a compressed vmlinux) at
    payload_offset, followed by @trailer (what the build appends)."""
    setup = bytearray((setup_sects + 1) * 512)
    setup[0x1f1] = setup_sects
    setup[0x1fe:0x200] = b"\x55\xaa"
    setup[0x202:0x206] = b"HdrS"
    struct.pack_into("<H", setup, 0x206, 0x020f)
    decompressor = b"\x90" * 0x3c8  # stands for the decompressor's code
    struct.pack_into("<II", setup, 0x248, len(decompressor),
                     len(payload) + len(trailer))
    return bytes(setup) + decompressor + payload + trailer


def build_module_calls(strings: list[bytes], calls: list[tuple[bytes, int,
                                                                str]],
                       func: bytes = b"probe_it") -> bytes:
    """x86_64 ET_REL module with one function @func in .text: for each
    (string, register, callee) of @calls, "mov $string, %reg" (R_X86_64_32S)
    then "call callee" (R_X86_64_PLT32). @strings go to .rodata.str1.1 too
    (unreferenced ones are only found if they carry a level).
    Registers: 0 %rdi, 1 %rsi, 2 %rdx."""
    movs = {0: b"\x48\xc7\xc7", 1: b"\x48\xc7\xc6", 2: b"\x48\xc7\xc2"}
    rodata = _Strings()
    for s in strings:
        rodata.add(s)
    for s, _, _ in calls:
        rodata.add(s)
    names = bytearray(b"\0")

    def name(n: bytes) -> int:
        names.extend(n + b"\0")
        return len(names) - len(n) - 1

    callees = sorted({c for _, _, c in calls})
    # Symbols: 0 null, 1 section .rodata.str1.1, 2 func, 3.. callees
    syms = struct.pack("<IBBHQQ", 0, 0, 0, 0, 0, 0)
    syms += struct.pack("<IBBHQQ", 0, 3, 0, 1, 0, 0)
    text = bytearray(b"\xf3\x0f\x1e\xfa")  # endbr64
    relas = b""
    for s, reg, callee in calls:
        text += movs[reg]
        relas += struct.pack("<QQq", len(text), (1 << 32) | 11,
                             rodata.add(s))
        text += b"\0" * 4
        text += b"\xe8"
        relas += struct.pack("<QQq", len(text),
                             ((3 + callees.index(callee)) << 32) | 4, -4)
        text += b"\0" * 4
    text += b"\xc3"
    syms += struct.pack("<IBBHQQ", name(func), 0x12, 0, 2, 0, len(text))
    for c in callees:
        syms += struct.pack("<IBBHQQ", name(c.encode()), 0x10, 0, 0, 0, 0)
    # Sections: 1 .rodata.str1.1, 2 .text, 3 .rela.text, 4 .symtab,
    # 5 .strtab
    return pack_elf([
        Section(".rodata.str1.1", data=bytes(rodata.data)),
        Section(".text", data=bytes(text), flags=SHF_ALLOC | 4),
        Section(".rela.text", SHT_RELA, relas, flags=0, link=4, info=2,
                entsize=24),
        Section(".symtab", SHT_SYMTAB, syms, flags=0, link=5, info=2,
                entsize=24),
        Section(".strtab", SHT_STRTAB, bytes(names), flags=0),
    ], ET_REL, EM_X86_64)


def kallsyms_tables(symbols: list[tuple[int, str, str]], at: int,
                    style: str) -> bytes:
    """The tables scripts/kallsyms.c writes for @symbols ((address,
    type, name), sorted by address), laid out from the 8-aligned address
    @at: kallsyms_num_syms, _names (one-byte lengths; each byte of a
    name is its own token), _markers, _token_table, _token_index,
    _offsets and, for @style "6.12" (x86_64 up to 6.13: labels aligned
    to 8, base - 1 - offset, then kallsyms_relative_base), nothing more
    for "7.3" (labels aligned to 4, offsets relative to each entry)."""
    out = bytearray()
    to = 8 if style == "6.12" else 4  # .balign of each label

    def align() -> None:
        out.extend(b"\0" * (-(at + len(out)) % to))

    out += struct.pack("<I", len(symbols))
    align()
    names = bytearray()
    markers = []
    for i, (_, kind, name) in enumerate(symbols):
        if i % 256 == 0:
            markers.append(len(names))
        text = (kind + name).encode()
        assert 0 < len(text) < 0x80
        names += bytes([len(text)]) + text
    out += names
    align()
    out += b"".join(struct.pack("<I", m) for m in markers)
    align()
    # The bytes of names are their own tokens (a kernel's names use every
    # digit and letter); the others are empty here.
    used = {b for _, kind, name in symbols for b in (kind + name).encode()}
    used |= set(range(0x21, 0x7f))
    table, index = bytearray(), []
    for i in range(256):
        index.append(len(table))
        table += (bytes([i]) if i in used else b"") + b"\0"
    out += table
    align()
    out += struct.pack("<256H", *index)
    align()
    offsets_at = at + len(out)
    base = min(addr for addr, _, _ in symbols)
    for i, (addr, _, _) in enumerate(symbols):
        if style == "6.12":
            out += struct.pack("<i", base - 1 - addr)
        else:
            out += struct.pack("<i", addr - (offsets_at + 4 * i))
    align()
    if style == "6.12":
        out += struct.pack("<Q", base)
    return bytes(out)


def build_exec_calls(calls: list[tuple[bytes, int, str]],
                     exports: tuple[str, ...] = ("_printk", "_dev_err"),
                     filler: bytes = b"",
                     base: int = 0xffffffff81000000,
                     kallsyms: Optional[str] = None,
                     caller: str = "quirk_passive_release") -> bytes:
    """Stripped x86_64 vmlinux (ET_EXEC, no symbols, no relocations): for
    each (string, register, callee) of @calls, "mov $string, %reg" (sign-
    extended imm32), @filler, then "call callee" (rel32). Every name of
    @exports is a function ("ret") exported through __ksymtab with 32-bit
    relative offsets; a callee not exported is a function that is not.
    Registers: 0 %rdi, 1 %rsi, 2 %rdx.  With @kallsyms ("6.12" or "7.3",
    kallsyms_tables()), .rodata ends in the kallsyms table of the
    functions, 16 bytes apart in name order, and the calling code, the
    function @caller, as in kernels built with CONFIG_KALLSYMS."""
    movs = {0: b"\x48\xc7\xc7", 1: b"\x48\xc7\xc6", 2: b"\x48\xc7\xc2"}
    text_addr, rodata_addr = base, base + 0x100000
    ksymtab_addr, kstr_addr = base + 0x200000, base + 0x300000
    rodata = _Strings()
    for s, _, _ in calls:
        rodata.add(s)
    names = sorted(set(exports) | {c for _, _, c in calls})
    func_addr = {n: text_addr + 16 * i for i, n in enumerate(names)}
    text = bytearray(b"\xc3" + b"\xcc" * 15) * len(names)  # ret, int3...
    for s, reg, callee in calls:
        text += movs[reg] + struct.pack("<i", rodata_addr + rodata.add(s)
                                        - (1 << 64)) + filler + b"\xe8"
        text += struct.pack("<i", func_addr[callee]
                            - (text_addr + len(text) + 4))
    rodata_bytes = bytes(rodata.data)
    if kallsyms:
        rodata_bytes += b"\0" * (-len(rodata_bytes) % 8)
        syms = [(func_addr[n], "T", n) for n in names]
        syms.append((text_addr + 16 * len(names), "t", caller))
        rodata_bytes += kallsyms_tables(
            syms, rodata_addr + len(rodata_bytes), kallsyms)
    kstr = _Strings()
    ksymtab = b""
    for n in exports:
        entry = ksymtab_addr + len(ksymtab)
        ksymtab += struct.pack("<iii", func_addr[n] - entry,
                               kstr_addr + kstr.add(n.encode()) - entry - 4,
                               0)
    return pack_elf([
        Section(".text", data=bytes(text), addr=text_addr,
                flags=SHF_ALLOC | 4),
        Section(".rodata", data=rodata_bytes, addr=rodata_addr),
        Section("__ksymtab", data=ksymtab, addr=ksymtab_addr),
        Section("__ksymtab_strings", data=bytes(kstr.data), addr=kstr_addr),
    ], ET_EXEC, EM_X86_64)


def build_module_dyndbg(entries: list[tuple[bytes, bytes, bytes, int]],
                        modname: bytes = b"dbgmod", size: int = 56) -> bytes:
    """x86_64 ET_REL module with a __dyndbg section: one struct _ddebug
    of @size bytes (56 with CONFIG_JUMP_LABEL) per (format, function,
    file, line) of @entries, its pointers as R_X86_64_64 relocations
    against .rodata.str1.1."""
    rodata = _Strings()
    table = bytearray()
    relas = b""
    for fmt, func, file, line in entries:
        base = len(table)
        entry = bytearray(size)
        struct.pack_into("<I", entry, 32, line | (0 << 18))
        table += entry
        for i, s in enumerate((modname, func, file, fmt)):
            # Symbol 1 is the section symbol of .rodata.str1.1.
            relas += struct.pack("<QQq", base + 8 * i, (1 << 32) | 1,
                                 rodata.add(s))
    syms = struct.pack("<IBBHQQ", 0, 0, 0, 0, 0, 0)
    syms += struct.pack("<IBBHQQ", 0, 3, 0, 1, 0, 0)
    # Sections: 1 .rodata.str1.1, 2 __dyndbg, 3 .rela__dyndbg, 4 .symtab,
    # 5 .strtab
    return pack_elf([
        Section(".rodata.str1.1", data=bytes(rodata.data)),
        Section("__dyndbg", data=bytes(table), flags=SHF_ALLOC | 1),
        Section(".rela__dyndbg", SHT_RELA, relas, flags=0, link=4, info=2,
                entsize=24),
        Section(".symtab", SHT_SYMTAB, syms, flags=0, link=5, info=2,
                entsize=24),
        Section(".strtab", SHT_STRTAB, b"\0", flags=0),
    ], ET_REL, EM_X86_64)
