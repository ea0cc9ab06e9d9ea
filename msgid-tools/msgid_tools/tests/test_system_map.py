# SPDX-License-Identifier: GPL-2.0
"""A distribution kernel's System.map names the functions of its
strings rows, and adds the printk functions it does not export."""

import os
import tempfile
import unittest
import zlib

from msgid_tools import elf
from msgid_tools import strings
from msgid_db.ids import InputError
from msgid_tools.tests import clirun
from msgid_tools.tests import elf_builder as eb

BASE = 0xffffffff81000000
CALLS = [(b"PIIX3: Enabling Passive Release\n", 1, "_dev_err"),
         (b"\x013plain: %d\n", 0, "_printk"),
         (b"EXT4-fs: not exported %d\n", 2, "__ext4_msg")]
EXPORTS = ("_printk", "_dev_err")


def crc(text: bytes) -> str:
    return "%08x" % zlib.crc32(text)


def system_map(names: list[str], caller: str = "quirk_passive_release"
               ) -> bytes:
    """The map of eb.build_exec_calls(): its functions 16 bytes apart,
    then the calling code, one function @caller."""
    lines = [b"%016x T %s" % (BASE + 16 * i, n.encode())
             for i, n in enumerate(names)]
    lines.append(b"%016x t %s" % (BASE + 16 * len(names), caller.encode()))
    lines.append(b"%016x D some_data" % (BASE + 0x100000))
    return b"\n".join(lines) + b"\n"


class SystemMapTest(unittest.TestCase):
    def setUp(self) -> None:
        self.names = sorted(set(EXPORTS) | {c for _, _, c in CALLS})
        self.image = elf.ElfFile(eb.build_exec_calls(CALLS, exports=EXPORTS),
                                 "vmlinuz-6.12.0-test")

    def test_functions_and_more_formats(self) -> None:
        without = {s.id: s for s in strings.sites(self.image, "vmlinux")}
        self.assertNotIn(crc(b"EXT4-fs: not exported %d"), without)
        self.assertEqual({s.function for s in without.values()}, {"?"})
        smap = strings.SystemMap(system_map(self.names), "System.map")
        smap.check(self.image)
        found = {s.id: s for s in strings.sites(self.image, "vmlinux",
                                                smap)}
        for fmt in (b"PIIX3: Enabling Passive Release", b"plain: %d",
                    b"EXT4-fs: not exported %d"):
            self.assertEqual(found[crc(fmt)].function,
                             "quirk_passive_release", fmt)
            self.assertEqual((found[crc(fmt)].file, found[crc(fmt)].line),
                             ("?", 0))

    def test_map_of_another_build(self) -> None:
        other = system_map(["_dev_err", "_printk", "__ext4_msg"])
        smap = strings.SystemMap(other, "System.map-other")
        with self.assertRaisesRegex(InputError, "is not the System.map of"):
            smap.check(self.image)
        with self.assertRaisesRegex(InputError, "not a System.map"):
            strings.SystemMap(b"hello\nworld\n", "x")

    def test_build_takes_the_map_beside_the_image(self) -> None:
        with tempfile.TemporaryDirectory() as d:
            kernel = os.path.join(d, "vmlinuz-6.12.0-test")
            with open(kernel, "wb") as f:
                f.write(eb.build_exec_calls(CALLS, exports=EXPORTS))
            with open(os.path.join(d, "System.map-6.12.0-test"), "wb") as f:
                f.write(system_map(self.names))
            db = os.path.join(d, "x.db")
            status, _, err = clirun.run(["build", "--kernel", kernel,
                                         "-o", db])
            self.assertEqual(status, 0, err)
            self.assertIn("system-map:", err)
            status, out, _ = clirun.run(["--db", db, "lookup",
                                         crc(b"plain: %d")])
            self.assertEqual(status, 0)
            self.assertTrue(out.startswith("?:0 quirk_passive_release "),
                            out)
            # Debian's linux-image package holds a placeholder: the build
            # goes on without it, and says where the real one is
            with open(os.path.join(d, "System.map-6.12.0-test"), "wb") as f:
                f.write(b"ffffffffffffffff B The real System.map is in the "
                        b"linux-image-<version>-dbg package\n")
            status, _, err = clirun.run(["build", "--kernel", kernel,
                                         "-o", db, "--force"])
            self.assertEqual(status, 0, err)
            self.assertIn("-dbg package", err)
            bad = os.path.join(d, "bad.map")
            with open(bad, "wb") as f:
                f.write(b"not a map\n")
            status, _, err = clirun.run(["build", "--kernel", kernel,
                                         "--system-map", bad, "-o", db])
            self.assertEqual(status, 2)
            self.assertIn("not a System.map", err)


if __name__ == "__main__":
    unittest.main()
