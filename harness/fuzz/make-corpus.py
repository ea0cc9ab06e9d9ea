#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus of fuzz_msgid (harness/fuzz/corpus/).

An input is a count byte (number of texts - 1), the texts, each ending in
a NUL byte, then the argument program (see the comment at the top of
fuzz_msgid.c). Program bytes 0 and 1 place the texts (0 0: all in the
shim's .rodata, cached); then one byte per va_list slot, in the order
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

RODATA = b"\0\0"  # program bytes 0 and 1: every text in .rodata, keyed
HEAP = b"\xff\0"  # every text on the heap (exact size)
HIGH = b"\0\xff"  # every text in .rodata, at offsets the cache does not key


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
    "stop-ll": ([b"x %ll %pV", b"x %5", b"x %.", b"%"], b"\xff\0"),
    "conversions": ([b"a %*.*s %lld %zx %hhd %c %pS %*ph %5% %Lx %td b %pV", b"inner %d", b"str"],
                    b"\x55\xaa" + b"\x03\x08" + s(2) + b"\x11\x12\x13\x14\x15\x16\x17\x18\x19"
                    + new(1) + b"\x09"),
    # 'H' is a length qualifier of 7.3's format_decode().
    "qualifier-h": ([b"x %Hd %pV", b"inner %d"], RODATA + b"\x07" + new(1) + b"\x09"),
    "levels-kept": ([b"\001c\0016\0014 mid \0013 kept\n\n", b"\0019 not a level"], b""),
    "precision": ([b"%.3s|%.*s|%.40000s", DEPRECATED + b"abc", FW_INFO],
                  b"\xff\xff" + s(1) + prec(0) + s(2) + s(1)),
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
    # A tag printed by %c next to the format's text: the text is looked at.
    "tag-from-chars": ([b"%s[Hardware Error]%c ", b"x"], RODATA + s(1) + b"\x3a"),
    # README: the class scan runs to the end of the record (a stricter rule,
    # -DKNOWN_SCAN_TO_END=0, fails on the first); the 'H' qualifier, a bug
    # the fuzzer found (-DKNOWN_H_MISSED=1 fails on the other two).
    "known-scan-to-end": ([b"%pV%s", b"%s", b"x", HW_ERR], RODATA + new(1) + s(2) + s(3)),
    "known-h-pv": ([b"%HpV", b"inner"], RODATA + new(1)),
    "known-h-s": ([b"%Hs", HW_ERR], RODATA + s(1)),
}

# Inputs kept byte for byte, once harness/fuzz/known/: where msgid.c used to
# differ from vsnprintf() on precisions ("%.*s" with -1 prints nothing;
# "%.40000s" is 32767 on 7.3, 0 on 6.12). Now ordinary seeds.
RAW = {
    "digit-precision-16bit": b"\x01%.40000s\0[Deprecated]: x\0\xff\x00\x0b\x00",
    "star-precision-negative": b"\x02%.3s|%.*s|%.40000s\0[Deprecated]: abc\0"
                               b"[Firmware Info]: \0\xff\xff\x0b\x00\x00\x13\x00\x0b\x00",
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
