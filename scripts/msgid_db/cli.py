# SPDX-License-Identifier: GPL-2.0
"""Command line interface of scripts/msgid-db.py.

build makes the database from the printk index (a live one or a saved
copy) or a vmlinux; lookup prints the call sites of IDs; annotate adds
them to the log lines that carry an ID.  build_parser() and main() take
@extend, a function that may add options and commands to the parser.
"""

import argparse
import contextlib
import io
import os
import sys
from typing import (TYPE_CHECKING, Callable, Iterable, Iterator,
                    Optional)

from msgid_db import database, ids
from msgid_db.ids import CallSite, InputError

if TYPE_CHECKING:
    from msgid_db import annotate, elf

# index, elf, annotate and logfiles are imported by the commands that
# need them: "lookup" must start fast.
DEFAULT_INDEX_DIR = "/sys/kernel/debug/printk/index"
PROG = "msgid-db.py"

EXIT_OK = 0
EXIT_NOT_FOUND = 1
EXIT_USAGE = 2
EXIT_DATABASE = 3
EXIT_INTERRUPTED = 130

EPILOG = """\
exit status:
  0    success
  1    an ID was not found
  2    usage or input error (bad arguments, ID, ELF file, index)
  3    the database is missing or unreadable, or cannot be written
  130  interrupted (Ctrl-C; build: also SIGTERM, SIGHUP)

The database defaults to $MSGID_DB, else ./msgid.db.
"""


class UsageError(InputError):
    """Bad input detected after argument parsing (exit status 2)."""


def _one_line(text: str) -> str:
    """Escape control characters (a newline in a file name, a damaged
    database's text in an sqlite message): a message is one line."""
    return "".join("\\x%02x" % ord(c) if c < " " or c == "\x7f" else c
                   for c in text)


def warn(msg: str) -> None:
    """Print the warning @msg on stderr."""
    print("%s: warning: %s" % (PROG, _one_line(msg)), file=sys.stderr)


def note(msg: str) -> None:
    """Print the note @msg on stderr."""
    print("%s: note: %s" % (PROG, _one_line(msg)), file=sys.stderr)


def db_path(args: argparse.Namespace) -> str:
    """The database of the command line @args."""
    return args.db or database.default_path()


# --------------------------------------------------------------- build

def build_meta() -> dict[str, str]:
    """The metadata of every database: when and by what it was built."""
    import datetime
    return {"built": datetime.datetime.now(datetime.timezone.utc)
            .isoformat(timespec="seconds"), "tool": PROG}


def check_inputs(output: str,
                 inputs: Iterable[tuple[str, Optional[str]]]) -> None:
    """The database @output is none of build's @inputs, (option, path)."""
    out = os.path.realpath(output)
    for name, value in inputs:
        if value and os.path.realpath(value) == out:
            raise UsageError("%s %s is the database being written: give "
                             "another -o" % (name, value))


def check_index(directory: str, meta: dict[str, str]) -> None:
    """The printk index @directory is there; the live one names the
    running kernel's release in @meta."""
    if not os.path.isdir(directory):
        raise UsageError("%s: no printk index (needs CONFIG_PRINTK_INDEX, "
                         "debugfs and root)" % directory)
    if os.path.realpath(directory) == DEFAULT_INDEX_DIR:
        meta["kernel_release"] = os.uname().release


def index_sites(directory: str, sources: list[str],
                output: str) -> Iterator[CallSite]:
    """The call sites of the printk index @directory (its files, or a
    saved copy of them), but the database @output and its temporary
    file; @directory is added to @sources."""
    from msgid_db import index
    skip = None
    if os.path.realpath(os.path.dirname(os.path.abspath(output))) == \
            os.path.realpath(directory):
        # the database (or its temporary file) is no index file
        def skip(name: str) -> bool:
            return database.is_own_file(output, name)
    for module, data in index.read_dir(directory, skip):
        stats = index.ParseStats()
        yield from index.parse_file(data, module, stats)
        if stats.malformed:
            warn("%s:%d: %d malformed index line(s) skipped"
                 % (os.path.join(directory, module), stats.first_malformed,
                    stats.malformed))
    sources.append("index:%s" % directory)


def elf_sites(image: "elf.ElfFile", module: str) -> Iterator[CallSite]:
    """The call sites of the .printk_index of @image."""
    for e in image.printk_index():
        if e.fmt is None:
            continue
        yield CallSite.from_format(
            e.fmt, file=ids.decode(e.file or b"?"), line=e.line,
            function=ids.decode(e.func or b"?"), module=module, origin="elf",
            level=ids.level_of(e.fmt, e.level),
            subsys=ids.decode(e.subsys_fmt_prefix or b""))


@contextlib.contextmanager
def signals_interrupt() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into KeyboardInterrupt, so that a build
    stopped by them removes its temporary file (SIGKILL cannot be caught:
    the next build removes what it leaves, see database.write). A signal
    ignored when the tool started (SIGHUP under nohup) stays ignored."""
    import signal

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    saved = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            if signal.getsignal(sig) != signal.SIG_IGN:
                saved[sig] = signal.signal(sig, interrupt)
        except (ValueError, OSError):  # not the main thread
            pass
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def write_db(args: argparse.Namespace, path: str, sites: Iterable[CallSite],
             meta: dict[str, str], sources: list[str],
             report: Optional[Callable[[], str]] = None,
             write: Callable[..., int] = database.write) -> int:
    """Write the database @path of @sites (which name their inputs in
    @sources and meta "sources" when done) and say what was read:
    @report, then the count (@write: database.write()).  A build that found nothing, or far less
    than the database it replaces (a wrong or empty input), is refused
    unless --force."""
    before = database.count_sites(path)

    def check(count: int) -> None:
        if args.force:
            return
        if not count:
            raise UsageError(
                "found no call sites in %s: %s (check the input; --force "
                "writes an empty database)"
                % (" ".join(sources) or "the input",
                   "%s is left as it was" % path if before is not None
                   else "nothing written"))
        if before is not None and count * 2 < before:
            raise UsageError(
                "found %d call sites in %s, the database it would replace "
                "has %d: %s is left as it was (another kernel's input? "
                "--force replaces it, or write another file with -o)"
                % (count, " ".join(sources), before, path))

    with signals_interrupt():
        count = write(path, sites, meta, check)
    text = report() if report is not None else ""
    if text:
        print("%s: %s" % (PROG, text), file=sys.stderr)
    print("%s: %d call sites from %s" % (path, count, meta["sources"]),
          file=sys.stderr)
    if not count:
        warn("the database has no call sites (--force)")
    return EXIT_OK


def cmd_build(args: argparse.Namespace) -> int:
    """Build the database from the printk index or a vmlinux."""
    from msgid_db import elf
    path = args.output or db_path(args)
    meta = build_meta()
    sources: list[str] = []
    index_dir = (args.index_dir or DEFAULT_INDEX_DIR
                 if args.index_dir is not None or not args.kernel else None)
    # Check every input before the (atomic) write starts.
    check_inputs(path, (("--vmlinux", args.kernel),
                        ("--index-dir", index_dir)))
    vmlinux = elf.ElfFile.from_path(args.kernel) if args.kernel else None
    if vmlinux is not None:
        release = vmlinux.kernel_release()
        if release:
            meta["kernel_release"] = release
    if index_dir is not None:
        check_index(index_dir, meta)

    def sites() -> Iterator[CallSite]:
        if index_dir is not None:
            yield from index_sites(index_dir, sources, path)
        if vmlinux is not None:
            yield from elf_sites(vmlinux, "vmlinux")
            sources.append("kernel:%s" % args.kernel)
        meta["sources"] = " ".join(sources)

    return write_db(args, path, sites(), meta, sources)


# -------------------------------------------------------------- queries

def format_site(site: CallSite) -> str:
    """Render one call site as 'file:line function <level> "fmt" ...'."""
    # The level is shown as <N>: not again as KERN_SOH bytes ("\0016").
    fmt = ids.strip_levels(site.format.encode("utf-8", "surrogateescape"))[1]
    text = '%s:%d %s <%s> "%s"' % (
        site.file, site.line, site.function, site.level, ids.escape(fmt))
    if site.msg_class != ids.CLASS_NONE:
        text += " [%s]" % site.msg_class
    if site.module:
        text += " (%s)" % site.module
    return text + " origin=%s" % site.origin


def site_dict(site: CallSite) -> dict:
    """The JSON object of @site."""
    return {"id": site.id, "file": site.file, "line": site.line,
            "function": site.function, "level": site.level,
            "format": site.format, "canonical": site.canonical,
            "module": site.module, "class": site.msg_class,
            "origin": site.origin}


def parse_ids(values: Iterable[str]) -> list[str]:
    """The IDs @values as typed, normalised (ids.parse_id())."""
    try:
        return [ids.parse_id(v) for v in values]
    except ValueError as e:
        raise UsageError(str(e)) from None


def cmd_lookup(args: argparse.Namespace) -> int:
    """Print the call sites of each ID."""
    if not args.ids:
        raise UsageError("give at least one ID")
    wanted = parse_ids(args.ids)
    db = database.open_db(db_path(args))
    status = EXIT_OK
    for msgid in wanted:
        sites = db.lookup(msgid)
        if not sites:
            print("%s: %s: unknown message ID" % (PROG, msgid),
                  file=sys.stderr)
            status = EXIT_NOT_FOUND
        for site in sites:
            if args.json:
                import json
                print(json.dumps(site_dict(site)))
            else:
                print(("%s " % msgid if len(wanted) > 1 else "")
                      + format_site(site))
    return status


def buffered_stdout() -> None:
    """Give standard output a buffer if it has none (python3 -u,
    PYTHONUNBUFFERED=1, as container images set): annotate writes a line
    at a time, a system call each. It flushes the output itself when its
    input is idle and at the end."""
    if isinstance(getattr(sys.stdout, "buffer", None), io.RawIOBase):
        raw = io.FileIO(sys.stdout.fileno(), "wb", closefd=False)
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(raw),
                                      encoding=sys.stdout.encoding,
                                      errors=sys.stdout.errors)


def cmd_annotate(args: argparse.Namespace) -> int:
    """Annotate kernel log lines carrying message IDs."""
    from msgid_db import annotate, logfiles
    db = database.open_db(db_path(args))
    annotator = annotate.Annotator(database.SiteMap(db))
    logs = logfiles.LogFiles(args.files)
    buffered_stdout()
    try:
        sys.stdout.flush()
        stats = annotator.annotate(logs, sys.stdout.buffer, logs.idle)
    finally:
        db.close()
    warn_unknown(stats)
    return EXIT_OK


def warn_unknown(stats: "annotate.Stats") -> None:
    """Say on stderr if the log's printed IDs are not all in the database:
    another kernel's?"""
    if stats.unknown:
        warn("%d of %d printed IDs unknown: is this database built from "
             "this kernel? (msgid-db.py build on the kernel that wrote "
             "the log)" % (stats.unknown, stats.with_id))


# --------------------------------------------------------------- parser

class Once(argparse.Action):
    """An option that may be given once: build --vmlinux A --vmlinux B
    would build from B alone."""

    def __call__(self, parser: argparse.ArgumentParser,
                 namespace: argparse.Namespace, values: object,
                 option_string: Optional[str] = None) -> None:
        old = getattr(namespace, self.dest, None)
        if old is not None and old != values:
            parser.error("%s given twice (%s, %s): one database is built "
                         "from one kernel's inputs; build one database for "
                         "each" % ("/".join(self.option_strings), old,
                                   values))
        setattr(namespace, self.dest, values)


#: extend(parsers, add): adds options to the parsers of the commands
#: (build, lookup, annotate) and commands with add(name, function, help).
Extend = Callable[[dict[str, argparse.ArgumentParser],
                   Callable[..., argparse.ArgumentParser]], None]


def build_parser(extend: Optional[Extend] = None) -> argparse.ArgumentParser:
    """Return the argument parser of msgid-db.py, with what @extend adds."""
    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=fmt, epilog=EPILOG,
        description="Build and query a database of printk message IDs (the\n"
                    "'(xxxxxxxx): ' prefix printed with printk.msgid=1).")
    parser.add_argument("--db", metavar="FILE",
                        help="database file (default: $MSGID_DB or msgid.db)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    def add(name: str, func: Callable[[argparse.Namespace], int],
            help_text: str, description: str = "") -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_text, epilog=EPILOG,
                           description=help_text + description,
                           formatter_class=fmt)
        p.add_argument("--db", metavar="FILE", default=argparse.SUPPRESS,
                       help="database file (default: $MSGID_DB or msgid.db)")
        p.set_defaults(func=func)
        return p

    parsers = {}
    p = parsers["build"] = add("build", cmd_build, "build the database "
                               "(default input: the live printk index)")
    p.add_argument("-o", "--output", metavar="DB", action=Once,
                   help="database to write (default: --db)")
    p.add_argument("--index-dir", metavar="DIR", action=Once,
                   help="printk index directory, or a copy of its files "
                   "(default %s)" % DEFAULT_INDEX_DIR)
    p.add_argument("--vmlinux", metavar="FILE", dest="kernel", action=Once,
                   help="a vmlinux: its .printk_index")
    p.add_argument("--force", action="store_true",
                   help="write the database even if the inputs gave no "
                   "call sites, or less than half of those of the "
                   "database it replaces")

    p = parsers["lookup"] = add("lookup", cmd_lookup,
                                "print the call sites of message IDs")
    p.add_argument("ids", nargs="*", metavar="ID",
                   help="8 hex digits, optionally as (xxxxxxxx) or 0x...")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per call site")

    p = parsers["annotate"] = add("annotate", cmd_annotate, "annotate "
                                  "dmesg/journal/kmsg/serial logs with "
                                  "call sites")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="log files (default: standard input)")

    if extend is not None:
        extend(parsers, add)
    return parser


def main(argv: Optional[list[str]] = None,
         extend: Optional[Extend] = None) -> int:
    """Run msgid-db.py (build_parser(@extend)); returns the exit status."""
    if sys.stdout is None:  # started with standard output closed
        sys.stdout = open(os.devnull, "w")
    elif hasattr(sys.stdout, "reconfigure"):
        # Never fail on a character the locale cannot encode.
        sys.stdout.reconfigure(errors="backslashreplace")
    args = build_parser(extend).parse_args(argv)
    try:
        status = args.func(args)
        sys.stdout.flush()  # report write errors here, not at exit
        return status
    except InputError as e:
        status, msg = EXIT_USAGE, str(e)
    except database.DatabaseError as e:
        status, msg = EXIT_DATABASE, str(e)
    except OSError as e:
        if isinstance(e, BrokenPipeError):
            _silence_stdout()
            return EXIT_OK
        status = EXIT_DATABASE if args.command == "build" else EXIT_USAGE
        msg = "%s%s" % (e.filename + ": " if e.filename else "",
                        e.strerror or e)
    except KeyboardInterrupt:
        _flush_or_silence()
        return EXIT_INTERRUPTED
    _flush_or_silence()
    print("%s: error: %s" % (PROG, _one_line(msg)), file=sys.stderr)
    return status


def _flush_or_silence() -> None:
    """Flush standard output, dropping what cannot be written."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        _silence_stdout()


def _silence_stdout() -> None:
    """Avoid a second error when Python flushes stdout at exit."""
    try:
        fileno = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):
        return  # not a real file (tests): nothing is flushed at exit
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fileno)
    os.close(devnull)
