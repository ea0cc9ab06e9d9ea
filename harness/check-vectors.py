#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Recompute every MSGID_VECTOR(fmt, id) of the KUnit suites with zlib.

check-vectors.py FILE...: the expected identifiers of the KUnit suites
(kernel/printk/msgid_kunit.c, harness/modules/msgid_kunit_ext/) are
written down from an independent computation (Python's zlib.crc32 over
the canonical format). This check keeps them honest: it parses each
vector's C string literal, applies the rule of
Documentation/admin-guide/msgid.rst and compares; for a wrong vector it
prints the right value.
"""
import re
import sys
import zlib

VECTOR = re.compile(r'MSGID_VECTOR\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+),\s*(0x[0-9a-fA-F]{8})\)')
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')
ESCAPE = re.compile(r'\\(?:([0-7]{1,3})|x([0-9a-fA-F]+)|(.))')
SIMPLE = {'n': 10, 't': 9, 'r': 13, '\\': 92, '"': 34, "'": 39, 'a': 7, '0': 0}


def c_string(literals: str) -> bytes:
    """The bytes of adjacent C string literals."""
    out = bytearray()
    for lit in LITERAL.findall(literals):
        pos = 0
        for m in ESCAPE.finditer(lit):
            out += lit[pos:m.start()].encode()
            if m.group(1):
                out.append(int(m.group(1), 8))
            elif m.group(2):
                out.append(int(m.group(2), 16) & 0xff)
            else:
                out.append(SIMPLE[m.group(3)])
            pos = m.end()
        out += lit[pos:].encode()
    return bytes(out)


def canonical(fmt: bytes) -> bytes:
    """Drop leading KERN_SOH level/flag pairs and one trailing newline."""
    while len(fmt) >= 2 and fmt[0] == 1 and fmt[1:2] in b'01234567c':
        fmt = fmt[2:]
    return fmt[:-1] if fmt.endswith(b'\n') else fmt


def main() -> int:
    total = bad = 0
    for path in sys.argv[1:]:
        text = open(path, encoding='utf-8').read()
        vectors = VECTOR.findall(text)
        if not vectors:
            print(f'{path}: no MSGID_VECTOR() found', file=sys.stderr)
            return 1
        total += len(vectors)
        for literals, written in vectors:
            fmt = c_string(literals)
            want = zlib.crc32(canonical(fmt))
            if int(written, 16) != want:
                print(f'{path}: MSGID_VECTOR({literals.strip()}) says {written}, '
                      f'zlib.crc32 of the canonical form is 0x{want:08x}', file=sys.stderr)
                bad += 1
    print(f'check-vectors: {total - bad} passed, {bad} failed')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
