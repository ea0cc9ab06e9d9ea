# SPDX-License-Identifier: GPL-2.0
"""'build --kernel --modules' on the files a distribution ships: a
bzImage and compressed modules, without a printk index (msgid_db.cli)."""

import lzma
import os
import shutil
import subprocess
import tempfile
import unittest
import zlib
from unittest import mock


from msgid_tools.tests import elf_builder as eb
from msgid_tools.tests import clirun


def crc(text: bytes) -> str:
    return "%08x" % zlib.crc32(text)


TSC = crc(b"tsc: Detected %lu.%03lu MHz processor")
SHARED = crc(b"shared: %d")
PROBE = crc(b"probe failed: %d")
LINK = crc(b"link up %s")
#: A kernel without .printk_index: its level-prefixed strings only.
VMLINUX = eb.build_exec([], index=False, extra=(
    b"Linux version 6.12.0-d (x)\0"
    b"\x016tsc: Detected %lu.%03lu MHz processor\n\0"
    b"\x013shared: %d\n\0"))


def xz(data: bytes) -> bytes:
    """xz the way scripts/xz_wrap.sh does for x86 (BCJ filter, CRC32)."""
    return lzma.compress(data, check=lzma.CHECK_CRC32, filters=[
        {"id": lzma.FILTER_X86},
        {"id": lzma.FILTER_LZMA2, "dict_size": 1 << 20}])


class BuildBinariesTest(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name
        self.db = os.path.join(self.dir, "msgid.db")
        self.kernel = self.file("boot/vmlinuz", eb.build_bzimage(
            xz(VMLINUX), trailer=len(VMLINUX).to_bytes(4, "little")))
        self.mods = os.path.join(self.dir, "lib", "modules")
        # a: no index, a _dev_err() call; b: the same as .ko.zst (when
        # zstd is there) with a netdev_info() call; c: an index, holding
        # the format that vmlinux has as a string.
        self.file("lib/modules/kernel/a.ko.xz", lzma.compress(
            eb.build_module_calls([], [(b"probe failed: %d\n", 1, "_dev_err")],
                                  func=b"a_probe"), check=lzma.CHECK_CRC32))
        self.modules = 2
        if shutil.which("zstd"):
            self.file("lib/modules/kernel/net/b.ko.zst", subprocess.run(
                ["zstd", "-q", "-c"], input=eb.build_module_calls(
                    [], [(b"link up %s\n", 1, "netdev_info")],
                    func=b"b_open"), capture_output=True, check=True).stdout)
            self.modules += 1
        self.file("lib/modules/kernel/c.ko", eb.build_rel(
            [eb.Entry(b"\x013shared: %d\n", b"c_init", b"drivers/c.c", 9)],
            modinfo=b"name=c\0"))

    def file(self, name: str, data: bytes) -> str:
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def run_cli(self, *argv: str) -> tuple[int, str, str]:
        return clirun.run(list(argv))

    def build(self, *argv: str) -> tuple[int, str, str]:
        return self.run_cli("--db", self.db, "build", *argv)

    def lookup(self, msgid: str) -> list[str]:
        status, out, err = self.run_cli("--db", self.db, "lookup", msgid)
        self.assertEqual(status, 0, err)
        return out.splitlines()

    def test_kernel_and_modules_without_index(self) -> None:
        status, _, err = self.build("--kernel", self.kernel,
                                    "--modules", self.mods)
        self.assertEqual(status, 0, err)
        # Said once per build: how many binaries lack the index, and why.
        notes = [line for line in err.splitlines()
                 if "without .printk_index" in line]
        self.assertEqual(len(notes), 1, err)
        self.assertIn("%d binaries read (1 kernel, %d modules); %d without "
                      ".printk_index (built without CONFIG_PRINTK_INDEX)"
                      % (self.modules + 1, self.modules, self.modules),
                      notes[0])
        self.assertEqual(self.lookup(TSC), [
            '?:0 ? <6> "tsc: Detected %lu.%03lu MHz processor\\n" '
            '(vmlinux) origin=strings'])
        self.assertEqual(self.lookup(PROBE), [
            '?:0 a_probe <-1> "probe failed: %d\\n" (a) origin=strings'])
        if self.modules == 3:
            self.assertEqual(self.lookup(LINK), [
                '?:0 b_open <-1> "link up %s\\n" (b) origin=strings'])
        # The index row of c wins over the strings row of vmlinux.
        self.assertEqual(self.lookup(SHARED), [
            'drivers/c.c:9 c_init <3> "shared: %d\\n" (c) origin=elf'])
        self.assertIn("1 strings rows dropped for an index row", notes[0])
        _, out, _ = self.run_cli("--db", self.db, "stats")
        self.assertIn("kernel_release: 6.12.0-d", out)
        self.assertIn("binaries:       %d binaries read" % (self.modules + 1),
                      out)

    def test_with_source(self) -> None:
        """--source adds the file:line a strings row lacks; lookup shows
        both rows, each with its origin."""
        self.file("src/arch/x86/kernel/tsc.c",
                  b'#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt\n'
                  b'void tsc_init(void)\n{\n'
                  b'\tpr_info("Detected %lu.%03lu MHz processor\\n", a, b);'
                  b'\n}\n')
        status, _, err = self.build("--kernel", self.kernel, "--source",
                                    os.path.join(self.dir, "src"))
        self.assertEqual(status, 0, err)
        self.assertEqual(self.lookup(TSC), [
            'arch/x86/kernel/tsc.c:4 tsc_init <6> "tsc: Detected '
            '%lu.%03lu MHz processor\\n" origin=source-approx',
            '?:0 ? <6> "tsc: Detected %lu.%03lu MHz processor\\n" '
            '(vmlinux) origin=strings'])

    def test_vmlinux_alias_and_index_kernel(self) -> None:
        """--vmlinux still works; a kernel with an index gives no note."""
        vmlinux = self.file("vmlinux", eb.build_exec(
            [eb.Entry(b"\x016hi %d\n", b"f", b"a.c", 3)]))
        status, _, err = self.build("--vmlinux", vmlinux)
        self.assertEqual(status, 0, err)
        self.assertNotIn("without .printk_index", err)
        self.assertIn("1 binaries read (1 kernel, 0 modules)", err)
        self.assertEqual(self.lookup(crc(b"hi %d")),
                         ['a.c:3 f <6> "hi %d\\n" (vmlinux) origin=elf'])

    def test_bad_binaries_keep_old_db(self) -> None:
        """Damaged images and modules: one line naming the file, exit 2,
        the previous database untouched, no temporary file left."""
        self.assertEqual(self.build("--kernel", self.kernel)[0], 0)
        with open(self.db, "rb") as f:
            before = f.read()
        payload = xz(VMLINUX)
        cases = [
            (["--kernel", self.file("cut", eb.build_bzimage(
                payload[:len(payload) // 2]))],
             "cut: bzImage payload: cannot decompress xz data"),
            (["--kernel", self.file("junk", b"MZ" + bytes(range(256)) * 8)],
             "junk: not an ELF file, a compressed module or a bzImage"),
            (["--kernel", self.kernel, "--modules", os.path.dirname(
                self.file("bad/z.ko.zst", b"\x28\xb5\x2f\xfd" + b"\1" * 30))],
             "z.ko.zst: cannot decompress"),
        ]
        for argv, message in cases:
            with self.subTest(argv[-1]):
                status, _, err = self.build(*argv)
                self.assertEqual(status, 2, err)
                self.assertEqual(len(err.splitlines()), 1, err)
                self.assertRegex(err, "^msgid-db.py: error: .*" + message)
        zstd_image = self.file("vmlinuz-zstd", eb.build_bzimage(
            b"\x28\xb5\x2f\xfd" + b"\0" * 64))
        with mock.patch("shutil.which", return_value=None):
            status, _, err = self.build("--kernel", zstd_image)
        self.assertEqual(status, 2)
        self.assertIn("the 'zstd' program is needed (Debian package zstd)",
                      err)
        with open(self.db, "rb") as f:
            self.assertEqual(f.read(), before)
        self.assertEqual([n for n in os.listdir(self.dir)
                          if n.endswith(".tmp")], [])

    def test_no_modules_warns(self) -> None:
        empty = os.path.join(self.dir, "empty")
        os.mkdir(empty)
        status, _, err = self.build("--modules", empty)
        # Issue 37: a build that finds nothing writes nothing (rc 2).
        self.assertEqual(status, 2, err)
        self.assertIn("warning: %s: no modules (*.ko, *.ko.gz, *.ko.xz, "
                      "*.ko.zst) found" % empty, err)
        self.assertIn("error: found no call sites in modules:%s: " % empty,
                      err)
        status, _, err = self.build("--modules", empty, "--force")
        self.assertEqual(status, 0, err)
        self.assertIn("warning: the database has no call sites", err)


if __name__ == "__main__":
    unittest.main()
