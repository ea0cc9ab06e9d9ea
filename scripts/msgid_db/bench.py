# SPDX-License-Identifier: GPL-2.0
"""Benchmark msgid-db.py: build, lookup latency, annotate throughput, and
a comparison with "git grep -F" of the messages' literal text.

Usage: python3 -m msgid_db.bench [--vmlinux F] [--modules D] [--source D]
                                 [--tree DIR] [--lines N] [--runs N]
(run from scripts/, or use harness/bench-db.sh).
"""

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Optional

from msgid_db import database

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "msgid-db.py")
_SPEC_RE = re.compile(r"%[-+ #0]*[\d*]*(?:\.[\d*]+)?[hlLqjzt]*[a-zA-Z%]"
                      r"[A-Za-z]*|\\|\n")


def timed(argv: list[str], stdout: Optional[int] = subprocess.DEVNULL
          ) -> float:
    """Run @argv and return its wall time in seconds."""
    start = time.perf_counter()
    subprocess.run(argv, stdout=stdout, stderr=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - start


def literal_part(fmt: str) -> str:
    """Return the longest literal piece of a format (for git grep)."""
    pieces = _SPEC_RE.split(fmt)
    return max(pieces, key=len).strip() if pieces else ""


def build(db: str, args: argparse.Namespace) -> tuple[float, str]:
    """Build @db from the given inputs; return (seconds, description)."""
    argv = [sys.executable, SCRIPT, "--db", db, "build"]
    what = []
    if args.vmlinux:
        argv += ["--vmlinux", args.vmlinux]
        what.append("vmlinux")
    if args.modules:
        argv += ["--modules", args.modules]
        what.append("modules")
    if args.source or not what:
        argv += ["--source", args.source or args.tree]
        what.append("source scan of %s" % (args.source or args.tree))
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, check=False)
    if proc.returncode:
        sys.exit("bench: build failed: %s" % proc.stderr.strip())
    return time.perf_counter() - start, " + ".join(what)


def bench_lookup(db: str, sample: list[str], runs: int
                 ) -> tuple[float, float, float]:
    """Median ms of a 'msgid-db.py lookup' process, of a bare python3
    process, and of the query in-process."""
    times = [timed([sys.executable, SCRIPT, "--db", db, "lookup", i])
             for i in sample[:runs]]
    bare = [timed([sys.executable, "-c", "pass"]) for _ in sample[:runs]]
    handle = database.open_db(db)
    inproc = []
    for i in sample[:runs]:
        start = time.perf_counter()
        handle.lookup(i)
        inproc.append(time.perf_counter() - start)
    handle.close()
    return (statistics.median(times) * 1e3, statistics.median(bare) * 1e3,
            statistics.median(inproc) * 1e3)


def bench_annotate(db: str, ids: list[str], lines: int, tmp: str) -> float:
    """Lines per second of 'msgid-db.py annotate' on a synthetic log."""
    rng = random.Random(42)
    log = os.path.join(tmp, "synthetic.log")
    shapes = ["[%6d.%06d] (%s): synthetic message %d\n",
              "<6>[%6d.%06d] (%s): synthetic message %d\n",
              "Dec 03 10:00:%02d host kernel: (%s): message %d %d\n",
              "6,%d,%d,-;(%s): synthetic message\n",
              "[%6d.%06d] plain line without id %s %d\n"]
    with open(log, "w") as f:
        for n in range(lines):
            shape = shapes[n % len(shapes)]
            msgid = rng.choice(ids) if n % 7 else "%08x" % n
            if shape.startswith("Dec"):
                f.write(shape % (n % 60, msgid, n, n))
            elif shape.startswith("6,"):
                f.write(shape % (n, n * 10, msgid))
            else:
                f.write(shape % (n // 1000, n % 1000000, msgid, n))
    seconds = timed([sys.executable, SCRIPT, "--db", db, "annotate", log])
    return lines / seconds


def bench_grep(db: str, tree: str, count: int) -> None:
    """Compare ID lookup with git grep -F of the literal message text."""
    git = shutil.which("git")
    if not git or not os.path.isdir(tree):
        print("git grep: skipped (no git or no tree at %s)" % tree)
        return
    handle = database.open_db(db)
    id_map = handle.id_map()
    sites = [s for s in handle.all_sites() if len(literal_part(s.canonical)) >= 8]
    handle.close()
    rng = random.Random(7)
    sample = rng.sample(sites, min(count, len(sites)))
    is_repo = os.path.isdir(os.path.join(tree, ".git"))
    base = [git, "-C", tree, "grep", "-F", "-n", "-I"]
    if not is_repo:
        base.insert(4, "--no-index")
    grep_times, grep_one, grep_zero, id_one = [], 0, 0, 0
    for site in sample:
        text = literal_part(site.canonical)
        start = time.perf_counter()
        proc = subprocess.run(base + ["-e", text, "--", "*.c", "*.h"],
                              capture_output=True, check=False)
        grep_times.append(time.perf_counter() - start)
        hits = len(proc.stdout.splitlines())
        grep_one += hits == 1
        grep_zero += hits == 0
        id_one += len(id_map.get(site.id, [])) == 1
    n = len(sample)
    print("git grep -F (%s, %d messages): median %.0f ms; exactly one hit "
          "%d/%d (%.0f%%), no hit %d" % (
              "--no-index" if not is_repo else "repo", n,
              statistics.median(grep_times) * 1e3, grep_one, n,
              100.0 * grep_one / n, grep_zero))
    print("msgid lookup (same messages): exactly one call site %d/%d (%.0f%%)"
          % (id_one, n, 100.0 * id_one / n))


def main() -> int:
    """Run the benchmark and print the numbers."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--vmlinux")
    p.add_argument("--modules")
    p.add_argument("--source")
    p.add_argument("--tree", default="/tmp/base/linux-source-6.12",
                   help="kernel tree for git grep (and the default source "
                   "scan)")
    p.add_argument("--db", help="use this DB instead of building one")
    p.add_argument("--lines", type=int, default=1000000)
    p.add_argument("--runs", type=int, default=21)
    p.add_argument("--grep", type=int, default=50,
                   help="messages to git grep")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db
        if not db:
            db = os.path.join(tmp, "msgid.db")
            secs, what = build(db, args)
            print("build (%s): %.1f s" % (what, secs))
        handle = database.open_db(db)
        ids = sorted(handle.id_map())
        print("database: %d call sites, %d IDs" % (
            int(handle.meta().get("sites", "0")), len(ids)))
        handle.close()
        sample = random.Random(1).sample(ids, min(args.runs, len(ids)))
        proc_ms, bare_ms, inproc_ms = bench_lookup(db, sample, args.runs)
        print("lookup: median %.1f ms per 'msgid-db.py lookup' process "
              "(bare python3 start %.1f ms, query %.3f ms), %d runs, "
              "goal <= 50 ms" % (proc_ms, bare_ms, inproc_ms, len(sample)))
        rate = bench_annotate(db, ids, args.lines, tmp)
        print("annotate: %.0f lines/s on a %d-line synthetic log, goal >= "
              "100000" % (rate, args.lines))
        bench_grep(db, args.tree, args.grep)
    return 0


if __name__ == "__main__":
    sys.exit(main())
