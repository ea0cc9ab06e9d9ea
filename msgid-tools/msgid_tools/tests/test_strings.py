# SPDX-License-Identifier: GPL-2.0
"""Tests of the fallback without a printk index (msgid_tools.strings)."""

import struct
import unittest
import zlib

from msgid_tools import elf
from msgid_tools import strings
from msgid_tools.tests import elf_builder as eb


def crc(text: bytes) -> str:
    return "%08x" % zlib.crc32(text)


class StringsTest(unittest.TestCase):
    def test_level_strings_of_a_stripped_vmlinux(self) -> None:
        """vmlinux from a bzImage: strings with a level, nothing else."""
        extra = (b"\x013e1000: probe of %s failed\n\0"
                 b"plain string, no level\0"
                 b"\x014\x01cnested levels %d\n\0"
                 b"tail\x016not at a string start\0"
                 b"\x015r\x81\xff\xff\xff\xb0\x8cb\0"  # pointers, not text
                 b"\x016unterminated")
        img = elf.ElfFile(eb.build_exec([], extra=extra), "vmlinux")
        found = {s.id: s for s in strings.sites(img, "vmlinux")}
        self.assertEqual(sorted(found), sorted([
            crc(b"e1000: probe of %s failed"), crc(b"nested levels %d")]))
        site = found[crc(b"e1000: probe of %s failed")]
        self.assertEqual((site.origin, site.level, site.module, site.file,
                          site.line, site.function),
                         ("strings", "3", "vmlinux", "?", 0, "?"))

    def test_module_calls(self) -> None:
        """The format register of a printk-family call, with the caller;
        other strings loaded before the call (%s arguments) are not
        formats."""
        data = eb.build_module_calls(
            [b"\x016mymod: loaded\n", b"unreferenced, no level\n"], [
                (b"probe failed: %d\n", 1, "_dev_err"),
                (b"arg string", 0, "_dev_err"),      # %rdi: not the format
                (b"\x013mymod: bad %s\n", 0, "_printk"),
                (b"link up %s\n", 1, "netdev_info"),
                (b"not printk %d\n", 1, "snprintf"),
            ], func=b"mymod_probe")
        img = elf.ElfFile(data, "mymod.ko")
        found = {s.id: s for s in strings.sites(img, "mymod")}
        self.assertEqual(sorted(found), sorted([
            crc(b"mymod: loaded"), crc(b"probe failed: %d"),
            crc(b"mymod: bad %s"), crc(b"link up %s")]))
        for key in (b"probe failed: %d", b"mymod: bad %s", b"link up %s"):
            self.assertEqual(found[crc(key)].function, "mymod_probe")
        # Reached by no call: found by its level, without a function.
        self.assertEqual(found[crc(b"mymod: loaded")].function, "?")
        self.assertEqual(found[crc(b"probe failed: %d")].level, "-1")

    def test_dynamic_debug_and_warn(self) -> None:
        """dev_dbg() with CONFIG_DYNAMIC_DEBUG passes its format third,
        WARN() first; the descriptor in %rdi is not a format."""
        data = eb.build_module_calls([], [
            (b"descriptor", 0, "__dynamic_dev_dbg"),
            (b"queue %d stalled\n", 2, "__dynamic_dev_dbg"),
            (b"bad state %d\n", 0, "__warn_printk"),
        ])
        found = sorted(s.id for s in strings.sites(
            elf.ElfFile(data, "m.ko"), "m"))
        self.assertEqual(found, sorted([crc(b"queue %d stalled"),
                                        crc(b"bad state %d")]))

    def test_register_clobbered_by_a_call(self) -> None:
        """A string loaded before another call is not the format of the
        printk call after it."""
        data = eb.build_module_calls([], [
            (b"for kstrdup", 1, "kstrdup"),
            (b"\x013x\n", 0, "_dev_err"),      # %rsi not loaded since
        ])
        found = [s.canonical for s in strings.sites(
            elf.ElfFile(data, "m.ko"), "m")]
        self.assertEqual(found, ["x"])


    def test_stripped_vmlinux_calls(self) -> None:
        """A vmlinux out of a bzImage: formats loaded before calls to
        exported printk functions, found by address; not those passed to
        other functions, not-exported ones, or loads too far back."""
        data = eb.build_exec_calls([
            (b"PIIX3: Enabling Passive Release\n", 1, "_dev_err"),
            (b"\x013plain: %d\n", 0, "_printk"),
            (b"arg, not the format", 0, "_dev_err"),
            (b"to kstrdup", 1, "kstrdup"),
            (b"not exported\n", 1, "__ext4_msg"),
            (b"bad \x02 byte", 1, "_dev_err"),
        ], exports=("_printk", "_dev_err", "kstrdup"))
        img = elf.ElfFile(data, "vmlinux")
        self.assertEqual(strings.exported(img).get(
            0xffffffff81000000 + 16 * 1), "_dev_err")
        found = sorted(s.id for s in strings.sites(img, "vmlinux"))
        self.assertEqual(found, sorted([
            crc(b"PIIX3: Enabling Passive Release"), crc(b"plain: %d")]))
        far = eb.build_exec_calls(
            [(b"far away\n", 1, "_dev_err")],
            filler=b"\x90" * strings.WINDOW)
        self.assertEqual(list(strings.sites(elf.ElfFile(far, "v"), "v")), [])


    def test_malformed_symbol_table(self) -> None:
        """A symbol table linked to no string table is an ElfError (one
        line for the user), not an IndexError."""
        data = bytearray(eb.build_module_calls([], [(b"x\n", 1, "_dev_err")]))
        shoff = struct.unpack_from("<Q", data, 0x28)[0]
        struct.pack_into("<I", data, shoff + 4 * 64 + 40, 99)  # .symtab
        img = elf.ElfFile(bytes(data), "m.ko")
        self.assertEqual(img.sections[4].name, ".symtab")
        with self.assertRaisesRegex(elf.ElfError,
                                    "^m.ko: malformed symbol table"):
            list(strings.sites(img, "m"))


    def test_dynamic_debug_table(self) -> None:
        """pr_debug()/dev_dbg() of a module with CONFIG_DYNAMIC_DEBUG: each
        struct _ddebug gives its format with file, line and function;
        both struct sizes (with and without jump labels)."""
        entries = [
            (b"virtnet: registered device %s\n", b"virtnet_probe",
             b"drivers/net/virtio_net.c", 6846),
            (b"%s: rx error\n", b"check_len", b"drivers/net/virtio_net.c",
             757),
            (b"%s: rx error\n", b"receive", b"drivers/net/virtio_net.c",
             2291),
            (b"\n", b"empty", b"x.c", 1),               # canonical "": skipped
        ]
        for size in (56, 40):
            with self.subTest(size=size):
                img = elf.ElfFile(eb.build_module_dyndbg(entries, size=size),
                                  "virtio_net.ko")
                found = [(s.id, s.file, s.line, s.function, s.origin)
                         for s in strings.sites(img, "virtio_net")]
                self.assertEqual(found, [
                    (crc(b"virtnet: registered device %s"),
                     "drivers/net/virtio_net.c", 6846, "virtnet_probe",
                     "dyndbg"),
                    (crc(b"%s: rx error"), "drivers/net/virtio_net.c", 757,
                     "check_len", "dyndbg"),
                    (crc(b"%s: rx error"), "drivers/net/virtio_net.c", 2291,
                     "receive", "dyndbg")])


if __name__ == "__main__":
    unittest.main()
