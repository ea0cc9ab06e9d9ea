#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""distro-check.py ROOT DB [TREE]: msgid-tools' msgid-db on Debian's kernel package.

ROOT is the unpacked package (boot/vmlinuz-*, lib/modules/): a bzImage
and *.ko.xz modules built without CONFIG_PRINTK_INDEX. Runs
"msgid-tools/msgid-db build --kernel --modules" into DB, times it, and checks:

 - the build exits 0 and says once that the binaries have no index;
 - every module on disk was read, and the kernel;
 - more than 10,000 distinct formats were found;
 - each format of KNOWN is found, in the right binary (and function,
   where the module's relocations give it), with the ID computed here
   with zlib.crc32 from the format as written in the base source: the
   pr_fmt() prefix plus the literal, minus one trailing newline.
   With TREE (the base source tree), each literal must also appear in its
   file, so that the list cannot drift from the source.

Prints one line per check and a summary; exit status 1 if one fails.
"""

import glob
import os
import re
import sqlite3
import subprocess
import sys
import time
import zlib

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                    "msgid-tools", "msgid-db")
SUFFIXES = (".ko", ".ko.gz", ".ko.xz", ".ko.zst")
MIN_FORMATS = 10000

# (file, binary, function or None, pr_fmt prefix, literal as written in C)
KNOWN: list[tuple[str, str, "str | None", str, str]] = [
    # vmlinux: level-prefixed strings of the stripped image (pr_info()...)
    ("arch/x86/kernel/tsc.c", "vmlinux", None, "tsc: ",
     r"Detected %lu.%03lu MHz processor\n"),
    ("arch/x86/kernel/setup.c", "vmlinux", None, "",
     r"NX (Execute Disable) protection: active\n"),
    ("init/main.c", "vmlinux", None, "", r"Run %s as init process\n"),
    ("mm/oom_kill.c", "vmlinux", None, "",
     r"%s invoked oom-killer: gfp_mask=%#x(%pGg), order=%d, "
     r"oom_score_adj=%d\n"),
    ("kernel/panic.c", "vmlinux", None, "",
     r"Kernel panic - not syncing: %s\n"),
    # vmlinux: a format without level, found by the call to _dev_info()
    ("drivers/pci/quirks.c", "vmlinux", None, "",
     r"PIIX3: Enabling Passive Release\n"),
    # vmlinux: ext4_msg() of a built-in ext4, the level an argument of
    # its own: found by the call to __ext4_msg(), which is not exported
    # (its address from the image's kallsyms table)
    ("fs/ext4/super.c", "vmlinux", "ext4_fill_super", "",
     r"mounted filesystem %pU %s with%s. Quota mode: %s."),
    # modules: dev_err(), xfs_notice(), btrfs_info(), pr_debug() through
    # dynamic debug
    ("drivers/net/virtio_net.c", "virtio_net", "virtnet_validate", "",
     r"%s failure: config access disabled\n"),
    ("fs/xfs/xfs_log.c", "xfs", "xfs_log_mount", "",
     r"Mounting V%d Filesystem %pU"),
    ("fs/btrfs/super.c", "btrfs", "btrfs_emit_options", "",
     r"allowing degraded mounts"),
    # pr_debug() through dynamic debug: its struct _ddebug gives the
    # function and the file (checked too)
    ("drivers/net/virtio_net.c", "virtio_net", "check_mergeable_len", "",
     r"%s: rx error: len %u exceeds truesize %lu\n"),
]


def c_bytes(literal: str) -> bytes:
    """The bytes of a C literal body that holds no escape but \\n."""
    if "\\" in literal.replace(r"\n", ""):
        raise ValueError("unsupported escape in %r" % literal)
    return literal.replace(r"\n", "\n").encode()


def expected_id(prefix: str, literal: str) -> str:
    fmt = prefix.encode() + c_bytes(literal)
    if fmt.endswith(b"\n"):
        fmt = fmt[:-1]
    return "%08x" % zlib.crc32(fmt)


class Checks:
    def __init__(self) -> None:
        self.failed = 0

    def check(self, ok: bool, what: str) -> None:
        print("distro-check: %s: %s" % ("ok" if ok else "FAIL", what))
        self.failed += not ok


def main() -> int:
    root, db = sys.argv[1], sys.argv[2]
    tree = sys.argv[3] if len(sys.argv) > 3 else ""
    # Debian 12 ships /boot/vmlinuz-VER and /lib/modules/VER; Debian 13's
    # linux-binary-VER package /usr/lib/modules/VER/vmlinuz, beside the
    # modules of linux-modules-VER.
    images = sorted(glob.glob(os.path.join(root, "boot", "vmlinuz-*")) +
                    glob.glob(os.path.join(root, "usr", "lib", "modules",
                                           "*", "vmlinuz")))
    if len(images) != 1:
        print("distro-check: FAIL: expected one kernel image (boot/vmlinuz-* "
              "or usr/lib/modules/*/vmlinuz) in %s, found %s" % (root, images))
        return 1
    kernel = images[0]
    modules = os.path.join(root, "lib", "modules")
    if not os.path.isdir(modules):
        modules = os.path.join(root, "usr", "lib", "modules")
    on_disk = sum(1 for _, _, files in os.walk(modules)
                  for n in files if n.endswith(SUFFIXES))
    checks = Checks()

    start = time.monotonic()
    proc = subprocess.run([sys.executable, TOOL, "build", "--kernel", kernel,
                           "--modules", modules, "-o", db],
                          capture_output=True, text=True)
    seconds = time.monotonic() - start
    sys.stderr.write(proc.stderr)
    checks.check(proc.returncode == 0 and "Traceback" not in proc.stderr,
                 "build exits 0 (%.1f s)" % seconds)
    if proc.returncode:
        return 1
    notes = [line for line in proc.stderr.splitlines()
             if "without .printk_index" in line]
    checks.check(len(notes) == 1, "the missing index is reported once")

    conn = sqlite3.connect(db)
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    m = re.match(r"(\d+) binaries read \((\d+) kernel, (\d+) modules\)",
                 meta.get("binaries", ""))
    read = (int(m.group(2)), int(m.group(3))) if m else (0, 0)
    checks.check(read == (1, on_disk),
                 "binaries read: %d kernel, %d of %d modules"
                 % (read[0], read[1], on_disk))
    formats, ids, sites = conn.execute(
        "SELECT COUNT(DISTINCT canonical), COUNT(DISTINCT id), COUNT(*) "
        "FROM sites").fetchone()
    checks.check(formats > MIN_FORMATS,
                 "%d distinct formats (> %d), %d IDs, %d call sites"
                 % (formats, MIN_FORMATS, ids, sites))

    for file, binary, func, prefix, literal in KNOWN:
        msgid = expected_id(prefix, literal)
        rows = conn.execute("SELECT module, function, file, origin FROM "
                            "sites WHERE id = ?", (msgid,)).fetchall()
        ok = any(mod == binary and func in (None, fn) and
                 (origin != "dyndbg" or where == file)
                 for mod, fn, where, origin in rows)
        what = '%s "%s%s" (%s%s) = %s' % (file, prefix, literal, binary,
                                          ", " + func if func else "", msgid)
        if tree:
            try:
                with open(os.path.join(tree, file), errors="replace") as f:
                    # (adjacent literals joined, as the compiler does)
                    text = re.sub(r'"\s*\n\s*"', "", f.read())
                    in_source = '"%s"' % literal in text
            except OSError:
                in_source = False
            ok = ok and in_source
            what += "" if in_source else " [literal not in %s]" % tree
        checks.check(ok, what)

    print("distro-check: %s: %d binaries read, %d formats, %d call sites, "
          "build %.1f s" % ("FAILED" if checks.failed else "passed",
                            sum(read), formats, sites, seconds))
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
