# SPDX-License-Identifier: GPL-2.0
"""The command line of msgid-db.py: build, lookup, annotate."""

import argparse
import datetime
import json
import os
import sys
from typing import Optional

from msgid_db import database, ids
from msgid_db.ids import InputError

PROG = "msgid-db.py"
INDEX_DIR = "/sys/kernel/debug/printk/index"
EXIT_OK, EXIT_NOT_FOUND, EXIT_USAGE, EXIT_DATABASE = 0, 1, 2, 3
EXIT_INTERRUPTED = 130
JSON_KEYS = ("id", "file", "line", "function", "level", "format",
             "canonical", "module", "class", "origin")
EPILOG = ("exit status: 0 success, 1 an ID was not found, 2 bad arguments "
          "or input, 3 the database cannot be read or written, 130 Ctrl-C")


def cmd_build(args: argparse.Namespace) -> int:
    from msgid_db import elf, index
    now = datetime.datetime.now(datetime.timezone.utc)
    meta = {"built": now.isoformat(timespec="seconds"), "tool": PROG}
    if args.vmlinux:
        image = elf.ElfFile(args.vmlinux)
        meta["kernel_release"] = image.kernel_release() or "?"
        meta["sources"] = "kernel:%s" % args.vmlinux
        sites = image.printk_index()
    else:
        path = args.index_dir or INDEX_DIR
        if path == INDEX_DIR:
            meta["kernel_release"] = os.uname().release
        meta["sources"] = "index:%s" % path
        sites = index.read_dir(path, args.db)
    count = database.write(args.db, sites, meta)
    print("%s: %d call sites from %s" % (args.db, count, meta["sources"]),
          file=sys.stderr)
    return EXIT_OK


def cmd_lookup(args: argparse.Namespace) -> int:
    wanted = [ids.parse_id(v) for v in args.ids]
    db, status = database.Database(args.db), EXIT_OK
    for msgid in wanted:
        sites = db.lookup(msgid)
        if not sites:
            print("%s: %s: unknown message ID" % (PROG, msgid),
                  file=sys.stderr)
            status = EXIT_NOT_FOUND
        for s in sites:
            row = dict(zip(database.COLUMNS, s))
            fmt = ids.strip_levels(s.format.encode("utf-8", "replace"))[1]
            text = '%s:%d %s <%s> "%s"%s (%s) origin=%s' % (
                s.file, s.line, s.function, s.level, ids.escape(fmt),
                "" if s.msg_class == ids.CLASS_NONE else " [%s]"
                % s.msg_class, s.module, s.origin)
            print(json.dumps({k: row[k] for k in JSON_KEYS}) if args.json
                  else ("%s " % msgid if len(wanted) > 1 else "") + text)
    return status


def cmd_annotate(args: argparse.Namespace) -> int:
    from msgid_db import annotate
    annotator = annotate.Annotator(database.Database(args.db))
    sys.stdout.flush()
    for path in args.files or ["-"]:
        try:
            with open(path if path != "-" else 0, "rb", closefd=path != "-") \
                    as f:
                annotator.annotate(f, sys.stdout.buffer)
        except OSError as e:
            if isinstance(e, BrokenPipeError):
                raise
            raise InputError("%s: %s" % (path, e.strerror or e)) from None
    if annotator.unknown:
        print("%s: warning: %d of %d printed IDs unknown: is this database "
              "built from this kernel? (%s build on the kernel that wrote the"
              " log)" % (PROG, annotator.unknown, annotator.with_id, PROG),
              file=sys.stderr)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=PROG, epilog=EPILOG, description=(
        "Build and query a database of printk message IDs (the "
        "'(xxxxxxxx): ' prefix printed with printk.msgid=1)."))
    parser.add_argument("--db", metavar="FILE", default=os.environ.get(
        "MSGID_DB") or "msgid.db", help="database (default: $MSGID_DB or "
        "msgid.db)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                required=True)
    for name, func, text in (
            ("build", cmd_build, "build the database (default input: the "
             "live printk index)"),
            ("lookup", cmd_lookup, "print the call sites of message IDs"),
            ("annotate", cmd_annotate, "annotate dmesg, journal, kmsg or "
             "serial logs with call sites")):
        p = sub.add_parser(name, help=text, description=text, epilog=EPILOG)
        p.set_defaults(func=func)
        if name == "build":
            src = p.add_mutually_exclusive_group()
            src.add_argument("--index-dir", metavar="DIR", help="printk "
                             "index directory, or a copy of its files "
                             "(default %s)" % INDEX_DIR)
            src.add_argument("--vmlinux", metavar="FILE",
                             help="a vmlinux: its .printk_index")
        elif name == "lookup":
            p.add_argument("ids", nargs="+", metavar="ID", help="8 hex "
                           "digits, optionally as (xxxxxxxx) or 0x...")
            p.add_argument("--json", action="store_true",
                           help="one JSON object per call site")
        else:
            p.add_argument("files", nargs="*", metavar="FILE",
                           help="log files (default: standard input)")
    return parser


def main(argv: Optional[list[str]] = None) -> int:
    """Run msgid-db.py; return the exit status."""
    args = build_parser().parse_args(argv)
    if sys.stdout is None:      # started with standard output closed
        sys.stdout = open(os.devnull, "w")
    try:
        status = args.func(args)
        sys.stdout.flush()
        return status
    except InputError as e:
        status, msg = EXIT_USAGE, str(e)
    except database.DatabaseError as e:
        status, msg = EXIT_DATABASE, str(e)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    print("%s: error: %s" % (PROG, msg.replace("\n", "\\n")),
          file=sys.stderr)
    return status
