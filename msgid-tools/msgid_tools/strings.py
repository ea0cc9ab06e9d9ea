# SPDX-License-Identifier: GPL-2.0
"""Printk formats found in a binary without a printk index.

Distribution kernels are built without CONFIG_PRINTK_INDEX.  What the
binary still holds are the format strings themselves:

- every NUL-terminated string of a .rodata/.rodata.str* section that
  starts with a log level (KERN_SOH + '0'..'7' or 'c'): pr_err(),
  printk(KERN_INFO ...) and everything built on them;
- in x86_64 modules (ET_REL, with relocations), the string loaded into
  the format argument's register right before a call to a printk-family
  function (_dev_err(dev, fmt), netdev_info(dev, fmt), ...): formats
  without a level.

- in an x86_64 vmlinux (ET_EXEC, stripped when taken out of a bzImage:
  no relocations, no symbol table), the string whose address is loaded
  into the format argument's register ("mov $imm32, %reg") shortly
  before a direct call or jump to a printk-family function; the
  functions' addresses come from the export table (__ksymtab), so only
  exported ones count.

Each is canonicalised and hashed by msgid_db.ids (origin "strings").  In
modules the relocation that loads the string, and the symbol table, give
the calling function; there is no file:line (file "?", line 0), and no
function in a stripped vmlinux.

With the kernel's System.map (Debian ships /boot/System.map-RELEASE
beside the image), a stripped vmlinux's rows name their function too:
the code that loads a string's address ("mov $imm32, %reg" into an
argument register) lies in the function whose text symbol precedes it,
and printk-family functions that are not exported become call targets.

One kind of format does come with its place: pr_debug(), dev_dbg() and
netdev_dbg() built with CONFIG_DYNAMIC_DEBUG (as distributions build)
have a struct _ddebug in the module's __dyndbg section, holding the
format, function, file and line.  Those rows have the origin "dyndbg".
"""

import bisect
import re
import struct
from typing import Iterator, Optional, Union

from msgid_tools.core import ids
from msgid_tools import modules
from msgid_tools.elf import SHT_RELA, ElfError, ElfFile
from msgid_tools.modules import EM_X86_64
from msgid_tools.core.ids import CallSite, InputError

ORIGIN = "strings"
DYNDBG_ORIGIN = "dyndbg"
#: sizeof(struct _ddebug) on 64-bit: four pointers, the line/class/flags
#: word, and the static key with CONFIG_JUMP_LABEL (56) or without (40).
DYNDBG_SIZES = (56, 40)
SHF_EXECINSTR = 4
STT_FUNC = 2
R_X86_64_PC32, R_X86_64_PLT32, R_X86_64_32, R_X86_64_32S = 2, 4, 10, 11

#: A string starting with a level: KERN_SOH, a level character, then
#: anything up to the NUL.
_LEVEL_RE = re.compile(rb"(?:(?<=\x00)|\A)\x01[0-7c][^\x00]*")

#: printk-family functions and the argument holding the caller's format,
#: counted from 0 (%rdi, %rsi, %rdx, %rcx, %r8, %r9), or the arguments
#: where it moved between releases; the filesystems' own wrappers that
#: pass it on through %pV are included.
PRINTK_FUNCS: dict[str, Union[int, tuple[int, ...]]] = {
    "_printk": 0, "_printk_deferred": 0,
    "_dev_emerg": 1, "_dev_alert": 1, "_dev_crit": 1, "_dev_err": 1,
    "_dev_warn": 1, "_dev_notice": 1, "_dev_info": 1,
    "dev_printk_emit": 2, "_dev_printk": 2, "dev_err_probe": 2,
    "netdev_emerg": 1, "netdev_alert": 1, "netdev_crit": 1, "netdev_err": 1,
    "netdev_warn": 1, "netdev_notice": 1, "netdev_info": 1,
    "netdev_printk": 2,
    "ibdev_emerg": 1, "ibdev_alert": 1, "ibdev_crit": 1, "ibdev_err": 1,
    "ibdev_warn": 1, "ibdev_notice": 1, "ibdev_info": 1, "ibdev_printk": 2,
    # pr_debug()/dev_dbg()/netdev_dbg() with CONFIG_DYNAMIC_DEBUG (as
    # distributions build): printk(KERN_DEBUG "%s%pV", prefix, &vaf).
    "__dynamic_pr_debug": 1, "__dynamic_dev_dbg": 2,
    "__dynamic_netdev_dbg": 2, "__dynamic_ibdev_dbg": 2,
    # Filesystems and DRM: their macros end in these functions.
    "xfs_printk_level": 2, "_xfs_alert_tag": 2,
    # _btrfs_printk(fs_info, fmt, ...) in 6.12, (fs_info, level, fmt, ...)
    # in 7.3.
    "_btrfs_printk": (1, 2),
    "__ext4_msg": 2,
    "__ext4_warning": 3, "__ext4_warning_inode": 3,
    "__ext4_error_inode": 5, "__ext4_error_file": 4, "f2fs_printk": 2,
    "ntfs_printk": 1, "__drm_err": 0, "__drm_dev_dbg": 3,
    "drm_dev_printk": 2,
    # WARN(cond, fmt, ...): vprintk(fmt) after the "cut here" line.
    "__warn_printk": 0,
}
#: Register loaded by "mov $imm32, %reg" / "lea disp(%rip), %reg", keyed
#: by the instruction bytes before the relocated field.
_LOADS: dict[bytes, int] = {
    b"\x48\xc7\xc7": 0, b"\x48\xc7\xc6": 1, b"\x48\xc7\xc2": 2,
    b"\xbf": 0, b"\xbe": 1, b"\xba": 2,
    b"\x48\x8d\x3d": 0, b"\x48\x8d\x35": 1, b"\x48\x8d\x15": 2,
    b"\x48\xc7\xc1": 3, b"\xb9": 3, b"\x48\x8d\x0d": 3,
    b"\x49\xc7\xc0": 4, b"\x41\xb8": 4, b"\x4c\x8d\x05": 4,
    b"\x49\xc7\xc1": 5, b"\x41\xb9": 5, b"\x4c\x8d\x0d": 5,
}
#: Longest first: "\x41\xb9" (%r9d) before "\xb9" (%ecx).
_LOAD_ITEMS = sorted(_LOADS.items(), key=lambda kv: -len(kv[0]))


def _is_string_section(name: str) -> bool:
    return name == ".rodata" or name.startswith(".rodata.str") or \
        name.startswith(".rodata.")


def level_strings(image: ElfFile) -> Iterator[tuple[int, int, bytes]]:
    """Yield (section index, offset, string) of every level-prefixed
    string in the binary's read-only data."""
    for idx, sec in enumerate(image.sections):
        if not _is_string_section(sec.name) or sec.type == 8:
            continue
        data = image.data[sec.offset:sec.offset + sec.size]
        for m in _LEVEL_RE.finditer(data):
            if m.end() < len(data):  # NUL-terminated only
                yield idx, m.start(), m.group(0)


class _Symbols:
    """The symbol table of an ET_REL file: names, sections, functions."""

    def __init__(self, image: ElfFile, symtab: int) -> None:
        tab = image.sections[symtab]
        fmt = image.endian + "IBBHQQ"
        step = tab.entsize or struct.calcsize(fmt)
        if tab.link >= len(image.sections) or step < struct.calcsize(fmt):
            raise ElfError("%s: malformed symbol table (section %d)"
                           % (image.name, symtab))
        strtab = image.sections[tab.link]
        self.entries: list[tuple[str, int, int, int, int]] = []
        self.funcs: dict[int, list[tuple[int, int, str]]] = {}
        for pos in range(tab.offset, tab.offset + tab.size - step + 1, step):
            name_off, info, _, shndx, value, size = struct.unpack_from(
                fmt, image.data, pos)
            end = image.data.find(b"\0", strtab.offset + name_off,
                                  strtab.offset + strtab.size)
            name = image.data[strtab.offset + name_off:end].decode(
                "ascii", "replace") if end >= 0 else ""
            self.entries.append((name, info & 0xf, shndx, value, size))
            if info & 0xf == STT_FUNC and size:
                self.funcs.setdefault(shndx, []).append((value, size, name))

    def function_at(self, shndx: int, offset: int) -> str:
        for value, size, name in self.funcs.get(shndx, ()):
            if value <= offset < value + size:
                # virtnet_validate.cold is virtnet_validate's cold part.
                return _CLONE_RE.sub("", name)
        return "?"


def format_args(name: str) -> tuple[int, ...]:
    """The arguments that may hold the format of a call to @name."""
    arg = PRINTK_FUNCS.get(name, ())
    return (arg,) if isinstance(arg, int) else arg


#: Suffixes GCC gives the parts and clones of a function.
_CLONE_RE = re.compile(r"\.(?:cold|part|isra|constprop|lto_priv)(?:\.\d+)*$")


def call_formats(image: ElfFile) -> Iterator[tuple[int, int, str]]:
    """Yield (string section, offset, calling function) for the format
    argument of every printk-family call of an x86_64 ET_REL file."""
    if not image.is_rel or image.machine != EM_X86_64 or not image.is64:
        return
    symtabs: dict[int, _Symbols] = {}
    for rel in image.sections:
        if rel.type != SHT_RELA or rel.info >= len(image.sections):
            continue
        target = image.sections[rel.info]
        if not target.flags & SHF_EXECINSTR or rel.link >= len(
                image.sections):
            continue
        if rel.link not in symtabs:
            symtabs[rel.link] = _Symbols(image, rel.link)
        syms = symtabs[rel.link]
        text = image.data[target.offset:target.offset + target.size]
        loads: list[Optional[tuple[int, int, int]]] = [None] * 6
        for off, typ, sym, addend in sorted(modules.relocations(image, rel)):
            if sym >= len(syms.entries):
                continue
            name, _, shndx, value, _ = syms.entries[sym]
            if typ in (R_X86_64_PLT32, R_X86_64_PC32) and \
                    off >= 1 and text[off - 1:off] == b"\xe8":  # call
                for arg in format_args(name):
                    if loads[arg] is not None:
                        sec, str_off, at = loads[arg]
                        yield sec, str_off, syms.function_at(rel.info, at)
                loads = [None] * 6  # a call clobbers them
                continue
            if not (0 < shndx < len(image.sections)) or \
                    not _is_string_section(image.sections[shndx].name):
                continue
            for prefix, reg in _LOAD_ITEMS:
                if text[max(off - len(prefix), 0):off] == prefix:
                    pcrel = typ in (R_X86_64_PC32, R_X86_64_PLT32)
                    if pcrel != (prefix[1:2] == b"\x8d"):
                        continue
                    str_off = value + (addend or 0) + (4 if pcrel else 0)
                    loads[reg] = (shndx, str_off, off)
                    break


#: How far before a call "mov $format, %reg" is looked for in a vmlinux.
WINDOW = 48
#: "mov $imm32, %reg" (sign-extended) by argument register, as compiled
#: for the kernel's code model.
_MOV_IMM: dict[int, bytes] = {0: b"\x48\xc7\xc7", 1: b"\x48\xc7\xc6",
                              2: b"\x48\xc7\xc2", 3: b"\x48\xc7\xc1",
                              4: b"\x49\xc7\xc0", 5: b"\x49\xc7\xc1"}
_CALL_RE = re.compile(rb"[\xe8\xe9]", re.DOTALL)  # call / jmp rel32
#: A plausible format: text, newlines, tabs and level bytes only.
_FORMAT_RE = re.compile(rb"[\x01\t\n\x20-\x7e\x80-\xff]+")


_SYSMAP_RE = re.compile(rb"([0-9a-fA-F]{8,16}) ([A-Za-z]) (\S+)")


class SystemMap:
    """The text symbols of a System.map ("ffffffff81000000 T _stext")."""

    def __init__(self, text: bytes, name: str) -> None:
        self.name = name
        self.by_name: dict[str, int] = {}
        pairs: list[tuple[int, str]] = []
        bad = 0
        lines = text.splitlines()
        for line in lines:
            m = _SYSMAP_RE.fullmatch(line.strip())
            if not m:
                bad += line.strip() != b""
                continue
            if m.group(2) not in b"TtWw":
                continue
            addr = int(m.group(1), 16)
            sym = m.group(3).decode("ascii", "replace")
            pairs.append((addr, sym))
            self.by_name.setdefault(sym, addr)
        if b"The real System.map is in" in text[:200]:
            raise InputError(
                "%s is Debian's placeholder: the real System.map is in the "
                "linux-image-RELEASE-dbg package (usr/lib/debug/boot/"
                "System.map-RELEASE): give that one with --system-map"
                % name)
        if not pairs or bad > len(lines) // 10:
            raise InputError("%s: not a System.map (expected lines "
                             "'ADDRESS TYPE NAME' with text symbols, as "
                             "/boot/System.map-RELEASE has)" % name)
        self._index(pairs)

    def _index(self, pairs: list[tuple[int, str]]) -> None:
        pairs.sort()
        self.addrs = [a for a, _ in pairs]
        self.names = [_CLONE_RE.sub("", n) for _, n in pairs]

    @classmethod
    def from_kallsyms(cls, image: ElfFile) -> Optional["SystemMap"]:
        """The text symbols of @image's own kallsyms table (a stripped
        vmlinux of a kernel built with CONFIG_KALLSYMS), None if it has
        none that this reader can read (msgid_tools.kallsyms)."""
        from msgid_tools import kallsyms
        found = kallsyms.symbols(image, exported(image))
        if not found:
            return None
        self = cls.__new__(cls)
        self.name = "%s (kallsyms)" % image.name
        self.by_name = {}
        pairs = []
        for addr, kind, sym in found:
            if kind in "TtWw":
                pairs.append((addr, sym))
                self.by_name.setdefault(sym, addr)
        if not pairs:
            return None
        self._index(pairs)
        return self

    @classmethod
    def read(cls, path: str) -> "SystemMap":
        """Read the System.map @path; InputError if it is not one."""
        try:
            with open(path, "rb") as f:
                return cls(f.read(), path)
        except OSError as e:
            raise InputError("%s: %s" % (path, e.strerror or e)) from None

    def function_at(self, addr: int) -> str:
        """The text symbol that @addr lies in ("?" before the first)."""
        i = bisect.bisect_right(self.addrs, addr) - 1
        return self.names[i] if i >= 0 else "?"

    def check(self, image: ElfFile) -> None:
        """InputError if @image's exported functions are elsewhere: the
        map is of another build."""
        exports = exported(image)
        wrong = [(name, addr) for addr, name in exports.items()
                 if self.by_name.get(name, addr) != addr]
        if exports and len(wrong) * 10 > len(exports):
            name, addr = wrong[0]
            raise InputError(
                "%s is not the System.map of %s (%s is at %x in the "
                "kernel, at %x in the map): give the map of the same "
                "build (--system-map)" % (self.name, image.name, name, addr,
                                          self.by_name[name]))


def exported(image: ElfFile) -> dict[int, str]:
    """{address: name} of the symbols of __ksymtab and __ksymtab_gpl
    (struct kernel_symbol with 32-bit offsets relative to each field,
    as on x86_64)."""
    out: dict[int, str] = {}
    strtab = image.section("__ksymtab_strings")
    if strtab is None:
        return out
    for name in ("__ksymtab", "__ksymtab_gpl"):
        idx = image.section(name)
        if idx is None:
            continue
        sec = image.sections[idx]
        data = image.data[sec.offset:sec.offset + sec.size]
        for pos in range(0, len(data) - 11, 12):
            value, name_off = struct.unpack_from(image.endian + "ii", data,
                                                 pos)
            sym = image.string_at(sec.addr + pos + 4 + name_off)
            if sym:
                out[(sec.addr + pos + value) & (1 << 64) - 1] = sym.decode(
                    "ascii", "replace")
    return out


def _exec_sections(image: ElfFile) -> Iterator[tuple[int, bytes]]:
    """(address, bytes) of every section of code of an x86_64 vmlinux."""
    if image.is_rel or image.machine != EM_X86_64 or not image.is64:
        return
    for sec in image.sections:
        if not sec.flags & SHF_EXECINSTR or sec.type == 8 or not sec.addr:
            continue
        yield sec.addr, image.data[sec.offset:sec.offset + sec.size]


def exec_call_formats(image: ElfFile,
                      symbols: Optional[SystemMap] = None
                      ) -> Iterator[tuple[bytes, int]]:
    """Yield (format, address of the code loading it) of every printk-
    family call of an x86_64 vmlinux found as described above; with
    @symbols, calls of functions that are not exported count too."""
    found = dict(exported(image))
    if symbols is not None:
        for name in PRINTK_FUNCS:
            addr = symbols.by_name.get(name)
            if addr is not None:
                found.setdefault(addr, name)
    targets = {addr: format_args(name) for addr, name in found.items()
               if name in PRINTK_FUNCS}
    if not targets:
        return
    for base, text in _exec_sections(image):
        for m in _CALL_RE.finditer(text, 0, max(len(text) - 4, 0)):
            pos = m.start()
            rel = int.from_bytes(text[pos + 1:pos + 5], "little", signed=True)
            window = text[max(pos - WINDOW, 0):pos]
            for reg in targets.get(base + pos + 5 + rel, ()):
                at = window.rfind(_MOV_IMM[reg])
                if at < 0 or at + 7 > len(window):
                    continue
                addr = int.from_bytes(window[at + 3:at + 7], "little",
                                      signed=True) & (1 << 64) - 1
                fmt = image.string_at(addr)
                if fmt is not None and plausible(fmt):
                    yield fmt, base + max(pos - WINDOW, 0) + at


_LOAD_RE = re.compile(rb"(?:\x48\xc7[\xc7\xc6\xc2\xc1]|\x49\xc7[\xc0\xc1])"
                      rb"(.{4})", re.DOTALL)


def exec_string_loads(image: ElfFile) -> dict[int, int]:
    """{string address: address of the first code loading it into an
    argument register} of an x86_64 vmlinux."""
    out: dict[int, int] = {}
    for base, text in _exec_sections(image):
        for m in _LOAD_RE.finditer(text):
            addr = int.from_bytes(m.group(1), "little", signed=True) \
                & (1 << 64) - 1
            out.setdefault(addr, base + m.start())
    return out


def _string_at(image: ElfFile, shndx: int, offset: int) -> Optional[bytes]:
    sec = image.sections[shndx]
    if not 0 <= offset < sec.size or sec.type == 8:
        return None
    start = sec.offset + offset
    end = image.data.find(b"\0", start, sec.offset + sec.size)
    return image.data[start:end] if end >= 0 else None


def plausible(fmt: bytes) -> bool:
    """Whether @fmt can be a format: UTF-8 text with no control bytes but
    newlines, tabs and level bytes (data that happens to start with
    KERN_SOH and a digit is not)."""
    if not _FORMAT_RE.fullmatch(fmt):
        return False
    try:
        fmt.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def dyndbg(image: ElfFile) -> Iterator[tuple[bytes, str, str, int]]:
    """Yield (format, function, file, line) of every struct _ddebug of a
    64-bit x86 module's __dyndbg section (relocations applied)."""
    idx = image.section("__dyndbg")
    if idx is None or not image.is_rel or image.machine != EM_X86_64 or \
            not image.is64:
        return
    data = image.section_data(idx)
    for size in DYNDBG_SIZES:
        if len(data) % size:
            continue
        entries = [struct.unpack_from("<QQQQI", data, pos)
                   for pos in range(0, len(data), size)]
        # Every entry names the same module: the stride is right.
        if len({e[0] for e in entries}) != 1:
            continue
        for _, func, file, fmt, bits in entries:
            text = image.string_at(fmt)
            if text is None:
                continue
            yield (text, ids.decode(image.string_at(func) or b"?"),
                   ids.decode(image.string_at(file) or b"?"),
                   bits & 0x3ffff)
        return


def sites(image: ElfFile, module: str,
          symbols: Optional[SystemMap] = None) -> Iterator[CallSite]:
    """Yield the call sites of @image's dynamic debug table (origin
    "dyndbg"), then one call site (origin "strings") per other distinct
    format: level-prefixed strings and printk-family call formats.
    @symbols (a vmlinux's System.map) names the functions of a vmlinux's
    rows."""
    seen: set[bytes] = set()
    for fmt, func, file, line in dyndbg(image):
        if ids.canonical(fmt):
            seen.add(fmt)
            yield CallSite.from_format(fmt, file=file, line=line,
                                       function=func, module=module,
                                       origin=DYNDBG_ORIGIN)
    functions: dict[tuple[int, int], str] = {}
    for shndx, offset, func in call_formats(image):
        functions.setdefault((shndx, offset), func)
    loads = exec_string_loads(image) if symbols is not None else {}

    def site(fmt: bytes, func: str) -> Iterator[CallSite]:
        if fmt in seen or not ids.canonical(fmt) or not plausible(fmt):
            return
        seen.add(fmt)
        yield CallSite.from_format(fmt, file="?", line=0, function=func,
                                   module=module, origin=ORIGIN)

    for shndx, offset, fmt in level_strings(image):
        func = functions.pop((shndx, offset), "?")
        if symbols is not None and func == "?":
            code = loads.get(image.sections[shndx].addr + offset)
            if code is not None:
                func = symbols.function_at(code)
        yield from site(fmt, func)
    for (shndx, offset), func in sorted(functions.items()):
        fmt = _string_at(image, shndx, offset)
        if fmt is not None:
            yield from site(fmt, func)
    for fmt, code in exec_call_formats(image, symbols):
        yield from site(fmt, symbols.function_at(code)
                        if symbols is not None else "?")
