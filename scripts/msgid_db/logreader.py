# SPDX-License-Identifier: GPL-2.0
"""Take the kernel's message out of the envelope of one log line.

Every form a kernel log is pasted in wraps the record's text in its own
envelope; the reader removes it and says which form it found:

``dmesg``
    util-linux dmesg: ``[    1.234567] text``, also ``-r`` (``<6>``),
    ``-x`` (``kern  :info  : ``), ``-T`` and ``--time-format=ctime``,
    ``reltime`` and ``delta`` (``-d``, ``-e``), ``iso``
    (``2026-12-06T20:43:28,000000+00:00 text``), a caller field
    (``[    T1] ``, the serial console's ``[    1.2][    T1] ``).
``syslog``
    a syslog file (kern.log, syslog: ``Dec  6 18:45:46 host kernel: [
    46.980129] text``, RFC 3339 timestamps) and journalctl's short forms
    (``short``, ``-precise``, ``-iso``, ``-iso-precise``, ``-full``,
    ``-monotonic``, ``-unix``): a timestamp, a host and a tag.
``json``
    ``journalctl -o json`` (and ``json-seq``): the ``MESSAGE`` field,
    also when journald stored it as an array of bytes.
``export``
    ``journalctl -o export``: the ``MESSAGE=`` field of each entry
    (``_TRANSPORT``, ``SYSLOG_FACILITY`` and ``SYSLOG_IDENTIFIER`` before
    it give its origin); a binary ``MESSAGE`` (its size in 8 bytes after
    the field name's line) too.
``dmesg-json``
    ``dmesg --json``: the ``"msg"`` lines (``"pri"`` gives the facility).
``kmsg``
    ``/dev/kmsg`` records: ``6,123,456789,-;text``.
``plain``
    anything else: the whole line is the text (``dmesg -t``,
    ``journalctl -o cat``, a line copied from a mail).

The text then loses a kernel timestamp and caller field that a syslog
daemon kept in it, and the ``(xxxxxxxx): `` an ID-printing kernel put in
front of it: ``Record.msgid``.  A printed ID is always honoured, also
inside an envelope the reader does not know (``(xxxxxxxx): `` after a
space, a ``]``, a ``:`` or a ``;``): a line that visibly carries an ID is
never identified by its text as another one.

``Record.origin`` is ``user`` for records that user space wrote to
/dev/kmsg or to syslog (``systemd[1]: ...``, Android's ``init: ...``):
their facility is not the kernel's (kmsg, ``-r``, ``-x``, JSON), their
syslog tag is not ``kernel``, or, where the form shows neither, their
text starts like a program's (``name[pid]: ``, or a known tag of
Android's init).  Those are not kernel messages: never matched, and not
counted with the kernel's records.  A kernel message that names a task
the same way (``a.out[123]: segfault at ...``) is told apart by the
caller (Annotator): a text that a kernel format matches stays a kernel
record.
"""

import json
import re
from typing import Optional

FORMATS = ("auto", "dmesg", "syslog", "json", "export", "dmesg-json", "kmsg",
           "plain")

ORIGIN_KERNEL = "kernel"
ORIGIN_USER = "user"

_TS_BRACKET = (
    rb"\[(?:\ *\d+\.\d+(?:\ *<\ *\d+\.\d+>)?"       # [ 1.2], -d [ 1.2 < 0.0>]
    rb"|<\ *\d+\.\d+>"                              # delta [<    0.000000>]
    rb"|\ *\+\d+\.\d+"                              # reltime [  +0.119871]
    rb"|[A-Z][a-z]{2}\ [A-Z][a-z]{2}\ [ \d]\d\ \d\d:\d\d:\d\d\ \d{4}"  # -T
    rb"|[A-Z][a-z]{2}\ [ \d]?\d\ \d\d:\d\d)\]")     # reltime [Dec 6 20:43]
_TS_ISO_DMESG = rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d,\d{6}[+-]\d\d:?\d\d"
_CALLER = rb"\[\ *[TC]\d{1,10}\]"

DMESG_RE = re.compile(
    rb"(?:<(?P<pri>\d{1,3})>)?"
    rb"(?:(?P<fac>kern|user|mail|daemon|auth|syslog|lpr|news|uucp|cron"
    rb"|authpriv|ftp|res[0-3]|local[0-7])\ *:"
    rb"(?:emerg|alert|crit|err|warn|notice|info|debug)\ *:\ ?)?"
    rb"(?P<ts>(?:" + _TS_BRACKET + rb"|" + _TS_ISO_DMESG + rb")\ ?)?"
    rb"(?P<caller>" + _CALLER + rb"\ ?)?", re.VERBOSE)

_TAG = rb"(?P<tag>[^\s:\[\]]{1,64}(?:\[\d{1,10}\])?):(?:\ |$)"
SYSLOG_RE = re.compile(
    rb"(?:<\d{1,3}>)?"
    rb"(?:[A-Z][a-z]{2}\ [ \d]\d\ \d\d:\d\d:\d\d(?:\.\d{1,9})?"   # Dec  6 ...
    rb"|\d{4}-\d\d-\d\d[T\ ]\d\d:\d\d:\d\d(?:\.\d{1,9})?"         # RFC 3339
    rb"(?:Z|[+-]\d\d:?\d\d)?"
    rb"|[A-Z][a-z]{2}\ \d{4}-\d\d-\d\d\ \d\d:\d\d:\d\d(?:\.\d+)?"  # -full
    rb"\ [A-Za-z0-9+-]{1,6}"
    rb"|\d{9,11}\.\d{6})"                                          # -unix
    rb"\ (?P<host>[\w.-][\w.:-]{0,254})\ " + _TAG, re.VERBOSE)
# short-monotonic starts as dmesg does: only the kernel's tag or a
# program's "name[pid]" (never "usb 1-1:") makes it a syslog line.
_HOST = rb"(?P<host>[\w.-][\w.:-]{0,254})"
SYSLOG_MONO_RE = re.compile(
    rb"\[\ *\d+\.\d+\]\ " + _HOST + rb"\ "
    rb"(?P<tag>kernel|[^\s:\[\]]{1,64}\[\d{1,10}\]):(?:\ |$)", re.VERBOSE)
#: Once a log has shown that it is journalctl's short-monotonic, a tag
#: without a pid ("init:") is a tag too.
SYSLOG_MONO_ANY_RE = re.compile(
    rb"\[\ *\d+\.\d+\]\ " + _HOST + rb"\ " + _TAG, re.VERBOSE)
KMSG_RE = re.compile(rb"(?P<pri>\d{1,3}),\d{1,20},-?\d{1,20},[^;\n]{0,200};")
EXPORT_FIELD_RE = re.compile(rb"(?P<key>[A-Z0-9_]{1,64})=")
DMESG_JSON_RE = re.compile(rb'\s*"(?P<key>msg|pri)":\s*(?P<value>.*?),?\s*$')

#: What a syslog daemon may have kept in a kernel record's text.
KERNEL_PREFIX_RE = re.compile(
    rb"(?:\[\ *\d+\.\d+\]\ ?)?(?:" + _CALLER + rb"\ ?)?", re.VERBOSE)
ID_RE = re.compile(rb"\((?P<id>[0-9a-f]{8})\):\ ", re.VERBOSE)
EMBEDDED_ID_RE = re.compile(rb"(?<=[\s\];:>])\((?P<id>[0-9a-f]{8})\):\ ",
                            re.VERBOSE)
#: A program's record, where the form shows no facility: "name[pid]: ",
#: a tag of Android's init and its libraries, or of the initramfs tools
#: that write to /dev/kmsg without a pid (dracut's "dracut: ", NixOS's
#: "stage-1-init: " and "stage-2-init: ").
USER_TEXT_RE = re.compile(
    rb"(?P<tag>[\w.@()/+-]{1,64}\[\d{1,10}\]"
    rb"|init|libprocessgroup|ueventd|logd|lmkd|apexd|vold"
    rb"|servicemanager|hwservicemanager|vndservicemanager"
    rb"|first_stage_init|linkerconfig"
    rb"|dracut|stage-[12]-init):\ ", re.VERBOSE)


class Record:
    """One line of a log, its envelope taken off."""

    __slots__ = ("line", "form", "text", "msgid", "origin", "tag",
                 "sure", "maybe_user", "is_record")

    def __init__(self, line: bytes, form: str, text: bytes,
                 origin: str = ORIGIN_KERNEL, tag: str = "",
                 sure: bool = False) -> None:
        self.line = line            # the line as read, without its newline
        self.form = form            # one of FORMATS but "auto"
        self.text = text            # the message, without a printed ID
        self.msgid: Optional[str] = None   # the ID printed in front of it
        self.origin = origin        # ORIGIN_KERNEL or ORIGIN_USER
        self.tag = tag              # the program of a user-space record
        # the envelope shows the origin (a facility, a syslog tag)
        self.sure = sure or origin == ORIGIN_USER
        # user space by its text alone: a kernel format may still match
        self.maybe_user = False
        # False for the lines of an envelope that hold no message
        # (dmesg --json's brackets and fields, empty lines)
        self.is_record = True


def _facility_user(pri: Optional[bytes]) -> bool:
    return pri is not None and int(pri) >> 3 != 0


class LogReader:
    """Parse lines of one log; @form is one of FORMATS.

    "auto" recognises the form of every line on its own, so that logs of
    different forms can be read one after the other.  A reader keeps the
    state of forms that spread a record over several lines (dmesg
    --json); use one reader per input.
    """

    def __init__(self, form: str = "auto") -> None:
        if form not in FORMATS:
            raise ValueError("unknown log format %r (one of %s)"
                             % (form, ", ".join(FORMATS)))
        self.form = form
        self.seen: dict[str, int] = {}
        self._json_pri: Optional[bytes] = None
        self._monotonic = False
        # journalctl -o export: the fields of the entry read so far (None
        # until an entry's __CURSOR= has been seen), and whether the line
        # after "MESSAGE" holds a binary message
        self._export: Optional[dict[bytes, bytes]] = None
        self._binary_message = False

    def parse(self, line: bytes) -> Record:
        """Return the Record of @line (its newline may be kept)."""
        line = line.rstrip(b"\r\n")
        rec = self._envelope(line)
        self.seen[rec.form] = self.seen.get(rec.form, 0) + 1
        if not rec.is_record or rec.origin == ORIGIN_USER:
            return rec
        text = rec.text
        if rec.form in ("syslog", "json", "export"):
            text = text[KERNEL_PREFIX_RE.match(text).end():]  # type: ignore
        m = ID_RE.match(text)
        if m is None and rec.form == "plain":
            m = EMBEDDED_ID_RE.search(text)
        if m is not None:
            rec.msgid = m.group("id").decode()
            text = text[m.end():]
        elif not rec.sure:
            u = USER_TEXT_RE.match(text)
            if u is not None:
                rec.maybe_user = True
                rec.tag = u.group("tag").decode("utf-8", "backslashreplace")
        rec.text = text
        return rec

    def _envelope(self, line: bytes) -> Record:
        form = self.form
        auto = form == "auto"
        if auto or form == "export":
            rec = self._export_field(line)
            if rec is not None:
                return rec
        if line.startswith(b" ") or not line:
            if auto or form == "dmesg-json":
                m = DMESG_JSON_RE.match(line)
                if m:
                    return self._dmesg_json(line, m)
            # a dictionary line of /dev/kmsg, a continuation line
            rec = Record(line, "plain", line)
            rec.is_record = False
            return rec
        # Each form starts with its own kind of byte: try only those that
        # can fit (a line costs one or two regular expressions).
        c = line[0]
        digit = 0x30 <= c <= 0x39
        if c == 0x5b:                                 # "["
            kinds = "sd"
        elif digit:
            kinds = "ksd"
        elif c == 0x3c:                               # "<"
            kinds = "sd"
        elif 0x41 <= c <= 0x5a:                       # "A".."Z"
            kinds = "s"
        elif 0x61 <= c <= 0x7a:                       # "a".."z": dmesg -x
            kinds = "d"
        elif c == 0x7b or c == 0x1e:                  # "{", json-seq
            kinds = "j"
        else:
            kinds = ""
        if "j" in kinds and (auto or form == "json"):
            if line[:1] == b"{" or line[:2] == b"\x1e{":
                rec = self._json(line)
                if rec is not None:
                    return rec
        if "k" in kinds and (auto or form == "kmsg"):
            m = KMSG_RE.match(line)
            if m:
                return Record(line, "kmsg", line[m.end():],
                              ORIGIN_USER if _facility_user(m.group("pri"))
                              else ORIGIN_KERNEL, sure=True)
        if "s" in kinds and (auto or form == "syslog"):
            m = SYSLOG_RE.match(line)
            if m is None and line[:1] == b"[":
                m = SYSLOG_MONO_RE.match(line)
                if m is not None:
                    self._monotonic = True
                elif self._monotonic:
                    m = SYSLOG_MONO_ANY_RE.match(line)
            if m:
                tag = m.group("tag")
                kernel = tag == b"kernel"
                return Record(line, "syslog", line[m.end():],
                              ORIGIN_KERNEL if kernel else ORIGIN_USER,
                              "" if kernel
                              else tag.decode("utf-8", "backslashreplace"),
                              sure=True)
        if "d" in kinds and (auto or form == "dmesg"):
            m = DMESG_RE.match(line)
            if m and m.end():
                fac = m.group("fac")
                user = (_facility_user(m.group("pri"))
                        or (fac is not None and fac != b"kern"))
                return Record(line, "dmesg", line[m.end():],
                              ORIGIN_USER if user else ORIGIN_KERNEL,
                              sure=bool(m.group("pri") or fac))
        return Record(line, "plain", line)

    def _json(self, line: bytes) -> Optional[Record]:
        """journalctl -o json: the MESSAGE field and where it came from."""
        try:
            obj = json.loads(line.lstrip(b"\x1e"))
        except ValueError:
            return None
        if not isinstance(obj, dict) or "MESSAGE" not in obj:
            return None
        msg = obj["MESSAGE"]
        if isinstance(msg, list):
            # journald stores a MESSAGE that is not valid UTF-8 (or has
            # control characters) as bytes: journalctl prints an array.
            try:
                text = bytes(msg)
            except (TypeError, ValueError):
                text = b""
        elif isinstance(msg, str):
            text = msg.encode("utf-8", "surrogateescape")
        else:
            text = b""      # null: the field was too large to print
        # A record journald read from /dev/kmsg has _TRANSPORT=kernel;
        # one that user space wrote there has its own facility too.
        transport = obj.get("_TRANSPORT")
        facility = str(obj.get("SYSLOG_FACILITY", "0"))
        ident = obj.get("SYSLOG_IDENTIFIER")
        if transport is not None:
            kernel = transport == "kernel" and facility in ("0", "")
        else:
            kernel = ident in (None, "kernel")
        tag = ""
        if not kernel:
            tag = str(ident or transport or "")
            if obj.get("SYSLOG_PID") or obj.get("_PID"):
                tag += "[%s]" % (obj.get("SYSLOG_PID") or obj.get("_PID"))
        text = text.split(b"\n", 1)[0]
        return Record(line, "json", text,
                      ORIGIN_KERNEL if kernel else ORIGIN_USER, tag, sure=True)

    def _export_field(self, line: bytes) -> Optional[Record]:
        """journalctl -o export: entries of KEY=value lines, an empty line
        after each."""
        if line.startswith(b"__CURSOR=") or (
                self.form == "export" and self._export is None):
            self._export = {}
        fields = self._export
        if fields is None:
            return None
        if self._binary_message:
            self._binary_message = False
            return self._export_message(line, line[8:], fields)
        m = EXPORT_FIELD_RE.match(line)
        if m is not None:
            key, value = m.group("key"), line[m.end():]
            if key == b"MESSAGE":
                return self._export_message(line, value, fields)
            fields[key] = value
        elif line == b"MESSAGE":
            self._binary_message = True
        elif not line:
            fields.clear()      # the end of an entry
        else:
            return None         # not export: another form
        rec = Record(line, "export", b"")
        rec.is_record = False
        return rec

    def _export_message(self, line: bytes, text: bytes,
                        fields: dict[bytes, bytes]) -> Record:
        transport = fields.get(b"_TRANSPORT")
        facility = fields.get(b"SYSLOG_FACILITY")
        ident = fields.get(b"SYSLOG_IDENTIFIER")
        sure = transport is not None or facility is not None
        kernel = ((transport in (None, b"kernel"))
                  and facility in (None, b"0")
                  and ident in (None, b"kernel"))
        tag = ""
        if not kernel:
            tag = (ident or transport or b"").decode("utf-8",
                                                     "backslashreplace")
            pid = fields.get(b"SYSLOG_PID") or fields.get(b"_PID")
            if pid:
                tag += "[%s]" % pid.decode("utf-8", "backslashreplace")
        return Record(line, "export", text,
                      ORIGIN_KERNEL if kernel else ORIGIN_USER, tag,
                      sure=sure)

    def _dmesg_json(self, line: bytes, m: "re.Match[bytes]") -> Record:
        """dmesg --json: "pri" comes on the line before "msg"."""
        if m.group("key") == b"pri":
            self._json_pri = m.group("value")
            rec = Record(line, "dmesg-json", b"")
            rec.is_record = False
            return rec
        try:
            value = json.loads(m.group("value"))
        except ValueError:
            return Record(line, "plain", line)
        text = (value.encode("utf-8", "surrogateescape")
                if isinstance(value, str) else b"")
        pri, self._json_pri = self._json_pri, None
        user = pri is not None and pri.isdigit() and _facility_user(pri)
        return Record(line, "dmesg-json", text.split(b"\n", 1)[0],
                      ORIGIN_USER if user else ORIGIN_KERNEL,
                      sure=pri is not None)

    def summary(self) -> str:
        """Which forms were read, e.g. "syslog 270, plain 3"."""
        return ", ".join("%s %d" % kv for kv in sorted(
            self.seen.items(), key=lambda kv: -kv[1]))
