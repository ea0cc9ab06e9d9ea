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
Without a preprocessor this is approximate: rows are marked origin
"source-approx".  KBUILD_MODNAME is the composite object the directory's
Makefile puts the file into ("cfg80211-y += reg.o"), else the file's base
name; KBUILD_BASENAME is always the file's base name.
"""

import bisect
import os
import re
from typing import Iterable, Iterator, Optional

from msgid_db import source_rs
from msgid_db.ids import CallSite, level_of

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

# name(  -> (kind, level): kind "pr" applies pr_fmt, "dev" skips one
# argument and applies dev_fmt, "netdev" skips one argument, "printk" is
# raw; a level of None means the first argument is the level (dev_printk);
# a subsystem wrapper (_WRAPPERS) is as its row says.
_CALL_RE = re.compile(
    rb"\b(?P<name>printk(?:_deferred)?(?:_once|_ratelimited)?"
    rb"|pr_(?P<pl>emerg|alert|crit|err|warn|warning|notice|info|cont|debug"
    rb"|devel)(?:_once|_ratelimited)?"
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
#: Wrapper macros followed per file, and their body's length: enough for
#: the kernel's (one call and its arguments), bounded on any input.
MAX_WRAPPERS = 64
MAX_WRAPPER_BODY = 1024
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

    def __init__(self, path: str, relpath: str) -> None:
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
        # Wrapper macros: name -> (named parameters, body).
        self.wrappers: dict[bytes, tuple[list[bytes], bytes]] = {}

    def _learn_defines(self, text: bytes, at: Optional[int] = None) -> None:
        """Learn string macros and pr_fmt/dev_fmt templates from @text.

        @at overrides the position of definitions (for included headers).
        """
        for m in _DEFINE_RE.finditer(text):
            name, param = m.group(1), m.group(2)
            body = m.group(3).replace(b"\\\n", b" ")
            if param is None and name == b"dev_fmt" and \
                    body.strip() == b"pr_fmt":
                # "#define dev_fmt pr_fmt": dev_fmt(fmt) is whatever
                # pr_fmt(fmt) is where it is used.
                self.templates[name].append(self._where(m, at) + (_PR_FMT,))
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
                self.templates[name].append(self._where(m, at) + (value,))
        for m in _FUNC_DEFINE_RE.finditer(text):
            self._learn_wrapper(m)
        for m in _UNDEF_RE.finditer(text):
            if m.group(1) in self.templates:
                self.templates[m.group(1)].append(self._where(m, at) + (None,))
        for defs in self.templates.values():
            defs.sort(key=lambda d: d[:2])

    def _learn_wrapper(self, m: "re.Match[bytes]") -> None:
        """Keep a function-like macro whose body calls a print function
        with a format made of its parameters, literals and macros."""
        name, body = m.group(1), m.group(3).replace(b"\\\n", b" ")
        if name in self.templates or _CALL_RE.match(name + b"("):
            return
        if len(self.wrappers) >= MAX_WRAPPERS or \
                len(body) > MAX_WRAPPER_BODY or not _CALL_RE.search(body):
            return
        params = [p.strip() for p in m.group(2).split(b",")]
        if params and params[-1].endswith(b"..."):
            params.pop()  # the variable arguments: never the format
        if all(re.fullmatch(rb"[A-Za-z_]\w*", p) for p in params):
            self.wrappers[name] = (params, body)

    @staticmethod
    def _where(m: "re.Match[bytes]", at: Optional[int]) -> tuple[int, int]:
        """Sort key of a definition: (position in the .c file, in header)."""
        return (m.start(), 0) if at is None else (at, m.start())

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
            try:
                with open(hdr, "rb") as f:
                    yield m.start(), os.fsdecode(m.group(1)), \
                        strip_comments(f.read())
            except (OSError, ValueError):  # ValueError: NUL in the name
                continue

    def scan(self) -> list[CallSite]:
        """The call sites of the file, and of the local headers it
        includes (#include "x.h"), with the file's pr_fmt() where the
        header is included (kernel/rcu/tree_plugin.h in tree.c)."""
        with open(self.path, "rb") as f:
            text = strip_comments(f.read())
        headers = list(self._local_headers(text))
        for pos, _, hdr in headers:
            self._learn_defines(hdr, at=pos)
        self._learn_defines(text)
        sites = self._sites(text, self.relpath)
        for pos, name, hdr in headers:
            if name.endswith(".h"):
                path = os.path.normpath(os.path.join(
                    os.path.dirname(self.relpath), name))
                sites += self._sites(hdr, path, pos)
        return sites

    def _sites(self, text: bytes, relpath: str, at: Optional[int] = None
               ) -> list[CallSite]:
        """The call sites in @text, of the file @relpath; pr_fmt() is the
        one in effect at @at (a local header's #include), else at each
        call."""
        funcs = find_functions(text)
        starts = [pos for pos, _ in funcs]
        calls = list(_CALL_RE.finditer(text))
        self._args = call_arguments(text, (m.end() - 1 for m in calls))
        sites = []
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
            fmt, level = self._call_format(text, m, at)
            if fmt is None:
                continue
            i = bisect.bisect_right(starts, m.start()) - 1
            func = funcs[i][1].decode() if i >= 0 else "?"
            sites.append(CallSite.from_format(
                fmt, file=relpath, line=line, function=func, module="",
                origin="source-approx", level=level,
                subsys=_subsys(m.group("name"))))
        if self.wrappers:
            sites += self._wrapper_sites(text, relpath, at, funcs, starts)
            sites.sort(key=lambda s: s.line)
        return sites

    def _wrapper_sites(self, text: bytes, relpath: str, at: Optional[int],
                       funcs: list[tuple[int, bytes]],
                       starts: list[int]) -> list[CallSite]:
        """The call sites of the file's wrapper macros, each expanded."""
        names = b"|".join(re.escape(n) for n in sorted(self.wrappers))
        calls = list(re.finditer(rb"\b(" + names + rb")\s*\(", text))
        args_of = call_arguments(text, (m.end() - 1 for m in calls))
        sites = []
        for m in calls:
            line_start = text.rfind(b"\n", 0, m.start()) + 1
            if _DIRECTIVE_RE.match(text, line_start, m.start()):
                continue
            params, body = self.wrappers[m.group(1)]
            self._args = args_of
            args = self._split(text, m.end() - 1, len(params)) \
                if params else []
            if args is None:
                continue
            found = self._expand(body, dict(zip(params, args)),
                                 m.start() if at is None else at)
            if found is None:
                continue
            fmt, level, inner = found
            i = bisect.bisect_right(starts, m.start()) - 1
            sites.append(CallSite.from_format(
                fmt, file=relpath, line=text.count(b"\n", 0, m.start()) + 1,
                function=funcs[i][1].decode() if i >= 0 else "?", module="",
                origin="source-approx", level=level, subsys=_subsys(inner)))
        return sites

    def _expand(self, body: bytes, args: dict[bytes, bytes], pos: int
                ) -> Optional[tuple[bytes, Optional[str], bytes]]:
        """The format, level and function of the print call in the macro
        @body with its parameters replaced by @args, called at @pos."""
        def subst(t: "re.Match[bytes]") -> bytes:
            tok = t.group(0)
            if tok == b"##":
                return b""
            return args.get(tok, tok)
        text = _BODY_TOKEN_RE.sub(subst, body)
        # pr_fmt(...) of the file where the macro is used, as a macro.
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
            name = b"__msgid_pr_fmt_%d" % k
            self.macros[name] = value
            text = text[:pm.start()] + name + \
                text[pm.end() + len(inner[0]) + 1:]
        m = _CALL_RE.search(text)
        if not m:
            return None
        self._args = call_arguments(text, [m.end() - 1])
        fmt, level = self._call_format(text, m, pos)
        return (fmt, level, m.group("name")) if fmt is not None else None

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
        nargs = 1 if name.startswith((b"pr_", b"printk")) else 2
        args = self._split(text, m.end() - 1, nargs)
        if not args:
            return None, None
        fmt = eval_strings(args[-1], self.macros)
        if fmt is None:
            return None, None
        if m.group("pl"):
            prefix = KERN_SOH + _LEVELS[m.group("pl")]
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


def scan_file(path: str, relpath: Optional[str] = None) -> list[CallSite]:
    """Return the call sites found in one C or Rust (.rs) file (and
    ACPICA's message macros: source_acpica.py)."""
    if path.endswith(".rs"):
        return source_rs.scan_file(path, relpath)
    from msgid_db import source_acpica  # (it imports this module)
    return _FileScanner(path, relpath or path).scan() + \
        source_acpica.scan_file(path, relpath)


def scan_tree(root: str, jobs: Optional[int] = None) -> Iterator[CallSite]:
    """Yield the call sites of every *.c and *.rs file below @root, and
    of the local headers the C files include, once each, in the order of
    a sorted walk.
    The files are scanned by @jobs processes (default: one per CPU); the
    result does not depend on how many."""
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith((".c", ".rs")):
                path = os.path.join(dirpath, name)
                files.append((path, os.path.relpath(path, root)))
    seen: set[tuple[str, int, str]] = set()  # header sites
    for relpath, sites in _scan_files(files, jobs or os.cpu_count() or 1):
        for site in sites:
            if site.file != relpath:
                key = (site.file, site.line, site.canonical)
                if key in seen:
                    continue
                seen.add(key)
            yield site


def _scan_one(file: tuple[str, str]) -> tuple[str, list[CallSite]]:
    """scan_file() of (path, relpath); no sites if it cannot be read."""
    path, relpath = file
    try:
        return relpath, scan_file(path, relpath)
    except OSError:
        return relpath, []


def _worker_init() -> None:
    """A scanning process leaves SIGINT to its parent, which stops the
    pool, and dies on SIGTERM and SIGHUP (the parent's handlers, which
    turn them into KeyboardInterrupt, are inherited by fork)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(sig) != signal.SIG_IGN:
            signal.signal(sig, signal.SIG_DFL)


def _scan_files(files: list[tuple[str, str]],
                jobs: int) -> Iterator[tuple[str, list[CallSite]]]:
    """_scan_one() of each file, in order, with @jobs processes."""
    if jobs < 2 or len(files) < 2 * _CHUNK:
        yield from map(_scan_one, files)
        return
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(jobs, initializer=_worker_init)
    try:
        yield from pool.map(_scan_one, files, chunksize=_CHUNK)
    finally:
        # Interrupted, or the caller stopped reading: no file more.
        pool.shutdown(cancel_futures=True)


#: Files a scanning process takes at a time: few enough that the first
#: sites come at once and the processes end together.
_CHUNK = 32
