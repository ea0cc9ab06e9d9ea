# SPDX-License-Identifier: GPL-2.0
"""Tests of log parsing and annotation (msgid_tools.dmesg)."""

import io
import json
import os
import time
import unittest
import zlib

from msgid_tools.catalog import Catalog, Entry
from msgid_tools.dmesg import JSON_SITES, Annotator

MCE = "%08x" % zlib.crc32(b"mce: [Hardware Error]: CPU %d: Machine Check%s: "
                          b"%Lx Bank %d: %016Lx")
GHES = "%08x" % zlib.crc32(b"%sHardware error from APEI Generic Hardware "
                           b"Error Source: %d")
SITES = {
    MCE: [("arch/x86/kernel/cpu/mce/core.c", 176, "__print_mce", "vmlinux",
           "hardware", "0")],
    GHES: [("drivers/acpi/apei/ghes.c", 870, "__ghes_print_estatus",
            "vmlinux", "none", "-1")],
    "0000abcd": [("a.c", n, "f", "m", "none", "6") for n in range(5)],
    "0000beef": [("?", 0, "?", "vmlinux", "none", "6"),
                 ("?", 0, "virtnet_probe", "virtio_net", "none", "-1")],
}
CATALOG = Catalog([Entry(MCE, "", "k.catalog", 1,
                         {"Subject": ["Machine check exception"]})])
TEXT = "mce: [Hardware Error]: CPU 0: Machine Check: 0 Bank 4: b200000000070005"

SHAPES = [
    "[    1.234567] (%s): " + TEXT,                      # dmesg, serial
    "<0>[    1.234567] (%s): " + TEXT,                   # dmesg -r
    "[Tue Dec  3 10:00:00 2024] (%s): " + TEXT,          # dmesg -T
    "[    1.234567] [    T1] (%s): " + TEXT,             # PRINTK_CALLER
    "kern  :emerg : [    1.234567] (%s): " + TEXT,       # dmesg -x
    "Dec 03 10:00:00 host kernel: (%s): " + TEXT,        # journalctl short
    "Dec 03 10:00:00.123456 host kernel: (%s): " + TEXT,  # short-precise
    "2024-12-03T10:00:00+0100 host kernel: (%s): " + TEXT,  # short-iso
    "[    1.234567] host kernel: (%s): " + TEXT,         # short-monotonic
    "(%s): " + TEXT,                                     # -o cat
    "0,123,456789,-;(%s): " + TEXT,                      # /dev/kmsg
    "0,123,456789,-,caller=T1;(%s): " + TEXT,            # kmsg + caller
]


def run(annotator: Annotator, data: bytes) -> bytes:
    out = io.BytesIO()
    annotator.annotate(io.BytesIO(data), out)
    return out.getvalue()


class FindTest(unittest.TestCase):
    def setUp(self) -> None:
        self.a = Annotator(SITES, CATALOG)

    def test_all_shapes(self) -> None:
        for shape in SHAPES:
            found = self.a.find((shape % MCE).encode())
            self.assertEqual(found, (MCE, TEXT.encode()), shape)

    def test_not_ids(self) -> None:
        for line in (b"[    1.2] no id here", b"[    1.2] (1a2b3c4): short",
                     b"[    1.2] (1A2B3C4D): upper", b"[    1.2](1a2b3c4d):x",
                     b"6,1,2,-;plain",
                     b" SUBSYSTEM=pci", b"", b"\xff\xfe(1a2b3c4d): x"):
            self.assertIsNone(self.a.find(line), line)

    def test_id_in_an_unknown_envelope(self) -> None:
        """Issue 37: a line that visibly carries an ID keeps it, also
        behind a header the reader does not know."""
        self.assertEqual(self.a.find(b"text (1a2b3c4d): in the middle"),
                         ("1a2b3c4d", b"in the middle"))


class AnnotateTest(unittest.TestCase):
    def setUp(self) -> None:
        self.a = Annotator(SITES, CATALOG)

    def test_annotation(self) -> None:
        line = ("[    1.234567] (%s): %s\n" % (MCE, TEXT)).encode()
        self.assertEqual(run(self.a, line), line + (
            b"  -> arch/x86/kernel/cpu/mce/core.c:176 __print_mce <0> "
            b"[hardware]\n"
            b"  -- Subject: Machine check exception\n"))

    def test_class_from_text(self) -> None:
        line = ("[ 9.1] (%s): {1}[Hardware Error]: Hardware error from APEI "
                "Generic Hardware Error Source: 0\n" % GHES).encode()
        out = run(self.a, line)
        self.assertIn(b"__ghes_print_estatus <-1> [hardware]\n", out)

    def test_many_sites_elided(self) -> None:
        out = run(self.a, b"(0000abcd): x\n")
        self.assertEqual(out.count(b"  -> a.c:"), 3)
        self.assertIn(b"and 2 more call sites", out)
        self.assertIn(b" [m]", out)

    def test_sites_named_by_the_text_come_first(self) -> None:
        """Issue 37: twelve ACPI lines of one "%s" ID each listed the
        same three unrelated call sites first."""
        msgid = "%08x" % zlib.crc32(b"%s")
        sites = dict(SITES)
        sites[msgid] = [
            ("arch/x86/kernel/cpu/common.c", 2073, "print_cpu_info",
             "vmlinux", "none", "c"),
            ("arch/x86/pci/amd_bus.c", 281, "early_root_info_init",
             "vmlinux", "none", "c"),
            ("kernel/printk/printk.c", 10, "f", "vmlinux", "none", "6"),
            ("lib/x.c", 11, "g", "vmlinux", "none", "6"),
            ("drivers/acpi/osl.c", 170, "acpi_os_vprintf", "vmlinux",
             "none", "-1")]
        a = Annotator(sites, CATALOG)
        out = run(a, b"(%s): ACPI: FACS 0x000000003FFE0000 000040\n"
                  b"(%s): CPU0: Intel Xeon\n" % (msgid.encode(),
                                                  msgid.encode()))
        lines = out.splitlines()
        self.assertTrue(lines[1].startswith(b"  -> drivers/acpi/osl.c:170 "),
                        out)
        # no word of the text names a site: the database's order
        self.assertTrue(lines[6].startswith(b"  -> arch/x86/kernel/cpu/"), out)

    def test_strings_rows_name_their_binary(self) -> None:
        """Rows of a kernel without index (origin strings) have no
        file:line: the annotation names the binary instead of "?:0"."""
        self.assertEqual(run(self.a, b"(0000beef): x\n"), b"(0000beef): x\n"
                         b"  -> (vmlinux, no file:line) ? <6>\n"
                         b"  -> (virtio_net, no file:line) virtnet_probe "
                         b"<-1>\n")

    def test_kmsg_dictionary_lines_stay_attached(self) -> None:
        data = ("6,1,2,-;(%s): %s\n SUBSYSTEM=cpu\n DEVICE=c0\n"
                "6,2,3,-;next\n" % (MCE, TEXT)).encode()
        lines = run(self.a, data).split(b"\n")
        self.assertEqual(lines[1:3], [b" SUBSYSTEM=cpu", b" DEVICE=c0"])
        self.assertTrue(lines[3].startswith(b"  -> arch/x86"))
        self.assertEqual(lines[5], b"6,2,3,-;next")

    def test_garbage_passes_through(self) -> None:
        data = (b"\x00\x01\x02\xff\xfe binary \x1b[31m\n"
                b"invalid utf-8 \xc3\x28 \xed\xa0\x80\n"
                b"6,5,6,-;trunc"       # truncated kmsg record, no newline
                )
        self.assertEqual(run(self.a, data), data)

    def test_unknown_id_is_marked(self) -> None:
        """Issue 37: a printed ID the database does not know is marked,
        never guessed from the text."""
        line = b"[    1.0] (deadbeef): unknown id\n"
        self.assertEqual(run(self.a, line), line + b"  ?? (deadbeef) is not "
                         b"in the database: built from another kernel?\n")

    def test_random_bytes_pass_through(self) -> None:
        data = os.urandom(1 << 16).replace(b"(", b"[")
        self.assertEqual(run(self.a, data), data)

    def test_megabyte_lines(self) -> None:
        big = b"[    1.0] " + b"x" * (1 << 20) + b"\n"
        tagged = ("(%s): " % MCE).encode() + b"y" * (1 << 20) + b"\n"
        kmsg = b"6,1,2," + b"z" * (1 << 20) + b"\n"
        out = run(self.a, big + tagged + kmsg)
        self.assertTrue(out.startswith(big + tagged + b"  -> arch/x86"))
        self.assertTrue(out.endswith(kmsg))

    def test_cut_dictionary_line_at_end(self) -> None:
        """A cut /dev/kmsg dictionary line does not swallow the
        annotation."""
        data = ("6,1,2,-;(%s): %s\n SUBSYSTEM=cp" % (MCE, TEXT)).encode()
        self.assertEqual(run(self.a, data).split(b"\n")[:3],
                         data.split(b"\n") + [b"  -> arch/x86/kernel/cpu/"
                                              b"mce/core.c:176 __print_mce "
                                              b"<0> [hardware]"])

    def test_last_line_without_newline(self) -> None:
        line = ("(%s): %s" % (MCE, TEXT)).encode()
        out = run(self.a, line)
        self.assertTrue(out.startswith(line + b"\n  -> "))

    def test_stats(self) -> None:
        out = io.BytesIO()
        stats = self.a.annotate([b"a\n", ("(%s): x\n" % MCE).encode(),
                                 b"(deadbeef): y\n"], out)
        self.assertEqual((stats.lines, stats.with_id, stats.resolved),
                         (3, 2, 1))

    def test_speed(self) -> None:
        """Generous bound: 200k lines must take well under 10 s."""
        line = ("[    1.234567] (%s): %s\n" % (MCE, TEXT)).encode()
        data = (line + b"[    1.2] plain line without id\n") * 100000
        start = time.perf_counter()
        run(self.a, data)
        self.assertLess(time.perf_counter() - start, 10)


class LeadingSpaceTest(unittest.TestCase):
    """A kernel message may start with spaces ("  node   0: [mem ...]",
    printed by "  node %2d: [mem %#018Lx-%#018Lx]\\n")."""

    def setUp(self) -> None:
        from msgid_tools.match import Matcher
        fmt = b"  node %2d: [mem %#018Lx-%#018Lx]"
        self.id = "%08x" % zlib.crc32(fmt)
        self.a = Annotator({self.id: [("mm/mm_init.c", 1, "f", "vmlinux",
                                       "none", "6")]},
                           matcher=Matcher([(self.id, fmt, False)]))
        self.line = b"  node   0: [mem 0x0000000000001000-0x000000000009efff]"

    def test_in_a_log_without_envelopes(self) -> None:
        """dmesg -t: the line is a record of its own and is matched."""
        out = run(self.a, b"Zone ranges:\n" + self.line + b"\n")
        self.assertIn(b"  ~> (%s) matched by text" % self.id.encode(), out)

    def test_after_a_record_with_an_envelope(self) -> None:
        """After a /dev/kmsg record it is a dictionary or continuation
        line: never matched."""
        out = run(self.a, b"6,1,2,-;Zone ranges:\n" + self.line + b"\n")
        self.assertNotIn(b"~>", out)


class JsonTest(unittest.TestCase):
    def test_json(self) -> None:
        a = Annotator(SITES, CATALOG)
        out = io.StringIO()
        data = [("<0>[ 1.0] (%s): %s\n" % (MCE, TEXT)).encode(),
                b"plain \xff\n", b"(deadbeef): x\n"]
        stats = a.annotate_json(data, out)
        objs = [json.loads(x) for x in out.getvalue().splitlines()]
        self.assertEqual(len(objs), 3)
        self.assertEqual((objs[0]["id"], objs[0]["class"], objs[0]["subject"],
                          objs[0]["sites"][0]["line"]),
                         (MCE, "hardware", "Machine check exception", 176))
        # (a line without an envelope after a dmesg record is a wrapped
        # part of it or console output: issue 37)
        self.assertEqual(objs[1], {"line": "plain \\xff", "format": "plain",
                                   "fragment": True, "id": None,
                                   "id_from": None})
        self.assertEqual((objs[2]["id"], objs[2]["sites"], objs[2]["unknown"]),
                         ("deadbeef", [], True))
        self.assertEqual((stats.lines, stats.with_id, stats.resolved),
                         (3, 2, 1))

    def test_json_lists_some_call_sites_of_an_id_of_thousands(self) -> None:
        # "%s" (ACPICA's and SCSI's messages) has thousands of call sites:
        # every line of it listed them all (400 kB of JSON a line against
        # the five-release database).
        many = [("drivers/x%d.c" % n, n, "f%d" % n, "vmlinux", "none", "3")
                for n in range(JSON_SITES + 9)]
        a = Annotator({"6026e29e": many, "0000abcd": many[:JSON_SITES]})
        out = io.StringIO()
        a.annotate_json([b"(6026e29e): ACPI Error: x\n",
                         b"(0000abcd): y\n"], out)
        objs = [json.loads(x) for x in out.getvalue().splitlines()]
        self.assertEqual([s["file"] for s in objs[0]["sites"]],
                         [s[0] for s in many[:JSON_SITES]])
        self.assertEqual(objs[0]["more_sites"], 9)
        self.assertEqual(len(objs[1]["sites"]), JSON_SITES)
        self.assertNotIn("more_sites", objs[1])


if __name__ == "__main__":
    unittest.main()
