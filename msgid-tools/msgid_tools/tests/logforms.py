# SPDX-License-Identifier: GPL-2.0
"""One small boot log written out in every form people paste.

RECORDS is a boot of kernel records (their formats in INDEX, a printk
index as debugfs shows it) and user-space records written to /dev/kmsg
(systemd, Android's init).  write_forms() writes it out, with or without
the "(xxxxxxxx): " prefixes:

 * the dmesg forms come from util-linux's own dmesg, run on the records
   as the kernel's syslog(2) buffer (``dmesg -F``): the lines are what
   dmesg prints on this machine, not typed here.  Without a dmesg
   binary they are left out (the tests then skip them);
 * /dev/kmsg, pstore dumps, the syslog daemons' files and journalctl's
   forms are built from their documented formats
   (Documentation/ABI/testing/dev-kmsg, fs/pstore/platform.c;
   rsyslog's RSYSLOG_TraditionalFileFormat and RSYSLOG_FileFormat;
   journalctl(1) -o short, short-iso, short-precise, short-monotonic,
   json and export, whose fields are systemd.journal-fields(7)'s).  Running journald
   to write a real journal file would take over this host's /dev/kmsg
   and /run/systemd/journal sockets, so it is not done;
 * Android's logcat -b kernel is built as Android's own code writes it
   (logcat() below): logd's LogKlog::log() takes a tag out of each
   kernel record, liblog's android_log_formatLogLine() prints it.  No
   public log of a kernel that prints IDs exists; real logcat output of
   kernels without them is in tests/logcat/ (its SOURCES).

The expected IDs are zlib.crc32() of the formats written here.
"""

import datetime
import json
import os
import shutil
import subprocess
import zlib
from typing import Optional


def crc(fmt: bytes) -> str:
    return "%08x" % zlib.crc32(fmt)


# (level, file:line function, format as in the index, the ID's canonical
# format)
SITES = [
    (6, "arch/x86/mm/setup_nx.c:38 x86_report_nx",
     b"NX (Execute Disable) protection: %s\\n",
     b"NX (Execute Disable) protection: %s"),
    (6, "arch/x86/kernel/setup.c:754 setup_arch", b"Command line: %s\\n",
     b"Command line: %s"),
    (6, "drivers/acpi/tables.c:910 acpi_table_init",
     b"ACPI: Early table checksum verification disabled\\n",
     b"ACPI: Early table checksum verification disabled"),
    (6, "arch/x86/kernel/tsc.c:1500 tsc_init",
     b"tsc: Detected %lu.%03lu MHz processor\\n",
     b"tsc: Detected %lu.%03lu MHz processor"),
    (6, "kernel/time/clocksource.c:1100 clocksource_select",
     b"clocksource: Switched to clocksource %s\\n",
     b"clocksource: Switched to clocksource %s"),
    (6, "drivers/pci/quirks.c:332 quirk_passive_release",
     b"%s %s: PIIX3: Enabling Passive Release\\n",
     b"PIIX3: Enabling Passive Release"),
    (0, "arch/x86/kernel/cpu/mce/core.c:176 __print_mce",
     b"mce: [Hardware Error]: CPU %d: Machine Check%s: %Lx Bank %d: "
     b"%016Lx\\n",
     b"mce: [Hardware Error]: CPU %d: Machine Check%s: %Lx Bank %d: "
     b"%016Lx"),
    (6, "arch/x86/mm/fault.c:850 show_signal_msg",
     b"%s%s[%d]: segfault at %lx ip %px sp %px error %lx",
     b"%s%s[%d]: segfault at %lx ip %px sp %px error %lx"),
    (6, "mm/init.c:900 free_init_pages",
     b"Freeing unused kernel image (%s) memory: %ldK\\n",
     b"Freeing unused kernel image (%s) memory: %ldK"),
    (6, "init/main.c:1354 run_init_process", b"Run %s as init process\\n",
     b"Run %s as init process"),
    (5, "drivers/char/random.c:700 crng_reseed", b"random: crng init done\\n",
     b"random: crng init done"),
    # Formats that fit the envelopes if they are not taken off.
    (6, "kernel/decoy.c:1 decoy_kernel", b"%s kernel: %s\\n",
     b"%s kernel: %s"),
    (6, "kernel/decoy.c:2 decoy_started", b"%s Started %s\\n",
     b"%s Started %s"),
    (6, "kernel/decoy.c:3 decoy_message", b"{\"%s\" : %s MESSAGE %s\\n",
     b"{\"%s\" : %s MESSAGE %s"),
]

INDEX = b"# <level/flags> filename:line function \"format\"\n" + b"".join(
    b"<%d> %s \"%s\"\n" % (level, where.encode(), fmt)
    for level, where, fmt, _ in SITES)

ID = {canon: crc(canon) for _, _, _, canon in SITES}

# (seconds since boot, syslog facility, level, canonical format or None
# for user space, text, tag of user space)
RECORDS: list[tuple[float, int, int, Optional[bytes], bytes]] = [
    (0.0, 0, 6, SITES[0][3], b"NX (Execute Disable) protection: active"),
    (0.0, 0, 6, SITES[1][3], b"Command line: console=ttyS0 printk.msgid=1 "
     b"quiet"),
    (0.012, 0, 6, SITES[2][3],
     b"ACPI: Early table checksum verification disabled"),
    (0.025092, 0, 6, SITES[3][3], b"tsc: Detected 2096.003 MHz processor"),
    (0.936796, 0, 6, SITES[5][3],
     b"pci 0000:00:01.0: PIIX3: Enabling Passive Release"),
    (1.2, 0, 6, SITES[4][3], b"clocksource: Switched to clocksource tsc"),
    (1.3, 0, 5, SITES[10][3], b"random: crng init done"),
    (1.366059, 0, 6, SITES[8][3],
     b"Freeing unused kernel image (initmem) memory: 2736K"),
    (1.366100, 0, 6, SITES[9][3], b"Run /init as init process"),
    (2.1, 3, 6, None, b"systemd[1]: Started Journal Service."),
    (2.2, 3, 6, None, b"systemd-journald[123]: Received client request to "
     b"flush runtime journal."),
    (2.3, 1, 6, None, b"init: Loading properties from /system/build.prop"),
    (2.4, 1, 3, None, b"libprocessgroup: Failed to create cgroup uid 0"),
    (46.980129, 0, 0, SITES[6][3], b"mce: [Hardware Error]: CPU 0: Machine "
     b"Check: 0 Bank 4: b200000000070005"),
    (50.5, 0, 6, SITES[7][3], b"a.out[1234]: segfault at 0 ip "
     b"0000000000401126 sp 00007ffd5c0a1d30 error 6"),
    (51.0, 3, 6, None, b"systemd[1]: Started Journal Service. kernel: "
     b"yes"),
]

KERNEL_RECORDS = sum(1 for r in RECORDS if r[3] is not None)
USER_RECORDS = len(RECORDS) - KERNEL_RECORDS

HOST = "demo"
BOOT = datetime.datetime(2026, 12, 6, 18, 45, 0,
                         tzinfo=datetime.timezone.utc)


def text_of(rec: tuple, with_ids: bool) -> bytes:
    """The record's text as the kernel stored it."""
    _, _, _, canon, text = rec
    if canon is not None and with_ids:
        # A format of SITES, or (records of a real boot) the ID itself.
        msgid = canon if isinstance(canon, str) else ID[canon]
        return b"(%s): %s" % (msgid.encode(), text)
    return text


def _records(records: Optional[list]) -> list:
    """@records, or RECORDS when None: (seconds since boot, facility,
    level, format of SITES, its ID as a string (a real boot's records) or
    None for user space, text) each."""
    return RECORDS if records is None else records


def _tag(text: bytes) -> tuple[bytes, bytes]:
    """A user-space record's "name[pid]" and the text after it, as a
    syslog daemon and journald split it."""
    tag, _, rest = text.partition(b": ")
    return tag, rest


def kmsg(with_ids: bool, records: Optional[list] = None) -> bytes:
    """/dev/kmsg: "prio,seq,usec,flags;text" (prio: facility and level)."""
    return b"".join(b"%d,%d,%d,-;%s\n" % (
        fac << 3 | level, seq, int(t * 1e6), text_of(r, with_ids))
        for seq, r in enumerate(_records(records))
        for t, fac, level, _, _ in [r])


def syslog_buffer(with_ids: bool, records: Optional[list] = None
                  ) -> bytes:
    """The kernel's syslog(2) buffer: what dmesg -F reads."""
    return b"".join(b"<%d>[%12.6f] %s\n" % (
        fac << 3 | level, t, text_of(r, with_ids))
        for r in _records(records) for t, fac, level, _, _ in [r])


def _when(t: float) -> datetime.datetime:
    return BOOT + datetime.timedelta(seconds=t)


def syslog_file(with_ids: bool, rfc3339: bool,
                records: Optional[list] = None) -> bytes:
    """kern.log/syslog of rsyslog: a kernel record keeps the kernel's
    timestamp in its text (imklog), a program's its own tag."""
    out = []
    for r in _records(records):
        t, _, _, canon, _ = r
        when = _when(t)
        stamp = (when.isoformat(timespec="microseconds") if rfc3339
                 else when.strftime("%b ") + ("%2d" % when.day)
                 + when.strftime(" %H:%M:%S"))
        if canon is None:
            tag, rest = _tag(text_of(r, with_ids))
            out.append(b"%s %s %s: %s\n" % (stamp.encode(), HOST.encode(),
                                            tag, rest))
        else:
            out.append(b"%s %s kernel: [%12.6f] %s\n" % (
                stamp.encode(), HOST.encode(), t, text_of(r, with_ids)))
    return b"".join(out)


def journal_short(with_ids: bool, style: str,
                  records: Optional[list] = None) -> bytes:
    """journalctl -o short, short-precise, short-iso, short-monotonic."""
    out = []
    for r in _records(records):
        t, _, _, canon, _ = r
        when = _when(t)
        stamp = {
            "short": when.strftime("%b %d %H:%M:%S"),
            "short-precise": when.strftime("%b %d %H:%M:%S.%f"),
            "short-iso": when.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "short-monotonic": "[%12.6f]" % t,
        }[style]
        if canon is None:
            tag, rest = _tag(text_of(r, with_ids))
        else:
            tag, rest = b"kernel", text_of(r, with_ids)
        out.append(b"%s %s %s: %s\n" % (stamp.encode(), HOST.encode(), tag,
                                        rest))
    return b"".join(out)


def journal_json(with_ids: bool, byte_array: bool = False,
                 records: Optional[list] = None) -> bytes:
    """journalctl -o json: one object per record; journald reads the
    kernel's records from /dev/kmsg (_TRANSPORT=kernel) and parses a
    user-space record's identifier out of its text.  With @byte_array,
    MESSAGE is an array of bytes, as journalctl prints a message that is
    not valid UTF-8 or holds control characters."""
    out = []
    for seq, r in enumerate(_records(records)):
        t, fac, level, canon, _ = r
        text = text_of(r, with_ids)
        obj = {
            "__CURSOR": "s=0123;i=%x" % seq,
            "__REALTIME_TIMESTAMP": str(int(_when(t).timestamp() * 1e6)),
            "__MONOTONIC_TIMESTAMP": str(int(t * 1e6)),
            "_BOOT_ID": "6b3b1e0e3c2a4f7e9d1c0b2a39485766",
            "_TRANSPORT": "kernel", "PRIORITY": str(level),
            "SYSLOG_FACILITY": str(fac),
            "_SOURCE_MONOTONIC_TIMESTAMP": str(int(t * 1e6)),
            "_HOSTNAME": HOST,
        }
        if canon is None:
            tag, text = _tag(text)
            name, _, pid = tag.partition(b"[")
            obj["SYSLOG_IDENTIFIER"] = name.decode()
            if pid:
                obj["SYSLOG_PID"] = pid.rstrip(b"]").decode()
        else:
            obj["SYSLOG_IDENTIFIER"] = "kernel"
        obj["MESSAGE"] = list(text) if byte_array else text.decode()
        out.append(json.dumps(obj).encode() + b"\n")
    return b"".join(out)


def journal_export(with_ids: bool, binary: bool = False,
                   records: Optional[list] = None) -> bytes:
    """journalctl -o export (systemd's JOURNAL_EXPORT_FORMATS): the
    fields of journal_json() as KEY=value lines, MESSAGE last, an empty
    line after each entry; with @binary, MESSAGE as its name, a line
    break, its size as 64-bit little endian and the bytes."""
    out = []
    for line in journal_json(with_ids, records=records).splitlines():
        obj = json.loads(line)
        message = obj.pop("MESSAGE").encode()
        entry = b"".join(b"%s=%s\n" % (k.encode(), v.encode())
                         for k, v in obj.items())
        if binary:
            entry += (b"MESSAGE\n" + len(message).to_bytes(8, "little")
                      + message + b"\n")
        else:
            entry += b"MESSAGE=" + message + b"\n"
        out.append(entry + b"\n")
    return b"".join(out)


def logd_tag(text: bytes) -> tuple[bytes, bytes]:
    """(tag, message) of a kernel record as Android's logd splits it
    (system/logging, logd/LogKlog.cpp, LogKlog::log(), as in Android 11
    to 15): the first word up to a ":" (a ":" inside "[...]" does not
    count), or the first two words, is the tag unless it is one
    character, a register name ("x9", "r12"), "CPU", "INFO", "ERROR" or
    "WARNING"; spaces around the text are dropped.  (Its rules for a
    tag repeated in the second word, and for "[INFO]" and "_host", are
    left out: no record here has them.)"""
    p = text.lstrip(b" ")
    n = len(p)

    def word_end(i: int) -> int:
        while i < n and p[i:i + 1] != b":" and not p[i:i + 1].isspace():
            if p[i:i + 1] == b"[":
                while i < n and p[i:i + 1] != b"]":
                    i += 1
                if i >= n:
                    break
            i += 1
        return i

    tag, rest = b"", p
    et = word_end(0)
    cp = et
    while cp < n and p[cp:cp + 1].isspace():
        cp += 1
    if cp < n and et > 0:
        if p[cp:cp + 1] == b":":
            tag, rest = p[:et], p[cp + 1:]
        else:
            # two words: the second one ends at a space or a ":"
            e = cp + 1
            while e < n and not p[e:e + 1].isspace() \
                    and p[e:e + 1] != b":":
                e += 1
            c = e
            while c < n and p[c:c + 1].isspace():
                c += 1
            if c < n and p[c:c + 1] == b":":
                tag, rest = p[:e], p[c + 1:]
    size = len(tag)
    if size <= 1 or (size == 2 and (tag[:1].isdigit() or tag[1:].isdigit())) \
            or (size == 3 and tag[1:].isdigit()) \
            or tag == b"CPU" or tag.upper() in (b"INFO", b"ERROR", b"WARNING"):
        tag, rest = b"", p
    rest = rest.strip(b" ")
    if not rest and tag:
        rest = b" "     # logd keeps a tag with an empty message so
    return tag, rest


#: The styles of logcat() and the logcat -v options that print them.
LOGCAT_STYLES = {
    "threadtime": [], "brief": ["brief"], "time": ["time"], "long": ["long"],
    "threadtime-modifiers": ["year", "usec", "uid"],
}


def logcat(with_ids: bool, style: str, records: Optional[list] = None
           ) -> bytes:
    """adb logcat -b kernel -v STYLE: the records as logd stores them
    (logd_tag(), the kernel's level as Android's priority letter, pid
    and tid 0, logd's uid root) and as liblog's
    android_log_formatLogLine() prints them (system/logging,
    liblog/logprint.cpp): threadtime "%s %5d %5d %c %-8.*s: ", brief
    "%c/%-8.*s(%5d): ", time "%s %c/%-8.*s(%5d): ", long "[ %s %5d:%5d
    %c/%-8.*s ]" with the message on the next line and an empty line
    after it; -v uid puts "%5s:" before the pid ("%5s " in threadtime),
    -v year "%Y-" before the date, -v usec six digits of the second."""
    mods = LOGCAT_STYLES[style]
    out = [b"--------- beginning of kernel\n"]
    for r in _records(records):
        t, _, level, _, _ = r
        tag, msg = logd_tag(text_of(r, with_ids))
        prio = b"FFFEWIIID"[level:level + 1]
        when = _when(t)
        stamp = when.strftime("%Y-%m-%d %H:%M:%S" if "year" in mods
                              else "%m-%d %H:%M:%S").encode()
        stamp += (b".%06d" % when.microsecond if "usec" in mods
                  else b".%03d" % (when.microsecond // 1000))
        uid = b" root" if "uid" in mods else b""
        if "long" in mods:
            out.append(b"[ %s %s%5d:%5d %s/%-8s ]\n%s\n\n" % (
                stamp, uid + b":" if uid else b"", 0, 0, prio, tag, msg))
        elif "brief" in mods or "time" in mods:
            out.append(b"%s%s/%-8s(%s%5d): %s\n" % (
                stamp + b" " if "time" in mods else b"", prio, tag,
                uid + b":" if uid else b"", 0, msg))
        else:
            out.append(b"%s %s%5d %5d %s %-8s: %s\n" % (
                stamp, uid + b" " if uid else b"", 0, 0, prio, tag, msg))
    return b"".join(out)


#: The first line of a pstore/ramoops dmesg dump
#: (fs/pstore/platform.c: "%s#%d Part%u\n"); the records follow as the
#: syslog(2) buffer has them.
PSTORE_HEADER = b"Panic#1 Part1\n"


DMESG_OPTIONS = {
    "dmesg": [],
    "dmesg-r": ["-r"],
    "dmesg-T": ["-T"],
    "dmesg-x": ["-x"],
    "dmesg-iso": ["--time-format=iso"],
    "dmesg-delta": ["-d"],
    "dmesg-t": ["-t"],
}


def write_forms(directory: str, with_ids: bool,
                records: Optional[list] = None) -> dict[str, str]:
    """Write the boot in every form into @directory; return form ->
    path."""
    forms: dict[str, bytes] = {
        "kmsg": kmsg(with_ids, records=records),
        "kern.log": syslog_file(with_ids, False, records=records),
        "kern.log-rfc3339": syslog_file(with_ids, True, records=records),
        "journal-json": journal_json(with_ids, records=records),
        "journal-json-bytes": journal_json(with_ids, True, records=records),
        "journal-export": journal_export(with_ids, records=records),
        "journal-export-binary": journal_export(with_ids, True,
                                                records=records),
        "pstore": PSTORE_HEADER + syslog_buffer(with_ids, records=records),
        "serial-caller": b"".join(
            b"[%12.6f][    T1] %s\n" % (r[0], text_of(r, with_ids))
            for r in _records(records)),
    }
    for style in ("short", "short-precise", "short-iso", "short-monotonic"):
        forms["journal-" + style] = journal_short(with_ids, style,
                                                  records=records)
    for style in LOGCAT_STYLES:
        forms["logcat-" + style] = logcat(with_ids, style, records=records)
    dmesg = shutil.which("dmesg")
    if dmesg:
        buf = os.path.join(directory, "syslog-buffer")
        with open(buf, "wb") as f:
            f.write(syslog_buffer(with_ids, records=records))
        for name, options in DMESG_OPTIONS.items():
            forms[name] = subprocess.run(
                [dmesg, "-F", buf] + options, check=True,
                capture_output=True, env=dict(os.environ, TZ="UTC",
                                              LC_ALL="C")).stdout
    paths = {}
    for name, data in forms.items():
        paths[name] = os.path.join(directory, name)
        with open(paths[name], "wb") as f:
            f.write(data)
    return paths
