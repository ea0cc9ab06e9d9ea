#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Table of the printk msgid benchmark from the logs of harness/bench.sh.

Each log out/bench/run-<round>-<label>.log is one boot of a UML kernel
running harness/modules/msgid_bench/; labels: off (CONFIG_PRINTK_MSGID=n),
on (=y), on-offonly (=y, the switch never turned on: the one compared with
off, see only_off in msgid_bench.c), on-time0 (=y, printk.time=0), caller
(=y, CONFIG_PRINTK_CALLER=y).
All boots but on-time0 run with printk.time=1. Every number is the median
over the boots of the per-boot medians; cross-boot ratios are taken per
round (boots of one round run back to back) and their median is shown.

With --icount the logs come from x86_64 kernels run under QEMU TCG with
"-icount shift=0" (harness/bench.sh with ICOUNT=1), where the guest clock
advances one nanosecond per instruction executed: every number is then a
count of instructions, and a ratio across kernels (CONFIG=y switch off over
CONFIG=n) is as exact as one inside a boot.
"""

import glob
import os
import re
import statistics
import sys

#: Each kind twice: its format in vmlinux .rodata, and in the module's ("@mod").
BASE_KINDS = ["short", "pr_fmt", "dev", "nested", "long", "cont"]
KINDS = BASE_KINDS + [k + "@mod" for k in BASE_KINDS]
LINE = re.compile(r"msgid_bench: (kind=\S+ .*)$")
ENV = re.compile(r"msgid_bench-env: (\w+)=(.*)$")
#: What issue 46 asks: switch on/off, and switch off/CONFIG=n.
GOAL_ON_OFF = 1.02
GOAL_OFF_N = 1.005


def parse(path):
    """{(kind, key): value} of one boot."""
    res = {"env": {}}
    with open(path, errors="replace") as f:
        for line in f:
            e = ENV.search(line.rstrip())
            if e:
                res["env"][e.group(1)] = e.group(2)
                continue
            m = LINE.search(line.rstrip())
            if not m:
                continue
            kv = dict(p.split("=", 1) for p in m.group(1).split() if "=" in p)
            kind = kv.pop("kind")
            if "mode" in kv:
                res[(kind, kv["mode"])] = float(kv["ns"])
                res[(kind, kv["mode"] + ":min")] = float(kv["min"])
            elif "on_off_ppm" in kv:
                res[(kind, "on/off")] = int(kv["on_off_ppm"]) / 1e6
                if "mean_ppm" in kv:
                    res[(kind, "on/off:mean")] = int(kv["mean_ppm"]) / 1e6
            elif "get_ns" in kv:
                res[(kind, "get")] = float(kv["get_ns"])
    return res


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def fmt(x, ratio=False):
    if x is None:
        return "-"
    return f"{x:.3f}" if ratio else f"{x:.0f}"


def main():
    args = sys.argv[1:]
    icount = "--icount" in args
    args = [a for a in args if a != "--icount"]
    d = args[0] if args else "out/bench"
    runs = {}  # label -> round -> results
    for path in glob.glob(os.path.join(d, "run-*.log")):
        m = re.match(r"run-(\d+)-(.+)\.log$", os.path.basename(path))
        if m:
            runs.setdefault(m.group(2), {})[int(m.group(1))] = parse(path)
    if "off" not in runs or "on" not in runs:
        sys.exit(f"report.py: no off/on runs in {d}")
    rounds = sorted(set(runs["off"]) & set(runs["on"]))
    # The switch-off path against CONFIG=n: from a boot that never turned
    # the switch on, when there is one (older logs have none).
    sw = "on-offonly" if "on-offonly" in runs else "on"

    def cell(label, kind, key):
        return med(r.get((kind, key)) for r in runs.get(label, {}).values())

    def per_round(num, den, kind, key):
        """Per-round ratios num/den (same kind and key)."""
        out = []
        for r in rounds:
            a = runs.get(num, {}).get(r, {}).get((kind, key))
            b = runs.get(den, {}).get(r, {}).get((kind, key))
            if a and b:
                out.append(a / b)
        return out

    if icount:
        report_icount(runs, sw, cell, per_round)
        return

    rows = []
    spread = []
    for k in KINDS:
        onoff = [r.get((k, "on/off")) for r in runs["on"].values()]
        onoff = [x for x in onoff if x is not None]
        cfg = per_round(sw, "off", k, "off")
        tm = per_round("on", "on-time0", k, "off")
        clr = per_round("caller", "on", k, "off")
        mins = [r[(k, "on:min")] / r[(k, "off:min")] for r in runs["on"].values()
                if r.get((k, "on:min")) and r.get((k, "off:min"))]
        cfgmin = per_round(sw, "off", k, "off:min")
        rows.append([k, fmt(cell("off", k, "off")), fmt(cell("on", k, "off")),
                     fmt(cell("on", k, "on")), fmt(med(onoff), True),
                     fmt(med(mins), True), fmt(med(cfg), True), fmt(med(cfgmin), True), fmt(med(tm), True),
                     fmt(med(clr), True), fmt(cell("on", k, "get"))])
        spread.append((k, onoff, cfg, tm, clr))

    head = ["kind", "CONFIG=n", "y,sw=off", "y,sw=on", "on/off", "(min)",
            "swoff/n", "(min)", "time1/0", "CALLER", "get() ns"]
    w = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    n_on = len(runs["on"])
    print(f"printk msgid benchmark: ns per message stored (UML, console silent), "
          f"median of {n_on} boots x per-boot median of the repetitions")
    print("  on/off  = switch on / switch off, paired inside each boot (CONFIG=y)")
    print(f"  swoff/n = CONFIG=y switch off / CONFIG=n, paired per round of boots ({sw})")
    print("  (min)   = the same ratio from the fastest repetition of each boot: host")
    print("            preemption only ever adds time, so it is the least noisy estimate")
    print("  time1/0 = printk.time=1 / printk.time=0 (CONFIG=y, switch off), for comparison")
    print("  CALLER  = CONFIG_PRINTK_CALLER=y / n (CONFIG=y, switch off), for comparison")
    print("  get() ns = printk_msgid_get() alone (walk + %pV + canonical form + CRC-32)")
    print()
    for r in [head] + rows:
        print("  ".join(str(c).rjust(w[i]) if i else str(c).ljust(w[i])
                        for i, c in enumerate(r)))
    print()
    print("floor: the fastest repetition over all boots, ns/message; ratios of floors")
    fh = ["kind", "CONFIG=n", "y,sw=off", "y,sw=on", "on/off", "swoff/n",
          "time1/0", "CALLER"]
    frows = []

    def floor(label, kind, mode):
        xs = [r.get((kind, mode + ":min")) for r in runs.get(label, {}).values()]
        xs = [x for x in xs if x]
        return min(xs) if xs else None

    def q(a, b):
        return a / b if a and b else None
    for k in KINDS:
        n, yo, yn = floor("off", k, "off"), floor("on", k, "off"), floor("on", k, "on")
        frows.append([k, fmt(n), fmt(yo), fmt(yn), fmt(q(yn, yo), True),
                      fmt(q(floor(sw, k, "off"), n), True),
                      fmt(q(yo, floor("on-time0", k, "off")), True),
                      fmt(q(floor("caller", k, "off"), yo), True)])
    fw = [max(len(str(r[i])) for r in frows + [fh]) for i in range(len(fh))]
    for r in [fh] + frows:
        print("  ".join(str(c).rjust(fw[i]) if i else str(c).ljust(fw[i])
                        for i, c in enumerate(r)))
    print()
    print("spread over boots (min..max):")
    for k, onoff, cfg, tm, clr in spread:
        def rng(xs):
            return f"{min(xs):.3f}..{max(xs):.3f}" if xs else "-"
        print(f"  {k:<7} on/off {rng(onoff)}  swoff/n {rng(cfg)}  "
              f"time1/0 {rng(tm)}  CALLER {rng(clr)}")
    before_after(runs, cell, per_round)
    print()
    goals(rows, 4, " (paired medians)", frows, 5, " (floors)",
          " (compare with the time1/0 and CALLER columns: the cross-boot noise)")


def goals(rows, c_sw, how_sw, crows, c_cfg, how_cfg, note=""):
    """Print whether the issue's two goals are met, naming the kinds that miss."""
    def missed(rs, col, limit):
        return [r[0] for r in rs if r[col] != "-" and float(r[col]) > limit]
    miss_sw, miss_cfg = missed(rows, c_sw, GOAL_ON_OFF), missed(crows, c_cfg, GOAL_OFF_N)
    print(f"goal switch on/off <= {GOAL_ON_OFF}{how_sw}: " +
          ("met" if not miss_sw else "MISSED for " + ", ".join(miss_sw)))
    print(f"goal CONFIG on(off)/off <= {GOAL_OFF_N}{how_cfg}: " +
          ("met" if not miss_cfg else "MISSED for " + ", ".join(miss_cfg)) + note)


def table(head, rows):
    w = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    for r in [head] + rows:
        print("  ".join(str(c).rjust(w[i]) if i else str(c).ljust(w[i])
                        for i, c in enumerate(r)))


def report_icount(runs, sw, cell, per_round):
    """Instructions per message: one table, the goals, before/after."""
    print("printk msgid benchmark: instructions per message stored (x86_64 under "
          "QEMU TCG, -icount shift=0: a guest ns is an instruction; console silent), "
          f"median of {len(runs['on'])} boots x per-boot median of the repetitions")
    print("  on/off  = switch on / switch off, inside each boot (CONFIG=y)")
    print("  swoff/n = CONFIG=y switch off / CONFIG=n: instruction counts, so as exact")
    print(f"            across kernels as inside one ({sw})")
    print("  +on, +swoff = the same as differences, instructions per message")
    print("  time1/0 = printk.time=1 / printk.time=0 (CONFIG=y, switch off), for comparison")
    print("  CALLER  = CONFIG_PRINTK_CALLER=y / n (CONFIG=y, switch off), for comparison")
    print("  get()   = printk_msgid_get() alone, instructions per call")
    print("  Instructions are not time: cache misses and stalls are not counted (make")
    print("  bench times the same code natively on UML).")
    print("  kind@mod: the same call site in the module (formats outside vmlinux .rodata)")
    print("  mean    = on/off, mean over boots of each boot's mean over repetitions")
    print("  spread  = (highest - lowest) / median of the boots' on/off medians")
    env = environment(runs)
    for key in ("cpu", "consoles", "kernel"):
        if key in env:
            print(f"  ran on: {key} {env[key]}")
    print("  consoles suspended (flushed, then held) during the measurement")
    print()
    head = ["kind", "CONFIG=n", "y,sw=off", "y,sw=on", "on/off", "mean", "spread", "+on",
            "swoff/n", "+swoff", "time1/0", "CALLER", "get()"]
    rows = []
    spread = []

    def q(a, b):
        return a / b if a and b else None

    def dif(a, b):
        return f"{a - b:+.0f}" if a and b else "-"
    for k in KINDS:
        n, yo, yn = cell("off", k, "off"), cell("on", k, "off"), cell("on", k, "on")
        onoff = [r.get((k, "on/off")) for r in runs["on"].values()]
        onoff = [x for x in onoff if x is not None]
        cfg = per_round(sw, "off", k, "off")
        means = [r.get((k, "on/off:mean")) for r in runs["on"].values()]
        means = [x for x in means if x is not None]
        mean = f"{statistics.mean(means):.3f}" if means else "-"
        sprd = (f"{(max(onoff) - min(onoff)) / med(onoff) * 100:.2f}%"
                if onoff else "-")
        rows.append([k, fmt(n), fmt(yo), fmt(yn), fmt(med(onoff), True), mean, sprd,
                     dif(yn, yo), fmt(med(cfg), True), dif(cell(sw, k, "off"), n),
                     fmt(med(per_round("on", "on-time0", k, "off")), True),
                     fmt(med(per_round("caller", "on", k, "off")), True),
                     fmt(cell("on", k, "get"))])
        spread.append((k, onoff, cfg))
    table(head, rows)
    print()
    print("spread over boots (min..max), a check of the method's determinism:")
    for k, onoff, cfg in spread:
        def rng(xs):
            return f"{min(xs):.4f}..{max(xs):.4f}" if xs else "-"
        print(f"  {k:<7} on/off {rng(onoff)}  swoff/n {rng(cfg)}")
    before_after(runs, cell, per_round)
    print()
    goals(rows, 4, ", in instructions", rows, 8, ", in instructions")


def environment(runs):
    """The msgid_bench-env lines of the first boot of the "on" kernel."""
    env = {}
    for rounds in (runs.get("on", {}),):
        for r in sorted(rounds):
            env = rounds[r].get("env", {})
            break
    return env


def before_after(runs, cell, per_round):
    """The before/after section, when a BENCH_BASE kernel was booted."""
    if "base" in runs:
        print()
        print("before/after: base = BENCH_BASE kernel (CONFIG=y), new = this tree (CONFIG=y)")
        bh = ["kind", "base on", "new on", "base on/off", "new on/off",
              "new/base on", "(min)", "new/base off", "base get()", "new get()"]
        brows = []
        for k in KINDS:
            def oo(label):
                return med(r.get((k, "on/off")) for r in runs.get(label, {}).values())
            brows.append([k, fmt(cell("base", k, "on")), fmt(cell("on", k, "on")),
                          fmt(oo("base"), True), fmt(oo("on"), True),
                          fmt(med(per_round("on", "base", k, "on")), True),
                          fmt(med(per_round("on", "base", k, "on:min")), True),
                          fmt(med(per_round("on", "base", k, "off")), True),
                          fmt(cell("base", k, "get")), fmt(cell("on", k, "get"))])
        bw = [max(len(str(r[i])) for r in brows + [bh]) for i in range(len(bh))]
        for r in [bh] + brows:
            print("  ".join(str(c).rjust(bw[i]) if i else str(c).ljust(bw[i])
                            for i, c in enumerate(r)))


if __name__ == "__main__":
    main()
