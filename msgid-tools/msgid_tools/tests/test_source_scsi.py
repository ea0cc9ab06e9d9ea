# SPDX-License-Identifier: GPL-2.0
"""Issue 38: SCSI's sdev_printk(), sd_printk() and scmd_printk()
(source.TEXT_FUNCTIONS).

drivers/scsi/scsi_logging.c's sdev_prefix_printk() and scmd_printk()
format "[%s] " (the disk's name, when they have one) and the caller's
format into a buffer and print it with dev_printk(level, dev, "%s",
logbuf): the kernel gives their records the ID of "%s", after
dev_printk()'s device prefix.  build --source records each call of them
(through sdev_printk(), sd_printk() ...) with that ID and the text it
prints as its format, which annotate matches behind the device prefix.
A small tree is written here with the macros and functions as the
kernel defines them.  The expected ID is computed from "%s" by zlib,
not by the tool.
"""

import os
import tempfile
import unittest
import zlib

from msgid_tools import database
from msgid_tools import match, source
from msgid_tools.tests import clirun

#: The ID the kernel prints for every sdev_printk() record.
PERCENT_S = "%08x" % zlib.crc32(b"%s")

SCSI_DEVICE_H = b"""
__printf(4, 5) void
sdev_prefix_printk(const char *, const struct scsi_device *, const char *,
\t\tconst char *, ...);

#define sdev_printk(l, sdev, fmt, a...)\t\t\t\t\\
\tsdev_prefix_printk(l, sdev, NULL, fmt, ##a)

__printf(3, 4) void
scmd_printk(const char *, const struct scsi_cmnd *, const char *, ...);
"""
#: drivers/scsi/scsi_logging.c (6.12), trimmed.
SCSI_LOGGING_C = b"""
static size_t sdev_format_header(char *logbuf, size_t logbuf_len,
\t\t\t\t const char *name, int tag)
{
\tsize_t off = 0;

\tif (name)
\t\toff += scnprintf(logbuf + off, logbuf_len - off,
\t\t\t\t "[%s] ", name);
\tif (tag >= 0)
\t\toff += scnprintf(logbuf + off, logbuf_len - off,
\t\t\t\t "tag#%d ", tag);
\treturn off;
}

void sdev_prefix_printk(const char *level, const struct scsi_device *sdev,
\t\t\tconst char *name, const char *fmt, ...)
{
\tva_list args;
\tchar *logbuf;
\tsize_t off = 0, logbuf_len;

\tif (!sdev)
\t\treturn;

\tlogbuf = scsi_log_reserve_buffer(&logbuf_len);
\tif (!logbuf)
\t\treturn;

\tif (name)
\t\toff += scnprintf(logbuf + off, logbuf_len - off,
\t\t\t\t "[%s] ", name);
\tif (!WARN_ON(off >= logbuf_len)) {
\t\tva_start(args, fmt);
\t\toff += vscnprintf(logbuf + off, logbuf_len - off, fmt, args);
\t\tva_end(args);
\t}
\tdev_printk(level, &sdev->sdev_gendev, "%s", logbuf);
\tscsi_log_release_buffer(logbuf);
}
EXPORT_SYMBOL(sdev_prefix_printk);

void scmd_printk(const char *level, const struct scsi_cmnd *scmd,
\t\tconst char *fmt, ...)
{
\tva_list args;
\tchar *logbuf;
\tsize_t off = 0, logbuf_len;

\tlogbuf = scsi_log_reserve_buffer(&logbuf_len);
\toff = sdev_format_header(logbuf, logbuf_len, scmd_name(scmd),
\t\t\t\t scsi_cmd_to_rq((struct scsi_cmnd *)scmd)->tag);
\tif (off < logbuf_len) {
\t\tva_start(args, fmt);
\t\toff += vscnprintf(logbuf + off, logbuf_len - off, fmt, args);
\t\tva_end(args);
\t}
\tdev_printk(level, &scmd->device->sdev_gendev, "%s", logbuf);
\tscsi_log_release_buffer(logbuf);
}
EXPORT_SYMBOL(scmd_printk);
"""
SD_H = b"""
#define sd_printk(prefix, sdsk, fmt, a...)\t\t\t\t\\
        (sdsk)->disk ?\t\t\t\t\t\t\t\\
\t      sdev_prefix_printk(prefix, (sdsk)->device,\t\t\\
\t\t\t\t (sdsk)->disk->disk_name, fmt, ##a) :\t\\
\t      sdev_printk(prefix, (sdsk)->device, fmt, ##a)
"""
SD_C = b"""#include <scsi/scsi_device.h>
#include "sd.h"

static blk_status_t sd_setup_read_write_cmnd(struct scsi_cmnd *cmd)
{
\tscmd_printk(KERN_ERR, cmd, "access beyond end of device\\n");
}

static void sd_read_write_protect_flag(struct scsi_disk *sdkp)
{
\tsd_printk(KERN_NOTICE, sdkp, "Write Protect is %s\\n",
\t\t  sdkp->write_prot ? "on" : "off");
}

static int sd_probe(struct device *dev)
{
\tsd_printk(KERN_NOTICE, sdkp, "Attached SCSI disk\\n");
\tsdev_printk(KERN_INFO, sdp, "sd_probe: no disk\\n");
}
"""
SG_C = b"""
static int sg_add_device(struct device *cl_dev)
{
\tsdev_printk(KERN_NOTICE, scsidp, "Attached scsi generic sg%d "
\t\t    "type %d\\n", sdp->index, scsidp->type);
}
"""
FILES = {
    "include/scsi/scsi_device.h": SCSI_DEVICE_H,
    "drivers/scsi/scsi_logging.c": SCSI_LOGGING_C,
    "drivers/scsi/sd.h": SD_H,
    "drivers/scsi/sd.c": SD_C,
    "drivers/scsi/sg.c": SG_C,
}

ATTACHED = b"[    2.345678] sd 0:0:0:0: [sda] Attached SCSI disk"
PROTECT = b"[    2.345600] sd 0:0:0:0: [sda] Write Protect is off"
GENERIC = b"[    2.300000] sd 0:0:0:0: Attached scsi generic sg0 type 0"
BEYOND = (b"[   10.000000] sd 0:0:0:0: [sda] tag#12 access beyond end of "
          b"device")


class ScsiTreeTest(unittest.TestCase):
    """build --source of a small tree, then annotate, lookup, collisions
    and merge, as an operator runs them."""

    def build(self, files: dict[str, bytes], version: str = "6 12"
              ) -> str:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        tree = os.path.join(tmp.name, "src")
        major, minor = version.split()
        clirun.write_tree(tree, dict(files, Makefile=(
            "VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 1\nEXTRAVERSION =\n"
            % (major, minor)).encode()))
        db = os.path.join(tmp.name, "msgid.db")
        status, _, err = clirun.run(["--db", db, "build", "--source", tree,
                                     "-j", "1"])
        self.assertEqual(status, 0, err)
        return db

    def annotate(self, db: str, lines: list[bytes]) -> list[dict]:
        return clirun.annotate_json(self, db, lines)

    def setUp(self) -> None:
        self.db = self.build(FILES)

    def check_matched(self, db: str) -> None:
        """The lines get the ID of "%s", their caller's call site first."""
        want = {ATTACHED: ("drivers/scsi/sd.c", "sd_probe", "5"),
                PROTECT: ("drivers/scsi/sd.c", "sd_read_write_protect_flag",
                          "5"),
                GENERIC: ("drivers/scsi/sg.c", "sg_add_device", "5"),
                BEYOND: ("drivers/scsi/sd.c", "sd_setup_read_write_cmnd",
                         "3")}
        objs = self.annotate(db, list(want))
        for (line, (file, function, level)), obj in zip(want.items(), objs):
            with self.subTest(line=line):
                self.assertEqual(obj["id_from"], "match", obj)
                self.assertEqual(obj["id"], PERCENT_S, obj)
                first = obj["sites"][0]
                self.assertEqual((first["file"], first["function"],
                                  first["level"]), (file, function, level),
                                 obj)

    def test_lines_get_the_id_of_percent_s_and_their_site(self) -> None:
        self.assertEqual(PERCENT_S, "6026e29e")  # msgid.rst's example
        self.check_matched(self.db)

    def test_printed_id_is_honoured(self) -> None:
        line = ATTACHED.replace(b"] sd ", b"] (%s): sd " % PERCENT_S.encode())
        obj = self.annotate(self.db, [line])[0]
        self.assertEqual((obj["id"], obj["id_from"]), (PERCENT_S, "prefix"))
        self.assertNotIn("contradicted_by", obj)
        self.assertNotIn("unknown", obj)
        self.assertEqual((obj["sites"][0]["file"],
                          obj["sites"][0]["function"]),
                         ("drivers/scsi/sd.c", "sd_probe"), obj)

    def test_merged_database(self) -> None:
        other = self.build(FILES, "7 3")
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        merged = os.path.join(tmp.name, "all.db")
        status, _, err = clirun.run(["merge", "-o", merged, self.db, other])
        self.assertEqual(status, 0, err)
        self.check_matched(merged)
        line = ATTACHED.replace(b"] sd ", b"] (%s): sd " % PERCENT_S.encode())
        obj = self.annotate(merged, [line])[0]
        self.assertEqual((obj["id"], obj["id_from"]), (PERCENT_S, "prefix"))
        self.assertNotIn("contradicted_by", obj)
        # the merge keeps where the texts start: after a device prefix
        db = database.open_db(merged)
        try:
            starts = {c: w for i, c, w in match.index_starts(db)
                      if i == PERCENT_S}
        finally:
            db.close()
        self.assertEqual(starts[b"[%s] Attached SCSI disk"], "d")

    def test_text_after_the_device_prefix_only(self) -> None:
        # The text is dev_printk()'s: not at the start of a record.
        obj = self.annotate(self.db, [b"[    2.3] [sda] Attached SCSI "
                                      b"disk"])[0]
        self.assertIsNone(obj["id"], obj)

    def test_collisions_do_not_list_them(self) -> None:
        status, out, err = clirun.run(["--db", self.db, "collisions"])
        self.assertEqual(status, 0, err)
        self.assertIn("CRC collisions (one ID, different formats): 0 IDs",
                      out)

    def test_lookup_shows_the_texts(self) -> None:
        status, out, err = clirun.run(["--db", self.db, "lookup", PERCENT_S])
        self.assertEqual(status, 0, err)
        self.assertIn('"[%s] Attached SCSI disk\\n" origin=source-as-text',
                      out)
        self.assertIn('"%stag#%d access beyond end of device\\n"', out)
        db = database.open_db(self.db)
        try:
            rows = db.lookup(PERCENT_S)
        finally:
            db.close()
        self.assertEqual({r.canonical for r in rows}, {"%s"})
        # sd_printk(): with the disk's name and, before there is a disk,
        # without; sdev_printk(): without; the functions' own "%s"
        sd = sorted(r.format for r in rows if r.function == "sd_probe")
        self.assertEqual(sd, ["\x015Attached SCSI disk\n",
                              "\x015[%s] Attached SCSI disk\n",
                              "\x016sd_probe: no disk\n"])
        self.assertEqual({r.origin for r in rows if r.function == "sd_probe"},
                         {source.TEXT_ORIGIN})

    def test_matcher_built_from_the_sites_table(self) -> None:
        # A database without the stored word index matches them too.
        db = database.open_db(self.db)
        try:
            m = match.Matcher(match.formats(db))
        finally:
            db.close()
        for line in (ATTACHED, GENERIC):
            r = m.identify(line.split(b"] ", 1)[1])
            self.assertEqual((r.id, r.how), (PERCENT_S, "match"))

    def test_only_where_the_tree_prints_as_text(self) -> None:
        # A tree whose sdev_prefix_printk() prints through %pV is not
        # printed as text: its callers get their own formats' IDs.
        pv = SCSI_LOGGING_C.replace(
            b"\tif (!WARN_ON(off >= logbuf_len)) {\n"
            b"\t\tva_start(args, fmt);\n"
            b"\t\toff += vscnprintf(logbuf + off, logbuf_len - off, fmt, "
            b"args);\n\t\tva_end(args);\n\t}\n"
            b"\tdev_printk(level, &sdev->sdev_gendev, \"%s\", logbuf);\n",
            b"\tstruct va_format vaf;\n\tvaf.fmt = fmt;\n\tvaf.va = &args;\n"
            b"\tdev_printk(level, &sdev->sdev_gendev, \"%pV\", &vaf);\n")
        self.assertNotEqual(pv, SCSI_LOGGING_C)
        db = self.build(dict(FILES, **{"drivers/scsi/scsi_logging.c": pv}))
        obj = self.annotate(db, [GENERIC])[0]
        self.assertEqual(obj["id"], "%08x" % zlib.crc32(
            b"Attached scsi generic sg%d type %d"), obj)


class SiteFormatTest(unittest.TestCase):
    """match.site_format() of sites printed as text."""

    def test_behind_a_device_prefix(self) -> None:
        self.assertEqual(match.site_format(
            PERCENT_S, "%s", "\x015[%s] Attached SCSI disk\n", "%s %s: ",
            "drivers/scsi/sd.c"),
            (PERCENT_S, b"[%s] Attached SCSI disk", False, "%s %s: ", False))
        self.assertEqual(match.where("%s %s: "), "d")
        # not known: the text, where it starts not known
        self.assertEqual(match.site_format(
            PERCENT_S, "%s", "\x015[%s] Attached SCSI disk\n", None,
            "drivers/scsi/sd.c")[1:4],
            (b"[%s] Attached SCSI disk", False, None))
        # dev_printk(level, dev, "%s", logbuf) itself, and an index entry
        # that glued the prefix in front of "%s", are "%s"
        for fmt in ("%s", "%s %s: %s"):
            self.assertEqual(match.site_format(PERCENT_S, "%s", fmt,
                                               "%s %s: ", "x.c")[1], b"%s")
        # another wrapper's prefix keeps "%s"
        self.assertEqual(match.site_format(PERCENT_S, "%s", "[drm] %s",
                                           "[drm:%ps] ", "x.c")[1], b"%s")


if __name__ == "__main__":
    unittest.main()
