#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""stability.py OLD.db NEW.db [--boot LOG DB] [--shipped DB]: how stable
is an ID?

OLD.db and NEW.db are source scans (msgid-tools/msgid-db build --source) of two
releases. Three ways of naming a message are compared, the ID and the two
a user has today:

  ID            the CRC-32 of the canonical format;
  file:line     where the call site is, with the same format there;
  text          the format with each conversion (%d, %s, %pV ...) as a
                wildcard: what a pattern over the printed text matches
                whatever the arguments, so it survives %u -> %lu.

For each: the share of OLD's that NEW still has, and of NEW's that OLD
already had; and how many of OLD's IDs are gone with their file. With
BOOT.log (a boot of
NEW with printk.msgid=1) and BOOT.db (that kernel's printk index, for the
exact call sites and formats of its IDs): the share of the messages
printed at boot that OLD already had. Messages of the series' own test
module and files are left out of the boot figures.

The source scan is approximate: formats it cannot evaluate are missing
from both databases. The boot figures are therefore also given for the
boot's IDs that the scan finds in NEW ("seen by the scan"), where a miss
in OLD means a change, not a blind spot of the scanner.
"""

import argparse
import re
import sys
from typing import Iterable

sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/msgid-tools")

from msgid_tools import database  # noqa: E402
from msgid_db.ids import CallSite  # noqa: E402

#: One conversion specification, as the kernel's vsnprintf() reads it.
SPEC = re.compile(r"%(?:[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*)?)?"
                  r"(?:hh|h|ll|l|L|z|t|j|q)?(?:p[A-Za-z0-9]*|[a-zA-Z]))")
ID_RE = re.compile(rb"\(([0-9a-f]{8})\): ")
#: Call sites added by the series itself.
SERIES = re.compile(r"^(lib/test_msgid\.c|kernel/printk/msgid)")


def text(canonical: str) -> str:
    """The format with its conversions as wildcards ("%%" stays)."""
    return "%%".join(SPEC.sub("\0", part) for part in canonical.split("%%"))


class Names:
    """The three names of the messages of one database."""

    def __init__(self, sites: Iterable[CallSite]) -> None:
        self.ids: set[str] = set()
        self.places: set[tuple[str, int, str]] = set()
        self.texts: set[str] = set()
        for s in sites:
            self.ids.add(s.id)
            self.places.add((s.file, s.line, s.canonical))
            self.texts.add(text(s.canonical))


def load(path: str) -> list[CallSite]:
    db = database.open_db(path)
    try:
        return db.all_sites()
    finally:
        db.close()


def share(part: int, whole: int) -> str:
    return "%5.1f%%" % (100.0 * part / whole) if whole else "    -"


def boot_ids(path: str) -> list[str]:
    """The distinct IDs of a boot log, in order of appearance."""
    seen: dict[str, None] = {}
    with open(path, "rb") as f:
        for line in f:
            m = ID_RE.search(line)
            if m:
                seen.setdefault(m.group(1).decode(), None)
    return list(seen)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", metavar="OLD.db")
    parser.add_argument("new", metavar="NEW.db")
    parser.add_argument("--boot", nargs=2, metavar=("LOG", "DB"))
    parser.add_argument("--shipped", metavar="DB")
    args = parser.parse_args()
    old_sites, new_sites = load(args.old), load(args.new)
    old, new = Names(old_sites), Names(new_sites)
    old_texts = {text(s.canonical) for s in old_sites}
    print("OLD %s: %d call sites, %d IDs" % (args.old, len(old_sites),
                                             len(old.ids)))
    print("NEW %s: %d call sites, %d IDs" % (args.new, len(new_sites),
                                             len(new.ids)))
    print()
    print("%-44s %8s %11s %8s" % ("", "ID", "file:line", "text"))
    print("%-44s %8s %11s %8s" % (
        "OLD's messages still in NEW",
        share(len(old.ids & new.ids), len(old.ids)),
        share(len(old.places & new.places), len(old.places)),
        share(len(old_texts & new.texts), len(old_texts))))
    print("%-44s %8d %11d %8d" % ("  (out of)", len(old.ids),
                                   len(old.places), len(old_texts)))
    print("%-44s %8s %11s %8s" % (
        "NEW's messages already in OLD",
        share(len(old.ids & new.ids), len(new.ids)),
        share(len(old.places & new.places), len(new.places)),
        share(len(old_texts & new.texts), len(new.texts))))
    print("%-44s %8d %11d %8d" % ("  (out of)", len(new.ids),
                                   len(new.places), len(new.texts)))
    files: dict[str, set[str]] = {}
    for s in old_sites:
        files.setdefault(s.id, set()).add(s.file)
    new_files = {s.file for s in new_sites}
    gone = old.ids - new.ids
    removed = sum(1 for i in gone if not files[i] & new_files)
    print()
    print("OLD's IDs gone: %d, %d of them (%s) only in files NEW no longer "
          "has" % (len(gone), removed, share(removed, len(gone)).strip()))
    if args.shipped:
        shipped = {s.id for s in load(args.shipped)}
        seen = shipped & new.ids
        print()
        print("Shipped %s: %d IDs, %d (%s) seen by the scan of NEW; of "
              "those, %d (%s) already in OLD" % (
                  args.shipped, len(shipped), len(seen),
                  share(len(seen), len(shipped)).strip(),
                  len(seen & old.ids),
                  share(len(seen & old.ids), len(seen)).strip()))
    if args.boot:
        log, boot_db = args.boot
        by_id: dict[str, list[CallSite]] = {}
        for s in load(boot_db):
            by_id.setdefault(s.id, []).append(s)
        printed = boot_ids(log)
        known = [i for i in printed if i in by_id and not all(
            SERIES.match(s.file) or s.module == "test_msgid"
            for s in by_id[i])]
        unknown = sum(1 for i in printed if i not in by_id)

        def counts(wanted: list[str]) -> tuple[int, int, int]:
            in_id = sum(1 for i in wanted if i in old.ids)
            in_place = sum(1 for i in wanted if any(
                (s.file, s.line, s.canonical) in old.places
                for s in by_id[i]))
            in_text = sum(1 for i in wanted if any(
                text(s.canonical) in old_texts for s in by_id[i]))
            return in_id, in_place, in_text

        print()
        print("Boot %s: %d IDs printed, %d of them from the series' test "
              "code, %d not in %s" % (
                  log, len(printed),
                  len(printed) - len(known) - unknown, unknown, boot_db))
        for label, wanted in (
                ("NEW's boot messages already in OLD", known),
                ("  of those seen by the scan in NEW",
                 [i for i in known if i in new.ids])):
            in_id, in_place, in_text = counts(wanted)
            print("%-44s %8s %11s %8s" % (
                label, share(in_id, len(wanted)),
                share(in_place, len(wanted)), share(in_text, len(wanted))))
            print("%-44s %8d %11d %8d" % ("  (out of)", len(wanted),
                                           len(wanted), len(wanted)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
