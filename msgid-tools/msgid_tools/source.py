# SPDX-License-Identifier: GPL-2.0
"""Best-effort scan of C sources for printk call sites (and of Rust
sources: source_rs.py).

Finds printk()/pr_*()/dev_*()/pci_*()/netdev_*() calls whose format is a
concatenation of string literals and known string macros (KERN_*, HW_ERR,
FW_*, DEPRECATED, and "#define NAME "literal"" in the same file), applies
the file's pr_fmt()/dev_fmt() (also when defined in a local "header.h"),
and computes the IDs.  Calls of the file's own wrapper macros are found
too: a function-like macro, defined in the file or a local header, whose
body calls one of those functions ("#define vgaarb_info(dev, fmt, arg...)
dev_info(dev, "vgaarb: " fmt, ##arg)", printk's con_printk() with
pr_fmt() in its format) is expanded once with the arguments of each call.
scan_tree() follows two more kinds of wrapper, learnt in a first pass over
the tree (learn_tree()): the function-like macros of include/ that reach a
print call, also through one another and "pr_ ## level"
(ata_dev_info() -> ata_dev_printk() -> pr_info("ata%u.%02u: " fmt)), and
the functions that print their caller's format through %pV (bt_info():
vaf.fmt = format; pr_info("%pV", &vaf)), whose call sites get the ID of
the caller's format, as the kernel prints it, and the text the function
prints before the %pV as their prefix.  The functions of TEXT_FUNCTIONS
that the tree defines so format their caller's format into a buffer
(vscnprintf()) and print it with "%s" (SCSI's sdev_prefix_printk() and
scmd_printk(), behind sdev_printk(), sd_printk(), sr_printk() ...): the
kernel gives their records the ID of "%s", and each call of them is a
call site with that ID and canonical form whose format is the text it
prints (the level, the function's head, the caller's format), origin
TEXT_ORIGIN, as ACPICA's (source_acpica.py; match.site_format()).
Without a preprocessor this is approximate: rows are marked origin
"source-approx".  KBUILD_MODNAME is the composite object the directory's
Makefile puts the file into ("cfg80211-y += reg.o"), else the file's base
name; KBUILD_BASENAME is always the file's base name.
"""

import bisect
import os
import re
from typing import Callable, Iterable, Iterator, NamedTuple, Optional

from msgid_tools import source_rs
from msgid_tools.core.ids import (CallSite, canonical, classify, decode, level_of,
                          strip_levels)

KERN_SOH = b"\x01"
STRING_MACROS: dict[bytes, bytes] = {
    b"KERN_SOH": KERN_SOH,
    b"KERN_EMERG": KERN_SOH + b"0", b"KERN_ALERT": KERN_SOH + b"1",
    b"KERN_CRIT": KERN_SOH + b"2", b"KERN_ERR": KERN_SOH + b"3",
    b"KERN_WARNING": KERN_SOH + b"4", b"KERN_NOTICE": KERN_SOH + b"5",
    b"KERN_INFO": KERN_SOH + b"6", b"KERN_DEBUG": KERN_SOH + b"7",
    b"KERN_DEFAULT": b"", b"KERN_CONT": KERN_SOH + b"c",
    b"FW_BUG": b"[Firmware Bug]: ", b"FW_WARN": b"[Firmware Warn]: ",
    b"FW_INFO": b"[Firmware Info]: ", b"HW_ERR": b"[Hardware Error]: ",
    b"DEPRECATED": b"[Deprecated]: ",
}
_LEVELS = {b"emerg": b"0", b"alert": b"1", b"crit": b"2", b"err": b"3",
           b"warn": b"4", b"warning": b"4", b"notice": b"5", b"info": b"6",
           b"dbg": b"7", b"debug": b"7", b"devel": b"7", b"cont": b"c"}

#: Subsystem wrappers whose callers the printk index holds (with this
#: series): name -> (arguments before the format, literal the macro puts
#: before the format, level digit or "" when an argument chooses it, the
#: prefix the wrapper prints before the caller's text).
_DRM_DEV = "%s %s: [drm:%ps] "
_WRAPPERS: dict[bytes, tuple[int, bytes, str, str]] = {}
for _n, _l in ((b"INFO", "6"), (b"NOTE", "5"), (b"WARN", "4")):
    for _s in (b"", b"_ONCE"):
        _WRAPPERS[b"DRM_" + _n + _s] = (0, b"[drm] ", _l, "")
_WRAPPERS[b"DRM_ERROR"] = (0, b"", "3", "[drm:%ps] *ERROR* ")
_WRAPPERS[b"DRM_ERROR_RATELIMITED"] = (0, b"*ERROR* ", "3", "[drm:%ps] ")
for _n in (b"", b"_DRIVER", b"_KMS", b"_PRIME", b"_ATOMIC", b"_VBL",
           b"_LEASE", b"_DP", b"_KMS_RATELIMITED"):
    _WRAPPERS[b"DRM_DEBUG" + _n] = (0, b"", "7", "[drm:%ps] ")
for _n, _p, _l in ((b"ERROR", b"*ERROR* ", "3"),
                   (b"ERROR_RATELIMITED", b"*ERROR* ", "3"),
                   (b"INFO", b"", "6"), (b"INFO_ONCE", b"", "6"),
                   (b"DEBUG", b"", "7"), (b"DEBUG_DRIVER", b"", "7"),
                   (b"DEBUG_KMS", b"", "7")):
    _WRAPPERS[b"DRM_DEV_" + _n] = (1, _p, _l, _DRM_DEV)
for _n, _l in ((b"info", "6"), (b"notice", "5"), (b"warn", "4")):
    for _s in (b"", b"_once"):
        _WRAPPERS[b"drm_" + _n + _s] = (1, b"[drm] ", _l, "%s %s: ")
for _s in (b"", b"_once", b"_ratelimited"):
    _WRAPPERS[b"drm_err" + _s] = (1, b"[drm] *ERROR* ", "3", "%s %s: ")
for _n in (b"", b"_core", b"_driver", b"_kms", b"_prime", b"_atomic",
           b"_vbl", b"_state", b"_lease", b"_dp", b"_drmres"):
    _WRAPPERS[b"drm_dbg" + _n] = (1, b"", "7", _DRM_DEV)
for _n, _l in ((b"crit", "2"), (b"err", "3"), (b"warn", "4"),
               (b"info", "6"), (b"debug", "7")):
    for _s in (b"", b"_rl"):
        _WRAPPERS[b"btrfs_" + _n + _s] = (1, b"", _l,
                                          "BTRFS %s (device %s%s): ")
for _n in (b"ql_dbg", b"ql_dbg_pci", b"ql_dbg_qp"):
    _WRAPPERS[_n] = (3, b"", "4", "qla2xxx [%s]-%04x:%s: ")
for _n in (b"ql_log", b"ql_log_pci"):
    _WRAPPERS[_n] = (3, b"", "", "qla2xxx [%s]-%04x:%s: ")
for _n in (b"rtl_dbg", b"RTPRINT"):
    _WRAPPERS[_n] = (3, b"", "6", "rtlwifi: ")
# netif_<level>(priv, type, dev, fmt, ...): netdev_<level>() when the
# driver's message mask has @type (e1000's e_info() is one of these).
for _n, _l in _LEVELS.items():
    if _n not in (b"warning", b"debug", b"devel", b"cont"):
        _WRAPPERS[b"netif_" + _n] = (3, b"", _l.decode(), "%s %s %s%s: ")
_WRAPPERS[b"dev_err_probe"] = (2, b"", "3", "%s %s: error %pe: ")
_WRAPPERS[b"dev_warn_probe"] = (2, b"", "4", "%s %s: error %pe: ")

# name(  -> (kind, level): kind "pr" applies pr_fmt (net_<level>_ratelimited()
# is pr_<level>() under a rate limit), "dev" skips one argument and applies
# dev_fmt, "netdev" skips one argument, "printk" is raw; a level of None
# means the first argument is the level (dev_printk); a subsystem wrapper
# (_WRAPPERS) is as its row says.
_CALL_RE = re.compile(
    rb"\b(?P<name>printk(?:_deferred)?(?:_once|_ratelimited)?"
    rb"|pr_(?P<pl>emerg|alert|crit|err|warn|warning|notice|info|cont|debug"
    rb"|devel)(?:_once|_ratelimited)?"
    rb"|net_(?P<rl>emerg|alert|crit|err|warn|notice|info|dbg)_ratelimited"
    rb"|(?:dev|pci)_(?P<dl>emerg|alert|crit|err|warn|notice|info|dbg)"
    rb"(?:_once|_ratelimited)?|dev_printk"
    rb"|pci_(?P<cl>emerg|alert|crit|err|warn|notice|info|dbg)"
    rb"(?:_once|_ratelimited)?|pci_printk"
    rb"|netdev_(?P<nl>emerg|alert|crit|err|warn|notice|info|dbg)|netdev_printk"
    rb"|(?P<wl>" + b"|".join(sorted(_WRAPPERS, key=lambda n: (-len(n), n)))
    + rb"))\s*\(")
# An unterminated comment runs to the end of the file and an unterminated
# literal to the end of its line: every match succeeds at its first try,
# which keeps the scan linear on any input.
_COMMENT_RE = re.compile(
    rb'//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"?'
    rb'|\'(?:\\.|[^\'\\\n])*\'?', re.DOTALL)
#: Literals (as in _COMMENT_RE) and the characters that delimit arguments.
_BRACKET_RE = re.compile(
    rb'"(?:\\.|[^"\\\n])*"?|\'(?:\\.|[^\'\\\n])*\'?|[][(){},]', re.DOTALL)
#: Arguments longer than this are not a format (and slicing stays cheap).
MAX_ARGS = 1 << 16
#: The most match texts a call site gets from its function's callers.
MAX_TEXTS = 16
#: A conversion of a format as the arguments feed it ("%%" takes none,
#: each "*" one more).
_ARG_CONV_RE = re.compile(
    rb"%(?:%|[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
    rb"(?:hh|h|ll|l|L|z|Z|t|j|q)?(?:p[A-Za-z0-9]*|[a-zA-Z]))")
_DEFINE_RE = re.compile(
    rb"^[ \t]*#[ \t]*define[ \t]+(\w+)(\([ \t]*\w+[ \t]*\))?[ \t]+"
    rb"((?:[^\n\\]|\\\n|\\.)*)", re.MULTILINE)
_UNDEF_RE = re.compile(rb"^[ \t]*#[ \t]*undef[ \t]+(\w+)", re.MULTILINE)
#: A function-like macro: name, parameters, body (continuations kept).
_FUNC_DEFINE_RE = re.compile(
    rb"^[ \t]*#[ \t]*define[ \t]+(\w+)\(([\w \t,.]*)\)"
    rb"((?:[^\n\\]|\\\n|\\.)*)", re.MULTILINE)
#: In a macro body: a literal (kept), "##" (dropped), an identifier.
_BODY_TOKEN_RE = re.compile(rb'"(?:\\.|[^"\\\n])*"|##|\b[A-Za-z_]\w*\b')
_PR_FMT_CALL_RE = re.compile(rb"\bpr_fmt\s*\(")
#: An argument "cond ? A : B" with no literal or "?" in cond: A and B.
_CHOICE_RE = re.compile(rb'\s*[^"?:]+\?\s*([^?:]+?)\s*:\s*([^?:]+?)\s*', re.DOTALL)
#: Wrapper macros followed per file, and their body's length: enough for
#: the kernel's (one call and its arguments), bounded on any input.
MAX_WRAPPERS = 64
MAX_WRAPPER_BODY = 1024
#: Following wrappers through wrappers (ata_dev_info() -> ata_dev_printk()
#: -> pr_info()): how deep, how many print calls one call expands to
#: (ata_link_printk() holds two), how many macro expansions one call may
#: cost, how long an expanded body may grow; headers of local headers
#: (xfs.h -> xfs_linux.h -> xfs_message.h) give wrapper macros too, so
#: deep and so many.
MAX_NEST = 4
MAX_EXPANSION = 8
MAX_EXPANSION_COST = 64
MAX_HEADER_DEPTH = 3
MAX_HEADERS = 32
#: Wrapper macros of include/ and %pV functions followed per tree; the
#: length of a %pV function looked at.
MAX_TREE_WRAPPERS = 1 << 14
MAX_FUNCTION = 1 << 20
#: A call: a name and its "(".
_IDENT_CALL_RE = re.compile(rb"\b([A-Za-z_]\w*)\s*\(")
_IDENT_RE = re.compile(rb"[A-Za-z_]\w*")
#: "pr_ ## level": the blanks around "##" go, as the preprocessor's do.
_PASTE_RE = re.compile(rb"[ \t]*##[ \t]*")
_PASTED_CALL_RE = re.compile(rb"\b(\w+)##\w+\s*\(")
#: A struct va_format's .fmt set from a variable: "vaf.fmt = fmt;" or
#: "struct va_format vaf = { .fmt = fmt, ... }".
_VAF_FMT_RE = re.compile(
    rb"\b(\w+)[ \t]*\.[ \t]*fmt\s*=\s*(\w+)\s*;"
    rb"|\bstruct\s+va_format\s+(\w+)\s*=\s*\{[^{};]{0,256}?"
    rb"\.fmt\s*=\s*(\w+)\s*[,}]")
#: A parameter "struct va_format *vaf" (of a helper that prints it).
_VAF_PTR_RE = re.compile(
    rb"\bstruct\s+va_format\s*\*\s*(?:const\s+)?(\w+)\s*[,)]")
#: "_printk(" (what printk() calls) is printk() to the scanner.
_UNDERSCORE_PRINTK_RE = re.compile(rb"(?<!\w)_printk(?=\s*\()")
#: A conversion of a printk format ("%%" prints no argument).
_CONV_RE = re.compile(
    rb"%(?:%|[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
    rb"(?:hh|h|ll|l|L|z|Z|t|j|q)?(?:p[A-Za-z0-9]*|[a-zA-Z]))")


class PvFunction(NamedTuple):
    """A function that prints its caller's format through %pV (bt_info(),
    __ext4_msg(), xfs_printk_level()): the kernel gives its records the
    ID of that format (vsnprintf() follows %pV); its own format's text
    before the %pV is the prefix the caller's text comes after."""

    #: Position of the caller's format among its arguments.
    arg: int
    #: Position of the argument it prints as the level ("%sEXT4-fs",
    #: dev_printk(level, ...)), -1 if none.
    level_arg: int
    #: The level it prints at ("6"), "" if an argument or the caller's
    #: format decides.
    level: str
    #: What it prints before the caller's text ("Bluetooth: ").
    prefix: str
    #: A function of TEXT_FUNCTIONS (it prints the caller's text through
    #: "%s"): the format of what it writes into its buffer before the
    #: caller's format ("[%s] "); None for a %pV function.
    head: Optional[bytes] = None
    #: The argument that, passed as the NULL literal, leaves @head out
    #: (sdev_prefix_printk()'s name), -1 if none.
    head_arg: int = -1


#: The origin of the call sites of TEXT_FUNCTIONS' callers.
TEXT_ORIGIN = "source-as-text"
#: The format such a function hands to printk with its buffer.
PRINTED_WITH = b"%s"
#: Functions that format their caller's format into a buffer and print
#: it with "%s" (their records carry the ID of "%s"), as the kernel
#: defines them: learn_tree() takes those its tree defines so (a
#: vscnprintf() and a print call with "%s" in their body).
TEXT_FUNCTIONS: dict[bytes, PvFunction] = {
    # drivers/scsi/scsi_logging.c: "[%s] " when @name is not NULL, the
    # caller's format; dev_printk(level, &sdev->sdev_gendev, "%s", logbuf)
    b"sdev_prefix_printk": PvFunction(3, 0, "", "%s %s: ", b"[%s] ", 2),
    # sdev_format_header(): "[%s] " when the command has a disk, "tag#%d "
    # (when it has a tag, as it has but in rare paths); then the same
    b"scmd_printk": PvFunction(2, 0, "", "%s %s: ", b"%stag#%d "),
}

#: What a call of a wrapper prints: (format, level, the prefix printed
#: before its text, printed as text: the format is the text a
#: TEXT_FUNCTIONS function prints through "%s").
Printed = tuple[bytes, Optional[str], str, bool]

#: Wrapper macro: (named parameters, name of the variable arguments or
#: None, body with continuations joined and pastes closed).
Macro = tuple[list[bytes], Optional[bytes], bytes]


class Tree(NamedTuple):
    """What one file's scan learns from the whole tree (learn_tree())."""

    #: Function-like macros of include/ that reach a print call.
    macros: dict[bytes, Macro]
    #: Non-static %pV functions, by name.
    functions: dict[bytes, PvFunction]
    #: Static %pV functions, by the file (path in the tree) defining them.
    static: dict[str, dict[bytes, PvFunction]]


_NO_TREE = Tree({}, {}, {})
#: The tree being scanned (scan_tree() sets it, in each process).
_tree: Tree = _NO_TREE
_FMT = b"\0FMT\0"  # stands for the "fmt" parameter in pr_fmt() bodies
_UNKNOWN = b"\0?\0"  # a pr_fmt() we cannot evaluate: skip its call sites
_PR_FMT = b"\0pr_fmt\0"  # dev_fmt defined as pr_fmt
_INCLUDE_RE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"', re.MULTILINE)
# Function definitions: a line starting with [A-Za-z_], then (without
# crossing ;#{}=) a name, "(", parameters without ;{} and ")" before "{".
_LINE_START_RE = re.compile(rb"^[A-Za-z_]", re.MULTILINE)
_NAME_PAREN_RE = re.compile(rb"\b([A-Za-z_]\w*)[ \t]*\(")
_PREFIX_STOP_RE = re.compile(rb"[;#{}=]")
_PARAMS_STOP_RE = re.compile(rb"[;{}]")
_DIRECTIVE_RE = re.compile(rb"[ \t]*#")
_TOKEN_RE = re.compile(rb'\s*(?:"((?:\\.|[^"\\])*)"|([A-Za-z_]\w*))\s*',
                       re.DOTALL)
_C_ESCAPE_RE = re.compile(rb"\\(x[0-9a-fA-F]+|[0-7]{1,3}|.)", re.DOTALL)
_C_ESCAPES = {b"n": b"\n", b"t": b"\t", b"r": b"\r", b"f": b"\f",
              b"v": b"\v", b"a": b"\a", b"b": b"\b", b"e": b"\x1b"}


def c_unescape(body: bytes) -> bytes:
    """Decode the body of a C string literal."""
    def repl(m: "re.Match[bytes]") -> bytes:
        seq = m.group(1)
        if seq[:1] == b"x":
            return bytes([int(seq[1:], 16) & 0xff])
        if seq[:1].isdigit() and seq[:1] < b"8":
            return bytes([int(seq, 8) & 0xff])
        return _C_ESCAPES.get(seq, seq)
    return _C_ESCAPE_RE.sub(repl, body)


def strip_comments(text: bytes) -> bytes:
    """Blank out comments, keeping string literals and line numbers."""
    def repl(m: "re.Match[bytes]") -> bytes:
        s = m.group(0)
        if s[:1] in b"\"'":
            return s
        return b" " + b"\n" * s.count(b"\n")
    return _COMMENT_RE.sub(repl, text)


def eval_strings(expr: bytes, macros: dict[bytes, bytes],
                 fmt_arg: Optional[bytes] = None) -> Optional[bytes]:
    """Evaluate a concatenation of literals and string macros.

    @fmt_arg replaces the identifier "fmt" (for pr_fmt() bodies).  Returns
    None if @expr contains anything else.
    """
    pos, out = 0, []
    expr = expr.strip()
    while pos < len(expr):
        m = _TOKEN_RE.match(expr, pos)
        if not m:
            return None
        if m.group(1) is not None:
            out.append(c_unescape(m.group(1)))
        elif fmt_arg is not None and m.group(2) == b"fmt":
            out.append(fmt_arg)
        elif m.group(2) in macros:
            out.append(macros[m.group(2)])
        else:
            return None
        pos = m.end()
    return b"".join(out) if out else None


def split_args(text: bytes, start: int, count: int) -> Optional[list[bytes]]:
    """Return the first @count top-level arguments of a call.

    @start is just after the opening parenthesis.
    """
    args, depth, begin, i = [], 0, start, start
    while i < len(text) and len(args) < count:
        c = text[i]
        if c in b"\"'":
            m = _COMMENT_RE.match(text, i)
            i = m.end() if m else i + 1
            continue
        if c in b"([{":
            depth += 1
        elif c in b")]}":
            if depth == 0:
                args.append(text[begin:i])
                return args
            depth -= 1
        elif c == ord(",") and depth == 0:
            args.append(text[begin:i])
            begin = i + 1
        i += 1
    return args if len(args) == count else None


def find_functions(text: bytes) -> list[tuple[int, bytes]]:
    """Return (line start, name) of the function definitions in @text.

    Same result as finditer() of the regular expression
    ^[A-Za-z_][^;#{}=]*?\\b([A-Za-z_]\\w*)[ \\t]*\\([^;{}]*\\)[ \\t\\n]*\\{
    (MULTILINE), which takes cubic time on some inputs; this takes
    O(n log n).
    """
    stops = [m.start() for m in _PREFIX_STOP_RE.finditer(text)]
    ends = [m.start() for m in _PARAMS_STOP_RE.finditer(text)]
    back: dict[int, int] = {}  # "{" -> last non-blank before it
    names: list[tuple[int, bytes, int]] = []  # (start, name, match end)
    for m in _NAME_PAREN_RE.finditer(text):
        paren = m.end() - 1
        i = bisect.bisect_right(ends, paren)
        if i == len(ends) or text[ends[i]] != 0x7b:  # "{"
            continue
        brace = ends[i]
        j = back.get(brace)
        if j is None:
            j = brace - 1
            while j >= 0 and text[j] in b" \t\n":
                j -= 1
            back[brace] = j
        if j > paren and text[j] == 0x29:  # ")"
            names.append((m.start(), m.group(1), brace + 1))
    starts = [n[0] for n in names]
    funcs = []
    done = 0  # end of the last match: matches do not overlap
    for m in _LINE_START_RE.finditer(text):
        line = m.start()
        if line < done:
            continue
        k = bisect.bisect_left(stops, line + 1)
        stop = stops[k] if k < len(stops) else len(text)
        i = bisect.bisect_left(starts, line + 1)
        if i < len(names) and names[i][0] < stop:
            funcs.append((line, names[i][1]))
            done = names[i][2]
    return funcs


def call_arguments(text: bytes, opens: Iterable[int]
                   ) -> dict[int, tuple[int, list[int]]]:
    """Map each "(" at a position in @opens to (position of its ")" or -1,
    positions of its top-level commas), in one pass over @text."""
    wanted = set(opens)
    out: dict[int, tuple[int, list[int]]] = {}
    stack: list[tuple[int, Optional[list[int]]]] = []
    for m in _BRACKET_RE.finditer(text):
        pos = m.start()
        c = text[pos]
        if c in b"([{":
            stack.append((pos, [] if pos in wanted else None))
        elif c in b")]}":
            if stack:
                start, commas = stack.pop()
                if commas is not None:
                    out[start] = (pos, commas)
        elif c == 0x2c and stack:  # ","
            commas = stack[-1][1]
            if commas is not None:
                commas.append(pos)
    for start, commas in stack:
        if commas is not None:
            out[start] = (-1, commas)
    return out


_MAKE_LINE_RE = re.compile(
    rb"^[ \t]*([A-Za-z0-9_][\w-]*)-(?:y|objs|\$\(CONFIG_\w+\))[ \t]*[:+]?="
    rb"((?:[^\n\\]|\\\n|\\.)*)", re.MULTILINE)
_OBJ_RE = re.compile(rb"[\w-]+\.o\b")
_NOT_MODULES = {b"obj", b"lib", b"ccflags", b"asflags", b"ldflags",
                b"subdir-ccflags", b"extra", b"always", b"targets",
                b"hostprogs", b"userprogs", b"clean-files", b"header-test"}
#: directory -> {object base name: composite module}, from its Makefile
_composites: dict[str, dict[bytes, bytes]] = {}


def module_name(path: str) -> str:
    """KBUILD_MODNAME of the C file @path: the composite object its
    directory's Makefile (or Kbuild) builds it into ("cfg80211-y +=
    reg.o"), else the file's base name."""
    d, base = os.path.split(path)
    stem = os.path.splitext(base)[0]
    table = _composites.get(d)
    if table is None:
        table = {}
        for mk in ("Makefile", "Kbuild"):
            try:
                with open(os.path.join(d, mk), "rb") as f:
                    text = f.read(1 << 20)
            except OSError:
                continue
            for m in _MAKE_LINE_RE.finditer(text):
                name = m.group(1)
                if name in _NOT_MODULES or name.startswith(b"CFLAGS"):
                    continue
                for o in _OBJ_RE.findall(m.group(2)):
                    # A composite's objects, not a composite itself.
                    table.setdefault(o[:-2], name)
        if len(_composites) < 4096:
            _composites[d] = table
    mod = table.get(os.fsencode(stem))
    return (mod.decode("utf-8", "replace") if mod and mod != os.fsencode(stem)
            else stem)


class _FileScanner:
    """Scan one C file (with its local headers) for call sites."""

    def __init__(self, path: str, relpath: str,
                 tree: Optional[Tree] = None) -> None:
        self.path = path
        self.relpath = relpath
        modname = module_name(path)
        self.macros = dict(STRING_MACROS)
        self.macros[b"KBUILD_MODNAME"] = os.fsencode(modname).replace(
            b"-", b"_")
        # The object's own name: exact (input.c's pr_fmt() prints it).
        self.macros[b"KBUILD_BASENAME"] = os.fsencode(
            os.path.splitext(os.path.basename(path))[0]).replace(b"-", b"_")
        # (position, template or None) per macro, in file order; a file
        # may #undef and redefine pr_fmt several times.
        self.templates: dict[bytes, list[tuple[int, int, Optional[bytes]]]] = {
            b"pr_fmt": [], b"dev_fmt": []}
        self._keys: dict[bytes, list[int]] = {}
        self._args: dict[int, tuple[int, list[int]]] = {}
        # Wrapper macros: name -> Macro; the function-like macros that
        # may be, in the order learnt (_resolve_wrappers() decides).
        self.wrappers: dict[bytes, Macro] = {}
        self._candidates: list[_Candidate] = []
        # The tree's wrapper macros and %pV functions (the file's own
        # static ones first), and the expansions left to the current call.
        self.tree = tree if tree is not None else _tree
        self._static = self.tree.static.get(relpath, {})
        self._budget = 0

    def _learn_defines(self, text: bytes, at: Optional[int] = None,
                       offset: Optional[int] = None) -> None:
        """Learn string macros and pr_fmt/dev_fmt templates from @text.

        @at overrides the position of definitions (for included headers);
        @offset, their position in that header (for the headers it
        includes: where it includes them).
        """
        parsed = _parse(text)
        for start, name, param, body in parsed.defines:
            if param is None and name == b"dev_fmt" and \
                    body.strip() == b"pr_fmt":
                # "#define dev_fmt pr_fmt": dev_fmt(fmt) is whatever
                # pr_fmt(fmt) is where it is used.
                self.templates[name].append(self._where(start, at, offset) + (_PR_FMT,))
            elif param is None:
                value = eval_strings(body, self.macros)
                if value is not None:
                    self.macros[name] = value
            elif name in self.templates:
                # "fmt, __func__"-style bodies: only the format part counts.
                first = split_args(body + b")", 0, 1)
                value = first and eval_strings(first[0], self.macros,
                                               fmt_arg=_FMT)
                if not value or value.count(_FMT) != 1:
                    value = _UNKNOWN
                self.templates[name].append(self._where(start, at, offset) + (value,))
        for candidate in parsed.candidates:
            self._note(candidate)
        for start, name in parsed.undefs:
            if name in self.templates:
                self.templates[name].append(self._where(start, at, offset) + (None,))
        for defs in self.templates.values():
            defs.sort(key=lambda d: d[:2])

    def _note(self, candidate: Optional["_Candidate"]) -> None:
        """Note @candidate: one that calls a print function always (those
        are linear in the input), the others up to a limit."""
        if candidate is not None and (
                candidate[2] is None or
                len(self._candidates) < 4 * MAX_WRAPPERS):
            self._candidates.append(candidate)

    def _resolve_wrappers(self) -> None:
        """Keep the candidate macros whose body calls a print function, a
        %pV function or a wrapper macro (of the tree or kept here, so a
        wrapper of a wrapper too); of several definitions of a name, the
        first that does, in the order the preprocessor reads them: the
        branch of "#ifdef CONFIG_PRINTK" before the stub of its "#else"
        (ext4_msg()), as in learn_tree()."""
        def known(name: bytes) -> bool:
            return (name in self.wrappers or name in self.tree.macros
                    or self._function(name) is not None)
        pending = self._candidates
        self._candidates = []
        _keep_reaching(pending, known, self.wrappers, MAX_WRAPPERS)

    def _macro(self, name: bytes) -> Optional[Macro]:
        """The wrapper macro @name: the file's, else the tree's."""
        return self.wrappers.get(name) or self.tree.macros.get(name)

    def _function(self, name: bytes) -> Optional[PvFunction]:
        """The %pV function @name: the file's static one, else the
        tree's."""
        return self._static.get(name) or self.tree.functions.get(name)

    @staticmethod
    def _where(start: int, at: Optional[int],
               offset: Optional[int] = None) -> tuple[int, int]:
        """Sort key of a definition at @start: (position in the .c file,
        in header); one in a header that header includes at @offset
        comes after what is before that #include, in its own order."""
        if at is None:
            return (start, 0)
        if offset is None:
            return (at, start << 24)
        return (at, (offset << 24) + min(start, (1 << 24) - 1))

    def _template(self, name: bytes, pos: int) -> Optional[bytes]:
        """Return the pr_fmt/dev_fmt template in effect at @pos."""
        defs = self.templates[name]
        keys = self._keys.get(name)
        if keys is None or len(keys) != len(defs):
            keys = self._keys[name] = [d[0] for d in defs]
        i = bisect.bisect_right(keys, pos) - 1
        if i >= 0 and defs[i][2] == _PR_FMT:
            return self._template(b"pr_fmt", pos)
        return defs[i][2] if i >= 0 else None

    def _local_headers(self, text: bytes
                       ) -> Iterator[tuple[int, str, bytes]]:
        """Yield (position of the #include, name, text) of "local" headers.

        A header included twice counts once, as with include guards.
        """
        base = os.path.dirname(self.path)
        seen = set()
        for m in _INCLUDE_RE.finditer(text):
            if m.group(1) in seen:
                continue
            seen.add(m.group(1))
            hdr = os.path.join(base, m.group(1).decode("utf-8", "replace"))
            if "\0" in hdr:
                continue  # (no such file)
            info = _header_info(hdr)
            if info is not None:
                yield m.start(), os.fsdecode(m.group(1)), info[2]

    def _nested_headers(self, headers: list[tuple[int, str, bytes]]
                        ) -> list["_Nested"]:
        """The local headers that the file's local @headers include, and
        those they include, MAX_HEADER_DEPTH deep and MAX_HEADERS in
        all, once each, in the order of that walk: the preprocessor reads
        their wrapper macros (xfs.h -> xfs_linux.h -> xfs_message.h),
        definitions (evm_main.c -> evm.h -> ../integrity.h, whose
        pr_fmt() replaces the file's) and print calls (i8042.c ->
        i8042.h -> i8042-acpipnpio.h, "PNP: PS/2 Controller ...")."""
        base = os.path.dirname(self.path)
        seen = {os.path.normpath(os.path.join(base, name))
                for _, name, _ in headers}
        # (the file's #include, the local header's #include that leads
        # here, the header, its includes and where they are)
        level = [(pos, -1, os.path.normpath(os.path.join(base, name)),
                  [(m.start(), os.fsdecode(m.group(1)))
                   for m in _INCLUDE_RE.finditer(hdr)])
                 for pos, name, hdr in headers]
        out = []
        for _ in range(1, MAX_HEADER_DEPTH):
            deeper = []
            for pos, off, path, includes in level:
                for at, name in includes:
                    inc = os.path.normpath(os.path.join(
                        os.path.dirname(path), name))
                    if inc in seen or len(seen) >= MAX_HEADERS:
                        continue
                    seen.add(inc)
                    info = _header_info(inc)
                    if info is None:
                        continue
                    nested = _Nested(pos, at if off < 0 else off, inc,
                                     *info)
                    out.append(nested)
                    deeper.append((pos, nested.offset, inc,
                                   [(0, i) for i in info[0]]))
            level = deeper
        return out

    def _deeper_wrappers(self, nested: list["_Nested"]) -> None:
        """Note the wrapper macros of the headers of local headers
        (_nested_headers()), the deepest first: about the order the
        preprocessor reads them in, a header's includes before its own
        definitions."""
        for header in reversed(nested):
            for candidate in header.macros:
                self._note(candidate)

    def _tree_headers(self, nested: list["_Nested"]
                      ) -> list[tuple[int, int, str, bytes]]:
        """(the file's #include, the local header's, path in the tree,
        text) of the headers of @nested that are in the tree: their
        definitions and print calls count."""
        base = os.path.dirname(self.path)
        here = os.path.dirname(self.relpath)
        found = []
        for h in nested:
            rel = os.path.normpath(os.path.join(here, os.path.relpath(
                h.path, base)))
            if h.path.endswith(".h") and not rel.startswith(".."):
                found.append((h.pos, h.offset, rel, h.text))
        return found

    def _learn_headers(self, headers: list[tuple[int, str, bytes]],
                       nested: list[tuple[int, int, str, bytes]]) -> None:
        """Learn the definitions of the local @headers and of the headers
        they include (@nested, _tree_headers()), where the file includes
        them."""
        for pos, off, _, hdr in nested:
            self._learn_defines(hdr, at=pos, offset=off)
        for pos, _, hdr in headers:
            self._learn_defines(hdr, at=pos)

    def scan(self) -> list[CallSite]:
        """The call sites of the file, and of the local headers it
        includes (#include "x.h") and those include, with the file's
        pr_fmt() where the header is included (kernel/rcu/tree_plugin.h
        in tree.c)."""
        with open(self.path, "rb") as f:
            text = strip_comments(f.read())
        headers = list(self._local_headers(text))
        deeper = self._nested_headers(headers)
        self._deeper_wrappers(deeper)
        nested = self._tree_headers(deeper)
        self._learn_headers(headers, nested)
        self._learn_defines(text)
        self._resolve_wrappers()
        sites = self._sites(text, self.relpath)
        for pos, name, hdr in headers:
            if name.endswith(".h"):
                path = os.path.normpath(os.path.join(
                    os.path.dirname(self.relpath), name))
                sites += self._sites(hdr, path, pos)
        for pos, _, path, hdr in nested:
            sites += self._sites(hdr, path, pos)
        return sites

    def _sites(self, text: bytes, relpath: str, at: Optional[int] = None
               ) -> list[CallSite]:
        """The call sites in @text, of the file @relpath; pr_fmt() is the
        one in effect at @at (a local header's #include), else at each
        call.  The calls of wrapper macros (the file's and the tree's)
        and %pV functions are expanded, after the print calls of their
        line."""
        parsed = _parse(text)
        calls = list(parsed.calls)
        wanted = sorted(n for n in parsed.idents
                        if self._macro(n) or self._function(n))
        if not calls and not wanted:
            return []  # (most headers: nothing that prints)
        funcs = parsed.done.get("functions")
        if funcs is None:
            funcs = parsed.done["functions"] = find_functions(text)
        starts = [pos for pos, _ in funcs]
        if wanted:
            names = b"|".join(re.escape(n) for n in wanted)
            calls += re.finditer(rb"\b(" + names + rb")\s*\(", text)
            calls.sort(key=lambda m: m.start())
        opens = tuple(m.end() - 1 for m in calls)
        args_of = parsed.done.get(opens)
        if args_of is None:
            args_of = parsed.done[opens] = call_arguments(text, opens)
        sites, wrapped = [], []
        # Line numbers and line starts, counted incrementally: calls come
        # in file order.
        pos, line, line_start = 0, 1, 0
        for m in calls:
            line += text.count(b"\n", pos, m.start())
            nl = text.rfind(b"\n", pos, m.start())
            if nl >= 0:
                line_start = nl + 1
            pos = m.start()
            if _DIRECTIVE_RE.match(text, line_start, pos):
                continue  # a definition: #define pr_info(fmt, ...) ...
            i = bisect.bisect_right(starts, m.start()) - 1
            func = funcs[i][1].decode() if i >= 0 else "?"
            if m.re is not _CALL_RE:
                self._budget = MAX_EXPANSION_COST
                found = self._follow(text, m, args_of,
                                     m.start() if at is None else at, 0,
                                     frozenset())
                wrapped += (text_site(
                    fmt, file=relpath, line=line, function=func,
                    origin=TEXT_ORIGIN, level=level, subsys=subsys)
                    if as_text else CallSite.from_format(
                    fmt, file=relpath, line=line, function=func,
                    module="", origin="source-approx", level=level,
                    subsys=subsys) for fmt, level, subsys, as_text
                    in dict.fromkeys(found))
                continue
            self._args = args_of
            fmt, level = self._call_format(text, m, at)
            if fmt is None:
                continue
            sites.append(CallSite.from_format(
                fmt, file=relpath, line=line, function=func, module="",
                origin="source-approx", level=level,
                subsys=_subsys(m.group("name")),
                text=self._match_text(text, m, fmt, func,
                                      funcs[i][0] if i >= 0 else -1)))
        if wrapped:
            sites += wrapped
            sites.sort(key=lambda s: s.line)
        return sites

    def _follow(self, text: bytes, m: "re.Match[bytes]",
                args_of: dict[int, tuple[int, list[int]]], pos: int,
                depth: int, active: frozenset[bytes]) -> list[Printed]:
        """What the print calls that the call @m (group 1: its name) of
        a wrapper macro, %pV function or TEXT_FUNCTIONS function in @text
        make print; @args_of: call_arguments() of @text; @active: the
        macros being expanded, which are not again (as in cpp)."""
        name = m.group(1)
        self._args = args_of
        macro = self._macro(name) if name not in active else None
        if macro is not None:
            params, variadic, body = macro
            if depth >= MAX_NEST or self._budget <= 0:
                return []
            self._budget -= 1
            args = self._split(text, m.end() - 1, len(params)) \
                if params else []
            if args is None:
                return []
            values = dict(zip(params, args))
            if variadic is not None:
                values[variadic] = self._rest(text, m.end() - 1,
                                              len(params))
            return self._expand(body, values, pos, depth + 1,
                                active | {name})
        func = self._function(name)
        if func is None:
            return []
        args = self._split(text, m.end() - 1,
                           max(func.arg, func.level_arg, func.head_arg) + 1)
        fmt = eval_strings(args[func.arg], self.macros) if args else None
        if fmt is None:
            return []
        level: Optional[str] = func.level or None
        value = b""
        if not level and func.level_arg >= 0:
            value = eval_strings(args[func.level_arg], self.macros) or b""
            value = value if value[:1] == KERN_SOH else b""
            level = _level_name(value + fmt)
        if func.head is None:
            return [(fmt, level, func.prefix, False)]
        # Printed as text: the level, the head (none for a NULL name),
        # the caller's format.
        head = b"" if func.head_arg >= 0 and \
            args[func.head_arg].strip() == b"NULL" else func.head
        return [(value + head + fmt, level, func.prefix, True)]

    def _rest(self, text: bytes, paren: int, count: int) -> bytes:
        """The arguments after the first @count of the call whose "("
        is at @paren (a macro's variable arguments), as written."""
        close, commas = self._args.get(paren, (-1, []))
        if close < 0 or close - paren > MAX_ARGS:
            return b""
        if count == 0:
            return text[paren + 1:close]
        return text[commas[count - 1] + 1:close] if len(commas) >= count \
            else b""

    def _expand(self, body: bytes, args: dict[bytes, bytes], pos: int,
                depth: int = 1, active: frozenset[bytes] = frozenset()
                ) -> list[Printed]:
        """What the print calls in the macro @body with its parameters
        replaced by @args, called at @pos, print: print functions, and
        wrapper macros, %pV and TEXT_FUNCTIONS functions followed."""
        def subst(t: "re.Match[bytes]") -> bytes:
            tok = t.group(0)
            if tok == b"##":
                return b""
            return args.get(tok, tok)
        text = self._inline_pr_fmt(_BODY_TOKEN_RE.sub(subst, body), pos,
                                   depth)
        if text is None or len(text) > MAX_ARGS:
            return []
        calls = list(_CALL_RE.finditer(text))
        calls += [c for c in _IDENT_CALL_RE.finditer(text)
                  if c.group(1) not in active and
                  (self._macro(c.group(1)) or self._function(c.group(1)))]
        calls.sort(key=lambda c: c.start())
        args_of = call_arguments(text, [c.end() - 1 for c in calls])
        found: list[Printed] = []
        for c in calls:
            if len(found) >= MAX_EXPANSION:
                break
            if c.re is _CALL_RE:
                self._args = args_of
                fmt, level = self._call_format(text, c, pos)
                if fmt is not None:
                    found.append((fmt, level, _subsys(c.group("name")),
                                  False))
            else:
                found += self._follow(text, c, args_of, pos, depth, active)
        return found[:MAX_EXPANSION]

    def _inline_pr_fmt(self, text: bytes, pos: int, depth: int = 0
                       ) -> Optional[bytes]:
        """@text with its pr_fmt(...) calls made string macros: the
        pr_fmt() of the file at @pos, as where a macro is used; None if
        one cannot be evaluated."""
        for k in range(4):
            pm = _PR_FMT_CALL_RE.search(text)
            if not pm:
                break
            inner = split_args(text, pm.end(), 1)
            value = eval_strings(inner[0], self.macros) if inner else None
            value = _apply(self._template(b"pr_fmt", pos), value) \
                if value is not None else None
            if inner is None or value is None:
                return None
            name = b"__msgid_pr_fmt_%d_%d" % (depth, k)
            self.macros[name] = value
            text = text[:pm.start()] + name + \
                text[pm.end() + len(inner[0]) + 1:]
        return text

    def pv_functions(self, data: bytes
                     ) -> tuple[dict[bytes, PvFunction],
                                dict[bytes, PvFunction]]:
        """The %pV functions defined in the file's text @data: (those
        other files may call, the static ones).  One sets a struct
        va_format's .fmt from a parameter, the caller's format, and
        prints it with a print function whose format holds "%pV"
        (bt_info(): pr_info("%pV", &vaf)), or through a helper of the
        file that takes it as a "struct va_format *" and does
        (xfs_printk_level() -> __xfs_printk())."""
        text = strip_comments(data)
        headers = list(self._local_headers(text))
        self._learn_headers(headers, self._tree_headers(
            self._nested_headers(headers)))
        self._learn_defines(text)
        text = _UNDERSCORE_PRINTK_RE.sub(b" printk", text)
        funcs = find_functions(text)
        starts = [pos for pos, _ in funcs]
        parts: dict[int, Optional[_Function]] = {}

        def function_at(pos: int) -> Optional[_Function]:
            i = bisect.bisect_right(starts, pos) - 1
            if i < 0:
                return None
            if i not in parts:
                parts[i] = _function_parts(text, funcs[i][0]) \
                    if len(parts) < MAX_WRAPPERS else None
            return parts[i]
        helpers: dict[bytes, PvFunction] = {}
        for m in _VAF_PTR_RE.finditer(text):
            f = function_at(m.start())
            if f is None or not f.paren < m.start() < f.body or \
                    f.name in helpers or m.group(1) not in f.params:
                continue
            found = self._pv_print(text, f, m.group(1), {})
            if found is not None:
                helpers[f.name] = found._replace(
                    arg=f.params.index(m.group(1)))
        public: dict[bytes, PvFunction] = {}
        static: dict[bytes, PvFunction] = {}
        for m in _VAF_FMT_RE.finditer(text):
            var, fmt = (m.group(1), m.group(2)) if m.group(1) else \
                (m.group(3), m.group(4))
            f = function_at(m.start())
            if f is None or not f.body < m.start() < f.end or \
                    fmt not in f.params or f.name in public or \
                    f.name in static or _CALL_RE.match(f.name + b"("):
                continue
            found = self._pv_print(text, f, b"&" + var, helpers)
            if found is not None:
                (static if f.static else public)[f.name] = found._replace(
                    arg=f.params.index(fmt))
        return public, static

    def _pv_print(self, text: bytes, f: "_Function", vaf: bytes,
                  helpers: dict[bytes, PvFunction]
                  ) -> Optional[PvFunction]:
        """What the function @f prints first with the struct va_format
        @vaf ("&vaf", or the name of a parameter): a print call with
        "%pV" for it, or a call of one of the file's @helpers with it.
        The result's .arg is to be set by the caller."""
        calls = list(_CALL_RE.finditer(text, f.body, f.end))
        calls += [c for c in _IDENT_CALL_RE.finditer(text, f.body, f.end)
                  if c.group(1) in helpers]
        calls.sort(key=lambda c: c.start())
        args_of = call_arguments(text, [c.end() - 1 for c in calls])
        for c in calls:
            close, commas = args_of.get(c.end() - 1, (-1, []))
            if close < 0 or close - c.end() > MAX_ARGS:
                continue
            ends = commas + [close]
            args = [text[b + 1:e] for b, e in zip([c.end() - 1] + commas,
                                                   ends)]
            words = [re.sub(rb"[\s()]", b"", a) for a in args]

            def param(i: int) -> int:
                """The position of the parameter that argument @i is."""
                return f.params.index(words[i]) \
                    if i < len(words) and words[i] in f.params else -1
            if c.re is not _CALL_RE:  # a helper's call
                h = helpers[c.group(1)]
                if h.arg >= len(words) or words[h.arg] != vaf:
                    continue
                level, level_arg = h.level, -1
                if h.level_arg >= 0:
                    level_arg = param(h.level_arg)
                    value = eval_strings(args[h.level_arg], self.macros) \
                        if level_arg < 0 and h.level_arg < len(args) \
                        else None
                    if value and value[:1] == KERN_SOH:
                        level = _level_name(value)
                return PvFunction(0, level_arg, level, h.prefix)
            name = c.group("name")
            if c.group("wl"):
                continue
            at = 2 if name in (b"dev_printk", b"netdev_printk",
                               b"pci_printk") else \
                0 if name.startswith((b"pr_", b"printk")) else 1
            snippet = self._inline_pr_fmt(text[c.start():close + 1],
                                          c.start())
            m = _CALL_RE.match(snippet) if snippet else None
            if m is None or len(args) <= at:
                continue
            self._args = call_arguments(snippet, [m.end() - 1])
            fmt, level = self._call_format(snippet, m, c.start())
            if fmt is None or b"%pV" not in fmt:
                continue
            levels, head = strip_levels(fmt)
            head = head[:head.index(b"%pV")]
            if b"c" in levels or b"NULL" in head:
                # A KERN_CONT fragment keeps the ID of the record it
                # continues; "(NULL device *): %pV" is the fallback of a
                # function that prints the main way further on.
                continue
            n = sum(1 + t.count(b"*") for t in _CONV_RE.findall(head)
                    if t != b"%%")
            if at + 1 + n >= len(words) or words[at + 1 + n] != vaf:
                continue
            level_arg = param(0) if at == 2 else -1
            if head[:2] == b"%s" and head[2:3].isalnum() and \
                    param(at + 1) >= 0:
                # "%sEXT4-fs (%s): %pV": the level, printed as nothing.
                level_arg, head = param(at + 1), head[2:]
            if level is None:
                level = level_of(fmt)
            return PvFunction(0, level_arg, "" if level_arg >= 0 or
                              level == "-1" else level,
                              _subsys(name) + decode(head))
        return None

    def _split(self, text: bytes, paren: int, count: int
               ) -> Optional[list[bytes]]:
        """Return the first @count arguments of the call whose "(" is at
        @paren, or None if it has fewer or they are too long."""
        info = self._args.get(paren)
        if info is None:  # the "(" is inside a literal
            return None
        close, commas = info
        ends = commas[:count]
        if len(ends) < count:
            if close < 0 or len(ends) + 1 < count:
                return None
            ends.append(close)
        if ends[-1] - paren > MAX_ARGS:
            return None
        begins = [paren + 1] + [e + 1 for e in ends[:-1]]
        return [text[b:e] for b, e in zip(begins, ends)]

    def _match_text(self, text: bytes, m: "re.Match[bytes]", fmt: bytes,
                    func: str, start: int = -1) -> Optional[bytes]:
        """The text the call @m prints with the format @fmt (pr_fmt()
        applied) where its arguments are known: each plain "%s" whose
        argument is a string literal, a string macro or __func__ becomes
        that text ("%s%s\\n", KERNEL_CMDLINE_PREFIX, s: "Kernel command
        line: %s\\n"); one that is a parameter of the static function
        defined at @start, which the file calls with a literal there
        every time, each of those texts (hub.c's show_string(udev,
        "Product", ...): "%s: %s\\n" as "Product: %s\\n" ...), NUL
        between them. None if nothing is known, or the arguments do not
        line up with the conversions (a pr_fmt() with arguments of its
        own, a macro that stands for several)."""
        name = m.group("name")
        if m.group("wl"):
            at = _WRAPPERS[name][0]
        elif name in (b"dev_printk", b"netdev_printk", b"pci_printk"):
            at = 2
        elif name.startswith((b"pr_", b"printk")):
            at = 0
        else:
            at = 1
        info = self._args.get(m.end() - 1)
        if info is None or info[0] < 0:
            return None
        close, commas = info
        ends = commas + [close]
        if len(ends) <= at + 1:
            return None  # no argument after the format
        raw = eval_strings(text[(ends[at - 1] if at else m.end() - 1) + 1:
                                ends[at]], self.macros)
        if raw is None or len(_ARG_CONV_RE.findall(raw)) != \
                len(_ARG_CONV_RE.findall(fmt)):
            return None  # pr_fmt() added conversions: args do not line up
        args = [text[b + 1:e] for b, e in zip(ends[at:-1], ends[at + 1:])]
        out: list[bytes] = []
        pos, k, changed = 0, 0, False
        several: Optional[tuple[int, list[bytes]]] = None
        for c in _ARG_CONV_RE.finditer(fmt):
            if c.group() == b"%%":
                continue
            take = 1 + c.group().count(b"*")
            if k + take > len(args):
                return None
            value: Optional[bytes] = None
            if c.group() == b"%s":
                arg = args[k].strip()
                if arg in (b"__func__", b"__FUNCTION__"):
                    value = func.encode() if func != "?" else None
                else:
                    value = eval_strings(arg, self.macros)
                values = None
                if value is None and several is None:
                    values = self._choice_values(arg)
                if values is None and value is None and several is None and \
                        start >= 0 and _IDENT_RE.fullmatch(arg):
                    values = self._param_values(text, start, arg)
                if value is None and several is None:
                    if values:
                        out.append(fmt[pos:c.start()])
                        several = (len(out), values)
                        out.append(b"")
                        pos = c.end()
                        changed = True
            if value is not None and b"\n" not in value:
                out += [fmt[pos:c.start()], value.replace(b"%", b"%%")]
                pos = c.end()
                changed = True
            k += take
        if k != len(args) or not changed:
            return None
        out.append(fmt[pos:])
        if several is None:
            return b"".join(out)
        texts = []
        for v in several[1]:
            out[several[0]] = v.replace(b"%", b"%%")
            texts.append(b"".join(out))
        return b"\0".join(texts)

    def _choice_values(self, arg: bytes) -> Optional[list[bytes]]:
        """The two texts of an argument "cond ? "A" : "B"" whose
        branches are string literals or string macros (x86's
        dummy_numa_init(): "%s\\n", numa_off ? "NUMA turned off" : "No
        NUMA configuration found"); None for any other argument."""
        m = _CHOICE_RE.fullmatch(arg)
        if m is None:
            return None
        a = eval_strings(m.group(1), self.macros)
        b = eval_strings(m.group(2), self.macros)
        if a is None or b is None or b"\n" in a + b:
            return None
        return [a, b]

    def _param_values(self, text: bytes, start: int, param: bytes
                      ) -> Optional[list[bytes]]:
        """The string literals (or string macros) that every call in
        @text of the static function defined at @start passes as its
        parameter @param; None if one passes something else, the
        function is not static or is used otherwise than called."""
        f = _function_parts(text, start)
        if f is None or not f.static or param not in f.params:
            return None
        k = f.params.index(param)
        values: list[bytes] = []
        for c in re.finditer(rb"\b%s\b" % re.escape(f.name), text):
            after = text[c.end():c.end() + 64].lstrip()
            if c.end() <= f.paren and not text[c.end():f.paren].strip():
                continue  # the definition
            if not after.startswith(b"("):
                return None  # its address taken: calls not seen
            before = text[max(0, c.start() - 64):c.start()].rstrip()
            if (before[-1:].isalnum() or before[-1:] in (b"*", b"_")) \
                    and not before.endswith(b"return"):
                continue  # a declaration ("static void f(char *id);")
            paren = text.index(b"(", c.end())
            args = split_args(text, paren + 1, k + 1)
            if args is None or len(args) <= k:
                return None  # (a call with fewer arguments: a macro's)
            value = eval_strings(args[k], self.macros)
            if value is None or b"\n" in value:
                return None
            if value not in values:
                values.append(value)
        return values if 0 < len(values) <= MAX_TEXTS else None

    def _call_format(self, text: bytes, m: "re.Match[bytes]",
                     pos: Optional[int] = None
                     ) -> tuple[Optional[bytes], Optional[str]]:
        """The format and level of the call @m in @text; pr_fmt() and
        dev_fmt() are those in effect at @pos (default: the call)."""
        name = m.group("name")
        at = m.start() if pos is None else pos
        if m.group("wl"):
            skip, lit, digit, _ = _WRAPPERS[name]
            args = self._split(text, m.end() - 1, skip + 1)
            fmt = eval_strings(args[-1], self.macros) if args else None
            if fmt is None:
                return None, None
            return lit + fmt, _level_name(KERN_SOH + digit.encode()) \
                if digit else None
        if name in (b"dev_printk", b"netdev_printk", b"pci_printk"):
            args = self._split(text, m.end() - 1, 3)
            if not args:
                return None, None
            level = eval_strings(args[0], self.macros)
            fmt = eval_strings(args[2], self.macros)
            if fmt is None:
                return None, None
            # A level held in a variable (AER's pci_printk(level, ...))
            # is not known here: the default level stands in.
            return fmt, _level_name((level or b"") + fmt)
        nargs = 1 if name.startswith((b"pr_", b"printk", b"net_")) else 2
        args = self._split(text, m.end() - 1, nargs)
        if not args:
            return None, None
        fmt = eval_strings(args[-1], self.macros)
        if fmt is None:
            return None, None
        if m.group("pl") or m.group("rl"):
            prefix = KERN_SOH + _LEVELS[m.group("pl") or m.group("rl")]
            if m.group("pl") != b"cont":
                fmt = _apply(self._template(b"pr_fmt", at), fmt)
            return (prefix + fmt, None) if fmt is not None else (None, None)
        if m.group("dl") or m.group("cl"):
            level = KERN_SOH + _LEVELS[m.group("dl") or m.group("cl")]
            fmt = _apply(self._template(b"dev_fmt", at), fmt)
            return (fmt, _level_name(level)) if fmt is not None else (None,
                                                                      None)
        if m.group("nl"):
            level = KERN_SOH + _LEVELS[m.group("nl")]
            return fmt, _level_name(level)
        return fmt, None


class _Function(NamedTuple):
    """A function definition: name, parameter names, positions of its
    "(", of its body's "{" and "}", whether static."""

    name: bytes
    params: list[bytes]
    paren: int
    body: int
    end: int
    static: bool


def _function_parts(text: bytes, line: int) -> Optional[_Function]:
    """The function defined at @line of @text (find_functions(), which
    names "static __printf(2, 3) void f(...)" __printf): its name is the
    one before the parameters that the body follows."""
    names = _NAME_PAREN_RE.finditer(text, line)
    for _ in range(8):
        m = next(names, None)
        if m is None:
            return None
        paren = m.end() - 1
        close = _closing(text, paren)
        body = text.find(b"{", close) if close > 0 else -1
        if body < 0:
            return None
        if text[close + 1:body].strip():
            continue  # an attribute's arguments: the parameters follow
        end = _closing(text, body)
        if end < 0:
            return None
        params = []
        for b, e in _top_level(text, paren, close):
            words = _IDENT_RE.findall(text, b, e)
            params.append(words[-1] if words else b"")
        return _Function(m.group(1), params, paren, body, end,
                         b"static" in text[line:m.start()].split())
    return None


def _closing(text: bytes, pos: int) -> int:
    """The position of the bracket that closes the one at @pos, -1 if
    there is none within MAX_FUNCTION bytes."""
    depth = 0
    for m in _BRACKET_RE.finditer(text, pos, pos + MAX_FUNCTION):
        c = text[m.start()]
        if c in b"([{":
            depth += 1
        elif c in b")]}":
            depth -= 1
            if depth == 0:
                return m.start()
    return -1


def _top_level(text: bytes, paren: int, close: int
               ) -> list[tuple[int, int]]:
    """(start, end) of the arguments between @paren and @close."""
    bounds, depth, begin = [], 0, paren + 1
    for m in _BRACKET_RE.finditer(text, paren + 1, close):
        c = text[m.start()]
        if c in b"([{":
            depth += 1
        elif c in b")]}":
            depth -= 1
        elif c == 0x2c and depth == 0:  # ","
            bounds.append((begin, m.start()))
            begin = m.start() + 1
    return bounds + [(begin, close)]


def text_functions(data: bytes) -> list[bytes]:
    """The functions of TEXT_FUNCTIONS that the C text @data defines as
    the table says: non-static, with their format parameter where the
    table has it, a vscnprintf()/vsnprintf() of it and a print call
    whose format is "%s" in their body."""
    text = strip_comments(data)
    found = []
    for line, name in find_functions(text):
        func = TEXT_FUNCTIONS.get(name)
        if func is None or name in found:
            continue
        f = _function_parts(text, line)
        if f is None or f.name != name or f.static or \
                len(f.params) <= func.arg:
            continue
        body = text[f.body:f.end]
        fmt = re.escape(f.params[func.arg])
        if not re.search(rb"\bvs(?:c?n)printf\s*\([^;]*\b" + fmt +
                         rb"\b", body):
            continue
        if any(m.group("name") in (b"dev_printk", b"printk")
               and b'"%s"' in body[m.end():body.find(b";", m.end())]
               for m in _CALL_RE.finditer(body)):
            found.append(name)
    return found


def learn_tree(root: str, files: Iterable[tuple[str, str]]) -> Tree:
    """Learn the wrapper macros of @root's include/, the %pV functions
    of its C @files ((path, path in the tree)) and the TEXT_FUNCTIONS
    they define, in a first pass before the files are scanned: a file's
    scan follows them wherever they are defined.  The result depends
    only on the tree."""
    functions: dict[bytes, PvFunction] = {}
    static: dict[str, dict[bytes, PvFunction]] = {}
    texts: dict[bytes, PvFunction] = {}
    for path, relpath in files:
        if not path.endswith(".c"):
            continue
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        if b"vscnprintf" in data or b"vsnprintf" in data:
            for name in text_functions(data):
                texts.setdefault(name, TEXT_FUNCTIONS[name])
        if b"va_format" not in data or b"%pV" not in data:
            continue
        public, own = _FileScanner(path, relpath, _NO_TREE).pv_functions(
            data)
        for name, func in public.items():
            if len(functions) < MAX_TREE_WRAPPERS:
                functions.setdefault(name, func)
        if own:
            static[relpath] = own
    for name, func in texts.items():
        if name not in functions:  # (one that prints its %pV is that)
            functions[name] = func
    # Every definition of a name, in the order of a sorted walk.
    candidates: dict[bytes, list[tuple[Macro, Optional[set[bytes]]]]] = {}
    count = 0
    for dirpath, dirnames, filenames in os.walk(os.path.join(root,
                                                             "include")):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(".h"):
                continue
            try:
                with open(os.path.join(dirpath, name), "rb") as f:
                    text = f.read()
            except OSError:
                continue
            if b"#define" not in text:
                continue
            for m in _FUNC_DEFINE_RE.finditer(strip_comments(text)):
                c = _candidate(m)
                if c and count < 4 * MAX_TREE_WRAPPERS:
                    candidates.setdefault(c[0], []).append(c[1:])
                    count += 1
    macros: dict[bytes, Macro] = {}

    def known(name: bytes) -> bool:
        return name in macros or name in functions
    # (a %pV function's name is no macro of the tree)
    _keep_reaching([(name, macro, names) for name in sorted(candidates)
                    if name not in functions
                    for macro, names in candidates[name]],
                   known, macros, MAX_TREE_WRAPPERS)
    return Tree(macros, functions, static)


def _keep_reaching(candidates: list["_Candidate"],
                   known: Callable[[bytes], bool],
                   kept: dict[bytes, Macro], limit: int) -> None:
    """Add to @kept (up to @limit names) each candidate macro (name,
    macro, the names its body calls or None for a print function) that
    reaches a print call: one that calls a print function or a name
    @known says is a wrapper, @kept's included.  Of several definitions
    of a name, the first in @candidates' order that reaches is kept; a
    wrapper of a wrapper is kept in a later round, MAX_NEST deep."""
    for _ in range(MAX_NEST + 1):
        added = False
        for name, macro, calls in candidates:
            if name in kept or len(kept) >= limit:
                continue
            if calls is None or any(map(known, calls)):
                kept[name] = macro
                added = True
        if not added:
            break


#: Local headers of local headers read, per process: path -> (the local
#: headers it includes, its macro candidates, its text without
#: comments).  Files come in directory order, so a small cache holds a
#: directory's headers.
_headers: dict[str, tuple[list[str], list["_Candidate"], bytes]] = {}
MAX_HEADER_CACHE = 256


def _header_info(path: str
                 ) -> Optional[tuple[list[str], list["_Candidate"], bytes]]:
    """The local headers the header @path includes, its candidate
    wrapper macros (_candidate()) and its text without comments; None if
    it cannot be read."""
    info = _headers.get(path)
    if info is not None:
        return info
    try:
        with open(path, "rb") as f:
            text = strip_comments(f.read())
    except (OSError, ValueError):
        return None
    includes = [os.fsdecode(m.group(1)) for m in _INCLUDE_RE.finditer(text)]
    macros = [c for c in map(_candidate, _FUNC_DEFINE_RE.finditer(text))
              if c is not None][:4 * MAX_WRAPPERS]
    if len(_headers) >= MAX_HEADER_CACHE:
        _headers.clear()
    info = _headers[path] = (includes[:MAX_HEADERS], macros, text)
    return info


class _Parsed(NamedTuple):
    """What a file's scan takes from a text by regular expressions
    alone, the same for every file that includes it (_parse())."""

    #: (position, name, "(param)" or None, body with continuations
    #: joined) of each "#define"
    defines: list[tuple[int, bytes, Optional[bytes], bytes]]
    #: _candidate() of each function-like macro definition
    candidates: list[Optional["_Candidate"]]
    #: (position, name) of each "#undef"
    undefs: list[tuple[int, bytes]]
    #: the print calls (_CALL_RE), and the names called
    calls: list["re.Match[bytes]"]
    idents: set[bytes]
    #: find_functions() and call_arguments() of the text, when asked
    #: ("functions", and the tuple of the opening parentheses)
    done: dict[object, object]


#: _parse() of the texts read lately, per process: a directory's local
#: headers are read by each of its files.  At most MAX_PARSED_BYTES of
#: text are kept.
_parsed: dict[bytes, _Parsed] = {}
_parsed_bytes = 0
MAX_PARSED_BYTES = 64 << 20


#: Whether a name called is a print function's (_CALL_RE), per process.
_printing: dict[bytes, bool] = {}
MAX_NAMES = 1 << 18


def _parse(text: bytes) -> _Parsed:
    """The definitions and calls of @text (without comments)."""
    global _parsed_bytes
    found = _parsed.get(text)
    if found is not None:
        return found
    # Every match of _CALL_RE is a name called ("name ("), whole: the
    # names called are found in one pass, and _CALL_RE is matched only
    # where one of them is a print function's.
    calls, idents = [], set()
    for m in _IDENT_CALL_RE.finditer(text):
        name = m.group(1)
        idents.add(name)
        printing = _printing.get(name)
        if printing is None:
            if len(_printing) >= MAX_NAMES:
                _printing.clear()
            printing = _printing[name] = \
                _CALL_RE.match(name + b"(") is not None
        if printing:
            call = _CALL_RE.match(text, m.start())
            if call is not None:
                calls.append(call)
    found = _Parsed(
        [(m.start(), m.group(1), m.group(2),
          m.group(3).replace(b"\\\n", b" "))
         for m in _DEFINE_RE.finditer(text)],
        [_candidate(m) for m in _FUNC_DEFINE_RE.finditer(text)],
        [(m.start(), m.group(1)) for m in _UNDEF_RE.finditer(text)],
        calls, idents, {})
    if _parsed_bytes + len(text) > MAX_PARSED_BYTES:
        _parsed.clear()
        _parsed_bytes = 0
    _parsed[text] = found
    _parsed_bytes += len(text)
    return found


class _Nested(NamedTuple):
    """A header of a local header (_FileScanner._nested_headers())."""

    pos: int                     # the file's #include that leads to it
    offset: int                  # ... and that local header's #include
    path: str
    includes: list[str]          # _header_info()
    macros: list["_Candidate"]
    text: bytes


def _parse_macro(m: "re.Match[bytes]") -> Optional[tuple[bytes, Macro]]:
    """(name, Macro) of the function-like macro definition @m
    (_FUNC_DEFINE_RE) if it may be a wrapper: named parameters, a call
    in a body of at most MAX_WRAPPER_BODY bytes, not a print function
    the scanner knows itself nor pr_fmt()/dev_fmt()."""
    name = m.group(1)
    body = m.group(3)
    if len(body) > MAX_WRAPPER_BODY or b"(" not in body or \
            name in (b"pr_fmt", b"dev_fmt") or _CALL_RE.match(name + b"("):
        return None
    body = body.replace(b"\\\n", b" ")
    if b"##" in body:
        body = _PASTE_RE.sub(b"##", body)
    params = [p.strip() for p in m.group(2).split(b",")]
    variadic = None
    if params and params[-1].endswith(b"..."):
        variadic = params.pop()[:-3].strip() or b"__VA_ARGS__"
    if not all(_IDENT_RE.fullmatch(p) for p in params):
        return None
    return name, (params, variadic, body)


#: A macro that may be a wrapper: name, Macro, _calls() of its body.
_Candidate = tuple[bytes, Macro, Optional[set[bytes]]]


def _candidate(m: "re.Match[bytes]") -> Optional[_Candidate]:
    """The _Candidate of the definition @m (_FUNC_DEFINE_RE), None if
    it is no wrapper (_parse_macro()) or calls nothing."""
    macro = _parse_macro(m)
    if macro is None:
        return None
    calls = _calls(macro[1][2])
    return None if calls == set() else macro + (calls,)


def _calls(body: bytes) -> Optional[set[bytes]]:
    """None if the macro @body calls a print function the scanner knows
    (also as "pr_##level"), else the names it calls: it is a wrapper if
    one of them is."""
    if _CALL_RE.search(body):
        return None
    for m in _PASTED_CALL_RE.finditer(body):
        if any(_CALL_RE.match(m.group(1) + lvl + b"(")
               for lvl in (b"info", b"err", b"dbg")):
            return None
    return set(_IDENT_CALL_RE.findall(body))


def _apply(template: Optional[bytes], fmt: bytes) -> Optional[bytes]:
    """Expand a pr_fmt()/dev_fmt() template; None if it is unknown."""
    if template == _UNKNOWN:
        return None
    return template.replace(_FMT, fmt) if template else fmt


def _subsys(name: bytes) -> str:
    """The prefix the function @name prints before the caller's text."""
    if name in _WRAPPERS:
        return _WRAPPERS[name][3]
    if name.startswith((b"dev_", b"pci_")):  # pci_*(): dev_*(&pdev->dev)
        return "%s %s: "
    if name.startswith(b"netdev_"):
        return "%s %s %s%s: "
    return ""


def _level_name(level: bytes) -> str:
    return level_of(level)


def text_site(text: bytes, *, file: str, line: int, function: str,
              origin: str, level: Optional[str] = None,
              subsys: Optional[str] = "") -> CallSite:
    """The call site at @file:@line of a call whose code formats its
    message itself and prints it with printk("%s", buffer) (ACPICA's
    macros, TEXT_FUNCTIONS' callers, behind the prefix @subsys): the ID
    and canonical form of "%s", as the kernel gives them, the text
    @text (a format, its level first) as its format, which
    match.site_format() hands the matcher, and the class of the text."""
    base = CallSite.from_format(
        PRINTED_WITH, file=file, line=line, function=function, module="",
        origin=origin, level=level if level is not None else
        level_of(text), subsys=subsys)
    return base._replace(format=decode(text),
                         msg_class=classify(canonical(text)))


def scan_file(path: str, relpath: Optional[str] = None) -> list[CallSite]:
    """Return the call sites found in one C or Rust (.rs) file (and
    ACPICA's message macros: source_acpica.py)."""
    if path.endswith(".rs"):
        return source_rs.scan_file(path, relpath)
    from msgid_tools import source_acpica  # (it imports this module)
    return _FileScanner(path, relpath or path).scan() + \
        source_acpica.scan_file(path, relpath)


def scan_tree(root: str, jobs: Optional[int] = None,
              progress: Optional[Callable[[int, int, int], None]] = None
              ) -> Iterator[CallSite]:
    """Yield the call sites of every *.c and *.rs file below @root, and
    of the local headers the C files include, once each, in the order of
    a sorted walk.
    The files are scanned by @jobs processes (default: one per CPU); the
    result does not depend on how many.  @progress(files scanned, files,
    call sites) is called after each file."""
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith((".c", ".rs")):
                path = os.path.join(dirpath, name)
                files.append((path, os.path.relpath(path, root)))
    seen: set[tuple[str, int, str]] = set()  # header sites
    tree = learn_tree(root, files)
    count = 0
    for done, (relpath, sites) in enumerate(
            _scan_files(files, jobs or os.cpu_count() or 1, tree), 1):
        for site in sites:
            if site.file != relpath:
                key = (site.file, site.line, site.canonical)
                if key in seen:
                    continue
                seen.add(key)
            count += 1
            yield site
        if progress is not None:
            progress(done, len(files), count)


def _scan_one(file: tuple[str, str]) -> tuple[str, list[CallSite]]:
    """scan_file() of (path, relpath); no sites if it cannot be read."""
    path, relpath = file
    try:
        return relpath, scan_file(path, relpath)
    except OSError:
        return relpath, []


def _worker_init(tree: Tree = _NO_TREE) -> None:
    """A scanning process follows the wrappers of @tree, leaves SIGINT
    to its parent, which stops the pool, and dies on SIGTERM and SIGHUP
    (the parent's handlers, which turn them into KeyboardInterrupt, are
    inherited by fork)."""
    import signal

    global _tree
    _tree = tree

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) != signal.SIG_IGN:
            signal.signal(sig, signal.SIG_DFL)


def _scan_files(files: list[tuple[str, str]], jobs: int,
                tree: Tree = _NO_TREE
                ) -> Iterator[tuple[str, list[CallSite]]]:
    """_scan_one() of each file, in order, with @jobs processes, the
    wrappers of @tree followed."""
    global _tree
    if jobs < 2 or len(files) < 2 * _CHUNK:
        _tree = tree
        try:
            yield from map(_scan_one, files)
        finally:
            _tree = _NO_TREE
        return
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(jobs, initializer=_worker_init,
                               initargs=(tree,))
    try:
        yield from pool.map(_scan_one, files, chunksize=_CHUNK)
    finally:
        # Interrupted, or the caller stopped reading: no file more.
        pool.shutdown(cancel_futures=True)


#: Files a scanning process takes at a time: few enough that the first
#: sites come at once and the processes end together.
_CHUNK = 32
