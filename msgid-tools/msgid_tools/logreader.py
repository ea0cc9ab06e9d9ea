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
``logcat``
    Android's ``logcat -b kernel`` (logcat_text()), in its forms
    ``threadtime`` (the default: ``12-06 18:45:46.980     0     0 I mce
    : text``), ``brief`` (``I/mce     (    0): text``), ``time``,
    ``tag`` and ``long`` (a header line, the message on the next),
    also with ``-v year``, ``usec``, ``nsec``, ``zone``, ``uid``,
    ``epoch``, ``monotonic`` and ``color``; its ``--------- beginning of
    kernel`` lines.
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
           "logcat", "plain")

ORIGIN_KERNEL = "kernel"
ORIGIN_USER = "user"

_TS_BRACKET = (
    # (dmesg -d prints a negative delta where the time went back: the
    # kernel's first records are stamped before the TSC is calibrated)
    rb"\[(?:\ *\d+\.\d+(?:\ *<\ *-?\d+\.\d+>)?"     # [ 1.2], -d [ 1.2 < 0.0>]
    rb"|<\ *-?\d+\.\d+>"                            # delta [<    0.000000>]
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
#: The common dmesg line, "[    1.234567] text" (no caller field after
#: the time): where DMESG_RE ends there, at a third of its cost.
DMESG_PLAIN_RE = re.compile(rb"\[\ *\d+\.\d+\](?!\ ?\[)\ ?")

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
    rb"|first_stage_init|linkerconfig|selinux"
    rb"|dracut|stage-[12]-init):(?:\ |$)", re.VERBOSE)

# Android's logcat (system/logging: liblog/logprint.cpp
# android_log_formatLogLine()).  The time: MM-DD HH:MM:SS.mmm (-v year:
# YYYY-, -v usec/nsec: more digits, -v zone: " +0000"), or seconds
# (-v epoch, -v monotonic, right-aligned); -v uid puts a user before the
# pid.
_LC_TIME = (rb"(?:(?:\d{4}-)?\d\d-\d\d\ \d\d:\d\d:\d\d\.\d{3,9}"
            rb"(?:\ [+-]\d{4})?|\ *\d{1,19}\.\d{3,9})")
_LC_PRIO = rb"(?P<prio>[VDIWEFS])"
#: threadtime: "%s %s%5d %5d %c %-8.*s: " (time, uid, pid, tid, tag)
LOGCAT_THREADTIME_RE = re.compile(
    _LC_TIME + rb"\ +(?:(?P<uid>[\w.]{1,16})\ +)??(?P<pid>\d{1,10})\ +"
    rb"(?P<tid>\d{1,10})\ " + _LC_PRIO + rb"\ (?P<tag>.*?)\ *:\ ", re.VERBOSE)
#: brief "%c/%-8.*s(%s%5d): ", and time: the same after the time
LOGCAT_BRIEF_RE = re.compile(
    rb"(?:" + _LC_TIME + rb"\ )?" + _LC_PRIO + rb"/(?P<tag>.*?)"
    rb"\(\ *(?:(?P<uid>[\w.]{1,16}):\ *)?(?P<pid>\d{1,10})\):\ ", re.VERBOSE)
#: tag: "%c/%-8.*s: "
LOGCAT_TAG_RE = re.compile(_LC_PRIO + rb"/(?P<tag>.*?)\ *:\ ", re.VERBOSE)
#: long: "[ %s %s%5d:%5d %c/%-8.*s ]", the message on the next line
LOGCAT_LONG_RE = re.compile(
    rb"\[\ " + _LC_TIME + rb"\ +(?:(?P<uid>[\w.]{1,16}):)?\ *"
    rb"(?P<pid>\d{1,10}):\ *(?P<tid>\d{1,10})\ " + _LC_PRIO
    + rb"/(?P<tag>.*?)\ *\]$", re.VERBOSE)
#: "--------- beginning of kernel", "--------- switch to main" (-D)
LOGCAT_MARKER_RE = re.compile(
    rb"-{9}\ (?:beginning\ of|switch\ to)\ (?P<buffer>[\w-]{1,32})$",
    re.VERBOSE)
LOGCAT_COLOR_RE = re.compile(rb"\x1b\[\d{1,3}m(?P<line>.*?)(?:\x1b\[0m)?$")
#: A CPU and pid that some vendors' printk put in front of the text
#: ("c2      1 "; logd takes them off as the pid only where they are
#: exactly as HTC printed them).
_LC_VENDOR_CALLER_RE = re.compile(rb"c\d{1,3}\ +\d{1,7}\ ", re.VERBOSE)
#: The end of a tag that logd cut in a device's bus address at its first
#: ":" ("pci 0000" of "pci 0000:00:01.0: ..."), and the rest of the
#: address that starts the message after it ("00:01.0: ").
_LC_ADDR_TAG_RE = re.compile(rb"(?:^|\ )[0-9A-Fa-f][0-9A-Fa-f.-]*$")
_LC_ADDR_REST_RE = re.compile(rb"[0-9A-Fa-f]{1,8}(?:[:.][0-9A-Fa-f]{1,8})*:\ ")


def logcat_text(tag: bytes, message: bytes) -> bytes:
    """The kernel's text of a logcat -b kernel record: its @tag and its
    @message.

    Android's logd (system/logging: logd/LogKlog.cpp, LogKlog::log())
    takes a tag out of the front of each kernel record: its first word
    (or two), up to a ":", unless it is "CPU", "INFO", "ERROR",
    "WARNING" or too short; the spaces after the ":" are dropped.  The
    text is the tag, ": " and the message again: "(25684dc3): ..." of an
    ID-printing kernel comes back whole; of "pci 0000:00:01.0: ..." logd
    took "pci 0000" and left "00:01.0: ...", which is glued back without
    the space."""
    tag = tag.strip(b" ")
    if not tag or tag == b"kernel":
        m = _LC_VENDOR_CALLER_RE.match(message)
        return message[m.end():] if m else message
    if not message.strip(b" "):
        return tag + b":"       # (logd logs an empty message as " ")
    if _LC_ADDR_TAG_RE.search(tag) and _LC_ADDR_REST_RE.match(message):
        return tag + b":" + message
    return tag + b": " + message


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
        # logcat -v long: the header whose message is the next line; the
        # buffers its "beginning of" lines named
        self._logcat_header: Optional["re.Match[bytes]"] = None
        self._logcat_buffers: set[bytes] = set()

    def parse(self, line: bytes) -> Record:
        """Return the Record of @line (its newline may be kept)."""
        line = line.rstrip(b"\r\n")
        rec = self._envelope(line)
        self.seen[rec.form] = self.seen.get(rec.form, 0) + 1
        if not rec.is_record or rec.origin == ORIGIN_USER:
            return rec
        text = rec.text
        if rec.form in ("syslog", "json", "export", "logcat"):
            text = text[KERNEL_PREFIX_RE.match(text).end():]  # type: ignore
        m = ID_RE.match(text) if text[:1] == b"(" else None
        if m is None and rec.form == "plain":
            m = EMBEDDED_ID_RE.search(text)
        if m is not None:
            rec.msgid = m.group("id").decode()
            rec.maybe_user = False
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
        if self._logcat_header is not None:
            # logcat -v long: the message of the header line before
            header, self._logcat_header = self._logcat_header, None
            return self._logcat(line, header, line)
        if form == "export" or auto and (
                self._export is not None or line.startswith(b"__CURSOR=")):
            rec = self._export_field(line)  # (else not export: None)
            if rec is not None:
                return rec
        if line.startswith(b" ") or not line:
            if auto or form == "dmesg-json":
                m = DMESG_JSON_RE.match(line)
                if m:
                    return self._dmesg_json(line, m)
            if line and (auto or form == "logcat"):
                # logcat -v epoch or -v monotonic: the time right-aligned
                rec = self._logcat_line(line, "t")
                if rec is not None:
                    return rec
            # a dictionary line of /dev/kmsg, a continuation line
            rec = Record(line, "plain", line)
            rec.is_record = False
            return rec
        # Each form starts with its own kind of byte: try only those that
        # can fit (a line costs one or two regular expressions).
        c = line[0]
        digit = 0x30 <= c <= 0x39
        if c == 0x5b:                                 # "["
            kinds = "lsd" if line[1:2] == b" " and line[-1:] == b"]" \
                else "sd"
        elif digit:
            kinds = "klsd"
        elif c == 0x3c:                               # "<"
            kinds = "sd"
        elif 0x41 <= c <= 0x5a:                       # "A".."Z"
            kinds = "ls" if line[1:2] == b"/" else "s"
        elif 0x61 <= c <= 0x7a:                       # "a".."z": dmesg -x
            kinds = "d"
        elif c == 0x7b or c == 0x1e:                  # "{", json-seq
            kinds = "j"
        elif c == 0x2d or c == 0x1b:                  # "-", color: logcat
            kinds = "l"
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
        if "l" in kinds and (auto or form == "logcat"):
            rec = self._logcat_line(line, "[" if c == 0x5b else
                                    "t" if digit else chr(c))
            if rec is not None:
                return rec
        if "s" in kinds and (auto or form == "syslog"):
            # (a syslog timestamp never starts with "[")
            m = SYSLOG_RE.match(line) if c != 0x5b else None
            if m is None and c == 0x5b:
                # (its tag, "kernel" or "name[pid]", ends in "l:" or "]:")
                m = SYSLOG_MONO_RE.match(line) if line.find(b"]:") >= 0 \
                    or line.find(b"l:") >= 0 else None
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
            if c == 0x5b:
                m = DMESG_PLAIN_RE.match(line)
                if m:  # no priority, no facility: the kernel's, not sure
                    return Record(line, "dmesg", line[m.end():])
            m = DMESG_RE.match(line)
            if m and m.end():
                fac = m.group("fac")
                user = (_facility_user(m.group("pri"))
                        or (fac is not None and fac != b"kern"))
                return Record(line, "dmesg", line[m.end():],
                              ORIGIN_USER if user else ORIGIN_KERNEL,
                              sure=bool(m.group("pri") or fac))
        return Record(line, "plain", line)

    def _logcat_line(self, line: bytes, first: str) -> Optional[Record]:
        """A line of Android's logcat (@first: "t" for a time first, "["
        for -v long's header, the priority letter of -v brief and tag, "-"
        for its buffer lines, "\x1b" for -v color); None if it is not
        one."""
        if first == "\x1b":
            m = LOGCAT_COLOR_RE.match(line)
            if m is None or m.group("line")[:1] == b"\x1b":
                return None
            rec = self._logcat_line(m.group("line"), "l")
            if rec is not None:
                rec.line = line
            return rec
        if first == "-":
            m = LOGCAT_MARKER_RE.match(line)
            if m is None:
                return None
            self._logcat_buffers.add(m.group("buffer"))
            rec = Record(line, "logcat", b"")
            rec.is_record = False
            return rec
        if first == "[":
            m = LOGCAT_LONG_RE.match(line)
            if m is None:
                return None
            self._logcat_header = m
            rec = Record(line, "logcat", b"")
            rec.is_record = False
            return rec
        if first in ("t", "l"):
            m = LOGCAT_THREADTIME_RE.match(line)
            if m is not None:
                return self._logcat(line, m, line[m.end():])
        m = LOGCAT_BRIEF_RE.match(line)
        if m is None and first != "t" and (self.form == "logcat"
                                           or "logcat" in self.seen):
            # -v tag only where logcat is known to be read: "I/O error:
            # ..." could be a kernel record of a log without envelopes
            m = LOGCAT_TAG_RE.match(line)
        if m is None:
            return None
        return self._logcat(line, m, line[m.end():])

    def _logcat(self, line: bytes, m: "re.Match[bytes]", message: bytes
                ) -> Record:
        """The Record of a logcat line (@m matched its envelope, or -v
        long's header line before it) and its @message.

        logcat shows no facility.  A line of pid 0 is the kernel's
        buffer, and a record there that user space wrote to /dev/kmsg
        (Android's "init: ...") is told by its text; a line of another
        thread than its process's is a program's; a line of another pid
        too, unless the log shows the kernel's buffer alone (logd gives
        a record the pid that some vendors' kernels print in it): its
        text then decides as for pid 0."""
        tag = m.group("tag")
        text = logcat_text(tag, message.rstrip(b" "))
        groups = m.groupdict()
        pid = int(groups.get("pid") or 0)       # (-v tag shows none)
        tid = int(groups["tid"]) if groups.get("tid") else None
        name = tag.strip(b" ").decode("utf-8", "backslashreplace")
        if pid and tid is not None and tid != pid:
            return Record(line, "logcat", text, ORIGIN_USER,
                          "%s[%d]" % (name, pid) if name else "pid %d" % pid,
                          sure=True)
        rec = Record(line, "logcat", text)
        if pid and self._logcat_buffers != {b"kernel"}:
            rec.maybe_user = True
            rec.tag = name or "pid %d" % pid
        return rec

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
