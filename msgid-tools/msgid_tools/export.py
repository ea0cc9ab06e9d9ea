# SPDX-License-Identifier: GPL-2.0
"""Export the database as lookup tables for log pipelines.

One row per message ID: its (first) call site, class, level, format and
catalog subject, in the shapes log shippers load without code:

csv        header line, then id,summary,class,level,file,line,function,
           module,sites,subject,format: Vector's file enrichment table
           (all columns) and Fluent Bit's lookup filter (first column the
           key, second the value)
syslog-ng  selector,name,value rows for syslog-ng's add-contextual-data()
json       an rsyslog lookup_table() file (type "string", value: summary)

"summary" is one line: "file:line function [class] subject".  Formats are
written as the body of a C string literal (always one line), clipped to
FORMAT_LIMIT characters, so that line-based readers (Fluent Bit reads
4096-byte lines) never see a record split in two.
"""

import csv
import json
from dataclasses import dataclass
from typing import Iterable, Optional, TextIO

from msgid_db import ids
from msgid_tools.catalog import Catalog
from msgid_db.ids import CallSite

FORMATS = ("csv", "json", "syslog-ng")
FORMAT_LIMIT = 400
CSV_COLUMNS = ("id", "summary", "class", "level", "file", "line",
               "function", "module", "sites", "subject", "format")
#: The names syslog-ng's add-contextual-data() gets for each ID.
SYSLOG_NG_NAMES = ("summary", "class", "site", "function", "subject")


@dataclass
class Row:
    """One message ID of an exported table."""

    id: str
    site: CallSite
    sites: int
    subject: str

    @property
    def place(self) -> str:
        """"file:line", "" for a row of a binary's strings (no place)."""
        if self.site.file in ("", "?"):
            return ""
        return "%s:%d" % (self.site.file, self.site.line)

    @property
    def summary(self) -> str:
        """One line: "file:line function [class] subject"; a row without
        file:line (a binary's strings) says what is known, "function
        (module, no file:line)", never "?:0 ?"."""
        function = self.site.function if self.site.function not in (
            "", "?") else ""
        if self.place:
            text = "%s %s" % (self.place, function) if function \
                else self.place
        else:
            text = "%s(%s, no file:line)" % (
                function + " " if function else "",
                self.site.module or "module not known")
        if self.sites > 1:
            text += " (+%d more)" % (self.sites - 1)
        if self.site.msg_class != ids.CLASS_NONE:
            text += " [%s]" % self.site.msg_class
        if self.subject:
            text += " " + self.subject
        return text

    @property
    def format(self) -> str:
        """The canonical format, escaped to one line and clipped."""
        text = ids.escape(self.site.canonical.encode("utf-8",
                                                     "surrogateescape"))
        return text if len(text) <= FORMAT_LIMIT else \
            text[:FORMAT_LIMIT] + "..."


def _one_line(text: str) -> str:
    return " ".join(text.split())


def rows(sites: Iterable[CallSite], catalog: Optional[Catalog] = None,
         msg_class: Optional[str] = None) -> list[Row]:
    """Group @sites (sorted by ID) into one Row per ID."""
    out: list[Row] = []
    for site in sites:
        if msg_class and site.msg_class != msg_class:
            continue
        if out and out[-1].id == site.id:
            out[-1].sites += 1
            if out[-1].site.file in ("", "?") and site.file not in ("", "?"):
                out[-1].site = site  # a row with file:line says more
            continue
        entry = catalog.get(site.id) if catalog else None
        out.append(Row(site.id, site, 1,
                       _one_line(entry.subject) if entry else ""))
    return out


def write_csv(table: list[Row], out: TextIO) -> None:
    """Write @table as CSV with a header line."""
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in table:
        w.writerow((r.id, r.summary, r.site.msg_class, r.site.level,
                    r.site.file, r.site.line, r.site.function, r.site.module,
                    r.sites, r.subject, r.format))


def write_syslog_ng(table: list[Row], out: TextIO) -> None:
    """Write @table as selector,name,value rows (no header)."""
    w = csv.writer(out, lineterminator="\n")
    for r in table:
        values = (r.summary, r.site.msg_class, r.place,
                  r.site.function if r.site.function != "?" else "",
                  r.subject)
        for name, value in zip(SYSLOG_NG_NAMES, values):
            if value:
                w.writerow((r.id, name, value))


def write_json(table: list[Row], out: TextIO, nomatch: str = "") -> None:
    """Write @table as an rsyslog lookup table (version 1, type string)."""
    obj = {"version": 1, "nomatch": nomatch, "type": "string",
           "table": [{"index": r.id, "value": r.summary} for r in table]}
    json.dump(obj, out, indent=0, ensure_ascii=False)
    out.write("\n")


def write(fmt: str, table: list[Row], out: TextIO, nomatch: str = "") -> None:
    """Write @table in format @fmt (one of FORMATS); @nomatch is the
    json table's value for an ID it does not hold."""
    if fmt == "json":
        write_json(table, out, nomatch)
    else:
        {"csv": write_csv, "syslog-ng": write_syslog_ng}[fmt](table, out)
