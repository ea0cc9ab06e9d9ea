# SPDX-License-Identifier: GPL-2.0
"""The printk message identifier rule and message classes.

The kernel (with printk.msgid=1) prefixes every new record with
"(%08x): ", the CRC-32 of the caller's format string after
canonicalisation (Documentation/admin-guide/msgid.rst, steps 1-3):

 1. the caller's format is the string written at the call site, including
    any pr_fmt()/dev_fmt() prefix compiled into it; for wrappers passing the
    caller's format through %pV (dev_printk, netdev_printk, ...) it is the
    format inside the %pV: the kernel follows the first %pV of each format
    as far as vsnprintf() does (vsnprintf_trace(); no depth limit); for
    Rust's pr_*!() and dev_*!() it is their format string literal, as
    written ("{} apples\n").  The tools start from that format, which the
    printk index and the sources name;
 2. all leading KERN_SOH pairs (0x01 followed by '0'..'7' or 'c') are
    dropped, then one trailing newline, if any;
 3. the ID is zlib.crc32() (CRC-32/ISO-HDLC) of the remaining bytes,
    rendered as eight lower-case hex digits.

The kernel tree's scripts/msgid_db/ids.py is the only place implementing
steps 2 and 3 for the tools: strip_levels(), canonical() and msgid() are
imported from it.

The class of a record is the first tag (CLASS_TAGS) in the text of its
caller's format, else the first tag in the first four %s arguments of
that format as vsnprintf() printed them; wrappers' formats and their
arguments are not looked at.  classify() of a caller's format gives the
first part; the arguments are only known in a log.
"""

import posixpath
import re
import zlib
from typing import NamedTuple, Optional

# Steps 2 and 3 of the rule are the kernel tree's scripts/msgid_db/ids.py.
from msgid_db.ids import canonical, msgid, strip_levels  # noqa: F401

KERN_SOH = 0x01

#: Class tags (include/linux/printk.h) and the class names they map to.
CLASS_TAGS: tuple[tuple[bytes, str], ...] = (
    (b"[Hardware Error]: ", "hardware"),
    (b"[Firmware Bug]: ", "firmware-bug"),
    (b"[Firmware Warn]: ", "firmware-warn"),
    (b"[Firmware Info]: ", "firmware-info"),
    (b"[Deprecated]: ", "deprecated"),
)
CLASS_NONE = "none"
CLASSES: tuple[str, ...] = tuple(name for _, name in CLASS_TAGS) + (CLASS_NONE,)

_CLASS_RE = re.compile(b"|".join(re.escape(tag) for tag, _ in CLASS_TAGS))
_CLASS_BY_TAG = dict(CLASS_TAGS)
#: As printed, "(1a2b3c4d): ", 8 digits; as a number, "0x" and 1 to 8.
_ID_RE = re.compile(r"\(?(?:0[xX]([0-9a-fA-F]{1,8})|([0-9a-fA-F]{8}))\)?:?")


def classify(text: bytes) -> str:
    """Return the class of a format or message text (first tag wins).

    For a caller's format this is the kernel's class of its records if
    the format has a tag; without one, the kernel may still find one in
    its first four %s arguments.
    """
    m = _CLASS_RE.search(text)
    return _CLASS_BY_TAG[m.group(0)] if m else CLASS_NONE


def level_of(fmt: bytes, level: Optional[bytes] = None) -> str:
    """Return the level of a call site the way the printk index shows it.

    @level is the pi_entry level string (None if the level is in @fmt).
    The result is "N", "-1" (default), "c" (continuation at the default
    level) or "N,c", mirroring pi_show() in kernel/printk/index.c.
    """
    chars = strip_levels(level if level is not None else fmt)[0]
    num = next((chr(c) for c in chars if c != ord("c")), None)
    if b"c" in chars:
        return "c" if num is None else num + ",c"
    return num if num is not None else "-1"


def parse_id(text: str) -> str:
    """Normalise a user-supplied ID ("1a2b3c4d", "(1a2b3c4d)", "0x1A2B3C4D").

    Raises ValueError for anything else.
    """
    m = _ID_RE.fullmatch(text.strip())
    if not m:
        digits = re.fullmatch(r"\(?([0-9a-fA-F]{1,7})\)?:?", text.strip())
        raise ValueError(
            "invalid message ID %r (expected 8 hex digits, as the kernel "
            "prints them%s)" % (text, ": %d given, is one missing?"
                                % len(digits.group(1)) if digits else ""))
    return (m.group(1) or m.group(2)).lower().rjust(8, "0")


def escape(data: bytes) -> str:
    """Render format bytes as the body of a C string literal."""
    out = []
    for c in data:
        if c == 0x0a:
            out.append("\\n")
        elif c == 0x09:
            out.append("\\t")
        elif c in (0x22, 0x5c):
            out.append("\\" + chr(c))
        elif 0x20 <= c < 0x7f:
            out.append(chr(c))
        else:
            out.append("\\%03o" % c)
    return "".join(out)


def decode(data: bytes) -> str:
    """Decode format bytes for storage/display without ever failing."""
    return data.decode("utf-8", "backslashreplace")


#: The top-level directories of the kernel tree.
TOP_DIRS = frozenset((
    "arch", "block", "certs", "crypto", "drivers", "fs", "include", "init",
    "io_uring", "ipc", "kernel", "lib", "mm", "net", "rust", "samples",
    "scripts", "security", "sound", "tools", "usr", "virt"))


def rust_path(name: str) -> str:
    """Return the file!() of a Rust call site as a path in the tree.

    rustc does not remap it as C's __FILE__ is: it is "../lib/x.rs" when
    the object directory is inside the tree, absolute with O=/elsewhere.
    Leading "../" go; a name that is still not in the tree starts at the
    last run of top-level directories in it
    ("/usr/src/linux/rust/kernel/print.rs": "rust/kernel/print.rs").
    """
    parts = posixpath.normpath(name).split("/")
    while len(parts) > 1 and parts[0] == "..":
        del parts[0]
    if parts[0] in TOP_DIRS:
        return "/".join(parts)
    starts = [i for i in range(1, len(parts) - 1)
              if parts[i] in TOP_DIRS and parts[i - 1] not in TOP_DIRS]
    return "/".join(parts[starts[-1]:]) if starts else name


def tree_path(name: str) -> str:
    """Return file name @name as a path in the kernel tree.

    A header included with a relative path has __FILE__ values such as
    "drivers/pnp/pnpacpi/../base.h"; that is "drivers/pnp/base.h"
    ("./init/main.c" is "init/main.c").
    Absolute C names and names above the tree ("../init/main.c") are left
    as they are; Rust's are made relative to the tree (rust_path()).
    """
    if name.endswith(".rs"):
        name = rust_path(name)
    if name.startswith(("/", "../")) or ("/../" not in name and
                                          "/./" not in name and
                                          not name.startswith("./")):
        return name
    norm = posixpath.normpath(name)
    return name if norm.startswith("../") else norm


def _suffix_with_id(canon: bytes, msgid: str) -> Optional[bytes]:
    """The longest proper suffix of @canon whose ID is @msgid, if any:
    the empty one too (a wrapper's prefix before a caller's format that
    is a newline alone, ID 00000000)."""
    want = int(msgid, 16)
    for i in range(1, len(canon) + 1):
        if zlib.crc32(canon[i:]) == want:
            return canon[i:]
    return None


class InputError(Exception):
    """Bad user input (file, index, ID...); exit status 2."""


class CallSite(NamedTuple):
    """One printk call site and its message ID."""

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
    #: The prefix a wrapper prints before the caller's text (dev_printk():
    #: "%s %s: "), "" for none, None if not known. Not stored in the
    #: sites table: only the text matcher's index keeps it.
    subsys: Optional[str] = None
    #: The text the site prints where the scan knows its arguments (a
    #: literal or __func__ for a "%s": match.site_format()), several
    #: with NUL between them, None if that is its format. Not stored in
    #: the sites table: the text matcher's index (and its table
    #: site_texts) keeps it.
    text: Optional[str] = None

    @classmethod
    def from_format(cls, fmt: bytes, *, file: str, line: int, function: str,
                    module: str, origin: str, level: Optional[str] = None,
                    known_id: Optional[str] = None,
                    subsys: Optional[str] = None,
                    text: Optional[bytes] = None) -> "CallSite":
        """Build a call site from the caller's format @fmt.

        @known_id is an ID reported by the kernel itself; when None the ID
        is computed from @fmt. @text: what the site prints, where known
        (CallSite.text).
        """
        canon = canonical(fmt)
        if known_id and "%08x" % zlib.crc32(canon) != known_id:
            # The kernel hashed the caller's format inside a wrapper's
            # prefix that the index glued in front of it ("error %pe: ",
            # "ACPI: %s: "): the canonical form is that format alone, the
            # rest is the wrapper's prefix.
            inner = _suffix_with_id(canon, known_id)
            if inner is not None:
                prefix = decode(canon[:len(canon) - len(inner)])
                subsys = (subsys or "") + prefix
                canon = inner
        return cls(id=known_id or "%08x" % zlib.crc32(canon),
                   canonical=decode(canon), format=decode(fmt),
                   file=tree_path(file),
                   line=line, function=function,
                   level=level if level is not None else level_of(fmt),
                   module=module, msg_class=classify(canon), origin=origin,
                   subsys=subsys, text=None if text is None else decode(text))
