# SPDX-License-Identifier: GPL-2.0
"""IDs that have no catalog entry yet: where the binder should grow.

From the database: every ID of one class.  From logs: every ID found in
them, counted, with the text of its first record as a sample.
"""

from collections import Counter
from typing import Iterable, Optional

from msgid_tools.catalog import Catalog
from msgid_tools.logreader import LogReader
from msgid_db.ids import CallSite


def from_sites(sites: Iterable[CallSite], catalog: Catalog
               ) -> list[tuple[str, int, str]]:
    """Return (id, call sites, format) for IDs of @sites without entry."""
    out: dict[str, list] = {}
    for s in sites:
        if catalog.get(s.id) is None:
            out.setdefault(s.id, [s.id, 0, s.canonical])[1] += 1
    return [tuple(v) for _, v in sorted(out.items())]  # type: ignore


def from_logs(lines: Iterable[bytes], catalog: Catalog
              ) -> list[tuple[str, int, str]]:
    """Return (id, records, sample text) for IDs in @lines without entry,
    most frequent first."""
    counts: Counter = Counter()
    samples: dict[str, str] = {}
    reader = LogReader()
    for line in lines:
        rec = reader.parse(line)
        msgid = rec.msgid
        if msgid is None or catalog.get(msgid) is not None:
            continue
        counts[msgid] += 1
        if msgid not in samples:
            samples[msgid] = rec.text.decode("utf-8", "backslashreplace")
    return [(i, n, samples[i]) for i, n in
            sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def limit(text: str, width: Optional[int] = 100) -> str:
    """Clip @text to @width characters for one output line."""
    text = "".join(c if c >= " " else "\\x%02x" % ord(c) for c in text)
    return text if width is None or len(text) <= width else \
        text[:width] + "..."
