# SPDX-License-Identifier: GPL-2.0
"""Tests of reading compressed kernel images and modules (msgid_tools.image)."""

import bz2
import gzip
import lzma
import os
import shutil
import struct
import subprocess
import tempfile
import unittest
from unittest import mock

from msgid_tools import elf
from msgid_tools import image, modules
from msgid_tools.tests import elf_builder as eb

ENTRIES = [
    eb.Entry(b"\x016test: hello %d\n", b"f1", b"lib/t.c", 6),
    eb.Entry(b"dev says %s\n", b"f2", b"drivers/x.c", 70, b"\x013",
             b"%s %s: "),
]
EXPECTED = [(e.fmt, e.func, e.file, e.line) for e in ENTRIES]
VMLINUX = eb.build_exec(ENTRIES)
SIZE = struct.pack("<I", len(VMLINUX))  # what the kernel build appends


def _program(name: str, data: bytes) -> bytes:
    """Compress with the zstd/lz4 program the way the kernel build does."""
    args = {"zstd": ["zstd", "-q", "-c", "-19"],
            "lz4": ["lz4", "-q", "-l", "-c"]}[name]
    return subprocess.run(args, input=data, capture_output=True,
                          check=True).stdout


def _entries(img: elf.ElfFile) -> list[tuple]:
    return [(e.fmt, e.func, e.file, e.line) for e in img.printk_index()]


class ImageTest(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name

    def file(self, name: str, data: bytes) -> str:
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def test_bzimage_stdlib_payloads(self) -> None:
        """gzip, xz (with the x86 BCJ filter, as scripts/xz_wrap.sh),
        lzma and bzip2 payloads give back the vmlinux and its index."""
        payloads = {
            "gzip": gzip.compress(VMLINUX),
            "xz": lzma.compress(VMLINUX, check=lzma.CHECK_CRC32, filters=[
                {"id": lzma.FILTER_X86},
                {"id": lzma.FILTER_LZMA2, "dict_size": 1 << 20}]),
            "lzma": lzma.compress(VMLINUX, format=lzma.FORMAT_ALONE),
            "bzip2": bz2.compress(VMLINUX),
        }
        for kind, payload in payloads.items():
            with self.subTest(kind):
                path = self.file("vmlinuz-" + kind,
                                 eb.build_bzimage(payload, trailer=SIZE))
                self.assertEqual(image.compression(payload), kind)
                self.assertEqual(_entries(elf.ElfFile.from_path(path)),
                                 EXPECTED)

    def test_bzimage_programs(self) -> None:
        for kind in ("zstd", "lz4"):
            if shutil.which(kind) is None:
                continue  # covered by test_missing_program
            with self.subTest(kind):
                path = self.file("vmlinuz-" + kind, eb.build_bzimage(
                    _program(kind, VMLINUX), trailer=SIZE))
                self.assertEqual(_entries(elf.ElfFile.from_path(path)),
                                 EXPECTED)

    def test_modules(self) -> None:
        module = eb.build_rel(ENTRIES, modinfo=b"name=test_mod\0")
        files = {"m.ko": module, "m.ko.gz": gzip.compress(module),
                 "m.ko.xz": lzma.compress(module, check=lzma.CHECK_CRC32)}
        if shutil.which("zstd"):
            files["m.ko.zst"] = _program("zstd", module)
        for name, data in files.items():
            with self.subTest(name):
                img = elf.ElfFile.from_path(self.file(name, data))
                self.assertEqual(_entries(img), EXPECTED)
                self.assertEqual(modules.module_name(img, name), "test_mod")
        self.assertEqual(modules.module_name(img, "/x/foo-bar.ko.zst"),
                         "test_mod")

    def test_missing_program(self) -> None:
        path = self.file("vmlinuz", eb.build_bzimage(
            b"\x28\xb5\x2f\xfd" + b"\0" * 64))
        with mock.patch("shutil.which", return_value=None):
            with self.assertRaises(image.ImageError) as cm:
                image.read(path)
        text = str(cm.exception)
        self.assertTrue(text.startswith(path + ": "), text)
        self.assertTrue(text.endswith(": zstd-compressed; the 'zstd' program "
                                      "is needed (Debian package zstd)"), text)

    def test_truncated_and_garbage(self) -> None:
        """Each damaged input gives one line naming the file."""
        gz = gzip.compress(VMLINUX)
        xz = lzma.compress(VMLINUX)
        cases = {
            "vmlinuz-gz-cut": (eb.build_bzimage(gz[:len(gz) // 2]),
                               "cannot decompress gzip data"),
            "vmlinuz-xz-cut": (eb.build_bzimage(xz[:len(xz) // 2]),
                               "cannot decompress xz data"),
            "vmlinuz-unknown": (eb.build_bzimage(b"\xaa" * 100),
                                "bzImage with an unknown payload format"),
            "vmlinuz-not-elf": (eb.build_bzimage(gzip.compress(b"x" * 99)),
                                "payload is not an ELF vmlinux"),
            "garbage": (os.urandom(4096).replace(b"\x7fELF", b"")
                        .replace(b"HdrS", b"") .lstrip(b"\x1f\xfd\x28BZ\x02"
                                                        b"\x04\x5d"),
                        "not an ELF file, a compressed module or a bzImage"),
            "m.ko.xz": (gzip.compress(VMLINUX), "cannot decompress: not xz"),
            "n.ko.gz": (gz[:40], "cannot decompress gzip data"),
            "z.ko.zst": (b"\x28\xb5\x2f\xfd" + b"\x01" * 20,
                         "cannot decompress"),
            "empty.ko": (b"", "not an ELF file"),
        }
        for name, (data, message) in cases.items():
            with self.subTest(name):
                path = self.file(name, data)
                with self.assertRaises(elf.ElfError) as cm:
                    elf.ElfFile.from_path(path)
                text = str(cm.exception)
                self.assertIn(message, text)
                self.assertTrue(text.startswith(path + ": "), text)
                self.assertNotIn("\n", text)


if __name__ == "__main__":
    unittest.main()
