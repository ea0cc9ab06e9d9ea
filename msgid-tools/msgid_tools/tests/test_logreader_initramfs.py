# SPDX-License-Identifier: GPL-2.0
"""The records that initramfs tools write to /dev/kmsg without a pid
(dracut, NixOS's stage-1 and stage-2 scripts) are user space, as in the
corpus of real logs (tests/corpus/): never counted as the kernel's."""

import unittest

from msgid_tools.dmesg import Annotator
from msgid_tools.logreader import ORIGIN_KERNEL, ORIGIN_USER
from msgid_tools.match import Matcher


def _annotator() -> Annotator:
    fmts = [("11111111", b"XFS: attr2 mount option is deprecated.", False,
             None),
            ("22222222", b"Run %s as init process", False, None)]
    return Annotator({}, matcher=Matcher(fmts))


class InitramfsRecordsTest(unittest.TestCase):
    def test_user_space(self) -> None:
        a = _annotator()
        for line, tag in (
                (b"[    2.587287] dracut: Mounted root filesystem "
                 b"/dev/nvme0n1p3", "dracut"),
                (b"[   11.306033] stage-1-init: [Tue Feb 24 06:34:08 UTC "
                 b"2026] checking /dev/disk/by-uuid/5fd6", "stage-1-init"),
                (b"[   12.635057] stage-2-init: running activation "
                 b"script...", "stage-2-init"),
                (b"[   13.9] dracut-pre-udev[245]: modprobe: FATAL",
                 "dracut-pre-udev[245]")):
            rec = a.parse(line)
            self.assertEqual((rec.origin, rec.tag), (ORIGIN_USER, tag), line)

    def test_kernel_records_stay(self) -> None:
        a = _annotator()
        for line in (b"[    2.577959] XFS: attr2 mount option is deprecated.",
                     b"[    1.849804] Run /init as init process",
                     b"[    1.0] dracut_x: not a tool's tag"):
            self.assertEqual(a.parse(line).origin, ORIGIN_KERNEL, line)


if __name__ == "__main__":
    unittest.main()
