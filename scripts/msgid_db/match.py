# SPDX-License-Identifier: GPL-2.0
"""Identify a log line that carries no ID by matching its text to formats.

Each canonical format (ids.canonical) is cut into tokens: literal text
and conversions.  A conversion matches what vsnprintf() can print for it
(%d: an optional sign and digits, %x: hex digits, %s, %p<ext> and runs of
conversions: any text).  The match walks the tokens keeping the set of
text positions reachable so far, so it costs O(length x tokens) whatever
the format and the line: no regular expression that could backtrack.

Candidates come from an index of literal words: each format is filed
under its rarest word that no conversion touches, and a line only tries
the formats filed under one of its words.  A format without such a word
("%s", "%d: %s") never identifies a line.

Wrappers: a format ending in %pV ("%sEXT4-fs (%s): %pV") is not an
answer (the kernel prints the ID of the format inside the %pV): what
follows its prefix is identified again.  dev_printk()'s "%s %s: " and
netdev_printk()'s prefixes are built in.  A format not ending in a
newline may start a record that KERN_CONT fragments continued: it matches
as a prefix of the line, below every whole-line match.

Specificity decides: the most literal bytes win; two different IDs with
the same specificity make the line ambiguous (never a guess).
"""

import re
from dataclasses import dataclass, field
from typing import Iterable, Optional

#: Lines longer than this are not matched: a printk record holds at
#: most 1024 bytes of text.
MAX_TEXT = 2048
#: How deep wrappers nest (dev_printk inside a subsystem's %pV ...).
MAX_DEPTH = 3

_CONV_RE = re.compile(
    rb"%(?P<flags>[-+ #0]*)(?P<width>\*|\d+)?(?:\.(?P<prec>\*|\d+))?"
    rb"(?P<len>hh|h|ll|l|L|z|Z|t|j|q)?(?P<type>[a-zA-Z%])")
_ALNUM = re.compile(rb"[A-Za-z0-9]*")
_WORD_RE = re.compile(rb"[A-Za-z_][A-Za-z0-9_]{2,}")

# Token kinds.
LIT, NUM, ANY = 0, 1, 2
_NUM_BODY = {
    b"d": rb"[-+ ]?[0-9]+", b"i": rb"[-+ ]?[0-9]+", b"u": rb"[0-9]+",
    b"o": rb"0?[0-7]+", b"x": rb"(?:0x)?[0-9a-f]+",
    b"X": rb"(?:0X)?[0-9A-F]+",
}
_num_cache: dict[tuple[bytes, bool, bool], "re.Pattern[bytes]"] = {}


def _num_re(kind: bytes, flags: bytes, width: Optional[bytes]
            ) -> "re.Pattern[bytes]":
    """What vsnprintf() prints for a numeric conversion: a field width
    pads with spaces on the left (on the right with "-")."""
    left = bool(width) and b"-" not in flags and b"0" not in flags
    right = bool(width) and b"-" in flags
    key = (kind, left, right)
    pat = _num_cache.get(key)
    if pat is None:
        pat = re.compile((rb" *" if left else b"") + _NUM_BODY[kind]
                         + (rb" *" if right else b""))
        _num_cache[key] = pat
    return pat


#: Built-in wrapper prefixes (what precedes the caller's %pV), as
#: patterns that match in at most one way: dev_printk(), netdev_printk().
BUILTIN_WRAPPERS: tuple[bytes, ...] = (
    rb"[^ ]+ [^ ]+: ",
    rb"[^ ]+ [^ ]+ [^ ]+(?: \([a-z]+\))?: ",
    rb"\(NULL net_device\): ",
    rb"\(NULL device \*\): ",
)

Token = tuple[int, object]


def tokenize(fmt: bytes) -> tuple[list[Token], bool]:
    """Cut @fmt into tokens; returns (tokens, ends with a %pV).

    Runs of conversions with no literal between them become one ANY.
    """
    tokens: list[Token] = []
    pos, n = 0, len(fmt)
    lit = bytearray()
    last_pv = False
    while pos < n:
        i = fmt.find(b"%", pos)
        if i < 0:
            lit += fmt[pos:]
            break
        lit += fmt[pos:i]
        m = _CONV_RE.match(fmt, i)
        if not m:
            lit += b"%"
            pos = i + 1
            continue
        kind = m.group("type")
        end = m.end()
        if kind == b"%":
            lit += b"%"
            pos = end
            continue
        if lit:
            tokens.append((LIT, bytes(lit)))
            lit = bytearray()
        last_pv = False
        if kind == b"p":
            ext = _ALNUM.match(fmt, end)
            last_pv = ext.group(0)[:1] == b"V"
            end = ext.end()
        if tokens and tokens[-1][0] != LIT:
            tokens[-1] = (ANY, None)  # two conversions in a row
        elif kind in _NUM_BODY and m.group("prec") != b"*":
            tokens.append((NUM, _num_re(kind, m.group("flags"),
                                        m.group("width"))))
        else:
            tokens.append((ANY, None))
        pos = end
    if lit:
        tokens.append((LIT, bytes(lit)))
        last_pv = False
    return tokens, last_pv


def words(tokens: list[Token]) -> list[bytes]:
    """Literal words of @tokens that no conversion output can extend."""
    out = []
    for k, (kind, value) in enumerate(tokens):
        if kind != LIT:
            continue
        assert isinstance(value, bytes)
        for m in _WORD_RE.finditer(value):
            if m.start() == 0 and k > 0:
                continue  # "%sfoo" prints "barfoo"
            if m.end() == len(value) and k + 1 < len(tokens):
                continue  # "foo%s" prints "foobar"
            if m.start() > 0 and _is_word(value[m.start() - 1]):
                continue  # "9abc": the text's word is "9abc"
            out.append(m.group(0))
    return out


def _is_word(c: int) -> bool:
    return c == 0x5f or 0x30 <= c <= 0x39 or 0x41 <= c <= 0x5a \
        or 0x61 <= c <= 0x7a


def positions(tokens: list[Token], text: bytes, start: int = 0
              ) -> set[int]:
    """Return every end position of a match of @tokens at @start."""
    pos = {start}
    anyfrom: Optional[int] = None  # "every position >= anyfrom"
    n = len(text)
    for k, (kind, value) in enumerate(tokens):
        if kind == ANY:
            anyfrom = min(pos) if pos else None
            if anyfrom is None:
                return set()
            pos = set()
            continue
        if kind == LIT:
            assert isinstance(value, bytes)
            if anyfrom is not None:
                pos = set()
                nxt = tokens[k + 1][0] if k + 1 < len(tokens) else None
                i = text.find(value, anyfrom)
                while i >= 0:
                    pos.add(i + len(value))
                    if nxt == ANY:
                        break  # the leftmost occurrence covers the others
                    i = text.find(value, i + 1)
                anyfrom = None
            else:
                pos = {p + len(value) for p in pos
                       if text.startswith(value, p)}
        else:
            if anyfrom is not None:  # cannot happen: runs are merged
                return set()
            new = set()
            for p in pos:
                m = value.match(text, p)  # type: ignore[union-attr]
                if m:
                    new.add(m.end())
            pos = new
        if not pos:
            return set()
    if anyfrom is not None:
        return set(range(anyfrom, n + 1))
    return pos


@dataclass
class Format:
    """One distinct canonical format of the database."""

    id: str
    tokens: list[Token]
    literal: int          # literal bytes: the specificity
    can_start_cont: bool  # no trailing newline: KERN_CONT may follow
    wrapper: bool         # ends in %pV: identifies through its argument


@dataclass
class Result:
    """What the matcher says about one message text."""

    id: Optional[str] = None
    how: Optional[str] = None          # "match", "ambiguous" or None
    candidates: list[str] = field(default_factory=list)
    matched: set[str] = field(default_factory=set)  # every ID that fits
    cont: bool = False                 # matched as a KERN_CONT prefix
    literal: int = 0                   # specificity of the answer


class Matcher:
    """The formats of one database, indexed by literal words."""

    def __init__(self, formats: Iterable[tuple[str, bytes, bool]]) -> None:
        """@formats: (id, canonical format, may be continued)."""
        self.formats: list[Format] = []
        seen: dict[tuple[str, bytes], int] = {}
        for msgid, canon, cont in formats:
            key = (msgid, canon)
            if key in seen:
                if cont:
                    self.formats[seen[key]].can_start_cont = True
                continue
            tokens, wrapper = tokenize(canon)
            if wrapper:
                tokens = tokens[:-1]
            literal = sum(len(v) for k, v in tokens if k == LIT)  # type: ignore[arg-type]
            seen[key] = len(self.formats)
            self.formats.append(Format(msgid, tokens, literal, cont, wrapper))
        df: dict[bytes, int] = {}
        fwords = []
        for f in self.formats:
            w = set(words(f.tokens))
            fwords.append(w)
            for x in w:
                df[x] = df.get(x, 0) + 1
        self.index: dict[bytes, list[int]] = {}
        for i, w in enumerate(fwords):
            if w:
                key = min(w, key=lambda x: (df[x], x))
                self.index.setdefault(key, []).append(i)
        self.builtin = [re.compile(w) for w in BUILTIN_WRAPPERS]

    def candidates(self, text: bytes) -> list[Format]:
        """Formats filed under one of the words of @text."""
        out = []
        index = self.index
        for w in set(_WORD_RE.findall(text)):
            bucket = index.get(w)
            if bucket:
                out.extend(self.formats[i] for i in bucket)
        return out

    def identify(self, text: bytes) -> Result:
        """Identify the message text @text (no header, no ID prefix)."""
        text = text.rstrip(b"\r\n")
        if len(text) > MAX_TEXT:
            return Result()
        return self._identify(text, 0, 0)

    def _identify(self, text: bytes, start: int, depth: int) -> Result:
        whole: list[Format] = []
        prefix: list[Format] = []
        inner: list[Result] = []
        n = len(text)
        offsets = set()
        cands = self.candidates(text[start:] if start else text)
        for f in cands:
            ends = positions(f.tokens, text, start)
            if not ends:
                continue
            if f.wrapper:
                offsets.update(e for e in ends if e < n)
            elif n in ends:
                whole.append(f)
            elif f.can_start_cont:
                prefix.append(f)
        if depth < MAX_DEPTH:
            for w in self.builtin:
                m = w.match(text, start)
                if m:
                    offsets.add(m.end())
            for o in sorted(offsets):
                if o > start:
                    r = self._identify(text, o, depth + 1)
                    if r.how:
                        inner.append(r)
        result = Result()
        for r in inner:
            result.matched |= r.matched
        result.matched.update(f.id for f in whole)
        result.matched.update(f.id for f in prefix)
        if whole:
            return self._decide(whole, result, inner)
        if inner:
            return self._decide([], result, inner)
        if prefix:
            result.cont = True
            return self._decide(prefix, result, [])
        return result

    @staticmethod
    def _decide(fmts: list[Format], result: Result,
                inner: list[Result]) -> Result:
        # (specificity, id) of every fitting answer.
        scored = [(f.literal, f.id) for f in fmts]
        for r in inner:
            # An answer through a wrapper: the inner text is shorter, so
            # its literal count is comparable only among inner answers;
            # it ranks after whole-line matches of the same specificity.
            if r.how == "match" and r.id is not None:
                scored.append((r.literal, r.id))
            elif r.how == "ambiguous":
                scored.extend((r.literal, c) for c in r.candidates)
        if not scored:
            return result
        best = max(s for s, _ in scored)
        top = sorted({i for s, i in scored if s == best})
        result.literal = best
        if len(top) == 1:
            result.id, result.how = top[0], "match"
        else:
            result.how, result.candidates = "ambiguous", top
        return result


def load(db: "object") -> Matcher:
    """Build the matcher of an open database.Database."""
    return Matcher(db.formats())  # type: ignore[attr-defined]
