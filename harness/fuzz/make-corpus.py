#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus of fuzz_msgid (harness/fuzz/corpus/).

An input is a count byte (number of texts - 1), the texts, each ending in
a NUL byte, then the argument program (see the comment at the top of
fuzz_msgid.c). Program bytes 0, 1 and 2 place the texts (bit i % 8 of
each is a bit of text i's place: 0 0 0, all in the shim's .rodata,
cached; see place()), byte 3 chooses the module of each text placed in
one (bits 2 * (i % 4) and up), byte 4 the module events (bits 0..3:
reload module k first; DROP_FIRST, DROP_WARM, GO_WARM, ROUND2 below);
then one byte per va_list slot, in the order
vsnprintf() reads them: depth first, a nested level's slots right after
its %pV, then the rest of the outer format. For %s, (text << 3) | 3 and
an offset byte (0 NULL, 1 below PAGE_SIZE, 2 ERR_PTR); for %c and %d
one byte b (the int b * 0x01010101); for %pA (text << 1) | 1 (what the
Rust formatter stand-in prints); for %pAl (text << 3) | 3 and a byte:
(literal << 1), or 1 for a NULL literal; for %.*s a
precision byte (0..15: -1, -2, -100, INT_MIN, 0, 1, 2, 3, 5, 12, 18, 40,
32767, 32768, 65537, INT_MAX; else byte - 128); for %pV 0 NULL, 1 below
PAGE_SIZE, 2 ERR_PTR, (text << 3) | 3..7 a new level with that text as
its format (with 10 nested levels made, a bad pointer instead). Then one
byte: bit k % 8 is the CPU (0 or 1) of check k. Missing bytes read as 0.

Every seed must pass: fuzz.sh starts each campaign from a copy of them.
"""
import os
import sys

HW_ERR = b"[Hardware Error]: "
FW_BUG = b"[Firmware Bug]: "
FW_WARN = b"[Firmware Warn]: "
FW_INFO = b"[Firmware Info]: "
DEPRECATED = b"[Deprecated]: "

# Places of a text: fuzz_msgid.c's enum place.
P_RODATA, P_HEAP, P_HIGH, P_RO_AFTER_INIT, P_MOD_RODATA, P_MOD_DATA, P_MOD_AI, P_MOD_INIT = range(8)
# Program byte 4: fuzz_msgid.c's enum event.
DROP_FIRST, DROP_WARM, GO_WARM, ROUND2 = 1 << 4, 1 << 5, 1 << 6, 1 << 7


def place(places, mods=(), events=0):
    """Program bytes 0..4: text i in places[i] (module mods[i], for i < 4)."""
    b = [0, 0, 0, 0, events]
    for i, p in enumerate(places):
        for k in range(3):
            b[k] |= (p >> k & 1) << (i % 8)
    for i, m in enumerate(mods[:4]):
        b[3] |= m << (2 * i)
    return bytes(b)


RODATA = place([P_RODATA] * 8)  # every text in .rodata, keyed
HEAP = place([P_HEAP] * 8)  # every text on the heap (exact size)
HIGH = place([P_HIGH] * 8)  # every text in .rodata, at offsets the cache does not key


def s(t, off=0):
    """A %s argument: text t from byte off."""
    return bytes([(t << 3) | 3, off])


def new(t):
    """A %pV argument: a new level with text t as its format."""
    return bytes([(t << 3) | 6])


def lit(args, fmt=None):
    """A %pAl argument: Rust prints text args; its literal is text fmt."""
    return bytes([(args << 3) | 3, 1 if fmt is None else fmt << 1])


def pa(t):
    """A %pA argument: Rust prints text t."""
    return bytes([(t << 1) | 1])


def prec(i):
    """A %.*s precision: prec_values[i] of fuzz_msgid.c."""
    return bytes([i])


SEEDS = {
    "level-newline": ([b"\0016Hello %s\n", b"world"], RODATA + s(1)),
    "percpu": ([b"\0016Hello %s\n", b"world"], RODATA + s(1) + b"\x5a"),
    "dev-printk": ([b"%s %s: %pV", b"\0013disk %s failed\n", b"e1000", b"0000:00:03.0", b"sda"],
                   RODATA + s(2) + s(3) + new(1) + s(4)),
    "chain-10": ([b"w%d: %pV", b"leaf %s %d", b"x"],
                 RODATA + (b"\x01" + new(0)) * 9 + b"\x01" + new(1) + s(2) + b"\x07" + b"\xa5"),
    # 11 levels of "%pV"; the last %pV gets a bad pointer.
    "pv-chain": ([b"%pV"], RODATA + new(0) * 11),
    # Only the first %pV takes the trace; the second is formatted, not traced.
    "pv-twice": ([b"%pV %s %pV", b"first %s", FW_BUG + b"second %s", HW_ERR + b"x"],
                 RODATA + new(1) + s(3) + s(3) + new(2) + s(3)),
    # A NULL %pV leaves the trace in its format, for its later %s and %pV.
    "bad-then-good-vaf": ([b"%pV %s %pV", b"inner %s", HW_ERR + b"x"],
                          RODATA + b"\x00" + s(2) + new(1) + s(2)),
    "tags": ([FW_BUG + b"%s %.*s", HW_ERR + b"x", b"y"], RODATA + s(1, 4) + b"\x05" + s(1)),
    "ghes": ([b"%sHardware error from APEI Generic Hardware Error Source: %d",
              b"\0013{1}" + HW_ERR], RODATA + s(1) + b"\x02"),
    "tag-in-vaf": ([b"%s %s: %pV", HW_ERR + b"disk %s failed", b"ahci", b"sda"],
                   RODATA + s(2) + s(3) + new(1) + s(3)),
    # The wrapper's text and %s before the caller's are not looked at.
    "wrapper-tags": ([b"%s " + FW_WARN + b"%s: %pV", b"%s: disk", b"ahci", FW_INFO, HW_ERR],
                     RODATA + s(2) + s(3) + new(1) + s(4)),
    "format-tag-first": ([b"first " + FW_BUG + b"%s", HW_ERR], RODATA + s(1)),
    # The format's tag, though its %s printed another before it.
    "format-tag-after-str": ([b"%s " + FW_BUG, HW_ERR], RODATA + s(1)),
    # The first tagged %s wins.
    "two-tagged-strs": ([b"%s%s", FW_BUG, HW_ERR], RODATA + s(1) + s(2)),
    "fourth-str": ([b"%s%s%s%s%s", b"a", HW_ERR], RODATA + s(1) * 3 + s(2) + s(1)),
    "fifth-str": ([b"%s%s%s%s%s", b"a", HW_ERR], RODATA + s(1) * 4 + s(2)),
    # The format is also its own %s.
    "str-is-format": ([b"%s %s", b"x"], RODATA + s(0) + s(1)),
    # Formats and strings at offsets the cache does not key: hashed every time.
    "high-offsets": ([b"%pV", b"%s x", DEPRECATED + b"y"], HIGH + new(1) + s(2)),
    "stop-y": ([b"x %y %pV", b"inner %d"], RODATA + new(1)),
    "stop-n": ([b"x %n %pV", b"inner %d"], RODATA + new(1)),
    "trailing-pct": ([b"abc %"], b""),
    "stop-ll": ([b"x %ll %pV", b"x %5", b"x %.", b"%"], HEAP),
    "conversions": ([b"a %*.*s %lld %zx %hhd %c %pS %*ph %5% %Lx %td b %pV", b"inner %d", b"str"],
                    place([P_HEAP, P_HIGH, P_HEAP]) + b"\x03\x08" + s(2) + b"\x11\x12\x13\x14\x15\x16\x17\x18\x19"
                    + new(1) + b"\x09"),
    # 'H' is a length qualifier of 7.3's format_decode().
    "qualifier-h": ([b"x %Hd %pV", b"inner %d"], RODATA + b"\x07" + new(1) + b"\x09"),
    "levels-kept": ([b"\001c\0016\0014 mid \0013 kept\n\n", b"\0019 not a level"], b""),
    "precision": ([b"%.3s|%.*s|%.40000s", DEPRECATED + b"abc", FW_INFO],
                  HEAP + s(1) + prec(0) + s(2) + s(1)),
    # A negative '*' precision is 0: nothing printed, no tag.
    "star-precision-negative-tag": ([b"%.*s|", HW_ERR], HEAP + prec(1) + s(1)),
    "bad-vaf-null": ([b"%s: %pV", b"x"], RODATA + s(1) + b"\x00"),
    "bad-vaf-small": ([b"%s: %pV", b"x"], RODATA + s(1) + b"\x01"),
    "bad-vaf-err": ([b"%s: %pV", b"x"], RODATA + s(1) + b"\x02"),
    # pos: the caller's text starts after the wrapper's %s (a tag).
    "pos-after-wrapper-str": ([b"%s%pV", b"%s", HW_ERR, b"x"], RODATA + s(2) + new(1) + s(3)),
    # A NULL %pV ends the trace at the wrapper: its %s is not looked at.
    "null-vaf-wrapper-str": ([b"%s %pV", HW_ERR], RODATA + s(1) + b"\x00"),
    # printk strips the level the wrapper printed: the tag is at 0 then.
    "lead-tag-at-pos": ([b"\0014%pV", b"%s", HW_ERR], RODATA + new(1) + s(2)),
    # ... and the '[' the wrapper printed before the caller's text is not.
    "lead-bracket-before-pos": ([b"\0014[%pV", b"Deprecated]: %s", b"x"],
                                RODATA + new(1) + s(2)),
    "lead-bracket-newline": ([b"\0014[%pV\n", b"Deprecated]: %s", b"x"],
                             RODATA + new(1) + s(2)),
    # The record is cut at 1011 characters: printed is not the length.
    "lead-bracket-long": ([b"\0014[%pV%2000d", b"Deprecated]: %s", b"x"],
                          RODATA + new(1) + s(2) + b"\x01"),
    # Levels printed by a %s are stripped too; so is a level in the caller's text.
    "lead-from-str": ([b"%s%pV", b"%s", b"\0013\0016", HW_ERR], RODATA + s(2) + new(1) + s(3)),
    # %pA may pass a format on (Rust): traced, its %s not looked at.
    "pa-not-scanned": ([b"%s%pA", HW_ERR, b"rust text"], RODATA + s(1) + pa(2)),
    # %pAl: the literal is the caller's format; what Rust printed is its text.
    "pal-literal": ([b"%s: %pAl", b"lit %s", b"dev", HW_ERR + b"from rust"],
                    RODATA + s(2) + lit(3, 1)),
    "pal-null-literal": ([b"%s: %pAl", HW_ERR, b"x"], RODATA + s(1) + lit(2)),
    # A tag printed by %c, in a format without %s: not looked at.
    "tag-from-chars-no-str": ([b"x [Hardware Error%c: "], RODATA + b"\x5d"),
    # A tag printed by %c next to the format's text: the text is looked at.
    "tag-from-chars": ([b"%s[Hardware Error]%c ", b"x"], RODATA + s(1) + b"\x3a"),
    # README: the class scan runs to the end of the record (a stricter rule,
    # -DKNOWN_SCAN_TO_END=0, fails on the first); the 'H' qualifier, a bug
    # the fuzzer found (-DKNOWN_H_MISSED=1 fails on the other two).
    "known-scan-to-end": ([b"%pV%s", b"%s", b"x", HW_ERR], RODATA + new(1) + s(2) + s(3)),
    "known-h-pv": ([b"%HpV", b"inner"], RODATA + new(1)),
    "known-h-s": ([b"%Hs", HW_ERR], RODATA + s(1)),
    # __ro_after_init data is in .rodata but not keyed: hashed every time.
    "ro-after-init": ([b"%s %pV", b"ai %s", b"x"],
                      place([P_RO_AFTER_INIT, P_RO_AFTER_INIT, P_RODATA]) + s(2) + new(1) + s(2)),
    # A module's .rodata formats are kept, keyed by their offset in the
    # module area; module 0's first text is at offset 0 there.
    "module-rodata": ([b"%s: mod %pV", b"inner %s", HW_ERR + b"x"],
                      place([P_MOD_RODATA] * 3, [0, 0, 0]) + s(2) + new(1) + s(2)),
    # vmlinux's and a module's formats, at the same offsets: the region tells.
    "module-and-vmlinux": ([b"%s: %pV", b"mod %d", b"x"],
                           place([P_RODATA, P_MOD_RODATA, P_RODATA], [0, 1]) + s(2) + new(1) + b"\x07"),
    # Writable, __ro_after_init and init data of a module: never kept.
    "module-data": ([b"%s: data %pV", b"ai %pV", b"init %s", b"x"],
                    place([P_MOD_DATA, P_MOD_AI, P_MOD_INIT, P_MOD_RODATA], [1, 2, 0, 1])
                    + s(3) + new(1) + new(2) + s(3)),
    # Module 3 is below MODULES_VADDR: its offset wraps, not kept.
    "module-below": ([b"below %pV", b"%s", HW_ERR],
                     place([P_MOD_RODATA, P_MOD_RODATA, P_MOD_RODATA], [3, 3, 0]) + new(1) + s(2)),
    # Round 0 in a fresh module 0, which goes; round 1 puts the texts back
    # in the reverse order: "inner %d" where "outer %pV" was (a stale entry
    # would give it the outer's identifier and %pV bit).
    "module-reload": ([b"outer %pV", b"inner %d"],
                      place([P_MOD_RODATA] * 2, [0, 0], ROUND2) + new(1) + b"\x05"),
    "module-reload-two": ([b"%s: a %pV", b"b %s", FW_BUG + b"c", b"d %pV"],
                          place([P_MOD_RODATA] * 4, [1, 1, 2, 1], ROUND2 | 1)
                          + s(2) + new(3) + new(1) + s(2)),
    # The modules' entries dropped (KUnit's printk_msgid_drop_modules())
    # before each warm call: hashed again; vmlinux's stay.
    "module-drop": ([b"%s %pV", b"drop %s", b"x"],
                    place([P_RODATA, P_MOD_RODATA, P_HEAP], [0, 0], DROP_FIRST | DROP_WARM)
                    + s(2) + new(1) + s(2)),
    # Modules without a text of the input go between the calls.
    "module-go-warm": ([b"%s %pV", b"go %s", b"x"],
                       place([P_RODATA, P_MOD_RODATA, P_RODATA], [0, 2], GO_WARM)
                       + s(2) + new(1) + s(2)),
}

# Inputs kept byte for byte, once harness/fuzz/known/: where msgid.c used to
# differ from vsnprintf() on precisions ("%.*s" with -1 prints nothing;
# "%.40000s" is 32767 on 7.3, 0 on 6.12). Now ordinary seeds. Their two
# bytes of placement ("\xff\x00" and "\xff\xff": on the heap) became five
# when modules came ("\xff\x00\x00\x00\x00": on the heap).
RAW = {
    "digit-precision-16bit": b"\x01%.40000s\0[Deprecated]: x\0\xff\x00\x00\x00\x00\x0b\x00",
    "star-precision-negative": b"\x02%.3s|%.*s|%.40000s\0[Deprecated]: abc\0"
                               b"[Firmware Info]: \0\xff\x00\x00\x00\x00\x0b\x00\x00\x13\x00\x0b\x00",
}


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(out, exist_ok=True)
    for name, (texts, prog) in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(bytes([len(texts) - 1]) + b"\0".join(texts) + b"\0" + prog)
    for name, data in RAW.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
