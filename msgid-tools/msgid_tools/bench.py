# SPDX-License-Identifier: GPL-2.0
"""Benchmark msgid-db.py: build, lookup latency, annotate throughput, and
a comparison with "git grep -F" of the messages' literal text.

Usage: python3 -m msgid_tools.bench [--vmlinux F] [--modules D] [--source D]
                                 [--source-db F] [--releases-db F]
                                 [--tree DIR] [--lines N] [--runs N]
(run from msgid-tools/, or with PYTHONPATH=msgid-tools from the top of the
repository).
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

from msgid_tools import database
from msgid_tools import match, queries, source

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "msgid-db")
#: Passes over the records at least, each timed (bench_match()).
PASSES = 20
_SPEC_RE = re.compile(r"%[-+ #0]*[\d*]*(?:\.[\d*]+)?[hlLqjzt]*[a-zA-Z%]"
                      r"[A-Za-z]*|\\|\n")


def timed(argv: list[str], stdout: Optional[int] = subprocess.DEVNULL
          ) -> float:
    """Run @argv and return its wall time in seconds."""
    start = time.perf_counter()
    subprocess.run(argv, stdout=stdout, stderr=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - start


def timed_cpu(argv: list[str]) -> tuple[float, float]:
    """Run @argv; return (wall seconds, CPU seconds, user + system): on a
    busy host the CPU time is what the command itself cost."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = timed(argv)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime
                  + after.ru_stime - before.ru_stime)


def literal_part(fmt: str) -> str:
    """Return the longest literal piece of a format (for git grep)."""
    pieces = _SPEC_RE.split(fmt)
    return max(pieces, key=len).strip() if pieces else ""


def compiled() -> None:
    """Have the processes this benchmark starts read the tool's modules
    compiled, as a package installs them: their bytecode is brought up
    to date once here (in __pycache__, as python3 does by default),
    whatever PYTHONDONTWRITEBYTECODE says. A lookup process that compiles
    every module it imports takes a third longer."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run([sys.executable, "-m", "compileall", "-q",
                    os.path.dirname(os.path.abspath(__file__))],
                   stdout=subprocess.DEVNULL, env=env, check=False)


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


def printed_text(db: database.Database, msgid: str, n: int
                 ) -> Optional[str]:
    """A text that a format of @msgid prints (its first line), its
    numbers @n modulo 8, its other conversions "x"; None if @msgid has
    no format that can start a record."""
    for _, canon, _, _ in match.formats_of(db, msgid):
        tokens, wrapper = match.tokenize(canon.split(b"\n", 1)[0])
        if wrapper or not tokens:
            continue
        return b"".join(v if k == match.LIT else  # type: ignore[misc]
                        b"%d" % (n % 8) if k == match.NUM else b"x"
                        for k, v in tokens).decode("utf-8", "replace")
    return None


def bench_annotate(db: str, ids: list[str], lines: int, tmp: str,
                   contradicted: bool = False) -> float:
    """Lines per second of 'msgid-db.py annotate' on a synthetic log: one
    line in seven an unknown ID, one in five none; the others a known ID
    and a text it prints, or with @contradicted a text no format of the
    database prints (annotate then matches the text, to say so)."""
    rng = random.Random(42)
    log = os.path.join(tmp, "synthetic.log")
    shapes = ["[%6d.%06d] (%s): %s\n",
              "<6>[%6d.%06d] (%s): %s\n",
              "Dec 03 10:00:%02d host kernel: (%s): %s\n",
              "6,%d,%d,-;(%s): %s\n",
              "[%6d.%06d] plain line without id %s %d\n"]
    handle = database.open_db(db)
    texts: dict[tuple[str, int], Optional[str]] = {}
    with open(log, "w") as f:
        for n in range(lines):
            shape = shapes[n % len(shapes)]
            msgid = rng.choice(ids) if n % 7 else "%08x" % n
            if n % 7 and not contradicted:
                key = (msgid, n % 8)
                if key not in texts:
                    texts[key] = printed_text(handle, msgid, n)
                text = texts[key] or "message %d" % n
            else:
                text = "synthetic message %d" % n
            if shape.startswith("Dec"):
                f.write(shape % (n % 60, msgid, text))
            elif shape.startswith("6,"):
                f.write(shape % (n, n * 10, msgid, text))
            elif shape.startswith("[%6d.%06d] plain"):
                f.write(shape % (n // 1000, n % 1000000, msgid, n))
            else:
                f.write(shape % (n // 1000, n % 1000000, msgid, text))
    handle.close()
    seconds = timed([sys.executable, SCRIPT, "--db", db, "annotate", log])
    return lines / seconds


def bench_grep(db: str, tree: str, count: int) -> None:
    """Compare ID lookup with git grep -F of the literal message text."""
    git = shutil.which("git")
    if not git or not os.path.isdir(tree):
        print("git grep: skipped (no git or no tree at %s)" % tree)
        return
    handle = database.open_db(db)
    id_map = queries.id_map(handle)
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


def print_match_figures(name: str, db: str, log: str) -> None:
    """Print the matcher's figures on @log and every record not right."""
    from msgid_tools.figures import match_figures
    fig = match_figures(db, log)
    print(fig.summary(name))
    for line in fig.details():
        print(line)


def bench_match(db: str, log: Optional[str], lines: int, tmp: str) -> None:
    """Speed of the text matcher on lines without an ID: the boot log's
    records with the prefix removed (or synthetic lines if no log).

    Prints the time to open the matcher, the wall time of a msgid-db.py
    annotate of one line (first line out), the rate of one pass over the
    records with nothing read yet (every bucket of the word index fetched
    on first use), the rate once the buckets are read with the result
    cache off (every line matched anew: what distinct lines cost), and
    the rate of a msgid-db.py annotate process on @lines lines cycling
    through the records (repeated texts hit the result cache).
    """
    from msgid_tools.dmesg import LINE_RE, Annotator
    from msgid_tools.match import load
    texts = []
    if log and os.path.isfile(log):
        with open(log, "rb") as f:
            for line in f:
                m = LINE_RE.match(line)
                if m:
                    texts.append(line[:m.start("id") - 1] + line[m.end():])
    if not texts:
        texts = [b"[    1.000000] synthetic message %d\n" % n
                 for n in range(1000)]
    start = time.perf_counter()
    handle = database.open_db(db)
    annotator = Annotator({}, matcher=load(handle))
    load_s = time.perf_counter() - start
    matcher = annotator.matcher
    assert matcher is not None
    # Rates per CPU second of this process: what one core does, whatever
    # else the host runs.
    start = time.process_time()
    for t in texts:
        annotator.identify(t)
    cold = len(texts) / max(time.process_time() - start, 1e-9)
    matcher.no_cache()
    # Passes over the records, each timed: the best is what the code
    # costs on a core nothing else disturbed (a shared host slows whole
    # seconds by a third or more); the median is printed beside it.
    rates = []
    identify = annotator.identify
    for _ in range(max(PASSES, 20000 // len(texts))):
        start = time.process_time()
        for t in texts:
            identify(t)
        rates.append(len(texts) / max(time.process_time() - start, 1e-9))
    warm, typical = max(rates), statistics.median(rates)
    handle.close()
    path = os.path.join(tmp, "noid.log")
    with open(path, "wb") as f:
        for n in range(lines):
            f.write(texts[n % len(texts)])
    one = os.path.join(tmp, "one.log")
    with open(one, "wb") as f:
        f.write(texts[0])
    first, first_cpu = min(timed_cpu([sys.executable, SCRIPT, "--db", db,
                                      "annotate", one]) for _ in range(3))
    total = timed([sys.executable, SCRIPT, "--db", db, "annotate", path])
    what = "records of the boot log" if log else "synthetic lines"
    print("match: open %.3f s; first line out %.2f s wall, %.2f s CPU "
          "(msgid-db.py annotate of one line, goal < 1 s); %d %s, prefix "
          "removed, per CPU second: %.0f lines/s on a first pass (buckets "
          "read as needed), %.0f lines/s with the buckets read and no result "
          "cache (best of %d passes, goal >= 50000; median %.0f); annotate "
          "process on %d lines cycling through them (cache hits): %.0f "
          "lines/s" % (
              load_s, first, first_cpu, len(texts), what, cold, warm,
              len(rates), typical, lines, lines / max(total - first, 1e-9)))


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
    p.add_argument("--boot-log", help="a boot log with IDs: figures of "
                   "the text matcher against it")
    p.add_argument("--source-db", help="a --source database of the tree "
                   "(built from --tree if missing): matcher figures and "
                   "speed against it too")
    p.add_argument("--releases-db", help="a database of several releases "
                   "(msgid-db.py merge): matcher figures and speed against "
                   "it too")
    p.add_argument("--match-only", action="store_true",
                   help="only the text matcher's figures and speed")
    args = p.parse_args()
    if args.match_only:
        if not args.db:
            sys.exit("bench: --match-only needs --db")
        with tempfile.TemporaryDirectory() as tmp:
            compiled()
            run_match(args, args.db, tmp)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        compiled()
        db = args.db
        if not db:
            db = os.path.join(tmp, "msgid.db")
            secs, what = build(db, args)
            print("build (%s): %.1f s" % (what, secs))
        handle = database.open_db(db)
        ids = sorted(queries.id_map(handle))
        print("database: %d call sites, %d IDs" % (
            int(handle.meta().get("sites", "0")), len(ids)))
        handle.close()
        sample = random.Random(1).sample(ids, min(args.runs, len(ids)))
        proc_ms, bare_ms, inproc_ms = bench_lookup(db, sample, args.runs)
        print("lookup: median %.1f ms per 'msgid-db.py lookup' process "
              "(bare python3 start %.1f ms, query %.3f ms), %d runs, "
              "goal <= 50 ms" % (proc_ms, bare_ms, inproc_ms, len(sample)))
        rate = bench_annotate(db, ids, args.lines, tmp)
        worst = bench_annotate(db, ids, args.lines // 5, tmp, True)
        print("annotate: %.0f lines/s on a %d-line synthetic log (IDs with "
              "texts they print), goal >= 100000; %.0f lines/s on %d lines "
              "whose every text contradicts its ID (each is matched)"
              % (rate, args.lines, worst, args.lines // 5))
        bench_grep(db, args.tree, args.grep)
        run_match(args, db, tmp)
    return 0


def _has_match_index(path: str) -> bool:
    try:
        handle = database.open_db(path)
    except database.DatabaseError:
        return False
    try:
        return match.has_index(handle)
    except database.DatabaseError:
        return False
    finally:
        handle.close()


def _newest_scanner() -> str:
    """The newest module of the source scanner (source.py and the
    source_*.py it calls: ACPICA's, Rust's): what make bench-db compares
    its kept database with too."""
    here = os.path.dirname(source.__file__)
    paths = [os.path.join(here, n) for n in os.listdir(here)
             if n.startswith("source") and n.endswith(".py")]
    return max(paths, key=os.path.getmtime)


def run_match(args: argparse.Namespace, db: str, tmp: str) -> None:
    """The text matcher's figures and speed, against @db and the source
    database if given."""
    dbs = [("index", db)]
    if args.source_db:
        scanner = _newest_scanner()
        if os.path.isfile(args.source_db) and (
                not _has_match_index(args.source_db) or
                os.path.getmtime(args.source_db) <
                os.path.getmtime(scanner)):
            # Built before the word index, or by an older scanner: the
            # figures would not be this scanner's. The file is the
            # user's: it is never removed here.
            sys.exit("bench: %s is older than the scanner (%s) or has no "
                     "word index: remove it to have it built again from "
                     "--tree, or name another file"
                     % (args.source_db, scanner))
        if not os.path.isfile(args.source_db):
            start = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, SCRIPT, "--db", args.source_db, "build",
                 "--source", args.tree], capture_output=True, text=True,
                check=False)
            if proc.returncode:
                sys.exit("bench: build --source failed: %s"
                         % proc.stderr.strip())
            print("build --source %s: %.1f s" % (
                args.tree, time.perf_counter() - start))
        else:
            print("source database: %s (kept from an earlier run)"
                  % args.source_db)
        dbs.append(("source", args.source_db))
    if args.releases_db:
        if not os.path.isfile(args.releases_db):
            sys.exit("bench: no %s: merge the databases of several releases "
                     "into it (msgid-db.py merge), or name "
                     "another file" % args.releases_db)
        dbs.append(("releases", args.releases_db))
    for name, path in dbs:
        if args.boot_log:
            print_match_figures(name, path, args.boot_log)
        print("[%s] " % name, end="")
        bench_match(path, args.boot_log, min(args.lines, 200000), tmp)


if __name__ == "__main__":
    sys.exit(main())
