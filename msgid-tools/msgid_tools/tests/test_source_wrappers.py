# SPDX-License-Identifier: GPL-2.0
"""Tests of the source scanner's tree-wide wrappers (issue 38): the
wrapper macros of include/ and the functions that print their caller's
format through %pV, learnt in a first pass (msgid_tools.source.learn_tree())
and followed in every file's scan."""

import os
import tempfile
import time
import unittest
import zlib

from msgid_tools import source
from msgid_tools.tests import clirun


def crc(text: bytes) -> str:
    return "%08x" % zlib.crc32(text)


#: include/linux/libata.h's printk macros (6.12), trimmed.
LIBATA_H = rb'''
#define ata_port_printk(level, ap, fmt, ...)			\
	pr_ ## level ("ata%u: " fmt, (ap)->print_id, ##__VA_ARGS__)
#define ata_port_info(ap, fmt, ...)				\
	ata_port_printk(info, ap, fmt, ##__VA_ARGS__)
#define ata_link_printk(level, link, fmt, ...)			\
do {								\
	if (sata_pmp_attached((link)->ap) ||			\
	    (link)->ap->slave_link)				\
		pr_ ## level ("ata%u.%02u: " fmt,		\
			      (link)->ap->print_id,		\
			      (link)->pmp,			\
			      ##__VA_ARGS__);			\
        else							\
		pr_ ## level ("ata%u: " fmt,			\
			      (link)->ap->print_id,		\
			      ##__VA_ARGS__);			\
} while (0)
#define ata_link_info(link, fmt, ...)				\
	ata_link_printk(info, link, fmt, ##__VA_ARGS__)
#define ata_dev_printk(level, dev, fmt, ...)			\
        pr_ ## level("ata%u.%02u: " fmt,			\
               (dev)->link->ap->print_id,			\
	       (dev)->link->pmp + (dev)->devno,			\
	       ##__VA_ARGS__)
#define ata_dev_err(dev, fmt, ...)				\
	ata_dev_printk(err, dev, fmt, ##__VA_ARGS__)
#define ata_dev_info(dev, fmt, ...)				\
	ata_dev_printk(info, dev, fmt, ##__VA_ARGS__)
'''
#: include/net/bluetooth/bluetooth.h and net/bluetooth/lib.c (6.12).
BLUETOOTH_H = rb'''
void bt_info(const char *fmt, ...);
#define BT_INFO(fmt, ...)	bt_info(fmt "\n", ##__VA_ARGS__)
#define bt_dev_info(hdev, fmt, ...)				\
	BT_INFO("%s: " fmt, bt_dev_name(hdev), ##__VA_ARGS__)
'''
BT_LIB_C = rb'''
#define pr_fmt(fmt) "Bluetooth: " fmt

void bt_info(const char *format, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, format);

	vaf.fmt = format;
	vaf.va = &args;

	pr_info("%pV", &vaf);

	va_end(args);
}
'''
#: fs/xfs/xfs_message.c: the %pV is printed by a helper, at the level
#: its caller passes ("%s" first: prints nothing).
XFS_C = rb'''
static void
__xfs_printk(
	const char		*level,
	const struct xfs_mount	*mp,
	struct va_format	*vaf)
{
	if (mp && mp->m_super) {
		printk("%sXFS (%s): %pV\n", level, mp->m_super->s_id, vaf);
		return;
	}
	printk("%sXFS: %pV\n", level, vaf);
}

void
xfs_printk_level(
	const char *kern_level,
	const struct xfs_mount *mp,
	const char *fmt, ...)
{
	struct va_format	vaf = { .fmt = fmt, };
	va_list			args;

	va_start(args, fmt);
	vaf.va = &args;
	__xfs_printk(kern_level, mp, &vaf);
	va_end(args);
}
'''
#: Not %pV functions: a buffer wrapper (drivers/scsi/scsi_logging.c:
#: the kernel gives all its records the ID of "%s": source.TEXT_FUNCTIONS),
#: a KERN_CONT one (the record keeps the ID of its first part) and a
#: static one.
OTHERS_C = rb'''
void sdev_prefix_printk(const char *level, const struct scsi_device *sdev,
			const char *name, const char *fmt, ...)
{
	va_list args;
	char *logbuf = buf;

	va_start(args, fmt);
	off += vscnprintf(logbuf + off, logbuf_len - off, fmt, args);
	va_end(args);
	dev_printk(level, &sdev->sdev_gendev, "%s", logbuf);
}

void grp_error(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	printk(KERN_CRIT "EXT4-fs error: group %u, ", 1);
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	printk(KERN_CONT "%pV\n", &vaf);
	va_end(args);
}

static void own_msg(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_warn("own: %pV\n", &vaf);
	va_end(args);
}

void g(void)
{
	own_msg("seen here %d", 1);
}
'''
CALLER_C = rb'''
#include <linux/libata.h>
#include <net/bluetooth/bluetooth.h>

void f(struct ata_device *dev, struct ata_link *link, struct hci_dev *hdev)
{
	ata_dev_info(dev, "configured for %s%s\n", mode, ncq);
	ata_link_info(link, "SATA link up %s (SStatus %X SControl %X)\n",
		      spd, sstatus, scontrol);
	BT_INFO("Core ver %s", "2.22");
	bt_dev_info(hdev, "BCM: chip id %u", id);
	xfs_printk_level(KERN_NOTICE, mp, "Mounting V5 Filesystem %pU\n", u);
	sdev_printk(KERN_NOTICE, sdev, "%s %.8s\n", type, vendor);
	grp_error("bad block bitmap %llu", b);
	own_msg("not seen here %d", 2);
}
'''


class TreeWrappersTest(unittest.TestCase):
    """A fake tree: the macros in include/, the %pV functions in their
    .c files, the calls in another directory."""

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        clirun.write_tree(self.root, {
            "include/linux/libata.h": LIBATA_H,
            "include/net/bluetooth/bluetooth.h": BLUETOOTH_H
            + b'#define sdev_printk(l, sdev, fmt, a...)\t\\\n'
            b'\tsdev_prefix_printk(l, sdev, NULL, fmt, ##a)\n',
            "net/bluetooth/lib.c": BT_LIB_C,
            "fs/xfs/xfs_message.c": XFS_C,
            "drivers/scsi/others.c": OTHERS_C,
            "drivers/ata/caller.c": CALLER_C,
        })

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def sites(self, name: str, jobs: int = 1) -> list[tuple]:
        return [(s.line, s.canonical, s.id, s.level, s.subsys)
                for s in source.scan_tree(self.root, jobs)
                if s.file == name]

    def test_learnt(self) -> None:
        files = [(os.path.join(self.root, n), n) for n in (
            "net/bluetooth/lib.c", "fs/xfs/xfs_message.c",
            "drivers/scsi/others.c")]
        tree = source.learn_tree(self.root, files)
        self.assertEqual(tree.functions, {
            b"bt_info": source.PvFunction(0, -1, "6", "Bluetooth: "),
            b"xfs_printk_level": source.PvFunction(2, 0, "", "XFS (%s): "),
            # printed as text, through "%s" (its own table's entry)
            b"sdev_prefix_printk":
                source.TEXT_FUNCTIONS[b"sdev_prefix_printk"]})
        self.assertEqual(tree.static, {"drivers/scsi/others.c": {
            b"own_msg": source.PvFunction(0, -1, "4", "own: ")}})
        # sdev_printk() reaches sdev_prefix_printk(): a wrapper.
        self.assertEqual(sorted(tree.macros), [
            b"BT_INFO", b"ata_dev_err", b"ata_dev_info", b"ata_dev_printk",
            b"ata_link_info", b"ata_link_printk", b"ata_port_info",
            b"ata_port_printk", b"bt_dev_info", b"sdev_printk"])

    def test_callers(self) -> None:
        def site(line: int, fmt: bytes, level: str, subsys: str) -> tuple:
            return (line, fmt.decode(), crc(fmt), level, subsys)
        self.assertEqual(self.sites("drivers/ata/caller.c"), [
            # Nested macros, "pr_ ## level".
            site(7, b"ata%u.%02u: configured for %s%s", "6", ""),
            # Both of ata_link_printk()'s print calls.
            site(8, b"ata%u.%02u: SATA link up %s (SStatus %X SControl %X)",
                 "6", ""),
            site(8, b"ata%u: SATA link up %s (SStatus %X SControl %X)",
                 "6", ""),
            # bt_info(): the caller's format inside the %pV, the pr_fmt()
            # of lib.c before it.
            site(10, b"Core ver %s", "6", "Bluetooth: "),
            site(11, b"%s: BCM: chip id %u", "6", "Bluetooth: "),
            # Through a helper; the level is the caller's argument.
            site(12, b"Mounting V5 Filesystem %pU", "5", "XFS (%s): "),
            # Printed as text through dev_printk()'s "%s": its ID.
            site(13, b"%s", "5", "%s %s: ")])
        # The wrappers' own print calls stay what they are.
        self.assertEqual(self.sites("net/bluetooth/lib.c"), [
            site(14, b"Bluetooth: %pV", "6", "")])
        self.assertEqual(self.sites("drivers/scsi/others.c"), [
            site(11, b"%s", "-1", "%s %s: "),
            site(19, b"EXT4-fs error: group %u, ", "2", ""),
            site(23, b"%pV", "c", ""),
            site(35, b"own: %pV", "4", ""),
            site(41, b"seen here %d", "4", "own: ")])

    def test_same_with_several_processes(self) -> None:
        # Enough files for the pool (scan_tree() scans fewer in-process).
        clirun.write_tree(self.root, {"drivers/ata/c%02d.c" % i: CALLER_C
                          for i in range(2 * source._CHUNK)})
        one = list(source.scan_tree(self.root, 1))
        self.assertEqual(list(source.scan_tree(self.root, 2)), one)
        self.assertEqual(sum(s.subsys == "Bluetooth: " for s in one),
                         2 * (2 * source._CHUNK + 1))

    def test_without_the_tree(self) -> None:
        # scan_file() alone knows the file's own wrappers only.
        sites = source.scan_file(
            os.path.join(self.root, "drivers/ata/caller.c"),
            "drivers/ata/caller.c")
        self.assertEqual(sites, [])


class LocalHeadersTest(unittest.TestCase):
    def test_header_of_a_local_header(self) -> None:
        """xfs.h -> xfs_linux.h -> xfs_message.h: the wrapper macro of
        the last, calling a %pV function of the tree, is followed."""
        with tempfile.TemporaryDirectory() as root:
            clirun.write_tree(root, {
                "fs/xfs/xfs_message.c": XFS_C,
                "fs/xfs/xfs.h": b'#include "xfs_linux.h"\n',
                "fs/xfs/xfs_linux.h": b'#include "xfs_message.h"\n',
                "fs/xfs/xfs_message.h":
                    b'#define xfs_notice(mp, fmt, ...) \\\n'
                    b'\txfs_printk_level(KERN_NOTICE, mp, fmt, '
                    b'##__VA_ARGS__)\n',
                "fs/xfs/xfs_super.c":
                    b'#include "xfs.h"\nvoid f(void)\n{\n'
                    b'\txfs_notice(mp, "Unmounting Filesystem %pU", u);\n'
                    b'}\n'})
            sites = [(s.file, s.line, s.canonical, s.level, s.subsys)
                     for s in source.scan_tree(root)
                     if s.file == "fs/xfs/xfs_super.c"]
        self.assertEqual(sites, [("fs/xfs/xfs_super.c", 4,
                                  "Unmounting Filesystem %pU", "5",
                                  "XFS (%s): ")])


class StubTest(unittest.TestCase):
    def test_first_definition_wins(self) -> None:
        """fs/ext4/ext4.h: ext4_msg() with CONFIG_PRINTK, then its stub;
        the first is followed, into a %pV function with the level as
        its "%s"."""
        with tempfile.TemporaryDirectory() as root:
            clirun.write_tree(root, {
                "fs/ext4/ext4.h":
                    b'#ifdef CONFIG_PRINTK\n'
                    b'#define ext4_msg(sb, level, fmt, ...)\t\\\n'
                    b'\t__ext4_msg(sb, level, fmt, ##__VA_ARGS__)\n'
                    b'#else\n'
                    b'#define ext4_msg(sb, level, fmt, ...)\t\\\n'
                    b'do {\t\\\n\tno_printk(fmt, ##__VA_ARGS__);\t\\\n'
                    b'\t__ext4_msg(sb, "", " ");\t\\\n} while (0)\n'
                    b'#endif\n',
                "fs/ext4/super.c":
                    b'#include "ext4.h"\n'
                    b'void __ext4_msg(struct super_block *sb,\n'
                    b'\t\tconst char *prefix, const char *fmt, ...)\n'
                    b'{\n\tstruct va_format vaf;\n\tva_list args;\n\n'
                    b'\tva_start(args, fmt);\n\tvaf.fmt = fmt;\n'
                    b'\tvaf.va = &args;\n\tif (sb)\n'
                    b'\t\tprintk("%sEXT4-fs (%s): %pV\\n", prefix, '
                    b'sb->s_id, &vaf);\n\telse\n'
                    b'\t\tprintk("%sEXT4-fs: %pV\\n", prefix, &vaf);\n'
                    b'\tva_end(args);\n}\n'
                    b'void f(struct super_block *sb)\n{\n'
                    b'\text4_msg(sb, KERN_INFO, "mounted filesystem %pU '
                    b'%s with%s. ", u, ro, descr);\n}\n'})
            sites = [(s.line, s.canonical, s.id, s.level, s.subsys)
                     for s in source.scan_tree(root)
                     if s.function == "f"]
        fmt = b"mounted filesystem %pU %s with%s. "
        self.assertEqual(sites, [(19, fmt.decode(), crc(fmt), "6",
                                  "EXT4-fs (%s): ")])


class FunctionsTest(unittest.TestCase):
    def functions(self, data: bytes) -> tuple[dict, dict]:
        with tempfile.TemporaryDirectory() as root:
            clirun.write_tree(root, {"x.c": data})
            return source._FileScanner(
                os.path.join(root, "x.c"), "x.c",
                source._NO_TREE).pv_functions(data)

    def test_attribute_before_the_name(self) -> None:
        """lib/test_msgid.c: "static __printf(2, 3)" before the name; a
        "struct va_format *" parameter that is not printed first."""
        self.assertEqual(self.functions(
            b'static __printf(2, 3)\n'
            b'void second(const struct va_format *first, const char *fmt,'
            b' ...)\n{\n\tstruct va_format vaf;\n\tvaf.fmt = fmt;\n'
            b'\tpr_info("two: %pV, then %pV\\n", first, &vaf);\n}\n'
            b'__printf(1, 2) void first(const char *fmt, ...)\n'
            b'{\n\tstruct va_format vaf = { .fmt = fmt };\n'
            b'\tpr_info("one: %pV, then %pV\\n", &vaf, other);\n}\n'),
            ({b"first": source.PvFunction(0, -1, "6", "one: ")}, {}))

    def test_garbage(self) -> None:
        """Pieces of %pV functions anywhere, unclosed: no error, fast."""
        piece = (b'struct va_format *v, vaf.fmt = fmt; { ( "%pV" '
                 b'pr_info("%pV", &vaf); static __printf(1, 2) void f('
                 b'const char *fmt, ...) { struct va_format vaf = {'
                 b' .fmt = fmt, }; helper(&vaf); ')
        for n in (1, 300):
            start = time.process_time()
            self.functions(piece * n)
            self.functions(piece.replace(b"(", b"") * n)
            self.assertLess(time.process_time() - start, 20)


class BoundedTest(unittest.TestCase):
    def test_pathological_macros_are_bounded(self) -> None:
        """Macros that call each other, or that grow their text at each
        level: the scan stays fast and small."""
        # w0 .. w3 reach pr_info() in MAX_NEST steps, d0 .. d39 not.
        chain = b"".join(
            b'#define w%d(fmt, ...) w%d(fmt fmt fmt fmt, 1) '
            b'w%d(fmt fmt fmt fmt, 2) w%d(fmt, 3)\n' % (i, i + 1, i + 1, i + 1)
            for i in range(3))
        chain += b'#define w3(fmt, ...) pr_info(fmt)\n'
        chain += b"".join(b'#define d%d(fmt) d%d(fmt fmt) d%d(fmt)\n'
                          % (i, i + 1, i + 1) for i in range(40))
        chain += b'#define d40(fmt) pr_info(fmt)\n'
        chain += b'#define loop_a(fmt) loop_b(fmt)\n'
        chain += b'#define loop_b(fmt) loop_a(fmt) pr_err(fmt)\n'
        calls = b"".join(b'\tw0("%s");\n\tloop_a("x");\n\td0("y");\n'
                         % (b"a" * 4000) for _ in range(50))
        with tempfile.TemporaryDirectory() as root:
            clirun.write_tree(root, {"include/w.h": chain,
                         "x.c": b"void f(void)\n{\n" + calls + b"}\n"})
            start = time.process_time()
            sites = list(source.scan_tree(root))
            spent = time.process_time() - start
        self.assertLess(spent, 30)
        # 4000 bytes grown 4 times a level: too long at the third.
        self.assertEqual({len(s.canonical) for s in sites if s.line == 3},
                         {4000, 16000})
        self.assertEqual({s.canonical for s in sites if s.line == 4}, {"x"})
        self.assertEqual([s for s in sites if s.line == 5], [])

    def test_many_macros(self) -> None:
        many = b"".join(b'#define m%d(fmt) pr_info("%d" fmt)\n' % (i, i)
                        for i in range(source.MAX_TREE_WRAPPERS + 100))
        with tempfile.TemporaryDirectory() as root:
            clirun.write_tree(root, {"include/many.h": many})
            tree = source.learn_tree(root, [])
        self.assertEqual(len(tree.macros), source.MAX_TREE_WRAPPERS)


if __name__ == "__main__":
    unittest.main()
