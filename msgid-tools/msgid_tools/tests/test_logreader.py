# SPDX-License-Identifier: GPL-2.0
"""The log reader (msgid_tools.logreader) on every form of one boot log
(tests/logforms.py), and annotate's answers on them: 0 wrong IDs, every
printed ID honoured, user space labelled."""

import contextlib
import io
import json
import os
import tempfile
import unittest

from msgid_tools import database
from msgid_tools import cli
from msgid_tools import logreader, match
from msgid_tools.dmesg import Annotator
from msgid_tools.logreader import LogReader
from msgid_tools.tests import clirun, logforms
from msgid_tools.tests.logforms import ID, KERNEL_RECORDS, RECORDS, USER_RECORDS

#: Forms built here, and those util-linux's dmesg prints (if installed).
BUILT = ["kmsg", "kern.log", "kern.log-rfc3339", "journal-json",
         "journal-json-bytes", "serial-caller", "journal-short",
         "journal-short-precise", "journal-short-iso",
         "journal-short-monotonic"]
#: The form name the reader gives each file.
FORM = {"kmsg": "kmsg", "kern.log": "syslog", "kern.log-rfc3339": "syslog",
        "journal-json": "json", "journal-json-bytes": "json",
        "serial-caller": "dmesg", "journal-short": "syslog",
        "journal-short-precise": "syslog", "journal-short-iso": "syslog",
        "journal-short-monotonic": "syslog", "dmesg": "dmesg",
        "journal-export": "export", "journal-export-binary": "export",
        "pstore": "dmesg",
        "dmesg-r": "dmesg", "dmesg-T": "dmesg", "dmesg-x": "dmesg",
        "dmesg-iso": "dmesg", "dmesg-delta": "dmesg", "dmesg-t": "plain"}
FORM.update(("logcat-" + style, "logcat") for style in logforms.LOGCAT_STYLES)


def run_text(argv: list[str]) -> tuple[int, str, str]:
    """cli.main() with a binary standard output (text-mode annotate)."""
    raw, err = io.BytesIO(), io.StringIO()
    out = io.TextIOWrapper(raw, encoding="utf-8")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = cli.main(argv)
        except SystemExit as e:
            status = e.code  # type: ignore[assignment]
        out.flush()
    return status, raw.getvalue().decode(), err.getvalue()


class Tally:
    """What annotate --json said about one file, against the truth."""

    def __init__(self) -> None:
        self.right = self.wrong = self.missed = self.user = 0
        self.honoured = 0
        self.errors: list[str] = []


def tally(objs: list[dict], with_ids: bool) -> Tally:
    t = Tally()
    assert len(objs) == len(RECORDS), len(objs)
    for obj, (_, _, _, canon, text) in zip(objs, RECORDS):
        if canon is None:
            if obj.get("origin") == "user" and obj["id"] is None:
                t.user += 1
            else:
                t.errors.append("user record taken for kernel: %r" % obj)
            continue
        if obj.get("origin") != "kernel":
            t.errors.append("kernel record not kernel: %r" % obj)
        if obj["id"] is None:
            t.missed += 1
            t.errors.append("missed: %r" % obj)
        elif obj["id"] == ID[canon]:
            t.right += 1
            t.honoured += with_ids and obj["id_from"] == "prefix"
        else:
            t.wrong += 1
            t.errors.append("wrong: %r" % obj)
    return t


class FormsBase(unittest.TestCase):
    """A database of logforms.INDEX and the boot in every form."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        index = os.path.join(cls.tmp.name, "index")
        os.mkdir(index)
        with open(os.path.join(index, "vmlinux"), "wb") as f:
            f.write(logforms.INDEX)
        cls.db = os.path.join(cls.tmp.name, "msgid.db")
        status, _, err = clirun.run(["--db", cls.db, "build", "--index-dir",
                                     index])
        assert status == 0, err
        cls.forms = {}
        for with_ids in (True, False):
            d = os.path.join(cls.tmp.name, "ids" if with_ids else "stripped")
            os.mkdir(d)
            cls.forms[with_ids] = logforms.write_forms(d, with_ids)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()


class FormsTest(FormsBase):
    """Every form, with the IDs and with them stripped."""

    def annotate_json(self, path: str) -> list[dict]:
        status, out, err = clirun.run(["--db", self.db, "annotate",
                                       "--json", path])
        self.assertEqual(status, 0, err)
        return [json.loads(x) for x in out.splitlines()]

    def check_form(self, name: str) -> None:
        for with_ids in (True, False):
            path = self.forms[with_ids].get(name)
            if path is None:
                self.skipTest("no dmesg binary: %s not generated" % name)
            what = "%s %s" % (name, "with IDs" if with_ids else "stripped")
            objs = [o for o in self.annotate_json(path)
                    if o.get("origin")]     # the records, not the fields
            if name == "pstore":
                # (the dump's header line, which no format matches)
                self.assertEqual(objs[0]["line"], "Panic#1 Part1")
                self.assertIsNone(objs[0]["id"])
                objs = objs[1:]
            t = tally(objs, with_ids)
            self.assertEqual(t.errors, [], what)
            self.assertEqual((t.right, t.wrong, t.missed, t.user),
                             (KERNEL_RECORDS, 0, 0, USER_RECORDS), what)
            if with_ids:
                self.assertEqual(t.honoured, KERNEL_RECORDS, what)
            self.assertEqual({o["format"] for o in objs
                              if o["line"] != "Panic#1 Part1"},
                             {FORM[name]}, what)

    def test_kmsg(self) -> None:
        self.check_form("kmsg")

    def test_kern_log(self) -> None:
        """Issue 37 point 1: "Dec  6 18:45:46 host kernel: [   46.980129]
        text" is matched on its text, not on the whole line."""
        self.check_form("kern.log")

    def test_kern_log_rfc3339(self) -> None:
        self.check_form("kern.log-rfc3339")

    def test_journal_json(self) -> None:
        """Issue 37 point 2: the MESSAGE field of journalctl -o json."""
        self.check_form("journal-json")

    def test_journal_json_byte_array(self) -> None:
        self.check_form("journal-json-bytes")

    def test_journal_export(self) -> None:
        """journalctl -o export, MESSAGE as text and as binary."""
        self.check_form("journal-export")
        self.check_form("journal-export-binary")

    def test_pstore_dump(self) -> None:
        """A ramoops dump (/sys/fs/pstore/dmesg-ramoops-0)."""
        self.check_form("pstore")

    def test_serial_with_caller(self) -> None:
        self.check_form("serial-caller")

    def test_journal_short_forms(self) -> None:
        for style in ("short", "short-precise", "short-iso",
                      "short-monotonic"):
            with self.subTest(style):
                self.check_form("journal-" + style)

    def test_dmesg_forms(self) -> None:
        """util-linux dmesg's own output: plain, -r, -T, -x, -d, -t and
        --time-format=iso (issue 37 point 2)."""
        for name in logforms.DMESG_OPTIONS:
            with self.subTest(name):
                self.check_form(name)

    def test_logcat_forms(self) -> None:
        """Android's logcat -b kernel, -v threadtime (the default), brief,
        time, long and threadtime with -v year,usec,uid: the tag logd
        took out of each record is put back, a printed ID is the tag
        "(xxxxxxxx)"."""
        for style in logforms.LOGCAT_STYLES:
            with self.subTest(style):
                self.check_form("logcat-" + style)

    def test_logcat_text_output(self) -> None:
        """-v long: the annotation follows the message line."""
        status, out, _ = run_text(["--db", self.db, "annotate",
                                   self.forms[True]["logcat-long"]])
        self.assertEqual(status, 0)
        mce = ID[logforms.SITES[6][3]]
        self.assertIn("[ 12-06 18:45:46.980     0:    0 F/(%s) ]\n"
                      "mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank "
                      "4: b200000000070005\n"
                      "  -> arch/x86/kernel/cpu/mce/core.c:176 __print_mce "
                      "<0> [hardware]\n"
                      "  -- Subject: Machine check exception reported by the "
                      "CPU\n\n" % mce, out)
        self.assertEqual(out.count("  u> origin: user"), USER_RECORDS)
        status, out, _ = run_text(["--db", self.db, "annotate",
                                   self.forms[False]["logcat-threadtime"]])
        self.assertIn("I init    : Loading properties from /system/build.prop"
                      "\n  u> origin: user (init), not a kernel message\n",
                      out)
        self.assertIn("E libprocessgroup: Failed to create cgroup uid 0\n"
                      "  u> origin: user (libprocessgroup), not a kernel "
                      "message\n", out)

    def test_stats_leave_user_space_out(self) -> None:
        """User-space records are counted apart, not as lines the
        matcher missed."""
        db = database.open_db(self.db)
        self.addCleanup(db.close)
        a = Annotator(database.SiteMap(db), matcher=match.load(db))
        with open(self.forms[True]["kern.log"], "rb") as f:
            stats = a.annotate(f, io.BytesIO())
        self.assertEqual((stats.with_id, stats.resolved, stats.user),
                         (KERNEL_RECORDS, KERNEL_RECORDS, USER_RECORDS))

    def test_figures_leave_user_space_out(self) -> None:
        """msgid_tools.figures (make bench-db, the boot log tests): records
        of user space count neither as records nor as early records."""
        from msgid_tools import figures
        path = os.path.join(self.tmp.name, "boot-for-figures.log")
        with open(path, "wb") as f:
            for n, rec in enumerate(RECORDS):
                # the first three before the switch: no ID
                f.write(b"[%12.6f] %s\n" % (rec[0], logforms.text_of(
                    rec, n >= 3)))
        fig = figures.match_figures(self.db, path)
        early_user = sum(1 for r in RECORDS[:3] if r[3] is None)
        self.assertEqual(early_user, 0)
        self.assertEqual((fig.early, fig.records, fig.right, len(fig.wrong)),
                         (3, KERNEL_RECORDS - 3, KERNEL_RECORDS - 3, 0))
        # user space before the switch is no early record either
        with open(path, "wb") as f:
            f.write(b"[    0.5] systemd[1]: Started Journal Service.\n"
                    b"[    0.6] (%s): Run /init as init process\n"
                    % ID[b"Run %s as init process"].encode())
        fig = figures.match_figures(self.db, path)
        self.assertEqual((fig.early, fig.records), (0, 1))

    def test_text_output_labels_user_space(self) -> None:
        status, out, _ = run_text(["--db", self.db, "annotate",
                                   self.forms[False]["kern.log"]])
        self.assertEqual(status, 0)
        self.assertIn("demo systemd[1]: Started Journal Service.\n"
                      "  u> origin: user (systemd[1]), not a kernel "
                      "message\n", out)
        self.assertIn("  u> origin: user (init), not a kernel message\n",
                      out)
        self.assertEqual(out.count("  u> origin: user"), USER_RECORDS)


    def test_formats_named_in_cli(self) -> None:
        self.assertEqual(cli.LOG_FORMATS, logreader.FORMATS)

    def test_unknown_ids_are_summed_up(self) -> None:
        """A database of another kernel says so on stderr."""
        path = os.path.join(self.tmp.name, "other-kernel.log")
        with open(path, "wb") as f:
            f.write(b"[    1.0] (deadbeef): from another kernel\n"
                    b"[    1.1] (%s): Run /init as init process\n"
                    % ID[b"Run %s as init process"].encode())
        outs = []
        for argv in (["annotate", path], ["annotate", "--json", path]):
            status, out, err = run_text(["--db", self.db] + argv)
            self.assertEqual(status, 0)
            self.assertIn("1 of 2 printed IDs unknown: is this database "
                          "built from this kernel?", err)
            outs.append(out)
        self.assertIn("  ?? (deadbeef) is not in the database", outs[0])
        self.assertTrue(json.loads(outs[1].splitlines()[0])["unknown"])

    def test_another_release_is_named(self) -> None:
        """The log's "Linux version" against the database's release."""
        from msgid_tools import database as db_mod
        db = os.path.join(self.tmp.name, "release.db")
        db_mod.write(db, db_mod.open_db(self.db).all_sites(),
                     {"kernel_release": "7.3.4"})
        path = os.path.join(self.tmp.name, "release.log")
        for release, warned in (("6.12.9", True), ("7.3.4", False)):
            with open(path, "wb") as f:
                f.write(b"[    0.000000] Linux version %s (gcc 14) #1 SMP\n"
                        % release.encode())
            for argv in (["annotate", path], ["annotate", "--json", path]):
                status, _, err = run_text(["--db", db] + argv)
                self.assertEqual(status, 0)
                self.assertEqual("the log is of kernel %s (its 'Linux "
                                 "version' record), the database of 7.3.4"
                                 % release in err, warned, err)

    def test_format_option(self) -> None:
        """--format kmsg reads /dev/kmsg records only: a syslog line is
        then taken as it is."""
        status, out, _ = clirun.run(["--db", self.db, "annotate", "--json",
                                     "--format", "kmsg",
                                     self.forms[True]["kern.log"]])
        self.assertEqual(status, 0)
        self.assertEqual({json.loads(x)["format"] for x in out.splitlines()},
                         {"plain"})


def records_only(data: bytes) -> bytes:
    """@data without logcat's "--------- beginning of kernel" line."""
    return b"".join(x for x in data.splitlines(True)
                    if not x.startswith(b"--------- "))


def wrap(data: bytes, width: int, at_spaces: bool) -> list[list[bytes]]:
    """The lines of @data as a terminal (every @width bytes) or a mail
    program (at the last space before @width, the space dropped) wraps
    them: for each input line, its pieces."""
    out = []
    for line in data.splitlines():
        pieces = []
        while len(line) > width:
            cut = line.rfind(b" ", 0, width) if at_spaces else width
            if cut <= 0:
                cut = width
            pieces.append(line[:cut])
            line = line[cut + 1 if at_spaces and line[cut:cut + 1] == b" "
                        else cut:]
        pieces.append(line)
        out.append(pieces)
    return out


class WrappedTest(FormsBase):
    """Issue 37 point 3: a line wrapped by a terminal or a mail program.
    Its pieces are never matched alone; the record is matched on its
    pieces joined."""

    def run_wrapped(self, name: str, width: int, at_spaces: bool
                    ) -> tuple[int, int]:
        """(identified, wrong) of the kernel records of form @name,
        stripped, wrapped."""
        with open(self.forms[False][name], "rb") as f:
            records = wrap(records_only(f.read()), width, at_spaces)
        path = os.path.join(self.tmp.name, "wrapped-%s-%d" % (name, width))
        with open(path, "wb") as f:
            f.write(b"".join(p + b"\n" for pieces in records for p in pieces))
        status, out, _ = run_text(["--db", self.db, "annotate", path])
        self.assertEqual(status, 0)
        # the IDs named after each record's pieces
        found: list[list[str]] = [[] for _ in records]
        pieces = [(i, p) for i, ps in enumerate(records) for p in ps]
        k = -1
        for line in out.splitlines():
            if line.startswith("  "):
                if line.startswith("  ~> ("):
                    found[pieces[k][0]].append(line[6:14])
                continue
            k += 1
            self.assertEqual(line.encode(), pieces[k][1])
        identified = wrong = 0
        for ids_found, rec in zip(found, RECORDS):
            canon = rec[3]
            if canon is None:
                self.assertEqual(ids_found, [], rec)
                continue
            wrong += any(i != ID[canon] for i in ids_found)
            identified += ID[canon] in ids_found
        return identified, wrong

    def test_wrapped_lines(self) -> None:
        for name in ("kern.log", "journal-short", "serial-caller",
                     "logcat-threadtime"):
            for width, at_spaces in ((80, False), (72, True)):
                what = "%s at %d" % (name, width)
                identified, wrong = self.run_wrapped(name, width, at_spaces)
                self.assertEqual(wrong, 0, what)
                self.assertEqual(identified, KERNEL_RECORDS, what)

    def test_wrapped_lines_json(self) -> None:
        """annotate --json joins the wrapped lines as the text does: the
        object of the line that completes a record names the numbers of
        the lines joined, their text and its ID ("id_from": "joined")."""
        for name in ("kern.log", "journal-short", "serial-caller",
                     "logcat-threadtime"):
            for width, at_spaces in ((80, False), (72, True)):
                what = "%s at %d" % (name, width)
                with open(self.forms[False][name], "rb") as f:
                    records = wrap(records_only(f.read()), width, at_spaces)
                path = os.path.join(self.tmp.name, "wrapped.json.log")
                with open(path, "wb") as f:
                    f.write(b"".join(p + b"\n" for ps in records
                                     for p in ps))
                status, out, _ = clirun.run(["--db", self.db, "annotate",
                                             "--json", path])
                self.assertEqual(status, 0)
                objs = [json.loads(x) for x in out.splitlines()]
                # each input line's record, and the numbers of its lines
                owner = [i for i, ps in enumerate(records) for _ in ps]
                first = [sum(len(ps) for ps in records[:i]) + 1
                         for i in range(len(records))]
                self.assertEqual(len(objs), len(owner), what)
                identified = wrong = joins = 0
                for i, rec in enumerate(RECORDS):
                    mine = [o for o, k in zip(objs, owner) if k == i]
                    self.assertFalse(mine[0].get("fragment"), what)
                    ids = [o["id"] for o in mine if o["id"]]
                    for n, o in enumerate(mine[1:], 2):
                        self.assertTrue(o["fragment"], what)
                        if o["id_from"] != "joined":
                            self.assertIsNone(o["id"], what)
                            continue
                        joins += 1
                        lines = o["joined_lines"]
                        self.assertEqual(lines[0], first[i], what)
                        self.assertEqual(lines[-1], first[i] + n - 1, what)
                        self.assertEqual(o["origin"], "kernel", what)
                        self.assertTrue(o["sites"], what)
                    if rec[3] is None:
                        self.assertEqual(ids, [], (what, rec))
                        continue
                    wrong += any(x != ID[rec[3]] for x in ids)
                    identified += ID[rec[3]] in ids
                self.assertEqual(wrong, 0, what)
                self.assertEqual(identified, KERNEL_RECORDS, what)
                self.assertGreater(joins, 0, what)

    def test_joined_object(self) -> None:
        """One record wrapped by a terminal: the second line's object."""
        text = b"mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 4: " \
            b"b200000000070005"
        line = b"Dec  6 18:45:46 demo kernel: [   46.980129] " + text
        path = os.path.join(self.tmp.name, "one-wrapped.log")
        with open(path, "wb") as f:
            f.write(b"[    1.366100] Run /init as init process\n"
                    + line[:80] + b"\n" + line[80:] + b"\n")
        status, out, _ = clirun.run(["--db", self.db, "annotate", "--json",
                                     path])
        self.assertEqual(status, 0)
        objs = [json.loads(x) for x in out.splitlines()]
        mce = ID[logforms.SITES[6][3]]
        self.assertNotEqual(objs[1]["id"], mce)
        self.assertEqual(
            {k: objs[2][k] for k in ("fragment", "joined_lines", "text",
                                     "id", "id_from", "origin", "class")},
            {"fragment": True, "joined_lines": [2, 3],
             "text": text.decode(), "id": mce, "id_from": "joined",
             "origin": "kernel", "class": "hardware"})
        self.assertEqual(objs[2]["sites"][0]["file"],
                         "arch/x86/kernel/cpu/mce/core.c")
        # the same in text mode
        status, out, _ = run_text(["--db", self.db, "annotate", path])
        self.assertIn("  ~> (%s) matched by text, joined with the line after "
                      "it (wrapped)\n" % mce, out)

    def test_console_output_is_not_matched(self) -> None:
        """User space's console output between kernel records (a serial
        log) has no envelope: it is not matched."""
        path = os.path.join(self.tmp.name, "console.log")
        with open(path, "wb") as f:
            f.write(b"[    1.366100] Run /init as init process\n"
                    b"Run /init as init process\n")
        status, out, _ = clirun.run(["--db", self.db, "annotate", "--json",
                                     path])
        objs = [json.loads(x) for x in out.splitlines()]
        self.assertEqual([o["id"] for o in objs],
                         [ID[b"Run %s as init process"], None])
        self.assertTrue(objs[1]["fragment"])


class ReaderTest(unittest.TestCase):
    """Single lines: envelopes, printed IDs, origins."""

    def parse(self, line: bytes, form: str = "auto"):
        return LogReader(form).parse(line)

    def test_printed_id_is_always_honoured(self) -> None:
        """A line that visibly carries "(xxxxxxxx): " keeps that ID, in
        any envelope, known or not."""
        for line in (
                b'{"MESSAGE": "(25684dc3): test_msgid: [Hardware Error]: x",'
                b' "_TRANSPORT": "kernel"}',
                b"2026-12-06T20:43:28,000000+00:00 (25684dc3): text",
                b"Dec  6 18:45:46 host kernel: [   46.980129] (25684dc3): t",
                b"12-06 18:45:46.980     0     0 I         : (25684dc3): t",
                b"text (25684dc3): in the middle"):
            rec = self.parse(line)
            self.assertEqual(rec.msgid, "25684dc3", line)

    def test_dmesg_negative_delta(self) -> None:
        """dmesg -d where the time went back (a boot's first records are
        stamped before the TSC is calibrated: 0.072000, then 0.001817):
        the record is read as dmesg, not taken for a wrapped line."""
        for line in (b"[    0.001817 <   -0.070183>] (9c75fefc): "
                     b"clocksource: tsc-early: mask: 0xffffffffffffffff",
                     b"[<   -0.070183>] (9c75fefc): clocksource: tsc-early"):
            rec = self.parse(line)
            self.assertEqual(rec.form, "dmesg", line)
            self.assertEqual(rec.msgid, "9c75fefc", line)
            self.assertTrue(rec.text.startswith(b"clocksource: "), line)

    def test_not_ids(self) -> None:
        for line in (b"[    1.2] (1a2b3c4): short", b"[ 1.2](1a2b3c4d):x",
                     b"[    1.2] (1A2B3C4D): upper", b"\xff(1a2b3c4d): x",
                     b"foo(1a2b3c4d): glued"):
            self.assertIsNone(self.parse(line).msgid, line)

    def test_json_message_as_bytes(self) -> None:
        line = json.dumps({"MESSAGE": list(b"(25684dc3): caf\xc3\x28"),
                           "_TRANSPORT": "kernel"}).encode()
        rec = self.parse(line)
        self.assertEqual((rec.form, rec.msgid, rec.text),
                         ("json", "25684dc3", b"caf\xc3\x28"))

    def test_json_user_space(self) -> None:
        for obj in ({"MESSAGE": "Started x.", "_TRANSPORT": "kernel",
                     "SYSLOG_FACILITY": "3", "SYSLOG_IDENTIFIER": "systemd",
                     "SYSLOG_PID": "1"},
                    {"MESSAGE": "Started x.", "_TRANSPORT": "journal",
                     "SYSLOG_IDENTIFIER": "systemd", "_PID": "1"}):
            rec = self.parse(json.dumps(obj).encode())
            self.assertEqual((rec.origin, rec.tag), ("user", "systemd[1]"))

    def test_json_seq_and_not_json(self) -> None:
        rec = self.parse(b'\x1e{"MESSAGE": "hello", "_TRANSPORT": "kernel"}')
        self.assertEqual((rec.form, rec.text), ("json", b"hello"))
        rec = self.parse(b"{not json")
        self.assertEqual((rec.form, rec.text), ("plain", b"{not json"))

    def test_dmesg_json(self) -> None:
        """dmesg --json: "pri" gives the facility of the "msg" after it."""
        reader = LogReader()
        lines = [b"{", b'   "dmesg": [', b"      {", b'         "pri": 30,',
                 b'         "time":     2.100000,',
                 b'         "msg": "systemd[1]: Started x."',
                 b"      },{", b'         "pri": 6,',
                 b'         "msg": "(42c04777): NX (Execute Disable) '
                 b'protection: active"', b"      }", b"   ]", b"}"]
        recs = [reader.parse(x) for x in lines]
        msgs = [r for r in recs if r.is_record and r.form == "dmesg-json"]
        self.assertEqual([(r.origin, r.msgid) for r in msgs],
                         [("user", None), ("kernel", "42c04777")])

    def test_device_prefix_is_not_a_syslog_tag(self) -> None:
        """"[ 1.0] usb 1-1: new ..." is dmesg, not journalctl's
        short-monotonic with host "usb"."""
        for line in (b"[    1.000000] usb 1-1: new high-speed USB device",
                     b"2026-12-06T20:43:28,000000+00:00 usb 1-1: new device"):
            rec = self.parse(line)
            self.assertEqual((rec.form, rec.origin), ("dmesg", "kernel"))
            self.assertTrue(rec.text.startswith(b"usb 1-1: new"))

    def test_forced_format(self) -> None:
        line = b"6,1,2,-;hello"
        self.assertEqual(self.parse(line, "kmsg").text, b"hello")
        self.assertEqual(self.parse(line, "syslog").form, "plain")
        with self.assertRaises(ValueError):
            LogReader("nonsense")


if __name__ == "__main__":
    unittest.main()
