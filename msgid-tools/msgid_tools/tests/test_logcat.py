# SPDX-License-Identifier: GPL-2.0
"""Android's logcat -b kernel (msgid_tools.logreader, form "logcat").

Real logcat output of kernels without IDs (tests/logcat/, SOURCES):
user space labelled, the kernel's text put back together from logd's tag
and message, 0 wrong IDs.  The forms of a kernel that prints IDs are
built by logforms.logcat() and read in test_logreader.FormsTest; here
single lines of every form logcat prints.
"""

import json
import os
import unittest

from msgid_tools.logreader import LogReader, logcat_text
from msgid_tools.tests import clirun, logforms

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "logcat")

#: Entries of the printk index of 7.3.4 (the demo kernel's) whose
#: formats printed lines of tests/logcat/wsa-5.10.log.
INDEX = b"".join(b'<%s> %s %s "%s" msgid=%s\n' % row for row in [
    (b"6", b"arch/x86/kernel/cpu/bugs.c:2252", b"spectre_v2_update_mitigation",
     b"Spectre V2 : %s\\n", b"f3dfc05e"),
    (b"6", b"arch/x86/kernel/e820.c:1284", b"e820__memory_setup",
     b"BIOS-provided physical RAM map:\\n", b"d4b5af55"),
    (b"6", b"arch/x86/kernel/fpu/xstate.c:308", b"print_xstate_features",
     b"x86/fpu: Supporting XSAVE feature 0x%03Lx: '%s'\\n", b"6d7d6231"),
    (b"6", b"arch/x86/kernel/setup.c:863", b"x86_report_nx",
     b"NX (Execute Disable) protection: active\\n", b"42c04777"),
    (b"6", b"arch/x86/kernel/setup.c:909", b"setup_arch",
     b"Command line: %s\\n", b"1889f510"),
    (b"6", b"arch/x86/kernel/tsc.c:1472", b"determine_cpu_tsc_frequencies",
     b"tsc: Detected %lu.%03lu MHz processor\\n", b"da4f13f6"),
    (b"6", b"drivers/acpi/tables.c:718", b"acpi_locate_initial_tables",
     b"ACPI: Early table checksum verification disabled\\n", b"e5a2a13b"),
    (b"6", b"drivers/pci/probe.c:1137", b"pci_register_host_bridge",
     b"%s %s: root bus resource %pR%s\\n", b"6956158d"),
    (b"6", b"drivers/pci/probe.c:2087", b"pci_setup_device",
     b"%s %s: [%04x:%04x] type %02x class %#08x %s\\n", b"7db3a42b"),
    (b"6", b"init/main.c:1477", b"run_init_process",
     b"Run %s as init process\\n", b"c2ada62f"),
    (b"6", b"kernel/time/clocksource.c:1157", b"__clocksource_select",
     b"clocksource: Switched to clocksource %s\\n", b"26b3d371"),
    (b"6", b"mm/memblock.c:959", b"free_reserved_area",
     b"Freeing %s memory: %ldK\\n", b"d1a7a7bb"),
    (b"6", b"mm/mm_init.c:1793", b"free_area_init",
     b"Zone ranges:\\n", b"fab765a5"),
    (b"7", b"init/main.c:1478", b"run_init_process",
     b"  with arguments:\\n", b"b6831b67"),
    (b"7", b"arch/x86/kernel/e820.c:488", b"__e820__range_update",
     b"e820: update [mem %#010Lx-%#010Lx]", b"74ba53d5"),
])

#: The records of wsa-5.10.log printed by a format of INDEX (the start of
#: the kernel's text) and its ID.
TRUTH = {
    "Command line: initrd=": "1889f510",
    "x86/fpu: Supporting XSAVE feature 0x001": "6d7d6231",
    "BIOS-provided physical RAM map:": "d4b5af55",
    "NX (Execute Disable) protection: active": "42c04777",
    "tsc: Detected 2111.999 MHz processor": "da4f13f6",
    "e820: update [mem 0x00000000-0x00000fff]": "74ba53d5",
    "ACPI: Early table checksum verification disabled": "e5a2a13b",
    "Zone ranges:": "fab765a5",
    "clocksource: Switched to clocksource": "26b3d371",
    "pci_bus 677c:00: root bus resource": "6956158d",
    "Freeing unused kernel image (initmem) memory: 1524K": "d1a7a7bb",
    "Run /init as init process": "c2ada62f",
    # printed by these formats, but logd lost what tells them: the
    # spaces in front of "  with arguments:", the one of "Spectre V2 :";
    # and 5.10's pci_setup_device() printed no class name (" %s") yet
    "with arguments:": "b6831b67",
    "Spectre V2: Mitigation: Full generic retpoline": "f3dfc05e",
    "pci 677c:00:00.0: [1af4:1043] type 00 class 0x010000": "7db3a42b",
}
#: Those that are identified now: 12, and "with arguments:" since runs
#: of blanks match as pasted logs carry them (issue 48: logd took the
#: two spaces in front of it).
IDENTIFIED = 13

#: Lines of user space in each file: (their number, the tags).
USER = {
    "wsa-5.10.log": (7, {"auditd", "init", "selinux"}),
    "pixel3xl-los22.log": (19, {"GnssLocationProvider[1910]", "init",
                                "libprocessgroup", "QCALOG[1299]",
                                "QCALOG[8790]", "LocSvc_utils_cfg",
                                "LOWI-8.6.0.26"}),
    "loganalysis-4.4.log": (7, {"init", "ActivityManager[938]"}),
}


class RealLogcatTest(unittest.TestCase):
    """tests/logcat/: real logcat output, kernels without IDs."""

    def setUp(self) -> None:
        _, self.db = clirun.index_db(self, INDEX)

    def annotate(self, name: str) -> list[dict]:
        status, out, err = clirun.run(["--db", self.db, "annotate",
                                       "--json", os.path.join(HERE, name)])
        self.assertEqual(status, 0, err)
        return [json.loads(x) for x in out.splitlines()]

    def test_sources(self) -> None:
        """Every file is named in SOURCES, with its origin."""
        with open(os.path.join(HERE, "SOURCES"), encoding="utf-8") as f:
            rows = [line.rstrip("\n").split("\t") for line in f
                    if line.strip() and not line.startswith("#")]
        self.assertEqual(sorted(r[0] for r in rows),
                         sorted(n for n in os.listdir(HERE)
                                if n.endswith(".log")))
        for row in rows:
            self.assertEqual(len(row), 6, row)
            self.assertRegex(row[3], r"^[0-9a-f]{40}$")

    def test_user_space_is_labelled(self) -> None:
        for name, (count, tags) in USER.items():
            with self.subTest(name):
                objs = self.annotate(name)
                user = [o for o in objs if o.get("origin") == "user"]
                self.assertEqual(len(user), count)
                self.assertEqual({o["tag"] for o in user}, tags)
                self.assertTrue(all(o["id"] is None for o in user))
                self.assertEqual({o["format"] for o in objs}, {"logcat"})

    def test_kernel_records(self) -> None:
        """The kernel's records of WSA's log: 0 wrong, the texts put back
        as the kernel printed them."""
        objs = self.annotate("wsa-5.10.log")
        kernel = [o for o in objs if o.get("origin") == "kernel"]
        self.assertEqual(len(kernel), 40 - 3 - 7)   # (buffer lines, user)
        reader = LogReader()
        texts = {}
        for o in objs:
            texts[o["line"]] = reader.parse(o["line"].encode()).text.decode()
        identified = 0
        for o in kernel:
            text = texts[o["line"]]
            truth = [i for start, i in TRUTH.items() if text.startswith(start)]
            if o["id"] is not None:
                self.assertEqual([o["id"]], truth, o)
                self.assertEqual(o["id_from"], "match")
                identified += 1
        self.assertEqual(identified, IDENTIFIED)
        for line, text in (
                ("I pci_bus 677c: 00: root bus",
                 "pci_bus 677c:00: root bus resource [mem 0xac7e00000-"
                 "0xac7e02fff window]"),
                ("I pci 677c: 00:00.0: BAR 0",
                 "pci 677c:00:00.0: BAR 0: assigned [mem 0xac7e00000-"
                 "0xac7e00fff 64bit]"),
                ("I sd 0    : 0:0:0: [sda]",
                 "sd 0:0:0:0: [sda] Attached SCSI disk"),
                ("I rtc_cmos 00: 02: RTC", "rtc_cmos 00:02: RTC can wake "
                 "from S4"),
                ("I Zone ranges:  ", "Zone ranges:"),
                ("I         : Intel GenuineIntel", "Intel GenuineIntel")):
            got = [t for x, t in texts.items() if line in x]
            self.assertEqual(got, [text], line)

    def test_other_kernels_with_logd_prefixes(self) -> None:
        """Kernel 4.4 of loganalysis-4.4.log: "CPU features: ..." keeps
        its two-word tag."""
        objs = self.annotate("loganalysis-4.4.log")
        reader = LogReader()
        texts = [reader.parse(o["line"].encode()).text for o in objs
                 if o.get("origin") == "kernel"]
        self.assertEqual(texts[:2], [
            b"Linux version 4.4.177 (Kernel Boot Started)",
            b"CPU features: detected feature: GIC system register CPU "
            b"interface"])


class LogcatLineTest(unittest.TestCase):
    """One record of an ID-printing kernel in every form logcat prints
    (liblog/logprint.cpp, see tests/logcat/SOURCES)."""

    ID = "25684dc3"
    TEXT = b"test_msgid: [Hardware Error]: CPU 0: Machine Check"

    def test_forms(self) -> None:
        tag, msg = b"(%s)" % self.ID.encode(), self.TEXT
        lines = {
            "threadtime": b"12-06 18:45:46.980     0     0 F %s: %s",
            "brief": b"F/%s(    0): %s",
            "time": b"12-06 18:45:46.980 F/%s(    0): %s",
            "threadtime year usec zone uid":
                b"2026-12-06 18:45:46.980129 +0000  root     0     0 F %s: %s",
            "brief uid": b"F/%s( root:    0): %s",
            "epoch": b"         1796582746.980     0     0 F %s: %s",
            "monotonic": b"    46.980     0     0 F %s: %s",
            "color": b"\x1b[31m12-06 18:45:46.980     0     0 F %s: %s\x1b[0m",
        }
        for what, shape in lines.items():
            line = shape % (tag, msg)
            r = LogReader().parse(line)
            self.assertEqual((r.form, r.msgid, r.text, r.origin),
                             ("logcat", self.ID, self.TEXT, "kernel"), what)
        reader = LogReader()
        head = reader.parse(b"[ 12-06 18:45:46.980     0:    0 F/%s ]" % tag)
        self.assertFalse(head.is_record)
        r = reader.parse(msg)
        self.assertEqual((r.form, r.msgid, r.text), ("logcat", self.ID,
                                                     self.TEXT))
        self.assertFalse(reader.parse(b"").is_record)
        # -v tag shows neither time nor pid: read once logcat is known
        r = reader.parse(b"F/%s: %s" % (tag, msg))
        self.assertEqual((r.form, r.msgid), ("logcat", self.ID))

    def test_logd_tags(self) -> None:
        """The kernel's text from logd's tag and message."""
        for tag, msg, text in (
                (b"", b"Run /init as init process",
                 b"Run /init as init process"),
                (b"kernel", b"Run /init", b"Run /init"),
                (b"ACPI    ", b"Early table", b"ACPI: Early table"),
                (b"Command line", b"x", b"Command line: x"),
                (b"pci 0000", b"00:01.0: PIIX3: Enabling Passive Release",
                 b"pci 0000:00:01.0: PIIX3: Enabling Passive Release"),
                (b"usb 1-1", b"1.0: config 1 has an invalid descriptor",
                 b"usb 1-1:1.0: config 1 has an invalid descriptor"),
                (b"usb 1-1", b"new high-speed USB device number 2",
                 b"usb 1-1: new high-speed USB device number 2"),
                (b"e820", b"update [mem 0x00000000-0x00000fff]",
                 b"e820: update [mem 0x00000000-0x00000fff]"),
                (b"Zone ranges", b" ", b"Zone ranges:"),
                (b"", b"c2      1 init: processing action",
                 b"init: processing action"),
                (b"(25684dc3)", b"pci 0000:00:01.0: x",
                 b"(25684dc3): pci 0000:00:01.0: x")):
            self.assertEqual(logcat_text(tag, msg), text, (tag, msg))

    def test_origins(self) -> None:
        """pid 0: the kernel's buffer (its text tells user space); a
        thread of another process: a program's; another pid: a program's
        unless the log is the kernel's buffer alone."""
        line = b"12-06 18:45:46.980 %5d %5d I tsc     : Detected 2 MHz"
        r = LogReader().parse(line % (0, 0))
        self.assertEqual((r.origin, r.maybe_user), ("kernel", False))
        r = LogReader().parse(line % (938, 1111))
        self.assertEqual((r.origin, r.sure, r.tag), ("user", True,
                                                     "tsc[938]"))
        r = LogReader().parse(line % (938, 938))
        self.assertEqual((r.origin, r.maybe_user, r.tag),
                         ("kernel", True, "tsc"))
        reader = LogReader()
        reader.parse(b"--------- beginning of kernel")
        r = reader.parse(line % (938, 938))
        self.assertEqual((r.origin, r.maybe_user), ("kernel", False))
        reader.parse(b"--------- switch to main")
        r = reader.parse(line % (938, 938))
        self.assertTrue(r.maybe_user)
        r = LogReader().parse(b"12-06 18:45:46.980     0     0 I init    : "
                              b"init first stage started!")
        self.assertEqual((r.text, r.maybe_user, r.tag),
                         (b"init: init first stage started!", True, "init"))

    def test_not_logcat(self) -> None:
        for line, form in (
                (b"[    0.000000] BIOS-e820: [mem 0x0-0x9fbff]", "dmesg"),
                (b"[   46.980] [ 1.0 ]", "dmesg"),
                (b"I/O error: dev sda, sector 0", "plain"),
                (b"--------- beginning of the end of it all", "plain"),
                (b"\x1b[31mred\x1b[0m", "plain")):
            self.assertEqual(LogReader().parse(line).form, form, line)
        # --format logcat reads nothing else
        r = LogReader("logcat").parse(b"6,1,2,-;hello")
        self.assertEqual(r.form, "plain")


class LogcatCliTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp, self.db = clirun.index_db(self, logforms.INDEX)

    def test_lookup_text(self) -> None:
        """lookup --text takes a pasted logcat line."""
        piix = logforms.ID[b"PIIX3: Enabling Passive Release"]
        status, out, err = clirun.run([
            "--db", self.db, "lookup", "--text", "12-06 18:45:46.980     0 "
            "    0 I pci 0000: 00:01.0: PIIX3: Enabling Passive Release"])
        self.assertEqual(status, 0, err)
        self.assertTrue(out.startswith(piix + "~ drivers/pci/quirks.c:332"),
                        out)

    def test_format_option(self) -> None:
        paths = logforms.write_forms(self.tmp, True)
        status, out, _ = clirun.run(["--db", self.db, "annotate", "--json",
                                     "--format", "logcat",
                                     paths["logcat-brief"]])
        self.assertEqual(status, 0)
        objs = [json.loads(x) for x in out.splitlines()]
        self.assertEqual({o["format"] for o in objs}, {"logcat"})
        self.assertEqual(sum(o.get("id_from") == "prefix" for o in objs),
                         logforms.KERNEL_RECORDS)
        status, out, _ = clirun.run(["--db", self.db, "annotate", "--json",
                                     "--format", "logcat", paths["kmsg"]])
        self.assertEqual({json.loads(x)["format"] for x in out.splitlines()},
                         {"plain"})


if __name__ == "__main__":
    unittest.main()
