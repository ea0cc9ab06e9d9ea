#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-function instructions per message from insn_profile.c's output.

report.py --count N ON.prof ON.map OFF.prof OFF.map NOMSGID.prof NOMSGID.map

Each .prof line is "vaddr instructions-per-execution executions" of one
translation block; each block is charged to the System.map symbol it
starts in. Prints, per message, each function's instructions with the
switch on, off, and without CONFIG_PRINTK_MSGID, the differences on-off
and off-n, and the totals.
"""
import argparse
import bisect
import sys


def load_map(path: str) -> tuple[list[int], list[str]]:
    syms = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3 and parts[1] in 'tTwW':
                syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


def load_prof(path: str, smap: tuple[list[int], list[str]]) -> dict[str, int]:
    addrs, names = smap
    per: dict[str, int] = {}
    with open(path) as f:
        for line in f:
            if line.startswith('#'):
                continue
            vaddr, insns, count = line.split()
            a = int(vaddr, 16)
            i = bisect.bisect_right(addrs, a) - 1
            name = names[i] if i >= 0 and a < 0xffffffffc0000000 else '(module)'
            per[name] = per.get(name, 0) + int(insns) * int(count)
    return per


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--count', type=int, required=True)
    ap.add_argument('files', nargs=6)
    a = ap.parse_args()
    runs = [load_prof(a.files[i], load_map(a.files[i + 1])) for i in (0, 2, 4)]
    on, off, n = runs
    names = sorted(set(on) | set(off) | set(n),
                   key=lambda k: -max(abs(on.get(k, 0) - off.get(k, 0)),
                                      abs(off.get(k, 0) - n.get(k, 0)), on.get(k, 0)))
    c = a.count
    print(f'instructions per message ({c} messages), per function')
    print(f'{"function":36} {"on":>8} {"off":>8} {"n":>8} {"on-off":>8} {"off-n":>8}')
    tot = [sum(r.values()) / c for r in runs]
    for k in names:
        v = [r.get(k, 0) / c for r in runs]
        if max(abs(v[0] - v[1]), abs(v[1] - v[2])) < 0.5 and v[0] < 50:
            continue
        print(f'{k[:36]:36} {v[0]:8.1f} {v[1]:8.1f} {v[2]:8.1f} {v[0] - v[1]:+8.1f} {v[1] - v[2]:+8.1f}')
    print(f'{"total":36} {tot[0]:8.1f} {tot[1]:8.1f} {tot[2]:8.1f} {tot[0] - tot[1]:+8.1f} {tot[1] - tot[2]:+8.1f}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
