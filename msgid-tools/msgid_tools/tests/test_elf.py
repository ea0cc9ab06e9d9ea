# SPDX-License-Identifier: GPL-2.0
"""Tests of the ELF .printk_index reader (msgid_tools.elf)."""

import os
import tempfile
import unittest

from msgid_tools import elf
from msgid_tools import modules
from msgid_tools.tests import elf_builder as eb

ENTRIES = [
    eb.Entry(b"\x016test: hello %d\n", b"f1", b"lib/t.c", 6),
    eb.Entry(b"dev says %s\n", b"f2", b"drivers/x.c", 70, b"\x013",
             b"%s %s: "),
    eb.Entry(b"\x01c cont\n", b"f3", b"lib/t.c", 8),
    eb.Entry(None, b"f4", b"lib/t.c", 9),
]


def as_tuples(entries: list[elf.IndexEntry]) -> list[tuple]:
    return [(e.fmt, e.func, e.file, e.line, e.level, e.subsys_fmt_prefix)
            for e in entries]


EXPECTED = [(e.fmt, e.func, e.file, e.line, e.level, e.prefix)
            for e in ENTRIES]


class ExecTest(unittest.TestCase):
    """vmlinux-like ET_EXEC files with absolute pointers."""

    def test_64bit_le(self) -> None:
        image = elf.ElfFile(eb.build_exec(ENTRIES), "vmlinux")
        self.assertEqual(as_tuples(image.printk_index()), EXPECTED)

    def test_64bit_be(self) -> None:
        image = elf.ElfFile(eb.build_exec(ENTRIES, little=False), "vmlinux")
        self.assertEqual(as_tuples(image.printk_index()), EXPECTED)

    def test_32bit_le(self) -> None:
        image = elf.ElfFile(eb.build_exec(ENTRIES, is64=False), "vmlinux")
        self.assertEqual(as_tuples(image.printk_index()), EXPECTED)

    def test_kernel_release(self) -> None:
        data = eb.build_exec(ENTRIES, extra=b"Linux version 6.12.9-msgid "
                             b"(gcc) #1 SMP\n\0")
        self.assertEqual(elf.ElfFile(data, "v").kernel_release(),
                         "6.12.9-msgid")
        self.assertIsNone(elf.ElfFile(eb.build_exec(ENTRIES),
                                      "v").kernel_release())

    def test_empty_index(self) -> None:
        image = elf.ElfFile(eb.build_exec([]), "vmlinux")
        self.assertEqual(image.printk_index(), [])


class RelTest(unittest.TestCase):
    """Module-like ET_REL files that need relocations."""

    def test_x86_64_rela(self) -> None:
        image = elf.ElfFile(eb.build_rel(ENTRIES), "m.ko")
        self.assertEqual(as_tuples(image.printk_index()), EXPECTED)

    def test_aarch64_rela(self) -> None:
        image = elf.ElfFile(eb.build_rel(ENTRIES, eb.EM_AARCH64), "m.ko")
        self.assertEqual(as_tuples(image.printk_index()), EXPECTED)

    def test_i386_rel(self) -> None:
        image = elf.ElfFile(eb.build_rel(ENTRIES, eb.EM_386, is64=False),
                            "m.ko")
        self.assertEqual(as_tuples(image.printk_index()), EXPECTED)

    def test_module_name(self) -> None:
        data = eb.build_rel(ENTRIES, modinfo=b"license=GPL\0name=test_msgid\0")
        image = elf.ElfFile(data, "x.ko")
        self.assertEqual(modules.module_name(image, "/a/other-name.ko"),
                         "test_msgid")
        plain = elf.ElfFile(eb.build_rel(ENTRIES), "x.ko")
        self.assertEqual(modules.module_name(plain, "/a/other-name.ko.xz"),
                         "other_name")

    def test_unsupported_machine(self) -> None:
        data = bytearray(eb.build_rel(ENTRIES))
        data[18:20] = (999).to_bytes(2, "little")
        with self.assertRaisesRegex(elf.ElfError, "machine 999"):
            elf.ElfFile(bytes(data), "m.ko").printk_index()


class BrokenTest(unittest.TestCase):
    """Garbage and truncated files give one clear ElfError."""

    def assert_error(self, data: bytes, pattern: str) -> None:
        with self.assertRaisesRegex(elf.ElfError, "^bad.ko: " + pattern):
            elf.ElfFile(data, "bad.ko").printk_index()

    def test_not_elf(self) -> None:
        self.assert_error(b"", "not an ELF file")
        self.assert_error(b"hello world, not an elf file", "not an ELF file")
        self.assert_error(os.urandom(4096).replace(b"\x7f", b"\0"),
                          "not an ELF file")

    def test_bad_class(self) -> None:
        self.assert_error(b"\x7fELF\x07\x01" + b"\0" * 60, "unsupported")

    def test_truncated_everywhere(self) -> None:
        data = eb.build_rel(ENTRIES)
        for cut in range(0, len(data), 7):
            with self.assertRaises(elf.ElfError, msg="cut at %d" % cut):
                elf.ElfFile(data[:cut], "bad.ko").printk_index()

    def test_truncated_message(self) -> None:
        data = eb.build_exec(ENTRIES)
        self.assert_error(data[:-10], "truncated ELF")

    def test_no_printk_index(self) -> None:
        data = eb.pack_elf([eb.Section(".text", data=b"\x90")], eb.ET_EXEC,
                           eb.EM_X86_64)
        self.assert_error(data, r"no \.printk_index section")

    def test_corrupted_bytes_never_crash(self) -> None:
        """Random byte flips give ElfError or a result, never another error."""
        base = eb.build_rel(ENTRIES)
        rng = __import__("random").Random(1)
        for _ in range(300):
            data = bytearray(base)
            for _ in range(4):
                data[rng.randrange(len(data))] = rng.randrange(256)
            try:
                elf.ElfFile(bytes(data), "bad.ko").printk_index()
            except elf.ElfError:
                pass

    def test_missing_file(self) -> None:
        with self.assertRaisesRegex(elf.ElfError, "No such file"):
            elf.ElfFile.from_path("/nonexistent/vmlinux")

    def test_compressed_module(self) -> None:
        import lzma
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "m.ko.xz")
            with open(path, "wb") as f:
                f.write(lzma.compress(eb.build_rel(ENTRIES)))
            image = elf.ElfFile.from_path(path)
            self.assertEqual(as_tuples(image.printk_index()), EXPECTED)
            with open(path, "wb") as f:
                f.write(b"not xz")
            with self.assertRaisesRegex(elf.ElfError, "cannot decompress"):
                elf.ElfFile.from_path(path)
            path = os.path.join(tmp, "m.ko.gz")
            for data in (b"not gz", b"\x1f\x8b\x08\0\0\0\0\0\0\x03"
                         + b"\xff" * 64, b"\x1f\x8b"):
                with open(path, "wb") as f:
                    f.write(data)
                with self.assertRaisesRegex(elf.ElfError,
                                            "cannot decompress"):
                    elf.ElfFile.from_path(path)


if __name__ == "__main__":
    unittest.main()
