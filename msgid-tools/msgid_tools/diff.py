# SPDX-License-Identifier: GPL-2.0
"""Compare the IDs of two databases (msgid-db.py diff OLD.db NEW.db).

Every ID is in one of three sets: kept (in both), gone (only in OLD) and
new (only in NEW).  A kept ID has moved when the file:line places of its
call sites differ between the two; rows without a place (origin
"strings": file "?") do not count, so an ID found only in strings never
moves.  A monitoring rule whose ID is gone no longer matches anything on
the new kernel; one whose ID moved still matches, from other code.
"""

import json
from dataclasses import dataclass, field
from typing import Iterable, TextIO

from msgid_db import ids
from msgid_db.ids import CallSite

#: {id: [call sites]}, as grouped by by_id().
Sites = dict[str, list[CallSite]]


def by_id(sites: Iterable[CallSite]) -> Sites:
    """Group call sites by ID."""
    out: Sites = {}
    for site in sites:
        out.setdefault(site.id, []).append(site)
    return out


def places(sites: list[CallSite]) -> list[str]:
    """The sorted "file:line" places of @sites that have one."""
    return sorted({"%s:%d" % (s.file, s.line) for s in sites
                   if s.file not in ("", "?")})


@dataclass
class Diff:
    """The IDs of OLD and NEW, sorted, in the four sets."""

    kept: list[str] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)
    new: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """{"kept": n, "gone": n, "new": n, "moved": n}."""
        return {"kept": len(self.kept), "gone": len(self.gone),
                "new": len(self.new), "moved": len(self.moved)}


def compare(old: Sites, new: Sites) -> Diff:
    """Sort the IDs of @old and @new into kept, gone, new and moved."""
    result = Diff(kept=sorted(old.keys() & new.keys()),
                  gone=sorted(old.keys() - new.keys()),
                  new=sorted(new.keys() - old.keys()))
    for msgid in result.kept:
        before, after = places(old[msgid]), places(new[msgid])
        if before and after and before != after:
            result.moved.append(msgid)
    return result


def _describe(sites: list[CallSite]) -> str:
    site = sites[0]
    modules = sorted({s.module for s in sites if s.module})
    text = '"%s"' % ids.escape(site.canonical.encode("utf-8",
                                                     "surrogateescape"))
    if modules:
        text += " (%s)" % ", ".join(modules[:3] + (["..."] if len(modules) > 3
                                                   else []))
    return text


def _share(part: int, whole: int) -> str:
    return "%.1f%%" % (100.0 * part / whole) if whole else "-"


def write_text(d: Diff, old: Sites, new: Sites, names: tuple[str, str],
               out: TextIO, summary: bool = False) -> None:
    """Counts first, then one line per gone (-), new (+) and moved (~) ID."""
    out.write("old: %s, %d IDs\nnew: %s, %d IDs\n"
              % (names[0], len(old), names[1], len(new)))
    out.write("kept:  %d (%s of old)\n" % (len(d.kept),
                                           _share(len(d.kept), len(old))))
    out.write("gone:  %d\n" % len(d.gone))
    out.write("new:   %d\n" % len(d.new))
    out.write("moved: %d (kept, at another file:line)\n" % len(d.moved))
    if summary:
        return
    for msgid in d.gone:
        out.write("- %s %s\n" % (msgid, _describe(old[msgid])))
    for msgid in d.new:
        out.write("+ %s %s\n" % (msgid, _describe(new[msgid])))
    for msgid in d.moved:
        out.write("~ %s %s: %s -> %s\n" % (
            msgid, _describe(new[msgid]), " ".join(places(old[msgid])),
            " ".join(places(new[msgid]))))


def write_json(d: Diff, old: Sites, new: Sites, names: tuple[str, str],
               out: TextIO) -> None:
    """One JSON object: the databases, the counts, then the IDs of each
    set ("added" holds the new IDs: "new" names the new database)."""
    def entry(msgid: str, sites: list[CallSite]) -> dict:
        return {"id": msgid, "canonical": sites[0].canonical,
                "modules": sorted({s.module for s in sites}),
                "places": places(sites)}

    obj = {
        "old": {"db": names[0], "ids": len(old)},
        "new": {"db": names[1], "ids": len(new)},
        "counts": d.counts(),
        "kept": d.kept,
        "gone": [entry(i, old[i]) for i in d.gone],
        "added": [entry(i, new[i]) for i in d.new],
        "moved": [{"id": i, "canonical": new[i][0].canonical,
                   "old": places(old[i]), "new": places(new[i])}
                  for i in d.moved],
    }
    json.dump(obj, out, indent=1)
    out.write("\n")
