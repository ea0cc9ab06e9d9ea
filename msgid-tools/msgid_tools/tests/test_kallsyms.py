# SPDX-License-Identifier: GPL-2.0
"""A stripped vmlinux names its functions in its kallsyms table: the
image reader finds the formats passed to printk functions it does not
export (ext4's __ext4_msg(): no KERN_ level in the format, so no other
way finds them), and names the function of every row."""

import os
import subprocess
import tempfile
import unittest
import zlib

from msgid_tools import elf
from msgid_tools import kallsyms
from msgid_tools import strings
from msgid_tools.tests import clirun
from msgid_tools.tests import elf_builder as eb

BASE = 0xffffffff81000000
EXT4_FMT = b"mounted filesystem %pU %s with%s. Quota mode: %s."
# ext4_msg(sb, KERN_INFO, fmt, ...): __ext4_msg(sb, "\0016", fmt, ...),
# the format in %rdx; and a level-prefixed string, found either way.
CALLS = [(EXT4_FMT, 2, "__ext4_msg"),
         (b"\x016plain: %d\n", 0, "_printk"),
         (b"PIIX3: Enabling Passive Release\n", 1, "_dev_err")]
EXPORTS = ("_printk", "_dev_err")
ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")


def crc(text: bytes) -> str:
    return "%08x" % zlib.crc32(text)


def image(style: "str | None") -> elf.ElfFile:
    return elf.ElfFile(eb.build_exec_calls(CALLS, exports=EXPORTS,
                                           kallsyms=style, caller="ext4_fill_super"),
                       "vmlinuz-6.12.0-test")


class KallsymsTest(unittest.TestCase):
    def test_the_cause(self) -> None:
        """Without names, the format of a call to a function that is not
        exported and has no level is not found."""
        found = {s.id for s in strings.sites(image(None), "vmlinux")}
        self.assertIn(crc(b"PIIX3: Enabling Passive Release"), found)
        self.assertNotIn(crc(EXT4_FMT), found)
        self.assertIsNone(strings.SystemMap.from_kallsyms(image(None)))

    def test_both_layouts(self) -> None:
        for style in ("6.12", "7.3"):
            with self.subTest(style=style):
                img = image(style)
                syms = kallsyms.symbols(img, strings.exported(img))
                names = sorted({c for _, _, c in CALLS} | set(EXPORTS))
                want = [(BASE + 16 * i, "T", n) for i, n in enumerate(names)]
                want.append((BASE + 16 * len(names), "t", "ext4_fill_super"))
                self.assertEqual(syms, want)
                smap = strings.SystemMap.from_kallsyms(img)
                assert smap is not None
                found = {s.id: s for s in strings.sites(img, "vmlinux", smap)}
                self.assertEqual(crc(EXT4_FMT), "3210e2b0")
                for fmt in (EXT4_FMT, b"plain: %d",
                            b"PIIX3: Enabling Passive Release"):
                    self.assertEqual(found[crc(fmt)].function,
                                     "ext4_fill_super", fmt)

    def test_damaged_table_reads_as_none(self) -> None:
        data = bytearray(eb.build_exec_calls(CALLS, exports=EXPORTS,
                                             kallsyms="6.12"))
        at = data.find(b"0\x001\x002\x00")
        data[at] = ord("x")  # the digits' tokens are no more
        img = elf.ElfFile(bytes(data), "damaged")
        self.assertEqual(kallsyms.symbols(img, strings.exported(img)), [])
        self.assertNotIn(crc(EXT4_FMT),
                         {s.id for s in strings.sites(img, "vmlinux")})

    def test_build_with_a_placeholder_map(self) -> None:
        """Debian's /boot/System.map is a placeholder: build says so and
        takes the kernel's own names."""
        with tempfile.TemporaryDirectory() as d:
            kernel = os.path.join(d, "vmlinuz-6.12.0-test")
            with open(kernel, "wb") as f:
                f.write(eb.build_exec_calls(CALLS, exports=EXPORTS,
                                            kallsyms="6.12",
                                            caller="ext4_fill_super"))
            with open(os.path.join(d, "System.map-6.12.0-test"), "wb") as f:
                f.write(b"ffffffffffffffff B The real System.map is in "
                        b"the linux-image-<version>-dbg package\n")
            db = os.path.join(d, "x.db")
            status, _, err = clirun.run(["build", "--kernel", kernel,
                                         "-o", db])
            self.assertEqual(status, 0, err)
            self.assertIn("placeholder", err)
            self.assertIn("kallsyms table", err)
            status, out, _ = clirun.run(["--db", db, "lookup",
                                         crc(EXT4_FMT)])
            self.assertEqual(status, 0)
            self.assertIn("ext4_fill_super", out)
            self.assertIn(EXT4_FMT.decode(), out)


class DebianCloudKernelTest(unittest.TestCase):
    """Debian's 6.12 cloud kernel (harness/env.sh LTS_DISTRO_PKG), fetched
    into out/cloud-6.12 with harness/fetch-deb.sh; skipped when it
    cannot be fetched."""

    def test_ext4_mount_message(self) -> None:
        out = os.path.join(ROOT, "out", "cloud-6.12")
        env = subprocess.run(
            ["bash", "-c", '. harness/env.sh && echo "$LTS_DISTRO_PKG" '
             '"$LTS_VERSION" "$LTS_SUITE"'], cwd=ROOT, capture_output=True,
            text=True, check=False)
        if env.returncode != 0:
            self.skipTest("harness/env.sh: %s" % env.stderr.strip())
        pkg, version, suite = env.stdout.split()
        fetch = subprocess.run(
            ["bash", os.path.join(ROOT, "harness", "fetch-deb.sh"), pkg,
             version, suite, out], capture_output=True, text=True,
            check=False)
        if fetch.returncode == 3:
            self.skipTest("cannot fetch %s=%s: %s"
                          % (pkg, version, fetch.stderr.strip()))
        self.assertEqual(fetch.returncode, 0, fetch.stderr)
        boot = os.path.join(out, "root", "boot")
        kernel = [os.path.join(boot, n) for n in sorted(os.listdir(boot))
                  if n.startswith("vmlinuz-")][0]
        with tempfile.TemporaryDirectory() as d:
            db = os.path.join(d, "cloud.db")
            status, _, err = clirun.run(["build", "--kernel", kernel,
                                         "-o", db])
            self.assertEqual(status, 0, err)
            status, out_text, _ = clirun.run(["--db", db, "lookup",
                                              crc(EXT4_FMT)])
        self.assertEqual(crc(EXT4_FMT), "3210e2b0")
        self.assertEqual(status, 0, out_text)
        self.assertIn("ext4_fill_super", out_text)
        self.assertIn(EXT4_FMT.decode(), out_text)


if __name__ == "__main__":
    unittest.main()
