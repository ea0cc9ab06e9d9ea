# SPDX-License-Identifier: GPL-2.0
"""Tests of the debugfs printk index reader (msgid_db.index)."""

import os
import tempfile
import unittest
import zlib

from msgid_db import index


def crc(text: bytes) -> str:
    return "%08x" % zlib.crc32(text)


SAMPLE = b"""\
# <level/flags> filename:line function "format"
<5> block/blk-settings.c:661 disk_stack_limits "%s: Warning: Device %s is misaligned\\n"
<6> arch/x86/kernel/hpet.c:144 _hpet_print_config "hpet: %s(%d):\\n"
<3> drivers/base/core.c:12 probe_it "%s %s: probe failed: %d\\n"
<c> kernel/foo.c:7 cont_it " done\\n"
<4,c> kernel/foo.c:8 cont_warn "x\\n"
<-1> kernel/foo.c:9 no_level "quote \\" back \\\\ tab \\t oct \\001 \\342\\202\\254\\n"
<0> arch/x86/kernel/cpu/mce/core.c:176 __print_mce "mce: [Hardware Error]: CPU %d: Machine Check%s: %Lx Bank %d: %016Lx\\n" msgid=0badf00d
"""


class UnescapeTest(unittest.TestCase):
    def test_escapes(self) -> None:
        self.assertEqual(index.unescape(rb'a\n\t\"\\\012\0\e\a\x41'),
                         b'a\n\t"\\\n\0\x1b\x07A')

    def test_octal_three_digits_only(self) -> None:
        self.assertEqual(index.unescape(rb"\0123"), b"\n3")

    def test_unknown_escape_kept(self) -> None:
        self.assertEqual(index.unescape(rb"\q"), rb"\q")


class ParseTest(unittest.TestCase):
    def setUp(self) -> None:
        self.stats = index.ParseStats()
        self.sites = index.parse_file(SAMPLE, "vmlinux", self.stats)

    def test_counts(self) -> None:
        self.assertEqual(len(self.sites), 7)
        self.assertEqual(self.stats.malformed, 0)

    def test_fields(self) -> None:
        s = self.sites[0]
        self.assertEqual((s.file, s.line, s.function, s.level, s.module,
                          s.origin),
                         ("block/blk-settings.c", 661, "disk_stack_limits",
                          "5", "vmlinux", "index-computed"))
        self.assertEqual(s.id, crc(b"%s: Warning: Device %s is misaligned"))

    def test_dev_printk_prefix_stripped(self) -> None:
        s = self.sites[2]
        self.assertEqual(s.id, crc(b"probe failed: %d"))
        self.assertEqual(s.canonical, "probe failed: %d")
        self.assertEqual(s.level, "3")
        # Kept for the text matcher: the text follows a device prefix.
        self.assertEqual(s.subsys, "%s %s: ")
        self.assertEqual(self.sites[0].subsys, "")

    def test_continuation_levels(self) -> None:
        self.assertEqual(self.sites[3].level, "c")
        self.assertEqual(self.sites[3].id, crc(b" done"))
        self.assertEqual(self.sites[4].level, "4,c")

    def test_escaped_format(self) -> None:
        s = self.sites[5]
        self.assertEqual(s.id, crc('quote " back \\ tab \t oct \x01 \u20ac'
                                   .encode()))

    def test_kernel_msgid_field(self) -> None:
        s = self.sites[6]
        self.assertEqual((s.id, s.origin, s.msg_class),
                         ("0badf00d", "index-kernel", "hardware"))

    def test_other_subsys_prefixes(self) -> None:
        for prefix in (b"%sXFS%s: ", b"%sBTRFS %s (device %s): ",
                       b"%sFAT-fs (%s): ", b"%s %s %s%s: ",
                       b"BTRFS: error (device %s%s) in %s:%d: errno=%d %s"):
            line = b'<3> fs/x.c:1 f "' + prefix + b'caller %d\\n"'
            self.assertEqual(index.parse_line(line, "m").id,
                             crc(b"caller %d"), prefix)


class MalformedTest(unittest.TestCase):
    BAD = [
        b"garbage",
        b"<6> no-line-number f \"x\"",
        b"<6> a.c:1 f \"unterminated",
        b"<6> a.c:1 f \"x\" trailing",
        b"<6> a.c:1 f \"x\" msgid=XYZ",
        b"<9x> a.c:1 f \"x\"",
        b"\xff\xfe\x00\x01binary",
        b"<6> a.c:1 f \"" + b"a" * 1000000,
        b"<6> a.c:99999999999999999999 f \"x\"",  # overflowed sqlite
        b"<6> a.c:4294967296 f \"x\"",
        b"<6> a.c:1 f \"" + b"a" * index.MAX_LINE + b"\"",
    ]

    def test_bad_lines_raise(self) -> None:
        for line in self.BAD:
            with self.assertRaises(ValueError, msg=line[:40]):
                index.parse_line(line, "m")

    def test_limits(self) -> None:
        self.assertEqual(index.parse_line(b'<6> a.c:4294967295 f "x"',
                                          "m").line, 4294967295)
        long_fmt = b"a" * (index.MAX_LINE - 20)
        self.assertEqual(index.parse_line(b'<6> a.c:1 f "' + long_fmt + b'"',
                                          "m").format, long_fmt.decode())

    def test_pathological_line_is_fast(self) -> None:
        import time
        start = time.perf_counter()
        index.parse_file(b'<6> a:1 f "' + b'x:1 f \\"' * 300000, "m")
        self.assertLess(time.perf_counter() - start, 1)

    def test_bad_lines_counted(self) -> None:
        stats = index.ParseStats()
        data = SAMPLE + b"\n".join(self.BAD) + b"\n"
        sites = index.parse_file(data, "m", stats)
        self.assertEqual(len(sites), 7)
        self.assertEqual(stats.malformed, len(self.BAD))
        self.assertEqual(stats.first_malformed, SAMPLE.count(b"\n") + 1)


class ReadDirTest(unittest.TestCase):
    def test_read_dir(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("vmlinux", "test_msgid"):
                with open(os.path.join(tmp, name), "wb") as f:
                    f.write(SAMPLE)
            os.mkdir(os.path.join(tmp, "subdir"))
            got = list(index.read_dir(tmp))
            self.assertEqual([n for n, _ in got], ["test_msgid", "vmlinux"])
            self.assertEqual(got[0][1], SAMPLE)

    def test_missing_dir(self) -> None:
        with self.assertRaisesRegex(index.IndexReadError, "^/nonexistent: "):
            list(index.read_dir("/nonexistent"))


if __name__ == "__main__":
    unittest.main()
