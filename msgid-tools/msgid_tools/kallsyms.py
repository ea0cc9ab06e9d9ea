# SPDX-License-Identifier: GPL-2.0
"""The function symbols of a stripped vmlinux, from its kallsyms table.

A vmlinux taken out of a bzImage has no symbol table, and distributions
ship a placeholder System.map (Debian's real one is in the -dbg
package).  Without names, the image reader knows only the exported
printk-family functions, and misses every format passed to one that is
not exported: ext4's __ext4_msg(), __ext4_warning(), __ext4_error*()
take a format without a KERN_ level (the level is an argument of its
own), so nothing else finds them ("mounted filesystem %pU %s with%s.
Quota mode: %s." among them).

Every kernel built with CONFIG_KALLSYMS (all distribution kernels)
carries the names in .rodata, as scripts/kallsyms.c writes them:

  kallsyms_num_syms    .long   the number of symbols
  kallsyms_names       per symbol: its length (one byte, or two as
                       ULEB128 since 6.1), then that many token numbers;
                       the first character of the expanded name is the
                       symbol's type (t, T, d ...)
  kallsyms_markers     .long   offset in kallsyms_names of every 256th
  kallsyms_token_table 256 NUL-terminated tokens
  kallsyms_token_index 256 .short, each token's offset in the table
  kallsyms_offsets     .long per symbol; how it gives the address changed:
                       up to 6.13 relative to kallsyms_relative_base
                       (the .quad after it; x86_64's absolute-percpu mode
                       stores base - 1 - offset), since 6.14 relative
                       to the entry itself

each label aligned to 8 bytes on 64-bit up to 6.13, to 4 since.  The token table is found by
the tokens of the digits, which are themselves: a symbol's bytes never
become tokens, so "0".."9" are tokens 0x30-0x39, one after the other.
The reading of kallsyms_offsets is the one that puts the exported
functions (__ksymtab) where the export table does.
"""

import struct
from typing import Callable, Iterator, Optional

from msgid_tools.elf import ElfFile

#: Tokens 0x30-0x39.
_DIGITS = b"0\x001\x002\x003\x004\x005\x006\x007\x008\x009\x00"
#: Share of the exported functions the offsets must place right.
MIN_AGREEMENT = 0.9
#: Bounds of a plausible symbol count.
MAX_SYMBOLS = 4 << 20

Symbol = tuple[int, str, str]  # (address, type, name)


def _align(value: int, to: int = 8) -> int:
    return (value + to - 1) & ~(to - 1)


def symbols(image: ElfFile,
            exports: Optional[dict[int, str]] = None) -> list[Symbol]:
    """(address, type character, name) of every symbol of @image's
    kallsyms table, in its order; [] when there is none that reads
    right (not a 64-bit little-endian vmlinux, built without
    CONFIG_KALLSYMS, or a layout this reader does not know).  @exports
    ({address: name}, strings.exported()) checks the addresses; without
    it (or with no export), the first reading that gives addresses in
    the image is taken."""
    if image.is_rel or not image.is64 or image.endian != "<":
        return []
    for sec in image.sections:
        if sec.name != ".rodata" or sec.type == 8 or not sec.addr:
            continue
        data = image.data[sec.offset:sec.offset + sec.size]
        pos = data.find(_DIGITS)
        while pos >= 0:
            table = _Table.find(data, sec.addr, pos)
            if table is not None:
                found = table.symbols(image, exports)
                if found:
                    return found
            pos = data.find(_DIGITS, pos + 1)
    return []


class _Table:
    """The kallsyms tables around one token table of a section's
    @data (addresses from @addr)."""

    def __init__(self, data: bytes, addr: int, tokens: list[bytes],
                 index_at: int) -> None:
        self.data = data
        self.addr = addr
        self.tokens = tokens
        self.index_at = index_at

    @classmethod
    def find(cls, data: bytes, addr: int, digits: int) -> Optional["_Table"]:
        """The table whose token "0" is at @digits, if its token index
        follows it."""
        start = digits
        for _ in range(0x30):
            if start <= 0:
                return None
            start = data.rfind(b"\0", 0, start - 1) + 1
        if (addr + start) % 4:
            return None
        tokens, offsets, end = [], [], start
        for _ in range(256):
            nul = data.find(b"\0", end)
            if nul < 0:
                return None
            offsets.append(end - start)
            tokens.append(data[end:nul])
            end = nul + 1
        for to in (4, 8):
            index_at = _align(addr + end, to) - addr
            if index_at + 512 <= len(data) and list(struct.unpack_from(
                    "<256H", data, index_at)) == offsets:
                break
        else:
            return None
        table = cls(data, addr, tokens, index_at)
        table.start = start
        return table

    def _markers(self) -> list[tuple[int, list[int]]]:
        """(offset, values) of the kallsyms_markers the token table may
        follow (with or without 4 bytes of padding)."""
        out = []
        for end in (self.start, self.start - 4):
            values: list[int] = []
            at = end - 4
            while at >= 0:
                (v,) = struct.unpack_from("<I", self.data, at)
                if v == 0:
                    break
                if values and v >= values[-1]:
                    values = []
                    break
                values.append(v)
                at -= 4
            if at >= 0:
                out.append((at, [0] + values[::-1]))
        return out

    def _names(self, markers_at: int, markers: list[int]
               ) -> Optional[tuple[int, list[bytes]]]:
        """(number of symbols, their token strings) of the
        kallsyms_names before @markers_at."""
        count = len(markers)
        last = markers[-1]
        # kallsyms_num_syms: a .long, then kallsyms_names aligned to 4 or 8.
        low = max(markers_at - last - 256 * 260 - 8, 0)
        at = markers_at - last - 4
        at -= (self.addr + at) % 4
        while at >= low:
            (n,) = struct.unpack_from("<I", self.data, at)
            if (count - 1) * 256 < n <= count * 256 and n <= MAX_SYMBOLS:
                for names_at in sorted({at + 4, _align(self.addr + at + 4)
                                        - self.addr}):
                    for wide in (True, False):
                        entries = _decode(self.data, names_at, n, markers,
                                          wide)
                        if entries is not None and \
                                markers_at - 8 < entries[0] <= markers_at:
                            return n, entries[1]
            at -= 4
        return None

    def symbols(self, image: ElfFile,
                exports: Optional[dict[int, str]]) -> list[Symbol]:
        for markers_at, markers in self._markers():
            got = self._names(markers_at, markers)
            if got is None:
                continue
            n, entries = got
            names = [b"".join(self.tokens[b] for b in e) for e in entries]
            if any(not name for name in names):
                continue
            addrs = self._addresses(image, n, names, exports)
            if addrs is None:
                continue
            return [(a, chr(name[0]), name[1:].decode("ascii", "replace"))
                    for a, name in zip(addrs, names)]
        return []

    def _addresses(self, image: ElfFile, n: int, names: list[bytes],
                   exports: Optional[dict[int, str]]
                   ) -> Optional[list[int]]:
        """The addresses of kallsyms_offsets, read the way that agrees
        with @exports."""
        wanted = {}
        if exports:
            by_name = {name: addr for addr, name in exports.items()}
            for i, name in enumerate(names):
                if name[:1] in b"Tt" and name[1:].decode(
                        "ascii", "replace") in by_name:
                    wanted[i] = by_name[name[1:].decode("ascii", "replace")]
        text = [s for s in image.sections if s.flags & 4 and s.addr]
        for read, offsets in self._readings(n):
            addrs = [read(i, o) for i, o in enumerate(offsets)]
            if wanted:
                right = sum(addrs[i] == a for i, a in wanted.items())
                if right >= MIN_AGREEMENT * len(wanted):
                    return addrs
                continue
            # No export to check: the functions must lie in the code.
            funcs = [a for a, name in zip(addrs, names) if name[:1] in b"Tt"]
            inside = sum(any(s.addr <= a < s.addr + s.size for s in text)
                         for a in funcs[:1000])
            if funcs and inside >= MIN_AGREEMENT * min(len(funcs), 1000):
                return addrs
        return None


    def _readings(self, n: int) -> Iterator[
            tuple[Callable[[int, int], int], tuple[int, ...]]]:
        """Each way kallsyms_offsets may give the addresses (a function
        of the index and the offset), with the offsets it reads."""
        mask = (1 << 64) - 1
        end = self.addr + self.index_at + 512
        for at in sorted({_align(end, 4), _align(end, 8)}):
            at -= self.addr
            if at + 4 * n > len(self.data):
                continue
            offsets = struct.unpack_from("<%di" % n, self.data, at)
            entry = self.addr + at
            base_at = _align(entry + 4 * n) - self.addr
            base = struct.unpack_from("<Q", self.data, base_at)[0] \
                if base_at + 8 <= len(self.data) else 0
            # 6.14+: relative to the entry itself
            yield (lambda i, o, e=entry: (e + 4 * i + o) & mask), offsets
            # up to 6.13, x86_64 (absolute percpu)
            yield (lambda i, o, b=base: o if o >= 0 else (b - 1 - o) & mask,
                   offsets)
            # up to 6.13, other 64-bit
            yield (lambda i, o, b=base: (b + (o & 0xffffffff)) & mask,
                   offsets)


def _decode(data: bytes, at: int, n: int, markers: list[int], wide: bool
            ) -> Optional[tuple[int, list[bytes]]]:
    """(end, token strings) of @n entries of kallsyms_names at @at, with
    ULEB128 lengths (@wide) or one byte; None unless every 256th starts
    where @markers says."""
    entries = []
    pos = at
    size = len(data)
    for i in range(n):
        if not i & 0xff and markers[i >> 8] != pos - at:
            return None
        if pos >= size:
            return None
        length = data[pos]
        pos += 1
        if wide and length & 0x80:
            if pos >= size:
                return None
            length = (length & 0x7f) | (data[pos] << 7)
            pos += 1
        if not length or pos + length > size:
            return None
        entries.append(data[pos:pos + length])
        pos += length
    return pos, entries
