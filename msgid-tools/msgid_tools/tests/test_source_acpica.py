# SPDX-License-Identifier: GPL-2.0
"""Issues 37 and 38: ACPICA's messages (source_acpica.py).

ACPICA prints every message with printk("%s", buffer) (drivers/acpi/
osl.c), so the kernel gives them all the ID of "%s"; build --source
records each ACPI_INFO((...)), ACPI_ERROR((AE_INFO, ...)), ... call with
that ID and the text ACPICA prints as its format, which annotate matches.
A small tree is written here with the headers' ACPI_MSG_* as the kernel
defines them.  The expected ID is computed from "%s" by zlib, not by the
tool.
"""

import io
import os
import tempfile
import unittest
import zlib

from msgid_db import ids
from msgid_tools import database
from msgid_tools import dmesg, match, source, source_acpica
from msgid_tools.tests import clirun

#: The ID the kernel prints for every ACPICA record.
PERCENT_S = "%08x" % zlib.crc32(b"%s")
#: A generic format that KERN_CONT may continue, whose first words the
#: ACPICA error below fits ("%s failed" + " \\_SB... due to ...").
FAILED = "%08x" % zlib.crc32(b"%s failed")

FILES = {
    "include/acpi/platform/aclinux.h": b"""
#define ACPI_MSG_ERROR          KERN_ERR "ACPI Error: "
#define ACPI_MSG_EXCEPTION      KERN_ERR "ACPI Exception: "
#define ACPI_MSG_WARNING        KERN_WARNING "ACPI Warning: "
#define ACPI_MSG_INFO           KERN_INFO "ACPI: "

#define ACPI_MSG_BIOS_ERROR     KERN_ERR "ACPI BIOS Error (bug): "
#define ACPI_MSG_BIOS_WARNING   KERN_WARNING "ACPI BIOS Warning (bug): "
""",
    "include/acpi/acoutput.h": b"""
#define AE_INFO                         _acpi_module_name, __LINE__
#define ACPI_INFO(plist)                acpi_info plist
#define ACPI_ERROR(plist)               acpi_error plist
""",
    "drivers/acpi/acpica/acutils.h": b"""
#ifndef ACPI_MSG_ERROR
#define ACPI_MSG_ERROR          "ACPI Error: "
#endif
#ifndef ACPI_MSG_INFO
#define ACPI_MSG_INFO           "ACPI: "
#endif
/*
 * Common message suffix
 */
#define ACPI_MSG_SUFFIX \\
\tacpi_os_printf (" (%8.8X/%s-%u)\\n", ACPI_CA_VERSION, module_name, """
    b"""line_number)
""",
    "drivers/acpi/acpica/tbprint.c": b"""
#include <acpi/acpi.h>
#include "accommon.h"

#define _COMPONENT          ACPI_TABLES
ACPI_MODULE_NAME("tbprint")

void
acpi_tb_print_table_header(acpi_physical_address address,
\t\t\t   struct acpi_table_header *header)
{
\tif (ACPI_COMPARE_NAMESEG(header->signature, ACPI_SIG_FACS)) {
\t\tACPI_INFO(("%-4.4s 0x%8.8X%8.8X %06X",
\t\t\t   header->signature, ACPI_FORMAT_UINT64(address),
\t\t\t   header->length));
\t} else {
\t\t/* Standard ACPI table with full common header */
\t\tACPI_INFO(("%-4.4s 0x%8.8X%8.8X"
\t\t\t   " %06X (v%.2d %-6.6s %-8.8s %08X %-4.4s %08X)",
\t\t\t   local_header.signature, ACPI_FORMAT_UINT64(address),
\t\t\t   local_header.length, local_header.revision,
\t\t\t   local_header.oem_id, local_header.oem_table_id,
\t\t\t   local_header.oem_revision,
\t\t\t   local_header.asl_compiler_id,
\t\t\t   local_header.asl_compiler_revision));
\t}
}
""",
    "drivers/acpi/acpica/tbfadt.c": b"""
ACPI_MODULE_NAME("tbfadt")

static void acpi_tb_convert_fadt(void)
{
\t\t\t\tACPI_BIOS_WARNING((AE_INFO,
\t\t\t\t\t\t   "Optional FADT field %s has valid Length "
\t\t\t\t\t\t   "but zero Address: 0x%8.8X%8.8X/0x%X",
\t\t\t\t\t\t   name, ACPI_FORMAT_UINT64(address64->address),
\t\t\t\t\t\t   address64->bit_width));
}
""",
    "drivers/acpi/acpica/uteval.c": b"""
ACPI_MODULE_NAME("uteval")

acpi_status
acpi_ut_evaluate_object(struct acpi_namespace_node *prefix_node,
\t\t\tconst char *path, u32 expected_return_btypes)
{
\tif (ACPI_FAILURE(status)) {
\t\tif (status == AE_NOT_FOUND) {
\t\t\tACPI_DEBUG_PRINT((ACPI_DB_EXEC, "[%4.4s.%s] was not found\\n",
\t\t\t\t\t  acpi_ut_get_node_name(prefix_node), path));
\t\t} else {
\t\t\tACPI_ERROR_METHOD("Method execution failed",
\t\t\t\t\t  prefix_node, path, status);
\t\t}
\t\tgoto cleanup;
\t}
\tACPI_EXCEPTION((AE_INFO, status, "While evaluating %s", path));
\tACPI_ERROR((AE_INFO, "Type returned from %s was incorrect: %s",
\t\t    path, acpi_ut_get_object_type_name(info->return_object)));
}
""",
    "drivers/acpi/acpica/dswload2.c": b"""
ACPI_MODULE_NAME("dswload2")

acpi_status
acpi_ds_load2_begin_op(struct acpi_walk_state *walk_state,
\t\t       union acpi_parse_object **out_op)
{
\t\tACPI_ERROR_NAMESPACE(walk_state->scope_info,
\t\t\t\t     buffer_ptr, status);
}
""",
    "drivers/acpi/osl.c": b"""
void __printf(1, 0) acpi_os_vprintf(const char *fmt, va_list args)
{
\tstatic char buffer[512];

\tvsprintf(buffer, fmt, args);
\tif (printk_get_level(buffer))
\t\tprintk("%s", buffer);
\telse
\t\tprintk(KERN_CONT "%s", buffer);
}
""",
    "drivers/base/dd.c": b"""
static void report(const char *what)
{
\tprintk(KERN_ERR "%s failed", what);
}
""",
    # ACPICA's user space utilities print with printf(): not the kernel's
    "tools/power/acpi/tools/acpidump/apdump.c": b"""
void ap_dump(void)
{
\tACPI_INFO(("Never printed by the kernel %u", 1));
}
""",
}

TABLE = (b"[    0.026730] ACPI: SSDT 0x000000007A1F4000 0006D0 (v02 CpuRef "
         b"CpuSsdt  00003000 INTL 20160527)")
FACS = b"[    0.026731] ACPI: FACS 0x000000003FFE0000 000040"
FADT = (b"[    0.500000] ACPI BIOS Warning (bug): Optional FADT field "
        b"Pm2ControlBlock has valid Length but zero Address: "
        b"0x0000000000000000/0x1 (20230628/tbfadt-615)")
#: The line of MANUAL.rst that "%s failed" used to identify (wrongly).
METHOD = (b"[    1.000001] ACPI Error: Method execution failed "
          b"\\_SB.PCI0.XHC.RHUB.HS11._PLD due to previous error "
          b"(AE_NOT_FOUND) (20240827/uteval-68)")
SYMBOL = (b"[    1.000002] ACPI BIOS Error (bug): Could not resolve symbol "
          b"[\\_SB.PCI0.GPP0.SWUS], AE_NOT_FOUND (20230628/dswload2-162)")
EXCEPTION = (b"[    1.000003] ACPI Error: AE_NOT_FOUND, While evaluating "
             b"_PLD (20240827/uteval-80)")


class AcpicaTreeTest(unittest.TestCase):
    """build --source of a small tree, then annotate, lookup and
    collisions, as an operator runs them."""

    def build(self, files: dict[str, bytes]) -> str:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        tree = os.path.join(tmp.name, "src")
        clirun.write_tree(tree, files)
        db = os.path.join(tmp.name, "msgid.db")
        status, _, err = clirun.run(["--db", db, "build", "--source", tree])
        self.assertEqual(status, 0, err)
        return db

    def annotate(self, db: str, lines: list[bytes]) -> list[dict]:
        return clirun.annotate_json(self, db, lines)

    def setUp(self) -> None:
        self.db = self.build(FILES)

    def test_lines_get_the_id_of_percent_s_and_their_site(self) -> None:
        self.assertEqual(PERCENT_S, ids.msgid(b"%s"))
        self.assertEqual(PERCENT_S, "6026e29e")  # msgid.rst's example
        want = {TABLE: ("drivers/acpi/acpica/tbprint.c",
                        "acpi_tb_print_table_header"),
                FACS: ("drivers/acpi/acpica/tbprint.c",
                       "acpi_tb_print_table_header"),
                FADT: ("drivers/acpi/acpica/tbfadt.c",
                       "acpi_tb_convert_fadt"),
                METHOD: ("drivers/acpi/acpica/uteval.c",
                         "acpi_ut_evaluate_object"),
                SYMBOL: ("drivers/acpi/acpica/dswload2.c",
                         "acpi_ds_load2_begin_op"),
                EXCEPTION: ("drivers/acpi/acpica/uteval.c",
                            "acpi_ut_evaluate_object")}
        objs = self.annotate(self.db, list(want))
        for (line, (file, function)), obj in zip(want.items(), objs):
            with self.subTest(line=line):
                self.assertEqual(obj["id_from"], "match", obj)
                self.assertEqual(obj["id"], PERCENT_S, obj)
                self.assertFalse(obj["cont"], obj)
                # the ACPICA call first, not osl.c's printk("%s")
                first = obj["sites"][0]
                self.assertEqual((first["file"], first["function"]),
                                 (file, function), obj)
        self.assertEqual(objs[0]["sites"][0]["level"], "6")
        self.assertEqual(objs[3]["sites"][0]["level"], "3")

    def test_text_annotation_names_the_acpica_call(self) -> None:
        db = database.open_db(self.db)
        self.addCleanup(db.close)
        annotator = dmesg.Annotator(database.SiteMap(db),
                                    matcher=match.load(db))
        out = io.BytesIO()
        annotator.annotate([TABLE + b"\n", SYMBOL + b"\n"], out)
        lines = out.getvalue().decode().splitlines()
        self.assertEqual(lines[1], "  ~> (%s) matched by text" % PERCENT_S)
        self.assertRegex(lines[2], r"^  -> drivers/acpi/acpica/tbprint\.c:"
                         r"\d+ acpi_tb_print_table_header <6>$")
        # one call of ACPI_ERROR_NAMESPACE(), three texts: named once
        self.assertEqual(lines[7], "  ~> (%s) matched by text" % PERCENT_S)
        self.assertRegex(lines[8], r"^  -> drivers/acpi/acpica/dswload2\.c:"
                         r"\d+ acpi_ds_load2_begin_op <3>$")
        self.assertNotIn("dswload2", lines[9])

    def test_the_kern_cont_format_no_longer_wins(self) -> None:
        # The hazard is real in this tree: without the ACPICA call the
        # line is "%s failed" continued, a wrong ID.
        files = {k: v for k, v in FILES.items()
                 if not k.endswith("uteval.c")}
        without = self.annotate(self.build(files), [METHOD])[0]
        self.assertEqual((without["id"], without["cont"]), (FAILED, True))
        obj = self.annotate(self.db, [METHOD])[0]
        self.assertEqual(obj["id"], PERCENT_S, obj)
        self.assertNotEqual(obj["id"], FAILED)

    def test_printed_id_is_not_contradicted(self) -> None:
        line = TABLE.replace(b"] ACPI", b"] (%s): ACPI" % PERCENT_S.encode())
        obj = self.annotate(self.db, [line])[0]
        self.assertEqual((obj["id"], obj["id_from"]), (PERCENT_S, "prefix"))
        self.assertNotIn("contradicted_by", obj)
        # of the many call sites of "%s", those that print the text first
        self.assertEqual(obj["sites"][0]["file"],
                         "drivers/acpi/acpica/tbprint.c", obj)

    def test_collisions_do_not_list_them(self) -> None:
        status, out, err = clirun.run(["--db", self.db, "collisions"])
        self.assertEqual(status, 0, err)
        self.assertIn("CRC collisions (one ID, different formats): 0 IDs",
                      out)
        self.assertNotIn("%s: " % PERCENT_S + "2 formats", out)

    def test_lookup_shows_the_acpica_texts(self) -> None:
        status, out, err = clirun.run(["--db", self.db, "lookup", PERCENT_S])
        self.assertEqual(status, 0, err)
        self.assertIn('tbprint.c:', out)
        self.assertIn('"ACPI: %-4.4s 0x%8.8X%8.8X %06X (v%.2d %-6.6s %-8.8s '
                      '%08X %-4.4s %08X)\\n" origin=source-acpica', out)
        self.assertIn('"ACPI Error: Method execution failed %s due to '
                      'previous error (%s) (%8.8X/uteval-%u)\\n"', out)
        self.assertIn("drivers/acpi/osl.c:", out)
        self.assertNotIn("Never printed", out)
        db = database.open_db(self.db)
        try:
            rows = db.lookup(PERCENT_S)
        finally:
            db.close()
        self.assertEqual({r.canonical for r in rows}, {"%s"})
        self.assertEqual({r.origin for r in rows},
                         {"source-acpica", "source-approx"})

    def test_matcher_built_from_the_sites_table(self) -> None:
        # A database without the stored word index (and a merge, which
        # rebuilds it from the sites table) matches them too.
        db = database.open_db(self.db)
        try:
            m = match.Matcher(match.formats(db))
        finally:
            db.close()
        for line in (TABLE, METHOD):
            r = m.identify(line.split(b"] ", 1)[1])
            self.assertEqual((r.id, r.how, r.cont),
                             (PERCENT_S, "match", False))


class ScanTest(unittest.TestCase):
    """source_acpica.scan_text() and match.site_format()."""

    def test_formats_levels_and_module(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        clirun.write_tree(tmp.name, FILES)
        d = os.path.join(tmp.name, "drivers", "acpi", "acpica")
        sites = source.scan_file(os.path.join(d, "uteval.c"),
                                 "drivers/acpi/acpica/uteval.c")
        got = [(s.line, s.level, s.format, s.canonical, s.id, s.origin)
               for s in sites]
        self.assertEqual(got, [
            (13, "3", "\x013ACPI Error: Method execution failed %s due to "
             "previous error (%s) (%8.8X/uteval-%u)\n", "%s", PERCENT_S,
             "source-acpica"),
            (18, "3", "\x013ACPI Error: %s, While evaluating %s "
             "(%8.8X/uteval-%u)\n", "%s", PERCENT_S, "source-acpica"),
            (19, "3", "\x013ACPI Error: Type returned from %s was "
             "incorrect: %s (%8.8X/uteval-%u)\n", "%s", PERCENT_S,
             "source-acpica")])
        self.assertEqual({s.function for s in sites},
                         {"acpi_ut_evaluate_object"})
        names = source_acpica.scan_file(
            os.path.join(d, "dswload2.c"), "drivers/acpi/acpica/dswload2.c")
        self.assertEqual([s.format.split(": ", 1)[1] for s in names], [
            "Failure creating named object [%s], %s (%8.8X/dswload2-%u)\n",
            "Could not resolve symbol [%s], %s (%8.8X/dswload2-%u)\n",
            "Failure resolving symbol [%s], %s (%8.8X/dswload2-%u)\n"])
        tool = os.path.join(tmp.name, "tools/power/acpi/tools/acpidump/"
                            "apdump.c")
        self.assertEqual(source_acpica.scan_file(
            tool, "tools/power/acpi/tools/acpidump/apdump.c"), [])

    def test_definitions_are_no_calls(self) -> None:
        text = (b"#define ACPI_ERROR(plist) acpi_error plist\n"
                b"#define ACPI_ERROR_METHOD(s, n, p, e) "
                b"acpi_ut_method_error (AE_INFO, s, n, p, e);\n"
                b"void f(void)\n{\n\tACPI_INFO((\"up %u\", 1)); "
                b"/* ACPI_ERROR((AE_INFO, \"not a call\")) */\n}\n")
        sites = source_acpica.scan_text(text, "x.c", "/nonexistent")
        self.assertEqual([(s.line, s.function, s.format) for s in sites],
                         [(5, "f", "\x016ACPI: up %u\n")])

    def test_without_headers_linux_prefixes(self) -> None:
        # No include/acpi in reach: the prefixes Linux defines.
        text = b"void f(void)\n{\n\tACPI_BIOS_ERROR((AE_INFO, \"bad\"));\n}\n"
        sites = source_acpica.scan_text(text, "x.c", "/nonexistent")
        self.assertEqual([s.format for s in sites],
                         ["\x013ACPI BIOS Error (bug): bad (%8.8X/%s-%u)\n"])

    def test_site_format_rule(self) -> None:
        acpica = match.site_format(PERCENT_S, "%s",
                                   "\x016ACPI: Enabled %u GPEs\n",
                                   "", "drivers/acpi/acpica/evgpeblk.c")
        self.assertEqual(acpica, (PERCENT_S, b"ACPI: Enabled %u GPEs",
                                  False, "", False))
        # printk("%s") and pr_info("%s\n") are "%s", which matches nothing
        for fmt in ("%s", "\x016%s\n", "\x01c%s"):
            self.assertEqual(match.site_format(PERCENT_S, "%s", fmt, "",
                                               "osl.c")[1], b"%s")
        # an index entry with a wrapper's prefix keeps it
        self.assertEqual(match.site_format(PERCENT_S, "%s", "ACPI: %s: %s",
                                           "ACPI: %s: ", "x.c")[1:4],
                         (b"%s", True, "ACPI: %s: "))


if __name__ == "__main__":
    unittest.main()
