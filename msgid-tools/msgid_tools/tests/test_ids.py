# SPDX-License-Identifier: GPL-2.0
"""Tests of the identifier rule (msgid_db.ids)."""

import unittest
import zlib

from msgid_db import ids


def crc(text: bytes) -> str:
    """Expected ID, computed independently of the module under test."""
    return "%08x" % (zlib.crc32(text) & 0xffffffff)


class CanonicalTest(unittest.TestCase):
    def test_levels_and_newline_dropped(self) -> None:
        self.assertEqual(ids.canonical(b"\x016mce: foo %d\n"), b"mce: foo %d")

    def test_several_level_pairs(self) -> None:
        self.assertEqual(ids.canonical(b"\x01c\x014x\n"), b"x")

    def test_only_one_newline_dropped(self) -> None:
        self.assertEqual(ids.canonical(b"a\n\n"), b"a\n")

    def test_soh_not_followed_by_level_kept(self) -> None:
        self.assertEqual(ids.canonical(b"\x019x"), b"\x019x")
        self.assertEqual(ids.canonical(b"\x01"), b"\x01")

    def test_inner_soh_kept(self) -> None:
        self.assertEqual(ids.canonical(b"a\x016b"), b"a\x016b")

    def test_empty(self) -> None:
        self.assertEqual(ids.canonical(b""), b"")
        self.assertEqual(ids.msgid(b"\n"), crc(b""))


class MsgidTest(unittest.TestCase):
    def test_pr_fmt_prefix_included(self) -> None:
        self.assertEqual(ids.msgid(b"\x016mce: foo %d\n"), crc(b"mce: foo %d"))

    def test_known_check_value(self) -> None:
        # CRC-32/ISO-HDLC check value of "123456789".
        self.assertEqual(ids.msgid(b"123456789"), "cbf43926")

    def test_format_is_eight_hex_digits(self) -> None:
        for fmt in (b"", b"a", b"%s", b"\xff\xfe"):
            self.assertRegex(ids.msgid(fmt), r"^[0-9a-f]{8}$")


class ClassifyTest(unittest.TestCase):
    def test_file_as_a_tree_path(self) -> None:
        """The file of a call site in a header included through "..":
        named as in the tree, like every other."""
        site = ids.CallSite.from_format(
            b"x", file="drivers/pnp/pnpacpi/../base.h", line=116,
            function="f", module="vmlinux", origin="elf")
        self.assertEqual(site.file, "drivers/pnp/base.h")
        for file in ("init/main.c", "?", "lib/.hidden.c"):
            self.assertEqual(ids.tree_path(file), file)
        self.assertEqual(ids.tree_path("./init/main.c"), "init/main.c")

    def test_tags(self) -> None:
        cases = {
            b"mce: [Hardware Error]: CPU %d": "hardware",
            b"[Firmware Bug]: x": "firmware-bug",
            b"[Firmware Warn]: x": "firmware-warn",
            b"[Firmware Info]: x": "firmware-info",
            b"[Deprecated]: x": "deprecated",
            b"Hardware Error: x": "none",
            b"[Hardware Error] x": "none",
        }
        for text, cls in cases.items():
            self.assertEqual(ids.classify(text), cls, text)

    def test_first_tag_wins(self) -> None:
        self.assertEqual(ids.classify(b"[Firmware Bug]: [Hardware Error]: "),
                         "firmware-bug")


class LevelTest(unittest.TestCase):
    def test_levels(self) -> None:
        self.assertEqual(ids.level_of(b"\x013x"), "3")
        self.assertEqual(ids.level_of(b"x"), "-1")
        self.assertEqual(ids.level_of(b"\x01cx"), "c")
        self.assertEqual(ids.level_of(b"\x01c\x014x"), "4,c")
        self.assertEqual(ids.level_of(b"x", b"\x016"), "6")


class ParseIdTest(unittest.TestCase):
    def test_forms(self) -> None:
        for text in ("1a2b3c4d", "(1a2b3c4d)", "0x1A2B3C4D", "(1a2b3c4d):",
                     " 1a2b3c4d "):
            self.assertEqual(ids.parse_id(text), "1a2b3c4d", text)

    def test_bad(self) -> None:
        for text in ("", "xyz", "1a2b3c4d5", "((1a2b3c4d))", "1a 2b"):
            with self.assertRaises(ValueError, msg=text):
                ids.parse_id(text)


class CallSiteTest(unittest.TestCase):
    def test_from_format(self) -> None:
        site = ids.CallSite.from_format(
            b"\x010mce: [Hardware Error]: CPU %d\n", file="a.c", line=3,
            function="f", module="vmlinux", origin="elf")
        self.assertEqual(site.id, crc(b"mce: [Hardware Error]: CPU %d"))
        self.assertEqual(site.level, "0")
        self.assertEqual(site.msg_class, "hardware")
        self.assertEqual(site.canonical, "mce: [Hardware Error]: CPU %d")

    def test_known_id_wins(self) -> None:
        site = ids.CallSite.from_format(b"x", file="a.c", line=1,
                                        function="f", module="m",
                                        origin="index-kernel",
                                        known_id="0badf00d")
        self.assertEqual(site.id, "0badf00d")

    def test_escape(self) -> None:
        self.assertEqual(ids.escape(b'\x016a"b\\\n\xff'), '\\0016a\\"b\\\\\\n\\377')



class TreePathTest(unittest.TestCase):
    def test_relative_include_normalised(self) -> None:
        self.assertEqual(ids.tree_path("drivers/pnp/pnpacpi/../base.h"),
                         "drivers/pnp/base.h")
        self.assertEqual(ids.tree_path("a/./b.c"), "a/b.c")

    def test_others_unchanged(self) -> None:
        for name in ("init/main.c", "../init/main.c", "/abs/x/../y.c",
                     "a/../../b.c", "", "x..y/z.c"):
            self.assertEqual(ids.tree_path(name), name)

    def test_call_site_file(self) -> None:
        site = ids.CallSite.from_format(b"x\n", file="d/e/../f.h", line=1,
                                        function="f", module="vmlinux",
                                        origin="elf")
        self.assertEqual(site.file, "d/f.h")

if __name__ == "__main__":
    unittest.main()
