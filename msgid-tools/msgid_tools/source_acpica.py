# SPDX-License-Identifier: GPL-2.0
"""Scan C sources for ACPICA's message macros (drivers/acpi/acpica/).

ACPICA formats its messages itself: ACPI_INFO((fmt, ...)),
ACPI_WARNING((AE_INFO, fmt, ...)), ACPI_EXCEPTION((AE_INFO, status,
fmt, ...)) and the others in _PLIST call acpi_info(), acpi_warning(),
... (utxferror.c, uterror.c), which print a prefix (ACPI_MSG_INFO
"ACPI: ", ACPI_MSG_ERROR "ACPI Error: ", ...: include/acpi/platform/
aclinux.h gives them their KERN_ levels), the caller's format, and a
newline (acpi_info()) or ACPI_MSG_SUFFIX " (%8.8X/%s-%u)\\n" (the ACPICA
version, _acpi_module_name and the line), each piece through
acpi_os_printf()/acpi_os_vprintf() (drivers/acpi/osl.c), which formats
it into a buffer and calls printk("%s", buffer) (the prefix, which
starts with its level) or printk(KERN_CONT "%s", buffer) (the rest).
Every ACPICA record therefore carries the ID of "%s" (6026e29e): the
caller's format in the rule's sense is osl.c's "%s", not ACPICA's.

Representation: each ACPICA call becomes a call site of its own file,
line and function (as the C scan gives them), with
 * id and canonical those of "%s", the truth by the rule: the rows share
   osl.c's canonical, so `collisions` sees one format, not a collision;
 * format the text ACPICA prints for the call, as a format: the level
   and prefix of its ACPI_MSG_*, the caller's format (after "%s, " for
   the exception status, "%s: " for the pathname of the _PREDEFINED
   macros), and "\\n" or the suffix with the file's ACPI_MODULE_NAME
   written in (" (%8.8X/tbfadt-%u)\\n"); lookup shows it;
 * origin "source-acpica", level the prefix's, class that of the text.
A site whose canonical is "%s" and whose format is some other text is
what match.site_format() hands the matcher as that text (printed
through "%s"), under the ID of "%s".  The rule reads only the stored
columns, so a merged database and a matcher built in memory from the
sites table match these lines too; no column or table is added.  The
alternatives fit worse: the ACPICA text as canonical would contradict
the rule (the kernel hashes "%s") and make `collisions` list 6026e29e
with hundreds of formats; a wrapper prefix (CallSite.subsys) only moves
where the canonical is matched, and "%s" has no word to match.  Of the
ID's many call sites, annotate lists first those whose format fits the
line (match.Result.canons, dmesg.Annotator.printing()).
ACPI_ERROR_METHOD(message, node, path, status) prints
"message \\PATH due to previous error (AE_...)"; ACPI_ERROR_NAMESPACE()
one of three messages chosen by the status: a site each.  Not covered:
ACPI_EXCEPTION with AE_OK (printed without "AE_OK, "), the variants
that print "[Could not get node by pathname]" or "[NULL NAME]", the
debug-only ACPI_DEBUG_PRINT(), and files under tools/ (ACPICA's user
space utilities, which print with printf()).
"""

import bisect
import os
import re
from typing import Optional

from msgid_db.ids import CallSite
from msgid_tools.source import (STRING_MACROS, eval_strings, find_functions,
                             split_args, strip_comments, text_site)

#: The origin of the rows made here.
ORIGIN = "source-acpica"
#: The format osl.c's acpi_os_vprintf() hands every piece to printk with.
PRINTED_WITH = b"%s"

#: ACPI_MSG_* as include/acpi/platform/aclinux.h defines them for Linux
#: (used where the tree has no such header; the tree's win).
LINUX_PREFIXES: dict[bytes, bytes] = {
    b"ACPI_MSG_ERROR": b"\x013ACPI Error: ",
    b"ACPI_MSG_EXCEPTION": b"\x013ACPI Exception: ",
    b"ACPI_MSG_WARNING": b"\x014ACPI Warning: ",
    b"ACPI_MSG_INFO": b"\x016ACPI: ",
    b"ACPI_MSG_BIOS_ERROR": b"\x013ACPI BIOS Error (bug): ",
    b"ACPI_MSG_BIOS_WARNING": b"\x014ACPI BIOS Warning (bug): ",
}
#: ACPI_MSG_SUFFIX's format (drivers/acpi/acpica/acutils.h).
SUFFIX = b" (%8.8X/%s-%u)\n"

#: Macros with a parenthesised argument list, MACRO((args)): name ->
#: (arguments before the format, the ACPI_MSG_* prefix, what the
#: function prints after it, whether ACPI_MSG_SUFFIX follows (else
#: "\n")).  AE_INFO counts as one argument, as written.
_PLIST: dict[bytes, tuple[int, bytes, bytes, bool]] = {
    b"ACPI_INFO": (0, b"ACPI_MSG_INFO", b"", False),
    b"ACPI_WARNING": (1, b"ACPI_MSG_WARNING", b"", True),
    b"ACPI_WARNING_ONCE": (1, b"ACPI_MSG_WARNING", b"", True),
    b"ACPI_ERROR": (1, b"ACPI_MSG_ERROR", b"", True),
    b"ACPI_ERROR_ONCE": (1, b"ACPI_MSG_ERROR", b"", True),
    # acpi_exception(): ACPI_MSG_ERROR "%s, " with a failing status
    b"ACPI_EXCEPTION": (2, b"ACPI_MSG_ERROR", b"%s, ", True),
    b"ACPI_BIOS_WARNING": (1, b"ACPI_MSG_BIOS_WARNING", b"", True),
    b"ACPI_BIOS_ERROR": (1, b"ACPI_MSG_BIOS_ERROR", b"", True),
    b"ACPI_BIOS_EXCEPTION": (2, b"ACPI_MSG_BIOS_ERROR", b"%s, ", True),
    # uterror.c: the pathname first
    b"ACPI_WARN_PREDEFINED": (3, b"ACPI_MSG_WARNING", b"%s: ", True),
    b"ACPI_INFO_PREDEFINED": (3, b"ACPI_MSG_INFO", b"%s: ", True),
    b"ACPI_BIOS_ERROR_PREDEFINED": (3, b"ACPI_MSG_BIOS_ERROR", b"%s: ",
                                    True),
}
#: acpi_ut_prefixed_namespace_error(): the prefix and message by status.
_NAMESPACE = ((b"ACPI_MSG_BIOS_ERROR", b"Failure creating named object"),
              (b"ACPI_MSG_BIOS_ERROR", b"Could not resolve symbol"),
              (b"ACPI_MSG_ERROR", b"Failure resolving symbol"))

_CALL_RE = re.compile(
    rb"\b(?:(?P<plist>" + b"|".join(sorted(_PLIST, key=lambda n: -len(n)))
    + rb")\s*\(\s*\(|(?P<method>ACPI_ERROR_METHOD)\s*\("
    rb"|(?P<namespace>ACPI_ERROR_NAMESPACE)\s*\()")
_QUICK_RE = re.compile(rb"\bACPI_(?:INFO|WARN|ERROR|EXCEPTION|BIOS_)")
_DIRECTIVE_RE = re.compile(rb"[ \t]*#")
_MODULE_RE = re.compile(rb'\bACPI_MODULE_NAME\s*\(\s*"([^"\\\n]*)"\s*\)')
_MSG_DEFINE_RE = re.compile(
    rb"^[ \t]*#[ \t]*define[ \t]+(ACPI_MSG_[A-Z_]+)[ \t]+([^\n]*)",
    re.MULTILINE)
_SUFFIX_RE = re.compile(
    rb'#[ \t]*define[ \t]+ACPI_MSG_SUFFIX[ \t]*\\?\s*acpi_os_printf\s*\(\s*'
    rb'("(?:\\.|[^"\\\n])*")')
#: How far up from a file its tree's include/acpi is looked for.
MAX_UP = 8
#: (prefixes, suffix) by the directory of a scanned file.
_tables: dict[str, tuple[dict[bytes, bytes], bytes]] = {}


def _read(path: str) -> Optional[bytes]:
    try:
        with open(path, "rb") as f:
            return strip_comments(f.read(1 << 20))
    except (OSError, ValueError):
        return None


def tables(directory: str) -> tuple[dict[bytes, bytes], bytes]:
    """The ACPI_MSG_* prefixes and ACPI_MSG_SUFFIX's format in effect for
    a file in @directory: acutils.h's defaults, overridden by the tree's
    include/acpi/platform/aclinux.h (found up to MAX_UP directories up),
    as the preprocessor has them; LINUX_PREFIXES and SUFFIX for what
    neither defines."""
    cached = _tables.get(directory)
    if cached is not None:
        return cached
    prefixes = dict(LINUX_PREFIXES)
    suffix = SUFFIX
    root, found = directory, None
    for _ in range(MAX_UP):
        candidate = os.path.join(root, "include", "acpi", "platform",
                                 "aclinux.h")
        if os.path.isfile(candidate):
            found = root
            break
        parent = os.path.dirname(root)
        if parent == root:
            break
        root = parent
    headers = [os.path.join(directory, "acutils.h")]
    if found is not None:
        headers += [os.path.join(found, "drivers", "acpi", "acpica",
                                 "acutils.h"),
                    os.path.join(found, "include", "acpi", "platform",
                                 "aclinux.h")]
    defaults_read = False
    for path in headers:
        is_utils = path.endswith("acutils.h")
        if is_utils and defaults_read:
            continue
        text = _read(path)
        if text is None:
            continue
        defaults_read = defaults_read or is_utils
        for m in _MSG_DEFINE_RE.finditer(text):
            value = eval_strings(m.group(2), STRING_MACROS)
            if value is not None:
                prefixes[m.group(1)] = value
        s = _SUFFIX_RE.search(text)
        if s:
            value = eval_strings(s.group(1), STRING_MACROS)
            if value is not None:
                suffix = value
    result = (prefixes, suffix)
    if len(_tables) < 4096:
        _tables[directory] = result
    return result


def _escape(text: bytes) -> bytes:
    """@text, printed as a "%s" argument, as a format: "%" doubled."""
    return text.replace(b"%", b"%%")


def _suffix(suffix: bytes, module: Optional[bytes]) -> bytes:
    """ACPI_MSG_SUFFIX's format with the file's module name written in
    for its "%s" (_acpi_module_name), when the file names one."""
    if module is None:
        return suffix
    return suffix.replace(b"/%s-", b"/" + _escape(module) + b"-", 1)


def formats(text: bytes, m: "re.Match[bytes]",
            prefixes: dict[bytes, bytes], suffix: bytes
            ) -> list[bytes]:
    """The texts (as formats, level first) the ACPICA call @m in @text
    prints; none if its format is not a literal."""
    if m.group("plist"):
        skip, prefix, extra, with_suffix = _PLIST[m.group("plist")]
        args = split_args(text, m.end(), skip + 1)
        fmt = eval_strings(args[-1], STRING_MACROS) if args else None
        if fmt is None or prefix not in prefixes:
            return []
        return [prefixes[prefix] + extra + fmt
                + (suffix if with_suffix else b"\n")]
    if m.group("method"):
        args = split_args(text, m.end(), 1)
        message = eval_strings(args[0], STRING_MACROS) if args else None
        if message is None or b"ACPI_MSG_ERROR" not in prefixes:
            return []
        # acpi_ut_method_error(): acpi_ns_print_node_pathname() prints
        # "message \PATH", then " due to previous error (%s)".
        return [prefixes[b"ACPI_MSG_ERROR"] + _escape(message)
                + b" %s due to previous error (%s)" + suffix]
    return [prefixes[p] + message + b" [%s], %s" + suffix
            for p, message in _NAMESPACE if p in prefixes]


def scan_text(text: bytes, relpath: str, directory: str = "."
              ) -> list[CallSite]:
    """The ACPICA call sites of the C text @text (comments kept) of the
    file @relpath, whose headers are looked for from @directory."""
    if not _QUICK_RE.search(text):
        return []
    text = strip_comments(text)
    prefixes, suffix = tables(directory)
    module = _MODULE_RE.search(text)
    suffix = _suffix(suffix, module.group(1) if module else None)
    funcs = find_functions(text)
    starts = [pos for pos, _ in funcs]
    sites = []
    for m in _CALL_RE.finditer(text):
        line_start = text.rfind(b"\n", 0, m.start()) + 1
        if _DIRECTIVE_RE.match(text, line_start, m.start()):
            continue  # a definition: #define ACPI_ERROR(plist) ...
        i = bisect.bisect_right(starts, m.start()) - 1
        func = funcs[i][1].decode() if i >= 0 else "?"
        line = text.count(b"\n", 0, m.start()) + 1
        for fmt in formats(text, m, prefixes, suffix):
            sites.append(site(fmt, relpath, line, func))
    return sites


def site(fmt: bytes, relpath: str, line: int, function: str) -> CallSite:
    """The call site of an ACPICA call at @relpath:@line that prints the
    text @fmt (a format, level first): the ID and canonical form of
    "%s", @fmt as its format."""
    return text_site(fmt, file=relpath, line=line, function=function,
                     origin=ORIGIN, subsys="")


def scan_file(path: str, relpath: Optional[str] = None) -> list[CallSite]:
    """Return the ACPICA call sites of the C file @path (none in tools/:
    user space)."""
    relpath = relpath or path
    if relpath.startswith("tools/"):
        return []
    with open(path, "rb") as f:
        text = f.read()
    return scan_text(text, relpath, os.path.dirname(path))
