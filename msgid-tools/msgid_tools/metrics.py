# SPDX-License-Identifier: GPL-2.0
"""The class counters of <debugfs>/printk/msgid as Prometheus metrics.

The kernel file has a header line, one line per class with its count and
the identifier of its latest record ("-" while it has none, and always for
"none", whose latest identifier the kernel does not keep), and comment
lines, which are skipped::

    # class count last_id
    none 203 -
    hardware 3 ea076b71
    firmware-bug 0 -
    ...
    # formats hashed: 141

render() turns it into the Prometheus text exposition format (version
0.0.4), for node_exporter's textfile collector.  A line that is neither a
comment nor of that shape is an error naming the file and line; nothing
is written then.
"""

import re
from typing import NamedTuple

from msgid_db.ids import InputError

DEFAULT_PATH = "/sys/kernel/debug/printk/msgid"
_LINE_RE = re.compile(r"([a-z][a-z0-9-]{0,31}) (\d{1,20}) ([0-9a-f]{8}|-)")


class Counter(NamedTuple):
    """One class line of the kernel file."""

    msg_class: str
    count: int
    last_id: str  # "" if the kernel shows none ("-")


def parse(text: str, path: str) -> list[Counter]:
    """Parse the kernel file's @text read from @path."""
    out: list[Counter] = []
    seen: set[str] = set()
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = _LINE_RE.fullmatch(line.strip())
        if not m:
            raise InputError("%s:%d: not a class counter line (expected "
                             "'<class> <count> <id>|-'): %r"
                             % (path, lineno, line[:60]))
        if m.group(1) in seen:
            raise InputError("%s:%d: class %s counted twice"
                             % (path, lineno, m.group(1)))
        seen.add(m.group(1))
        out.append(Counter(m.group(1), int(m.group(2)),
                           "" if m.group(3) == "-" else m.group(3)))
    if not out:
        raise InputError("%s: no class counters (is it <debugfs>/printk/"
                         "msgid of a kernel with CONFIG_PRINTK_MSGID?)"
                         % path)
    return out


def read(path: str) -> list[Counter]:
    """Read and parse the counter file at @path."""
    try:
        with open(path, "rb") as f:
            data = f.read(1 << 16)
    except FileNotFoundError as e:
        hint = ""
        if path == DEFAULT_PATH:
            hint = (" (needs debugfs, root and a kernel with "
                    "CONFIG_PRINTK_MSGID: mount -t debugfs none "
                    "/sys/kernel/debug, or give --file)")
        raise InputError("%s: %s%s" % (path, e.strerror, hint)) from None
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror or e)) from None
    return parse(data.decode("utf-8", "replace"), path)


def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\"", "\\\"") \
        .replace("\n", "\\n")


def render(counters: list[Counter]) -> str:
    """Return @counters in the Prometheus text format."""
    lines = [
        "# HELP printk_msgid_messages_total Kernel log records with a "
        "message identifier since boot, by message class.",
        "# TYPE printk_msgid_messages_total counter",
    ]
    lines += ['printk_msgid_messages_total{class="%s"} %d'
              % (_label(c.msg_class), c.count) for c in counters]
    lines += [
        "# HELP printk_msgid_last_info Identifier of the latest record of "
        "each tagged class (value always 1; absent while the class count "
        "is 0).",
        "# TYPE printk_msgid_last_info gauge",
    ]
    lines += ['printk_msgid_last_info{class="%s",id="%s"} 1'
              % (_label(c.msg_class), _label(c.last_id))
              for c in counters if c.last_id]
    return "\n".join(lines) + "\n"
