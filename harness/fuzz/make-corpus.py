#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the seed corpus of fuzz_msgid (harness/fuzz/corpus/).

An input is a count byte (number of texts - 1), the texts, each ending in
a NUL byte, then the argument program (see
the comment at the top of fuzz_msgid.c). Program bytes 0 and 1 place the
texts (0 0: all in the shim's .rodata, cached); then one byte per slot,
by what the format reads there: for %s, (text << 3) | 3 and an offset
byte; for %pV, 0 NULL, 1 small, 2 ERR_PTR, 3 fmt NULL, 4 va NULL,
(level << 3) | 5 back to an enclosing level, (text << 3) | 6 a new level.
"""
import os
import sys

def s(t, off=0):
    return bytes([(t << 3) | 3, off])

def new(t):
    return bytes([(t << 3) | 6])

def back(level):
    return bytes([(level << 3) | 5])

SEEDS = {
    "level-newline": [b"\0016Hello %s\n", b"world"],
    "dev-printk": [b"%s %s: %pV", b"\0013disk %s failed\n", b"e1000", b"0000:00:03.0", b"sda"],
    "chain-10": [b"w%d: %pV", b"leaf %s %d", b"x"],
    "selfref": [b"%pV"],
    "cycle-2": [b"a %pV", b"b %s %pV", b"s"],
    "tags": [b"[Firmware Bug]: %s %.*s", b"[Hardware Error]: x", b"y"],
    "ghes": [b"%sHardware error from APEI Generic Hardware Error Source: %d",
             b"\0013{1}[Hardware Error]: "],
    "tag-in-vaf": [b"%s %s: %pV", b"[Hardware Error]: disk %s failed", b"ahci", b"sda"],
    "stop-y": [b"x %y %pV", b"inner %d"],
    "stop-n": [b"x %n %pV", b"inner %d"],
    "trailing-pct": [b"abc %"],
    "stop-ll": [b"x %ll %pV", b"x %5", b"x %.", b"%"],
    "conversions": [b"a %*.*s %lld %zx %hhd %c %pS %*ph %5% %Lx %td b %pV", b"inner %d", b"str"],
    "bad-vaf": [b"%s: %pV", b"x"],
    "levels-kept": [b"\001c\0016\0014 mid \0013 kept\n\n", b"\0019 not a level"],
    "precision": [b"%.3s|%.*s|%.40000s", b"[Deprecated]: abc", b"[Firmware Info]: "],
}

PROGS = {
    "level-newline": b"\0\0" + s(1),
    "dev-printk": b"\0\0" + s(2) + s(3) + new(1) + s(4),
    "chain-10": b"\0\0" + (b"\x01" + new(0)) * 9 + b"\x01" + new(1) + s(2) + b"\x07" * 8,
    "selfref": b"\0\0" + back(0),
    "cycle-2": b"\0\0" + new(1) + s(2) + back(0),
    "tags": b"\0\0" + s(1, 4) + b"\x05" + s(1),
    "ghes": b"\0\0" + s(1) + b"\x02",
    "tag-in-vaf": b"\0\0" + s(2) + s(3) + new(1) + s(3),
    "stop-y": b"\0\0" + new(1),
    "stop-n": b"\0\0" + new(1),
    "trailing-pct": b"",
    "stop-ll": b"\xff\0",
    "conversions": b"\x55\xaa" + b"\x03\x08" + s(2) + b"\x11\x12\x13\x14\x15\x16\x17\x18\x19" + new(1) + b"\x09",
    "bad-vaf": b"\0\0" + s(1) + b"\x03",
    "levels-kept": b"",
    "precision": b"\xff\xff" + s(1) + b"\x00" + s(2) + s(1),
}

def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
    os.makedirs(out, exist_ok=True)
    for name, texts in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(bytes([len(texts) - 1]) + b"\0".join(texts) + b"\0" + PROGS[name])
    extra = {  # variants of bad-vaf: NULL, small, ERR_PTR, va NULL
        "bad-vaf-null": b"\0\0" + s(1) + b"\x00",
        "bad-vaf-err": b"\0\0" + s(1) + b"\x02",
        "bad-vaf-nova": b"\0\0" + s(1) + b"\x04",
    }
    for name, prog in extra.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(b"\x01%s: %pV\0x\0" + prog)
    return 0

if __name__ == "__main__":
    sys.exit(main())
