# SPDX-License-Identifier: GPL-2.0
"""Identify a log line that carries no ID by matching its text to formats.

Each canonical format (ids.canonical) is cut into tokens: literal text
and conversions.  A conversion matches what vsnprintf() can print for it
(%d: an optional sign and digits, %x: hex digits, %pe, %pM, %p and the
other %p extensions that print no whitespace: a run of bytes up to a
space, %s, the other %p extensions and runs of conversions: any text).
The match walks the tokens keeping the set of
text positions reachable so far, so it costs O(length x tokens) whatever
the format and the line: no regular expression that could backtrack.
Before a walk, checks at C speed reject most candidates: the format's
longest literal piece must be in the line, and a format KERN_CONT
cannot continue must end as the line does.

Candidates come from an index of literal words (plan(); build stores it
in the database, DbMatcher reads it a bucket at a time): each format is
filed under its rarest word that no conversion touches (failing that, a
word glued to a conversion), and a line only tries the formats filed
under one of its words whose other words it holds too.  A format without
a literal word ("%s", "%d: %s") never identifies a line.

Wrappers: a format ending in %pV ("%sEXT4-fs (%s): %pV") is not an
answer (the kernel prints the ID of the format inside the %pV): what
follows its prefix is identified again.  dev_printk()'s "%s %s: " and
netdev_printk()'s prefixes are built in.  Each format is tried only where
its text can start (Format.starts): a dev_printk() format after a device
prefix, a printk() one at the start or after a %pV wrapper's prefix.  A
format with a newline inside matches the first line of its record.  A format not ending in a
newline may start a record that KERN_CONT fragments continued: it matches
as a prefix of the line, below any whole-line match with as much literal
text.

Rust's pr_*!() and dev_*!() literals (a call site in a .rs file) are
cut by Rust's rules (tokenize_rust()): "{}", "{:?}", "{name}", "{0}",
"{:>8}" take any text, "{:x}", "{:#x}", "{:o}", "{:b}" (width and fill
allowed) their digits, "{:p}" a run of bytes up to a space; "{{" and
"}}" are literal braces, "%" is literal.  Their text starts after the
module name ("%s: ") or the device prefix, as the index says.

Specificity decides: the most literal bytes win; two different IDs with
the same specificity make the line ambiguous (never a guess).
"""

import operator
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, Union

from msgid_tools.core import ids
from msgid_tools import database

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

# Token kinds: literal text, a number (its pattern), any text, a run of
# bytes with no whitespace (a %p extension that prints none, see WORD_P).
LIT, NUM, ANY, WORD = 0, 1, 2, 3
#: The %p extensions whose output holds no whitespace (printk-formats.rst):
#: pointers (plain, x, K), error names (e), MAC (M, m), IP (I, i),
#: UUID (U), physical addresses (a), block devices (g), bitmaps (b) and
#: page/GFP/VMA flags (G). The others (symbols, resources, hex buffers,
#: names of files and clocks, times, escaped strings) may hold spaces.
WORD_P = re.compile(
    rb"(?:x|K|e|[Mm][RF]?|[Ii][46S][A-Za-z0-9]*|U[A-Za-z]*|a[dp]?|g|bl?"
    rb"|G[pgv])?")
_NO_SPACE = re.compile(rb"[^ \t\n]+")
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
        last_pv = word = False
        if kind == b"p":
            ext = _ALNUM.match(fmt, end)
            last_pv = ext.group(0)[:1] == b"V"
            word = WORD_P.fullmatch(ext.group(0)) is not None
            end = ext.end()
        if tokens and tokens[-1][0] != LIT:
            tokens[-1] = (ANY, None)  # two conversions in a row
        elif kind in _NUM_BODY and m.group("prec") != b"*":
            tokens.append((NUM, _num_re(kind, m.group("flags"),
                                        m.group("width"))))
        elif word and not m.group("width"):
            tokens.append((WORD, None))
        else:
            tokens.append((ANY, None))
        pos = end
    if lit:
        tokens.append((LIT, bytes(lit)))
        last_pv = False
    return tokens, last_pv


#: A Rust placeholder ("{}", "{0}", "{name:>8}", "{:#x}"), or an escaped
#: brace ("{{", "}}").
_RUST_ARG_RE = re.compile(rb"\{\{|\}\}|\{([^{}:]*)(?::([^{}]*))?\}")
#: The format spec of a Rust placeholder (core::fmt): fill and align,
#: sign, "#", "0", width, precision, type.
_RUST_SPEC_RE = re.compile(
    rb"(?:(?P<fill>.)?(?P<align>[<^>]))?(?P<sign>[-+])?(?P<alt>#)?(?P<zero>0)?"
    rb"(?P<width>[0-9]+\$?|[A-Za-z_][A-Za-z0-9_]*\$)?"
    rb"(?:\.(?P<prec>[0-9]+\$?|[A-Za-z_][A-Za-z0-9_]*\$|\*))?"
    rb"(?P<type>[A-Za-z]?\??)", re.DOTALL)
#: The digits of the integer types, and the prefix "#" adds.
_RUST_DIGITS = {b"x": (rb"[0-9a-f]+", b"0x"), b"X": (rb"[0-9A-F]+", b"0x"),
                b"o": (rb"[0-7]+", b"0o"), b"b": (rb"[01]+", b"0b")}


def _rust_token(spec: bytes) -> Token:
    """The token of a Rust placeholder with the format spec @spec."""
    m = _RUST_SPEC_RE.fullmatch(spec)
    if not m or m.group("sign") or m.group("prec"):
        return (ANY, None)
    kind = m.group("type")
    if kind == b"p" and not m.group("width"):
        return (WORD, None)
    if kind not in _RUST_DIGITS:
        return (ANY, None)  # Display, Debug: any type, any text
    digits, prefix = _RUST_DIGITS[kind]
    body = (re.escape(prefix) if m.group("alt") else b"") + digits
    if m.group("width") and not m.group("zero"):
        pad = re.escape(m.group("fill") or b" ") + b"*"
        align = m.group("align") or b">"  # numbers align right
        body = (pad if align in b">^" else b"") + body + \
            (pad if align in b"<^" else b"")
    return (NUM, re.compile(body))


def tokenize_rust(fmt: bytes) -> list[Token]:
    """Cut the Rust format string literal @fmt into tokens (core::fmt's
    syntax); runs of placeholders become one ANY, as in tokenize()."""
    tokens: list[Token] = []
    lit = bytearray()
    pos = 0
    for m in _RUST_ARG_RE.finditer(fmt):
        lit += fmt[pos:m.start()]
        pos = m.end()
        if m.group(0) in (b"{{", b"}}"):
            lit += m.group(0)[:1]
            continue
        if lit:
            tokens.append((LIT, bytes(lit)))
            lit = bytearray()
        if tokens and tokens[-1][0] != LIT:
            tokens[-1] = (ANY, None)  # two placeholders in a row
        else:
            tokens.append(_rust_token(m.group(2) or b""))
    lit += fmt[pos:]
    if lit:
        tokens.append((LIT, bytes(lit)))
    return tokens


def positions(tokens: list[Token], text: bytes, start: int = 0
              ) -> Union[set[int], range]:
    """Return every end position of a match of @tokens at @start (a
    range when the format ends in a conversion that takes any text)."""
    # The positions reachable so far: @one alone while @pos is None (most
    # walks), else @pos; after an ANY, every position >= @anyfrom.
    one = start
    pos: Optional[set[int]] = None
    anyfrom = -1
    last = len(tokens) - 1
    for k, (kind, value) in enumerate(tokens):
        if kind == LIT:
            assert isinstance(value, bytes)
            if anyfrom >= 0:
                i = text.find(value, anyfrom)
                anyfrom = -1
                if i < 0:
                    return set()
                j = -1
                if k == last or tokens[k + 1][0] != ANY:
                    j = text.find(value, i + 1)
                # (before an ANY the leftmost occurrence covers the others)
                if j < 0:
                    one, pos = i + len(value), None
                    continue
                pos = {i + len(value)}
                while j >= 0:
                    pos.add(j + len(value))
                    j = text.find(value, j + 1)
            elif pos is None:
                if not text.startswith(value, one):
                    return set()
                one += len(value)
            else:
                pos = {p + len(value) for p in pos
                       if text.startswith(value, p)}
                if not pos:
                    return set()
        elif kind == ANY:
            if anyfrom >= 0:  # cannot happen: runs are merged
                return set()
            anyfrom = one if pos is None else min(pos)
            pos = None
        elif anyfrom >= 0:  # cannot happen: runs are merged
            return set()
        elif kind == WORD:
            new = set()
            for p in ((one,) if pos is None else pos):
                # one byte or more, up to the next whitespace
                m = _NO_SPACE.match(text, p)
                if m:
                    new.update(range(p + 1, m.end() + 1))
            if not new:
                return set()
            pos = new
        elif pos is None:
            m = value.match(text, one)  # type: ignore[union-attr]
            if m is None:
                return set()
            one = m.end()
        else:
            new = set()
            for p in pos:
                m = value.match(text, p)  # type: ignore[union-attr]
                if m:
                    new.add(m.end())
            if not new:
                return set()
            pos = new
    if anyfrom >= 0:
        return range(anyfrom, len(text) + 1)
    return {one} if pos is None else pos



#: What the word index sees of a format: "%%" is a literal "%", every
#: other conversion (with a %p extension) becomes "\0".
_CONV_SUB = re.compile(
    rb"%[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(?:hh|h|ll|l|L|z|Z|t|j|q)?"
    rb"(?:p[A-Za-z0-9]*|[a-zA-Z])")
#: A word of a format's literal text that no conversion can extend and
#: that is a whole word of any text the format prints.
_FMT_WORD_RE = re.compile(
    rb"(?<![A-Za-z0-9_\0])[A-Za-z_][A-Za-z0-9_]{2,}(?![A-Za-z0-9_\0])")
#: The words of a message text, and of a format's literal text glued to
#: a conversion ("%sEXT4-fs": EXT4): (?<![A-Za-z0-9_])[A-Za-z_]
#: [A-Za-z0-9_]{2,}, written with \b (in a bytes pattern \w is
#: [A-Za-z0-9_], and \b before a word character is that lookbehind, which
#: costs re a third more).
TEXT_WORD_RE = re.compile(rb"\b[A-Za-z_]\w{2,}")
#: Every byte but [A-Za-z0-9_] made a space (text_words()).
_NOT_WORD = bytes(c if chr(c).isascii() and (chr(c).isalnum() or c == 0x5f)
                  else 0x20 for c in range(256))


def text_words(text: bytes) -> set[bytes]:
    """The words of a message text: set(TEXT_WORD_RE.findall(@text)),
    the runs of [A-Za-z0-9_] of three bytes or more that do not start
    with a digit, found at a third less cost."""
    return {w for w in text.translate(_NOT_WORD).split()
            if len(w) > 2 and w[0] > 0x39}  # (a letter or "_")


def _rust_flat(m: "re.Match[bytes]") -> bytes:
    """A Rust placeholder as literal_words() sees it: "\0"; a brace."""
    return m.group(0)[:1] if m.group(0) in (b"{{", b"}}") else b"\0"


def literal_words(canon: bytes, rust: bool = False) -> set[bytes]:
    """Literal words of the canonical format @canon (a Rust literal if
    @rust) that every text it prints holds as whole words ("%sfoo" prints
    "barfoo": not "foo").

    A format without one gets the words glued to a conversion instead,
    which hold when the conversion prints no letter or digit next to
    them: wrappers start with the level's "%s" ("%sEXT4-fs (%s): %pV"),
    which prints nothing.
    """
    canon = canon.split(b"\n", 1)[0]  # a log line holds the first line
    if rust:
        flat = _RUST_ARG_RE.sub(_rust_flat, canon)
    else:
        flat = _CONV_SUB.sub(b"\0", canon.replace(b"%%", b"\x02"))
    return set(_FMT_WORD_RE.findall(flat) or TEXT_WORD_RE.findall(flat))


#: One row of the word index: (key word, id, canonical format, may be
#: continued, the format's other words, where its text starts: see Format,
#: a Rust literal).
IndexRow = tuple[bytes, str, bytes, bool, tuple[bytes, ...], str, bool]
#: A format as plan() and Matcher take it: (id, canonical, may be
#: continued[, the prefix its wrapper prints before it: "" none, None not
#: known[, a Rust literal: False if not given]]).
FormatIn = Union[tuple[str, bytes, bool], tuple[str, bytes, bool,
                                                 Optional[str]],
                 tuple[str, bytes, bool, Optional[str], bool]]


#: The subsystem prefixes of the index that are a device prefix, the ones
#: BUILTIN_WRAPPERS match: dev_printk()'s and netdev_printk()'s.
DEVICE_PREFIXES = ("%s %s: ", "%s %s %s%s: ")
#: The prefix of Rust's pr_*!() (the module name): where the text of a
#: Rust literal whose prefix is not known may start too, beside a device
#: prefix and the start of the line.
RUST_PREFIX = "%s: "
_RUST_ANY = "r"  # the key of those starts in _identify_among()


def where(subsys: Optional[str]) -> str:
    """Where a format's text starts in a line, from its wrapper prefix:
    "p", "d" (see Format.starts), "" not known, or "=" and the prefix
    itself (DRM's "[drm:%ps] ", dev_err_probe()'s "%s %s: error %pe: ")."""
    if subsys is None:
        return ""
    if not subsys:
        return "p"
    return "d" if subsys in DEVICE_PREFIXES else "=" + subsys


def plan(formats: Iterable[FormatIn]) -> list[IndexRow]:
    """File each distinct format of @formats (id, canonical, may be
    continued) under its rarest literal word, its other words rarest
    first; formats without one are left out: they never identify a line
    by themselves."""
    merged: dict[tuple[str, bytes, bool], bool] = {}
    starts: dict[tuple[str, bytes, bool], str] = {}
    for f in formats:
        msgid, canon, cont = f[0], f[1], f[2]
        w = where(f[3] if len(f) > 3 else None)  # type: ignore[misc]
        key = (msgid, canon, bool(f[4]) if len(f) > 4 else False)  # type: ignore[misc]
        merged[key] = merged.get(key, False) or cont
        if starts.get(key, w) != w:
            w = ""  # printed with and without a prefix
        starts[key] = w
    fwords = [(k, literal_words(k[1], k[2])) for k in merged]
    df: dict[bytes, int] = {}
    for _, ws in fwords:
        for w in ws:
            df[w] = df.get(w, 0) + 1
    rows: list[IndexRow] = []
    for key, ws in fwords:
        if not ws:
            continue
        order = sorted(ws, key=lambda x: (df[x], x))
        rows.append((order[0], key[0], key[1], merged[key],
                     tuple(order[1:]), starts[key], key[2]))
    return rows


#: Format.rank until the format is tokenized: more than any literal.
FRESH = 1 << 30


class Format:
    """One distinct canonical format; tokenized when first tried."""

    __slots__ = ("id", "canon", "can_start_cont", "_tokens", "wrapper",
                 "literal", "head", "tail", "starts", "rust", "need", "end",
                 "rank", "result")

    def __init__(self, msgid: str, canon: bytes, cont: bool,
                 starts: str = "", rust: bool = False) -> None:
        self.id = msgid
        self.canon = canon
        self.rust = rust  # a Rust literal: tokenize_rust()
        # Where its text starts in a line: "p" at the start or after the
        # prefix of a format ending in %pV (printk(), pr_*()), "d" after a
        # device prefix (dev_printk(), netdev_printk()), "=PREFIX" after
        # that subsystem prefix, itself where a "p" text starts (DRM's
        # "[drm:%ps] "), "" either (not known: a database built before
        # this was recorded).
        self.starts = starts
        self.can_start_cont = cont  # no trailing newline: KERN_CONT may follow
        self._tokens: Optional[list[Token]] = None
        self.wrapper = False  # ends in %pV: identifies through its argument
        self.literal = 0      # literal bytes: the specificity
        self.head = b""       # literal text every match starts with
        self.tail = b""       # ... and every whole-line match ends with
        # Quick rejections (b"": none, as until tokenized): a piece of
        # literal text every match holds (the longest), the text a line
        # must end with (the tail of a format KERN_CONT cannot continue).
        self.need = b""
        self.end = b""
        # The literal, -1 for a wrapper (sorts those last), FRESH until
        # tokenized (sorts those first).
        self.rank = FRESH
        # The Result of a text this format alone fits (made once)
        self.result: Optional[Result] = None

    @property
    def tokens(self) -> list[Token]:
        if self._tokens is None:
            # A record of several lines: a log line is its first line.
            first, newline, _ = self.canon.partition(b"\n")
            if newline:
                self.can_start_cont = False
            if self.rust:
                tokens, wrapper = tokenize_rust(first), False
            else:
                tokens, wrapper = tokenize(first)
            if wrapper:
                tokens = tokens[:-1]
            self.wrapper = wrapper
            self.literal = sum(len(v) for k, v in tokens  # type: ignore
                               if k == LIT)
            if tokens and tokens[0][0] == LIT:
                self.head = tokens[0][1]  # type: ignore[assignment]
            if tokens and tokens[-1][0] == LIT:
                self.tail = tokens[-1][1]  # type: ignore[assignment]
            self.need = max((v for k, v in tokens if k == LIT), key=len,
                            default=b"")  # type: ignore[arg-type]
            if not wrapper and not self.can_start_cont:
                self.end = self.tail
            self.rank = -1 if wrapper else self.literal
            self._tokens = tokens
        return self._tokens

    def is_wrapper(self) -> bool:
        """Whether the format ends in %pV (tokenizes it first)."""
        return self.tokens is not None and self.wrapper


@dataclass
class Result:
    """What the matcher says about one message text."""

    id: Optional[str] = None
    how: Optional[str] = None          # "match", "ambiguous" or None
    candidates: list[str] = field(default_factory=list)
    # IDs found to fit: every one if no format matched the whole line,
    # else those at least as specific as the answer.
    matched: set[str] = field(default_factory=set)
    cont: bool = False                 # matched as a KERN_CONT prefix
    literal: int = 0                   # specificity of the answer
    # the texts (canonical forms) of the answer's formats that fit: an ID
    # printed by many call sites names first those that print them
    canons: list[bytes] = field(default_factory=list)
    # ambiguous: why no candidate could be chosen (candidates best first)
    why: str = ""
    # matched with runs of blanks taken as one (a pasted log: tabs made
    # spaces, runs of spaces made one)
    loose: bool = False


#: The Result of a text no format fits. A Result is shared (the cache
#: gives the same one for every line of a text, a format the same one for
#: every text only it fits): read it, never change it.
NO_RESULT = Result()


#: A format with words to check: (the words, the format).
Entry = tuple[frozenset, Format]
#: Formats filed under one key: (those whose words are all known to be in
#: a text that reaches them, those with words still to check, the rarest
#: of those words of each: a text holding none of them needs no check).
Part = tuple[list[Format], list[Entry], frozenset]


class Parts(dict):
    """A large bucket (over BIG formats): a Part per second rarest word
    (b"" for the formats with one word), with those words but b"" as a
    frozenset and the formats of one word, as candidates() wants them."""

    __slots__ = ("seconds", "one")

    def __init__(self, parts: dict[bytes, Part]) -> None:
        super().__init__(parts)
        self.seconds = frozenset(parts) - {b""}
        self.one: list[Format] = parts[b""][0] if b"" in parts else []


#: The words to check of a Part that has none.
_NO_WORDS: frozenset = frozenset()
#: A bucket of the word index: one Part; a large one Parts.
Bucket = Union[Part, Parts]
BIG = 16
#: Words whose bucket (or its absence) is remembered.
MAX_KNOWN = 1 << 20
_UNSEEN: object = object()
#: A row of a bucket: (id, canonical, may be continued, the other words
#: rarest first, where it starts, a Rust literal).
BucketRow = tuple[str, bytes, bool, list[bytes], str, bool]
#: Results kept per distinct text (a log repeats many of its lines).
CACHE_MAX = 1 << 16
#: Where a wrapper's prefix could end in more places than this (a
#: conversion just before its %pV), it is not followed.
MAX_STARTS = 8


class Matcher:
    """The formats of one database, filed under literal words.

    @formats: see FormatIn; subclasses fetch the buckets of the word index
    on demand instead (DbMatcher).
    """

    def __init__(self, formats: Iterable[FormatIn] = ()) -> None:
        self.buckets: dict[bytes, Bucket] = {}
        self.by_id: dict[str, list[Format]] = {}
        rows: dict[bytes, list[BucketRow]] = {}
        for key, msgid, canon, cont, rest, starts, rust in plan(formats):
            rows.setdefault(key, []).append((msgid, canon, cont, list(rest),
                                             starts, rust))
        for key, bucket in rows.items():
            b = self.buckets[key] = self.make_bucket(bucket)
            for sure, check, _ in (b.values() if isinstance(b, dict)
                                   else [b]):
                for f in sure + [f for _, f in check]:
                    self.by_id.setdefault(f.id, []).append(f)
        self.builtin = [re.compile(w) for w in BUILTIN_WRAPPERS]
        #: word -> its bucket (None: none), for the words met so far
        self.known: dict[bytes, Optional[Bucket]] = {}
        self._cache: dict[bytes, Result] = {}
        self.cache_max = CACHE_MAX  # 0: match every text anew
        #: subsystem prefix -> its tokens (Format.starts "=PREFIX")
        self._prefixes: dict[str, list[Token]] = {}
        #: the IDs of the log's release (a merged database): a text is
        #: matched against its formats first, the others only if none fits
        self.prefer: Optional[set[str]] = None
        #: ID -> its formats that are no wrappers (fits())
        self._fits: dict[str, list[Format]] = {}
        #: the IDs the log's kernel most likely prints, for a release the
        #: database does not hold (those of the held releases on either
        #: side of it): they break ties, never more
        self.near: Optional[set[str]] = None
        #: ID -> (file, module) of its call sites, to break ties by the
        #: driver a line names (DbMatcher reads them from its database)
        self.places: Optional[Callable[[str], list[tuple[str, str]]]] = None
        #: canonical -> its format with runs of blanks made one space
        self._loose: dict[tuple[str, bytes, bool], Format] = {}
        #: how often each ID was the answer in this log (its architecture)
        self.answers: dict[str, int] = {}
        self._arch: tuple[int, Optional[str]] = (0, None)

    def set_preferred(self, ids: Optional[set[str]]) -> None:
        """Match against the formats of @ids first (None: all alike)."""
        self.prefer = ids or None
        self._cache.clear()

    def set_near(self, ids: Optional[set[str]]) -> None:
        """Break ties in favour of @ids (Matcher.near; None: no such)."""
        self.near = ids or None
        self._cache.clear()

    def no_cache(self) -> None:
        """Match every text anew (to measure what distinct lines cost)."""
        self.cache_max = 0
        self._cache.clear()

    @staticmethod
    def make_bucket(rows: list[BucketRow]) -> Bucket:
        """A bucket of (id, canonical, may be continued, other words
        rarest first, where it starts, a Rust literal) rows."""
        entries = [(Format(msgid, canon, cont, starts, rust), rest)
                   for msgid, canon, cont, rest, starts, rust in rows]
        if len(entries) <= BIG:
            sure: list[Format] = []
            check: list[Entry] = []
            for f, rest in entries:
                if rest:
                    check.append((frozenset(rest), f))
                else:
                    sure.append(f)
            return (sure, check, frozenset([rest[0] for _, rest in entries
                                            if rest]) if check else _NO_WORDS)
        # By the second rarest word (b"" for none): a text reaching a part
        # holds that word, so only further words need checking.
        by_second: dict[bytes, tuple[list[Format], list[Entry],
                                     list[bytes]]] = {}
        for f, rest in entries:
            key = rest[0] if rest else b""
            part = by_second.get(key)
            if part is None:
                part = by_second[key] = ([], [], [])
            if len(rest) > 1:
                part[1].append((frozenset(rest[1:]), f))
                part[2].append(rest[1])
            else:
                part[0].append(f)
        return Parts({w: (sure, check,
                          frozenset(rarest) if rarest else _NO_WORDS)
                      for w, (sure, check, rarest) in by_second.items()})

    def bucket(self, word: bytes) -> Optional[Bucket]:
        """The formats filed under @word."""
        return self.buckets.get(word)

    def formats_of(self, msgid: str) -> list[Format]:
        """The formats with ID @msgid (that have a literal word)."""
        return self.by_id.get(msgid, [])

    def candidates(self, text: bytes) -> list[Format]:
        """Formats filed under a word of @text whose other words are all
        in @text too."""
        words = text_words(text)
        out: list[Format] = []
        known = self.known  # words seen before: no method call
        for w in words:
            b = known.get(w, _UNSEEN)
            if b is _UNSEEN:
                b = self.bucket(w)
                if len(known) < MAX_KNOWN:
                    known[w] = b
            if not b:
                continue
            if type(b) is tuple:
                out.extend(b[0])
                if not b[2].isdisjoint(words):  # type: ignore[union-attr]
                    out.extend([f for rest, f in b[1] if rest <= words])
                continue
            out.extend(b.one)  # type: ignore[union-attr]
            for w2 in b.seconds & words:  # type: ignore[union-attr]
                sure, check, rarest = b[w2]  # type: ignore[index]
                out.extend(sure)
                if not rarest.isdisjoint(words):
                    out.extend([f for rest, f in check if rest <= words])
        return out

    def identify(self, text: bytes) -> Result:
        """Identify the message text @text (no header, no ID prefix)."""
        text = text.rstrip(b"\r\n")
        if len(text) > MAX_TEXT:
            return NO_RESULT
        cache = self._cache
        r = cache.get(text)
        if r is None:
            r = self._identify(text)
            if self.cache_max:
                if len(cache) >= self.cache_max:
                    cache.clear()
                cache[text] = r
            elif cache:  # (cache_max set to 0 by hand)
                cache.clear()
        if r.id is not None and len(self.answers) < MAX_KNOWN:
            self.answers[r.id] = self.answers.get(r.id, 0) + 1
        return r

    def starts(self, text: bytes, wrappers: list[Format]
               ) -> tuple[list[int], list[int]]:
        """Where the caller's text can start: (0 and after the prefix of a
        format ending in %pV, after a device prefix), nested up to
        MAX_DEPTH deep."""
        if not wrappers:
            # The common case, without the walk: a device prefix or none.
            return [0], self.device_starts(text)
        n = len(text)
        plain, dev = {0}, set()
        frontier = [(0, "p")]
        for _ in range(MAX_DEPTH):
            new = set()
            for s, kind in frontier:
                if kind == "p":
                    new.update((e, "d") for e in self.device_ends(text, s))
                for f in wrappers:
                    if f.starts in ("p", "d") and f.starts != kind:
                        continue
                    ends = positions(f.tokens, text, s)
                    if len(ends) <= MAX_STARTS:
                        new.update((e, "p") for e in ends if s < e < n)
            frontier = sorted(x for x in new
                              if x[0] not in (plain if x[1] == "p" else dev))
            for s, kind in frontier:
                (plain if kind == "p" else dev).add(s)
            if not frontier or len(plain) + len(dev) > 4 * MAX_STARTS:
                break
        return sorted(plain), sorted(dev)

    def device_starts(self, text: bytes) -> list[int]:
        """Where the caller's text starts behind a built-in device prefix
        at the start of @text, sorted, once each."""
        return sorted(set(self.device_ends(text, 0)))

    def device_ends(self, text: bytes, s: int) -> list[int]:
        """Where a built-in device prefix (BUILTIN_WRAPPERS) that starts at
        @s in @text ends, for each that matches there and leaves text."""
        ends = []
        for w in self.builtin:
            m = w.match(text, s)
            if m and s < m.end() < len(text):
                ends.append(m.end())
        return ends

    def after_prefix(self, prefix: str, text: bytes, plain: list[int]
                     ) -> list[int]:
        """Where a text behind the subsystem prefix @prefix starts in
        @text: after the prefix, printed where a plain text starts."""
        tokens = self._prefixes.get(prefix)
        if tokens is None:
            tokens = tokenize(prefix.encode("utf-8", "surrogateescape"))[0]
            self._prefixes[prefix] = tokens
        n = len(text)
        out: set[int] = set()
        for s in plain:
            ends = positions(tokens, text, s)
            if len(ends) <= MAX_STARTS:
                out.update(e for e in ends if s < e < n)
        return sorted(out)

    def _identify(self, text: bytes) -> Result:
        r = self._identify_exact(text)
        if r.how is None:
            # A pasted log (a web form, a mail) makes tabs spaces and runs
            # of spaces one: only a line nothing matched as it is is
            # matched again, runs of blanks in it and in the formats taken
            # as one space, so no answer of an exact match changes.
            loose = self._identify_loose(text)
            if loose.how is not None:
                return loose
        return r

    def _identify_loose(self, text: bytes) -> Result:
        """_identify_exact() of @text with every run of blanks one space,
        against the formats with theirs so too (NO_RESULT at once where
        that changes neither the text nor a candidate)."""
        flat = _BLANK_RUN.sub(b" ", text).strip(b" ")
        # Only formats with a run of blanks or a tab in their literal
        # text: a pasted log loses blanks, it never adds any, and the
        # others matched the text as it is if they could (a field
        # width's padding stays theirs).
        cands = [g for g, f in ((self._loosened(f), f)
                                for f in self.candidates(flat)) if g is not f]
        if not cands:
            return NO_RESULT
        r = self._identify_cands(flat, cands)
        if r.how is None:
            return r
        r = Result(r.id, r.how, list(r.candidates), set(r.matched), r.cont,
                   r.literal, list(r.canons), r.why, True)
        return r

    def _loosened(self, f: Format) -> Format:
        """@f with the runs of blanks of its literal text made one space
        (itself if it has none)."""
        key = (f.id, f.canon, f.rust)
        g = self._loose.get(key)
        if g is None:
            canon = _loose_canon(f.canon)
            g = f if canon == f.canon else Format(
                f.id, canon, f.can_start_cont, f.starts, f.rust)
            if len(self._loose) >= MAX_KNOWN:
                self._loose.clear()
            self._loose[key] = g
        return g

    def _identify_exact(self, text: bytes) -> Result:
        cands = self.candidates(text)
        if not cands:
            return NO_RESULT
        return self._identify_cands(text, cands)

    def _identify_cands(self, text: bytes, cands: list[Format]) -> Result:
        prefer = self.prefer
        if prefer is not None:
            # A format the log's release has beats one of another release
            # (the same message, its format since changed).
            mine = [f for f in cands if f.id in prefer]
            if mine:
                r = self._identify_among(text, mine)
                if r.how is not None:
                    return r
        return self._identify_among(text, cands)

    def _identify_among(self, text: bytes, cands: list[Format]) -> Result:
        # (bytes.find(), not "in": that tries the operand as an integer
        # first, at the cost of an exception)
        find = text.find
        # Most literal text first, wrappers last: once a whole line
        # matched, only formats as specific can still tie with it.
        plain = cands  # (the caller's list, a new one: sorted in place)
        plain.sort(key=_RANK, reverse=True)
        if plain[0].rank == FRESH:  # formats never tried come first
            for f in plain:
                if f.rank != FRESH:
                    break
                f.tokens  # tokenizes: sets rank, wrapper, literal, need ...
            plain.sort(key=_RANK, reverse=True)
        if plain[0].rank < 0:
            return NO_RESULT  # wrappers only
        wrappers: list[Format] = []
        if plain[-1].rank < 0:
            i = len(plain) - 1
            while plain[i - 1].rank < 0:
                i -= 1
            wrappers = [f for f in plain[i:]  # (a wrapper lacking it
                        if find(f.need) >= 0]  # gives no start)
        # Where texts start: 0, the device prefixes when first asked for,
        # and where the wrappers' prefixes end (starts()), walked when a
        # format needs more than 0.
        plain_starts: list[int] = [0]
        dev_starts: Optional[list[int]] = None
        walked = not wrappers
        any_starts: Optional[list[int]] = None  # made when first asked for
        n = len(text)
        after: dict[str, list[int]] = {}  # "=PREFIX" -> where the text starts
        whole: list[Format] = []
        prefix: list[Format] = []
        best = 0  # the literal of a whole-line match
        for f in plain:
            if f.rank < best:
                break  # (at the latest at the first wrapper)
            # Quick rejections at C speed before the walk: most candidates
            # lack a piece of their literal text, or end otherwise.
            if find(f.need) < 0 or not text.endswith(f.end):
                continue
            where = f.starts
            starts: Optional[list[int]] = None
            if not walked:
                if where == "p" and text.startswith(f.head):
                    # 0 first, as in the walk's order: the other starts
                    # only if it is no whole-line match.
                    ends = positions(f._tokens, text)  # type: ignore
                    if n in ends:
                        whole.append(f)
                        best = f.literal
                        continue
                    if ends and f.can_start_cont:
                        prefix.append(f)
                    plain_starts, dev_starts = self.starts(text, wrappers)
                    starts = plain_starts[1:]
                else:
                    plain_starts, dev_starts = self.starts(text, wrappers)
                walked = True
            if starts is not None:
                pass  # (the rest of the plain starts)
            elif where == "p":
                starts = plain_starts
            elif where == "d":
                if dev_starts is None:
                    dev_starts = self.device_starts(text)
                starts = dev_starts
            elif where:
                starts = after.get(where)
                if starts is None:
                    starts = after[where] = self.after_prefix(
                        where[1:], text, plain_starts)
            else:
                if dev_starts is None:
                    dev_starts = self.device_starts(text)
                if any_starts is None:
                    any_starts = sorted(set(plain_starts) | set(dev_starts))
                starts = any_starts
                if f.rust:  # or after pr_*!()'s module name
                    starts = after.get(_RUST_ANY)  # type: ignore[assignment]
                    if starts is None:
                        starts = after[_RUST_ANY] = sorted(
                            set(any_starts) | set(self.after_prefix(
                                RUST_PREFIX, text, plain_starts)))
            head = f.head
            tokens = f._tokens
            for s in starts:
                if head and not text.startswith(head, s):
                    continue
                ends = positions(tokens, text, s)  # type: ignore[arg-type]
                if n in ends:
                    whole.append(f)
                    best = f.literal
                    break
                if ends and f.can_start_cont:
                    prefix.append(f)
        if len(whole) == 1 and not prefix:  # most lines: one format fits
            f = whole[0]
            r = f.result
            if r is None:
                r = f.result = Result(f.id, "match", [], {f.id}, False,
                                      f.literal, [f.canon])
            return r
        result = Result()
        result.matched = {f.id for f in whole}
        if prefix:
            result.matched.update([f.id for f in prefix])
        # The start of a KERN_CONT join beats a whole-line match only with
        # more literal text ("smpboot: CPU%d: " + the CPU's name, which
        # "%s version %s" fits too).
        if whole and prefix and \
                max(f.literal for f in prefix) > whole[0].literal:
            whole = []
        if whole:
            return self._decide(whole, result, text)
        if prefix:
            result.cont = True
            return self._decide(prefix, result, text)
        return result

    def fits(self, msgid: str, text: bytes) -> bool:
        """Whether a format of ID @msgid prints @text, wrapper prefixes
        allowed (a quick check of a printed ID)."""
        text = text.rstrip(b"\r\n")
        fmts = self._fits.get(msgid)
        if fmts is None:
            fmts = [f for f in self.formats_of(msgid) if not f.is_wrapper()]
            if len(self._fits) >= MAX_KNOWN:
                self._fits.clear()
            self._fits[msgid] = fmts
        if not fmts or len(text) > MAX_TEXT:
            return False
        find = text.find
        fmts = [f for f in fmts if find(f.need) >= 0]
        n = len(text)
        # Most texts start at 0: tried before the prefixes are looked for.
        for f in fmts:
            if text.startswith(f.head):
                ends = positions(f.tokens, text)
                if n in ends or (ends and f.can_start_cont):
                    return True
        if not fmts:
            return False
        plain, dev = self.starts(text, [])
        starts = set(plain) | set(dev)
        for f in fmts:
            if f.starts[:1] == "=":
                starts.update(self.after_prefix(f.starts[1:], text, plain))
            elif f.rust and not f.starts:
                starts.update(self.after_prefix(RUST_PREFIX, text, plain))
        starts.discard(0)
        for s in sorted(starts):
            for f in fmts:
                ends = positions(f.tokens, text, s)
                if n in ends or (ends and f.can_start_cont):
                    return True
        return False

    def _decide(self, fmts: list[Format], result: Result,
                text: bytes = b"") -> Result:
        if len(fmts) == 1:  # most lines: one format fits
            result.id, result.how = fmts[0].id, "match"
            result.literal = fmts[0].literal
            result.canons = [fmts[0].canon]
            return result
        best = max(f.literal for f in fmts)
        top = sorted({f.id for f in fmts if f.literal == best})
        result.literal = best
        if len(top) > 1:
            chosen, top, why = self.break_tie(top, text)
            if chosen is not None:
                top = [chosen]
            else:
                result.why = why
        if len(top) == 1:
            result.id, result.how = top[0], "match"
            result.canons = sorted({f.canon for f in fmts
                                    if f.literal == best and f.id == top[0]})
        else:
            result.how, result.candidates = "ambiguous", top
        return result

    def log_arch(self) -> Optional[str]:
        """The architecture of the log's kernel, as the call sites of the
        identifiers it gave so far say: the arch/ directory (arch_of())
        of most of those that only one architecture prints, when at
        least 3 are and more than all others together; None if not
        known (remembered until the answers have grown by a half)."""
        if self.places is None:
            return None
        total = sum(self.answers.values())
        seen, arch = self._arch
        if seen and total < seen * 3 // 2:
            return arch
        votes: dict[str, int] = {}
        common = sorted(self.answers, key=lambda i: -self.answers[i])
        for i in common[:ARCH_IDS]:
            arches = {arch_of(f) for f, _ in self.places(i)}
            if len(arches) == 1 and None not in arches:
                a = arches.pop()
                assert a is not None
                votes[a] = votes.get(a, 0) + 1
        arch = None
        if votes:
            best = max(votes, key=lambda a: votes[a])
            if votes[best] >= 3 and 2 * votes[best] > sum(votes.values()):
                arch = best
        self._arch = (max(total, 1), arch)
        return arch

    def break_tie(self, ids: list[str], text: bytes
                  ) -> tuple[Optional[str], list[str], str]:
        """Choose among the IDs @ids whose formats fit @text with as much
        literal text, by what the line says: the driver or bus its device
        prefix names ("e1000 0000:00:03.0: ", a "name: " prefix), whose
        directory, file or module holds only one of them, then the
        release of the log (Matcher.near).  Returns (the ID chosen or
        None, @ids best first, why none could be chosen)."""
        names = driver_names(text)
        fits: dict[str, bool] = {}
        if names and self.places is not None:
            for i in ids:
                fits[i] = any(names_fit(names, place_names(f, m))
                              for f, m in self.places(i))
        # An identifier printed only by another architecture's code than
        # the one the log's other answers come from is not this line's.
        # User Mode Linux's own messages (register dumps, sysrq) only
        # where the log's answers say it is one.
        arch = self.log_arch()
        other: dict[str, bool] = {}
        if self.places is not None:
            for i in ids:
                arches = {arch_of(f) for f, _ in self.places(i)}
                other[i] = bool(arches) and None not in arches and (
                    arch not in arches if arch is not None
                    else arches == {"um"})
        near = self.near or set()
        order = sorted(ids, key=lambda i: (not fits.get(i, False),
                                           other.get(i, False),
                                           i not in near, i))
        if fits and sum(fits.values()) == 1:
            return order[0], order, ""
        pool = [i for i in ids if fits.get(i)] or ids
        pool = [i for i in pool if not other.get(i)] or pool
        if len(pool) == 1:
            return pool[0], order, ""
        if near and sum(i in near for i in pool) == 1:
            return next(i for i in pool if i in near), order, ""
        why = ["%d formats fit with as much literal text" % len(ids)]
        if not names:
            why.append("the line names no driver")
        elif self.places is None:
            why.append("the database gives no call sites to test the "
                       "driver %s against" % names_text(names))
        elif not any(fits.values()):
            why.append("the driver %s is in none of their places"
                       % names_text(names))
        else:
            why.append("the driver %s is in the places of %d of them"
                       % (names_text(names), sum(fits.values())))
        if arch is None:
            why.append("the log's architecture is not known")
        if self.prefer is not None:
            why.append("all are formats of the log's release")
        elif not near:
            why.append("no release tells them apart")
        elif not any(i in near for i in pool):
            why.append("none is in the releases around the log's")
        else:
            why.append("%d are in the releases around the log's"
                       % sum(i in near for i in pool))
        return None, order, "; ".join(why)


_RANK = operator.attrgetter("rank")
#: A run of blanks a pasted log may have changed: two or more, or a tab.
_BLANK_RUN = re.compile(rb"[ \t]{2,}|\t")
#: A literal piece of a canonical format between its conversions.
_LOOSE_PIECE = re.compile(rb"(%[-+ #0]*(?:\*|\d+)?(?:\.(?:\*|\d+))?"
                          rb"(?:hh|h|ll|l|L|z|Z|t|j|q)?(?:p[A-Za-z0-9]*|"
                          rb"[a-zA-Z%]))")
#: dev_printk()'s prefix (driver or bus, device) and a "name: " prefix.
_DEVICE_NAME_RE = re.compile(rb"([A-Za-z][\w.-]*) (?:[^ ]+ )?[^ ]+: ")
_NAME_RE = re.compile(rb"([A-Za-z][\w-]*): ")


def _loose_canon(canon: bytes) -> bytes:
    """@canon with every run of blanks of its first line's literal text
    one space, and none at its start or end (conversions, "% d" among
    them, kept)."""
    first, newline, rest = canon.partition(b"\n")
    parts = _LOOSE_PIECE.split(first)
    for k in range(0, len(parts), 2):
        parts[k] = _BLANK_RUN.sub(b" ", parts[k])
    flat = b"".join(parts)
    if flat[:1] == b" ":
        flat = flat[1:]
    if flat[-1:] == b" " and not flat.endswith(b"% "):
        flat = flat[:-1]
    return flat + newline + rest


#: The answers of a log whose call sites say its architecture.
ARCH_IDS = 64


def arch_of(file: str) -> Optional[str]:
    """The architecture whose code @file is ("x86" for arch/x86/..., "um"
    for User Mode Linux's arch/um/ and arch/x86/um/), None for code of
    every architecture."""
    parts = file.split("/")
    if len(parts) < 3 or parts[0] != "arch":
        return None
    if parts[1] == "um" or parts[2] == "um":
        return "um"
    return parts[1]


def driver_names(text: bytes) -> set[str]:
    """The names a line gives its driver: the first word of a device
    prefix ("e1000 0000:00:03.0: ", "usb 1-1: ") or of a "name: "
    prefix, lower case, "-" as "_"."""
    out = set()
    for rx in (_DEVICE_NAME_RE, _NAME_RE):
        m = rx.match(text)
        if m:
            out.add(m.group(1).decode("ascii", "replace").lower()
                    .replace("-", "_"))
    return out


def place_names(file: str, module: str) -> set[str]:
    """What a call site at @file, built into @module, answers to: the
    module, the file's name without its suffix, its directories."""
    parts = [p for p in file.lower().replace("-", "_").split("/") if p]
    names = set(parts[:-1])
    if parts:
        names.add(parts[-1].rsplit(".", 1)[0])
    if module:
        names.add(module.lower().replace("-", "_"))
    return names - {"drivers", "arch", "net", "fs", "kernel", "lib",
                    "include", "linux", "x86", "arm64", "common", "core"}


def names_fit(names: set[str], place: set[str]) -> bool:
    """Whether a driver name of @names is one of @place (place_names()),
    or starts one as the name of a composite module does its objects'
    ("r8169" of r8169_main.c)."""
    return bool(names & place) or any(
        p.startswith(n + "_") for n in names for p in place)


def names_text(names: set[str]) -> str:
    return "/".join(sorted(names))


# ------------------------------------------- the word index in a database

_SCHEMA = """
CREATE TABLE match (
    word      BLOB NOT NULL,
    id        TEXT NOT NULL,
    canonical BLOB NOT NULL,
    cont      INTEGER NOT NULL,
    rest      BLOB NOT NULL,
    starts    TEXT NOT NULL,
    rust      INTEGER NOT NULL DEFAULT 0
);
"""
#: A Rust call site's file (its format is a Rust literal).
RUST_FILE = ".rs"
#: The formats that can start a record (not a KERN_CONT fragment).
_STARTS_RECORD = "level != 'c'"


#: A format as site_format() gives it (a FormatIn).
SiteFormat = tuple[str, bytes, bool, Optional[str], bool]


#: The canonical form of a call site whose code formats its message
#: itself and hands the text to printk("%s", buffer) or dev_printk(level,
#: dev, "%s", buffer): ACPICA's (source_acpica.py) and the callers of
#: SCSI's sdev_printk() (source.TEXT_FUNCTIONS), whose sites keep the
#: text as their format.
PRINTED_AS_TEXT = "%s"


def site_format(msgid: object, canon: object, fmt: object,
                subsys: Optional[str] = None, file: object = "",
                text: Optional[str] = None) -> SiteFormat:
    """A call site as Matcher wants it: (id, canonical, may be
    continued, wrapper prefix, a Rust literal: the site's @file is a .rs
    file).

    A site with the canonical form PRINTED_AS_TEXT, no wrapper prefix or
    a device prefix (DEVICE_PREFIXES), and a format that is some other
    text prints that text through "%s": the matcher matches the text
    (its canonical form, at the start of a record, after the device
    prefix, or, the prefix not known (None), at either), under the
    site's ID, that of "%s".  A format that starts with the device prefix
    is an index entry's, which glued it in front of "%s": that is "%s".

    A site whose match text @text the source scan knew (CallSite.text:
    its "%s" arguments that are literals, string macros or __func__
    written in) is matched by the canonical form of that text, under its
    own ID; lookup still shows its format."""
    canon = canon if isinstance(canon, str) else str(canon)
    fmt = str(fmt)
    raw = canon.encode("utf-8", "surrogateescape")
    if text and not str(file).endswith(RUST_FILE):
        known = ids.canonical(str(text).encode("utf-8", "surrogateescape"))
        if known:
            return (str(msgid), known, not fmt.endswith("\n"), subsys,
                    False)
    if canon == PRINTED_AS_TEXT and (not subsys or
                                     subsys in DEVICE_PREFIXES):
        text = ids.canonical(fmt.encode("utf-8", "surrogateescape"))
        if text != raw and not (subsys and text.startswith(
                subsys.encode("utf-8", "surrogateescape"))):
            raw = text
    return (str(msgid), raw, not fmt.endswith("\n"), subsys,
            str(file).endswith(RUST_FILE))


def fill_index(conn: sqlite3.Connection, formats: list[SiteFormat]) -> None:
    """Write the word index of @formats, the call sites that can start a
    record (site_format()), into the database being written by
    database.write() (see its schema)."""
    conn.executescript(_SCHEMA)
    conn.executemany(
        "INSERT INTO match (word, id, canonical, cont, rest, starts, rust) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        ((word, msgid, canon, int(cont), b" ".join(rest), where, int(rust))
         for word, msgid, canon, cont, rest, where, rust in plan(formats)))
    conn.execute("CREATE INDEX match_word ON match (word)")
    conn.execute("INSERT INTO meta (key, value) VALUES ('match', '1')")


def has_index(db: "database.Database") -> bool:
    """Whether @db holds the word index of its formats."""
    return bool(db.query(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
        "name = 'match'")) and db.meta().get("match") == "1"


def _formats(db: "database.Database", select: str, params: tuple = ()
             ) -> list[SiteFormat]:
    """site_format() of the call sites of @db that can start a record,
    from @select ("SELECT %s FROM sites WHERE %s...": their columns, and
    the condition that they can start one)."""
    return [site_format(i, c, f, None, file) for i, c, f, file in db.query(
        select % (", ".join(database.select(c) for c in (
            "id", "canonical", "format", "file")), _STARTS_RECORD), params)]


def formats(db: "database.Database") -> list[SiteFormat]:
    """site_format() of every call site of @db that can start a record
    (not a KERN_CONT fragment), without the wrapper prefix (None)."""
    return _formats(db, "SELECT %s FROM sites WHERE %s")


def formats_of(db: "database.Database", msgid: str
               ) -> list[tuple[str, bytes, bool, Optional[str]]]:
    """(id, canonical format, may start a continued record, None) of the
    call sites with ID @msgid that can start a record (formats_rust_of()
    adds whether each is a Rust literal)."""
    return [f[:4] for f in formats_rust_of(db, msgid)]


def formats_rust_of(db: "database.Database", msgid: str
                    ) -> list[SiteFormat]:
    """formats() of the call sites with ID @msgid."""
    return _formats(db, "SELECT DISTINCT %s FROM sites WHERE id = ? AND %s",
                    (msgid,))


def has_rust_column(db: "database.Database") -> bool:
    """Whether the word index of @db says which formats are Rust
    literals (a database built before it did holds C formats only)."""
    return bool(db.query("SELECT 1 FROM pragma_table_info('match') "
                         "WHERE name = 'rust'"))


def bucket_rows(db: "database.Database", word: bytes, rust: bool = True
                ) -> list[BucketRow]:
    """(id, canonical, may be continued, other words, where it starts, a
    Rust literal) of the formats filed under @word in the word index of
    @db; @rust: it has the column rust (has_rust_column())."""
    return [(bytes(msgid).decode("ascii", "replace"), bytes(canon),
             bool(cont), bytes(rest).split(), where, bool(is_rust))
            for msgid, canon, cont, rest, where, is_rust in db.query(
                "SELECT CAST(IFNULL(id, '') AS BLOB), "
                "CAST(IFNULL(canonical, '') AS BLOB), "
                "CAST(IFNULL(cont, 0) AS INTEGER), "
                "CAST(IFNULL(rest, '') AS BLOB), "
                "CASE WHEN starts IN ('p', 'd') OR "
                "substr(starts, 1, 1) = '=' THEN starts "
                "ELSE '' END, %s FROM match WHERE word = ?"
                % ("CAST(IFNULL(rust, 0) AS INTEGER)" if rust else "0"),
                (word,))]


def index_starts(db: "database.Database") -> list[tuple[str, bytes, str]]:
    """(id, canonical, where its text starts) of the word index of @db."""
    if not has_index(db):
        return []
    return [(bytes(i).decode("ascii", "replace"), bytes(c), str(w))
            for i, c, w in db.query(
                "SELECT DISTINCT CAST(IFNULL(id, '') AS BLOB), "
                "CAST(IFNULL(canonical, '') AS BLOB), "
                "CAST(IFNULL(starts, '') AS TEXT) FROM match")]


class DbMatcher(Matcher):
    """A matcher reading the word index of a database bucket by bucket,
    as the words of the lines ask for them: nothing to load up front."""

    def __init__(self, db: "database.Database") -> None:
        super().__init__()
        self.db = db
        self._ids: dict[str, list[Format]] = {}
        self._rust = has_rust_column(db)
        self.places = site_places(db)

    def bucket(self, word: bytes) -> Optional[Bucket]:
        b = self.known.get(word, _UNSEEN)
        if b is _UNSEEN:
            rows = bucket_rows(self.db, word, self._rust)
            b = self.make_bucket(rows) if rows else None
        return b  # type: ignore[return-value]

    def formats_of(self, msgid: str) -> list[Format]:
        fmts = self._ids.get(msgid)
        if fmts is None:
            fmts = [Format(i, c, cont, "", rust) for i, c, cont, _, rust in
                    formats_rust_of(self.db, msgid)]
            self._ids[msgid] = fmts
        return fmts


def site_places(db: "database.Database"
                ) -> Callable[[str], list[tuple[str, str]]]:
    """A function giving the (file, module) of the call sites of an ID in
    @db (Matcher.places), remembered."""
    known: dict[str, list[tuple[str, str]]] = {}

    def places(msgid: str) -> list[tuple[str, str]]:
        out = known.get(msgid)
        if out is None:
            if len(known) >= MAX_KNOWN:
                known.clear()
            out = known[msgid] = [(str(f), str(m)) for f, m in db.query(
                "SELECT DISTINCT %s, %s FROM sites WHERE id = ?" % (
                    database.text_col("file"), database.text_col("module")),
                (msgid,))]
        return out
    return places


def load(db: "database.Database") -> Matcher:
    """The matcher of an open database.Database: its stored word index,
    or (a database built without one) one built in memory."""
    if has_index(db):
        return DbMatcher(db)
    m = Matcher(formats(db))
    m.places = site_places(db)
    return m
