# SPDX-License-Identifier: GPL-2.0
"""The identifier rule (Documentation/admin-guide/msgid.rst): zlib.crc32()
of the caller's format without its leading KERN_SOH pairs and one
trailing newline, as eight lower-case hex digits; and the call sites."""

import posixpath
import re
import zlib
from typing import NamedTuple, Optional

CLASS_TAGS = ((b"[Hardware Error]: ", "hardware"),
              (b"[Firmware Bug]: ", "firmware-bug"),
              (b"[Firmware Warn]: ", "firmware-warn"),
              (b"[Firmware Info]: ", "firmware-info"),
              (b"[Deprecated]: ", "deprecated"))
CLASS_NONE = "none"
_ID_RE = re.compile(r"\(?(?:0[xX]([0-9a-fA-F]{1,8})|([0-9a-fA-F]{8}))\)?:?")
TOP_DIRS = frozenset("arch block certs crypto drivers fs include init io_uring"
                     " ipc kernel lib mm net rust samples scripts security "
                     "sound tools usr virt".split())


class InputError(Exception):
    """Bad input (file, index, ID...): exit status 2."""


def strip_levels(fmt: bytes) -> tuple[bytes, bytes]:
    """Split the leading KERN_SOH ("\\001") pairs off @fmt: (levels, rest)."""
    i = 0
    while i + 1 < len(fmt) and fmt[i] == 1 and fmt[i + 1] in b"01234567c":
        i += 2
    return fmt[1:i:2], fmt[i:]


def canonical(fmt: bytes) -> bytes:
    """The bytes of @fmt that are hashed."""
    rest = strip_levels(fmt)[1]
    return rest[:-1] if rest.endswith(b"\n") else rest


def msgid(fmt: bytes) -> str:
    """The message ID of the caller's format @fmt."""
    return "%08x" % zlib.crc32(canonical(fmt))


def classify(text: bytes) -> str:
    """The class of the first tag in @text (CLASS_NONE if none)."""
    found = [(text.find(tag), name) for tag, name in CLASS_TAGS
             if tag in text]
    return min(found)[1] if found else CLASS_NONE


def level_of(fmt: bytes, level: Optional[bytes] = None) -> str:
    """The level of a call site as the printk index shows it: "N", "-1"
    (default), "c" or "N,c".  @level is pi_entry's level string."""
    chars = strip_levels(level if level is not None else fmt)[0]
    num = next((chr(c) for c in chars if c != ord("c")), None)
    if b"c" in chars:
        return "c" if num is None else num + ",c"
    return num if num is not None else "-1"


def parse_id(text: str) -> str:
    """Normalise an ID as typed ("1a2b3c4d", "(1a2b3c4d):", "0x1A2B3C4D")."""
    m = _ID_RE.fullmatch(text.strip())
    if not m:
        raise InputError("invalid message ID %r (expected 8 hex digits, as "
                         "the kernel prints them)" % text)
    return (m.group(1) or m.group(2)).lower().rjust(8, "0")


def escape(data: bytes) -> str:
    """@data as the body of a C string literal."""
    special = {0x0a: "\\n", 0x09: "\\t", 0x22: '\\"', 0x5c: "\\\\"}
    return "".join(special.get(c) or (chr(c) if 0x20 <= c < 0x7f
                                      else "\\%03o" % c) for c in data)


def decode(data: bytes) -> str:
    """@data as text, whatever it holds."""
    return data.decode("utf-8", "backslashreplace")


def tree_path(name: str) -> str:
    """@name, a __FILE__ or Rust's file!(), as a path in the tree
    ("../lib/x.rs" and "/usr/src/linux/lib/x.rs" are "lib/x.rs")."""
    parts = posixpath.normpath(name).split("/")
    if not name.endswith(".rs"):
        return name if name.startswith("/") or parts[0] == ".." else \
            "/".join(parts)
    while len(parts) > 1 and parts[0] == "..":
        del parts[0]
    starts = [i for i in range(len(parts) - 1) if parts[i] in TOP_DIRS
              and (i == 0 or parts[i - 1] not in TOP_DIRS)]
    if not starts:
        return name
    return "/".join(parts[0 if starts[0] == 0 else starts[-1]:])


class CallSite(NamedTuple):
    """One printk call site (a row of the sites table)."""

    id: str
    canonical: str
    format: str
    file: str
    line: int
    function: str
    level: str
    module: str
    msg_class: str
    origin: str

    @classmethod
    def from_format(cls, fmt: bytes, file: str, line: int, function: str,
                    module: str, origin: str, level: Optional[str] = None,
                    known_id: Optional[str] = None) -> "CallSite":
        """The call site of the caller's format @fmt.  @known_id is the ID
        the kernel computed: if a wrapper's prefix is glued in front of
        @fmt, the rest that has that ID is the format."""
        canon = canonical(fmt)
        if known_id:
            canon = next((canon[i:] for i in range(len(canon) + 1) if
                          "%08x" % zlib.crc32(canon[i:]) == known_id), canon)
        return cls(known_id or "%08x" % zlib.crc32(canon), decode(canon),
                   decode(fmt), tree_path(file), line, function,
                   level if level is not None else level_of(fmt), module,
                   classify(canon), origin)
