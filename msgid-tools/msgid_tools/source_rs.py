# SPDX-License-Identifier: GPL-2.0
"""Scan Rust sources for pr_*!() and dev_*!() call sites.

Rust's printing macros (rust/kernel/print.rs, device.rs) identify a
message by its format string literal, and give each call site with one
a printk index entry: the literal as rustc reads it is the caller's
format, so the ID computed here is the kernel's.  The scan takes
pr_emerg!() ... pr_debug!(), pr_cont!(), their _once variants, and
dev_emerg!() ... dev_dbg!() (whose first argument is the device), when
the format argument is a string literal, plain ("...", with rustc's
escapes) or raw (r"...", r#"..."#); a macro that expands to the literal
(concat!()) is passed on as no literal by the kernel too, and skipped
here.  Comments (nested /* */ too), other strings and char literals are
skipped, so a call in a doc comment or in a string is none.  The line is
that of the macro's name (line!() of the index entry); the function is
the innermost "fn" around the call, "?" outside one (a macro_rules!
body; the index names module_path!() instead).
"""

import bisect
import re
from typing import Iterator, Optional

from msgid_db.ids import CallSite

_LEVELS = {b"emerg": "0", b"alert": "1", b"crit": "2", b"err": "3",
           b"warn": "4", b"notice": "5", b"info": "6", b"debug": "7",
           b"dbg": "7", b"cont": "c"}
#: A call of a printing macro: pr_info!(...), kernel::dev_err![...] (not
#: after an identifier's character: see _calls()).
_CALL_RE = re.compile(
    rb"(?:pr_(?P<pl>emerg|alert|crit|err|warn|notice|info|debug|cont)"
    rb"(?:_once)?|dev_(?P<dl>emerg|alert|crit|err|warn|notice|info|dbg))"
    rb"[ \t\n]*![ \t\n]*(?P<open>[(\[{])")
#: What starts a comment, a string (its quote) or a char literal (or is
#: a lifetime's tick).
_START_RE = re.compile(rb"//|/\*|\"|'")
_STRING_RE = re.compile(rb'"(?:\\.|[^"\\])*"?', re.DOTALL)
_CHAR_RE = re.compile(rb"'(?:\\(?:u\{[0-9a-fA-F_]{1,8}\}|x[0-9a-fA-F]{2}|.)"
                      rb"|[^\\'\n])'", re.DOTALL)
_COMMENT_RE = re.compile(rb"/\*|\*/")
_BLANKS_RE = re.compile(rb"[ \t\n]*")
_BRACKET_RE = re.compile(rb"[][(){},]")
_SIGNATURE_RE = re.compile(rb"[][(){};]")
_ARROW_RE = re.compile(rb"[ \t\n]*=>[ \t\n]*")
#: A macro_rules! definition: its name, the bracket its rules open with.
_RULES_RE = re.compile(rb"(?<![A-Za-z0-9_])macro_rules[ \t\n]*![ \t\n]*"
                       rb"([A-Za-z_][A-Za-z0-9_]*)[ \t\n]*[(\[{]")
_FN_RE = re.compile(rb"(?<![A-Za-z0-9_])fn[ \t\n]+([A-Za-z_][A-Za-z0-9_]*)")
_ESCAPE_RE = re.compile(
    rb"\\(?:x(?P<x>[0-7][0-9a-fA-F])|u\{(?P<u>[0-9a-fA-F][0-9a-fA-F_]{0,7})"
    rb"\}|\n[ \t\n\r]*|(?P<c>[nrt\\0'\"]))")
_SIMPLE = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"\\": b"\\", b"0": b"\0",
           b"'": b"'", b'"': b'"'}
_CLOSE = {0x28: 0x29, 0x5b: 0x5d, 0x7b: 0x7d}  # ( ) [ ] { }


def unescape(body: bytes) -> Optional[bytes]:
    """The bytes of a Rust string literal's body, as rustc reads them
    (UTF-8); None if it holds an escape rustc rejects."""
    out, pos = [], 0
    while True:
        i = body.find(b"\\", pos)
        if i < 0:
            out.append(body[pos:])
            return b"".join(out)
        out.append(body[pos:i])
        m = _ESCAPE_RE.match(body, i)
        if not m:
            return None
        if m.group("x"):
            out.append(bytes([int(m.group("x"), 16)]))
        elif m.group("u"):
            code = int(m.group("u").replace(b"_", b""), 16)
            if code > 0x10ffff or 0xd800 <= code <= 0xdfff:
                return None
            out.append(chr(code).encode("utf-8"))
        elif m.group("c"):
            out.append(_SIMPLE[m.group("c")])
        pos = m.end()  # a backslash-newline: it and the blanks go


_BLANK = bytes(0x0a if c == 0x0a else 0x20 for c in range(256))


def _blank(code: bytearray, start: int, end: int) -> None:
    """Blank @code[@start:@end], newlines kept (offsets and lines hold)."""
    code[start:end] = code[start:end].translate(_BLANK)


def _is_word(text: bytes, i: int) -> bool:
    """Whether @text[@i] is a character of an identifier (False before
    the start)."""
    return i >= 0 and (text[i:i + 1].isalnum() or text[i] == 0x5f)


def _prefix(text: bytes, quote: int) -> tuple[int, Optional[bytes], int]:
    """The literal whose opening quote is at @quote: (its start, its
    prefix "", "b", "c", "r", "br", "cr", its number of "#")."""
    i = quote - 1
    while i >= 0 and text[i] == 0x23:  # "#"
        i -= 1
    hashes = quote - 1 - i
    k = i + 1 if hashes else quote  # the start without a prefix
    for pre in (b"br", b"cr", b"r", b"b", b"c"):
        if (hashes == 0 or b"r" in pre) and \
                text.endswith(pre, 0, i + 1) and not _is_word(text, i - len(pre)):
            return i + 1 - len(pre), pre, hashes
    return k, None if hashes or _is_word(text, quote - 1) else b"", 0


def tokens(text: bytes) -> tuple[bytes, dict[int, tuple[int, Optional[bytes]]]]:
    """Return @text with comments and the bodies of strings and char
    literals blanked, and the string literals: start -> (end, the
    literal's bytes, None for a byte or C string or a bad escape)."""
    code = bytearray(text)
    strings: dict[int, tuple[int, Optional[bytes]]] = {}
    pos, n = 0, len(text)
    while True:
        m = _START_RE.search(text, pos)
        if not m:
            break
        start, tok = m.start(), m.group(0)
        if tok == b"//":
            end = text.find(b"\n", start)
            end = n if end < 0 else end
            _blank(code, start, end)
        elif tok == b"/*":
            depth, end = 0, n
            for c in _COMMENT_RE.finditer(text, start):
                depth += 1 if c.group(0) == b"/*" else -1
                if depth == 0:
                    end = c.end()
                    break
            _blank(code, start, end)
        elif tok == b"'":
            c = _CHAR_RE.match(text, start)
            end = c.end() if c else start + 1  # else a lifetime
            if c:
                _blank(code, start + 1, end - 1)
        else:
            first, pre, hashes = _prefix(text, start)
            if pre is not None and b"r" in pre:
                close = b'"' + b"#" * hashes
                stop = text.find(close, start + 1)
                end = n if stop < 0 else stop + len(close)
                _blank(code, start + 1, stop if stop >= 0 else n)
                if stop >= 0:
                    strings[first] = (end, text[start + 1:stop]
                                      if pre == b"r" else None)
            else:
                st = _STRING_RE.match(text, start)
                assert st is not None
                end = st.end()
                closed = end - start >= 2 and text[end - 1] == 0x22
                _blank(code, start + 1, end - 1 if closed else end)
                if closed:
                    strings[first] = (end, unescape(text[start + 1:end - 1])
                                      if pre == b"" else None)
        pos = max(end, start + 1)
    return bytes(code), strings


def _functions(code: bytes, pairs: dict[int, int]
               ) -> list[tuple[int, int, str]]:
    """(body start, body end, name) of the fn items of @code."""
    marks = [m.start() for m in _SIGNATURE_RE.finditer(code)]
    out = []
    for m in _FN_RE.finditer(code):
        # The body: the first "{" after the signature, unless a ";" (a
        # declaration) comes first; (...) and [...] are skipped whole.
        k = bisect.bisect_left(marks, m.end())
        for _ in range(64):
            if k == len(marks):
                break
            i = marks[k]
            if code[i] in b"([" and i in pairs:
                k = bisect.bisect_left(marks, pairs[i] + 1, k)
                continue
            if code[i] == 0x7b and i in pairs:
                out.append((i, pairs[i], m.group(1).decode()))
            break
    return out


class _Enclosing:
    """The innermost fn around positions asked for in increasing order
    (bodies nest: their braces match)."""

    def __init__(self, funcs: list[tuple[int, int, str]]) -> None:
        self.funcs = sorted(funcs)
        self.next = 0
        self.open: list[tuple[int, str]] = []  # (body end, name)

    def at(self, pos: int) -> str:
        while self.next < len(self.funcs) and self.funcs[self.next][0] < pos:
            start, end, name = self.funcs[self.next]
            self.next += 1
            self._close(start)
            self.open.append((end, name))
        self._close(pos)
        return self.open[-1][1] if self.open else "?"

    def _close(self, pos: int) -> None:
        while self.open and self.open[-1][0] < pos:
            self.open.pop()


class _Tree:
    """A Rust file as the scan sees it: its code with comments and the
    bodies of literals blanked, its string literals (tokens()), and its
    brackets: "(", "[" or "{" -> the position of its closing bracket, and
    -> the commas directly inside it (in one pass: linear in the file)."""

    def __init__(self, text: bytes) -> None:
        self.code, self.strings = tokens(text)
        self.pairs: dict[int, int] = {}
        self.commas: dict[int, list[int]] = {}
        stack: list[int] = []
        for m in _BRACKET_RE.finditer(self.code):
            c, pos = m.group(0), m.start()
            if c == b",":
                if stack:
                    self.commas.setdefault(stack[-1], []).append(pos)
            elif c in b"([{":
                stack.append(pos)
            elif stack:
                self.pairs[stack.pop()] = pos

    def arg(self, open_: int, k: int) -> Optional[int]:
        """Where argument @k (from 0) of the call whose "(" is at @open_
        starts (its first non-blank), None if it has fewer."""
        if k:
            commas = self.commas.get(open_, [])
            if len(commas) < k:
                return None
            open_ = commas[k - 1]
        return _BLANKS_RE.match(self.code, open_ + 1).end()

    def literal(self, open_: int, k: int) -> Optional[bytes]:
        """The literal that is argument @k of the call whose delimiter
        opens at @open_, by itself; None if it is something else."""
        pos = self.arg(open_, k)
        lit = self.strings.get(pos) if pos is not None else None
        if lit is None or lit[1] is None:
            return None  # not a string literal: no literal in the index
        end, literal = lit
        after = _BLANKS_RE.match(self.code, end).end()
        if after == len(self.code) or self.code[after] not in (
                0x2c, _CLOSE[self.code[open_]]):
            return None  # the literal is part of an expression
        return literal.split(b"\0", 1)[0]  # the kernel reads a C string


def _calls(code: bytes, start: int, end: int
           ) -> Iterator["re.Match[bytes]"]:
    """The calls of printing macros in @code[@start:@end]."""
    for m in _CALL_RE.finditer(code, start, end):
        if not _is_word(code, m.start() - 1):
            yield m


def _wrappers(tree: _Tree) -> dict[bytes, tuple["re.Match[bytes]", int]]:
    """The file's macro_rules! of one rule that pass their arguments from
    the N-th on to a printing macro as its format and its arguments
    ("($cond:expr, $($arg:tt)+) => { ... pr_err!($($arg)*) ... }"): name ->
    (that call, N)."""
    code, pairs = tree.code, tree.pairs
    out = {}
    for m in _RULES_RE.finditer(code):
        name, close = m.group(1), pairs.get(m.end() - 1, -1)
        p = _BLANKS_RE.match(code, m.end()).end()
        if close < p or code[p] not in b"([{" or p not in pairs or \
                _CALL_RE.match(name + b"!("):
            continue
        arrow = _ARROW_RE.match(code, pairs[p] + 1)
        t = arrow.end() if arrow else -1
        if t not in pairs or code[pairs[t] + 1:close].strip(b" \t\n;"):
            continue  # not one rule
        rep = code.find(b"$(", p, pairs[p])
        call = next(_calls(code, t, pairs[t]), None)
        if rep < 0 or not call:
            continue
        pos = tree.arg(call.end() - 1, 1 if call.group("dl") else 0)
        if pos is not None and code.startswith(b"$(", pos):
            out[name] = (call, code.count(b",", p, rep))
    return out


def scan_text(text: bytes, relpath: str) -> list[CallSite]:
    """The call sites of the Rust source @text, of the file @relpath:
    those of the printing macros and of the file's own wrappers of one
    (_wrappers()), at the wrapper's call as line!() has it."""
    tree = _Tree(text.replace(b"\r\n", b"\n"))  # as rustc reads a file
    code = tree.code
    calls = [(m, m, 1 if m.group("dl") else 0)
             for m in _calls(code, 0, len(code))]
    if not calls:
        return []
    wrappers = _wrappers(tree)
    if wrappers:
        names = b"|".join(re.escape(n) for n in sorted(wrappers))
        calls += [(m,) + wrappers[m.group(1)] for m in re.finditer(
            rb"\b(" + names + rb")[ \t\n]*![ \t\n]*[(\[{]", code)]
        calls.sort(key=lambda c: c[0].start())
    funcs = _Enclosing(_functions(code, tree.pairs))
    newlines = [m.start() for m in re.finditer(b"\n", code)]
    sites = []
    for m, inner, skip in calls:
        literal = tree.literal(m.end() - 1, skip)
        if literal is None:
            continue
        level = inner.group("pl") or inner.group("dl")
        if inner.group("dl"):
            subsys = "%s %s: "
        else:
            subsys = "" if level == b"cont" else "%s: "
        sites.append(CallSite.from_format(
            literal, file=relpath,
            line=bisect.bisect_left(newlines, m.start()) + 1,
            function=funcs.at(m.start()), module="",
            origin="source", level=_LEVELS[level], subsys=subsys))
    return sites


def scan_file(path: str, relpath: Optional[str] = None) -> list[CallSite]:
    """Return the call sites found in one Rust file."""
    with open(path, "rb") as f:
        return scan_text(f.read(), relpath or path)
