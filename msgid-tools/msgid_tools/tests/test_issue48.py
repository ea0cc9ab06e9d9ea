# SPDX-License-Identifier: GPL-2.0
"""Issue 48, items 1 to 3: never a wrong answer, whitespace as pasted
logs carry it, fewer ties.

1. A call site's match text apart from its format: a plain "%s" whose
   argument is a string literal, a string macro or __func__ is matched
   as that text (7.3's pr_notice("%s%s\\n", KERNEL_CMDLINE_PREFIX, ...)
   prints "Kernel command line: ..."), while lookup shows the source's
   format; merge keeps the match texts.
2. A run of blanks in a log line matches a run of blanks in a format
   (a tab made spaces, runs of spaces made one), only for a line that
   matched nothing as it is.
3. Ties broken by what the line says: the driver its device prefix
   names, the releases around the log's own; a line left ambiguous says
   why, its candidates best first.

Small trees are written and scanned with build --source; expected IDs
come from zlib.crc32 over the canonical formats, not from the tool.
"""

import json
import os
import tempfile
import unittest
import zlib

from msgid_tools import database, match, source
from msgid_tools.tests import clirun


def crc(fmt: bytes) -> str:
    return "%08x" % zlib.crc32(fmt)


#: 7.3's init/main.c, trimmed: the prefix is a macro, the format "%s%s".
MAIN_73 = b"""
#define KERNEL_CMDLINE_PREFIX\t\t"Kernel command line: "
static void __init print_kernel_cmdline(const char *cmdline)
{
\tpr_notice("%s%s\\n", KERNEL_CMDLINE_PREFIX, cmdline);
}
"""
#: What older releases have at that place.
MAIN_OLD = b"""
void __init start_kernel(void)
{
\tpr_notice("Kernel command line: %s\\n", saved_command_line);
}
"""
CMDLINE_73 = crc(b"%s%s")
CMDLINE_OLD = crc(b"Kernel command line: %s")
LINE = b"[    0.000000] Kernel command line: console=ttyS0 quiet"


def makefile(version: str) -> bytes:
    major, minor = version.split(".")
    return b"VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\n" % (
        major.encode(), minor.encode())


class Trees(unittest.TestCase):
    """Writes small kernel trees and builds their databases."""

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name

    def build(self, name: str, version: str, files: dict[str, bytes]
              ) -> str:
        root = os.path.join(self.tmp, name)
        clirun.write_tree(root, dict(files, Makefile=makefile(version)))
        db = os.path.join(self.tmp, name + ".db")
        status, _, err = clirun.run(["--db", db, "build", "--source",
                                     root])
        self.assertEqual(status, 0, err)
        return db

    def merge(self, *dbs: str) -> str:
        out = os.path.join(self.tmp, "merged.db")
        status, _, err = clirun.run(["--db", out, "merge"] + list(dbs))
        self.assertEqual(status, 0, err)
        return out

    def annotate_text(self, db: str, path: str) -> str:
        """annotate's text output for the log @path (it writes bytes)."""
        import contextlib
        import io
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
        with contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(io.StringIO()):
            status = clirun.cli.main(["--db", db, "annotate", path])
            out.flush()
        self.assertEqual(status, 0)
        return raw.getvalue().decode()

    def annotate(self, db: str, lines: list[bytes], *argv: str
                 ) -> list[dict]:
        path = os.path.join(self.tmp, "log")
        with open(path, "wb") as f:
            f.write(b"".join(x + b"\n" for x in lines))
        status, out, err = clirun.run(["--db", db, "annotate", "--json"]
                                      + list(argv) + [path])
        self.assertEqual(status, 0, err)
        return [json.loads(x) for x in out.splitlines()]


class MatchTextTest(Trees):
    """Item 1."""

    def test_scan_writes_the_known_arguments_in(self) -> None:
        path = os.path.join(self.tmp, "x.c")
        with open(path, "wb") as f:
            f.write(MAIN_73 + b"""
#define pr_fmt(fmt) "x: " fmt
static int probe(struct device *dev, const char *name)
{
\tpr_info("%s: %.*s done %s\\n", __func__, 3, name, "yes");
\tpr_info("%s: %d\\n", name, 3);
\tdev_info(dev, "%s %s\\n", "hello", name ? "a" : "b");
\tpr_info("%d%%: %s\\n", 3, "full");
}
""")
        sites = {s.canonical: s for s in source.scan_file(path, "init/x.c")}
        # (pr_fmt() is defined after that call)
        self.assertEqual(sites["%s%s"].text,
                         "\x015Kernel command line: %s\n")
        self.assertEqual(sites["x: %s: %.*s done %s"].text,
                         "\x016x: probe: %.*s done yes\n")
        self.assertIsNone(sites["x: %s: %d"].text)  # nothing known
        self.assertEqual(sites["%s %s"].text, "hello a\n\0hello b\n")
        self.assertEqual(sites["x: %d%%: %s"].text, "\x016x: %d%%: full\n")
        # The ID stays that of the format.
        self.assertEqual(sites["%s%s"].id, CMDLINE_73)

    def test_a_parameter_its_callers_give_literals(self) -> None:
        """usb's hub.c prints its strings through a static function whose
        every call names the string: each name is a match text."""
        db = self.build("usb", "7.3", {"drivers/usb/core/hub.c": b"""
static void show_string(struct usb_device *udev, char *id, char *string);
static void show_string(struct usb_device *udev, char *id, char *string)
{
	if (!string)
		return;
	dev_info(&udev->dev, "%s: %s\\n", id, string);
}

static void announce_device(struct usb_device *udev)
{
	show_string(udev, "Product", udev->product);
	show_string(udev, "Manufacturer", udev->manufacturer);
}
""", "drivers/usb/core/other.c": b"""
void show_other(struct device *dev, char *id)
{
	dev_info(dev, "%s: %s\\n", id, "x");
}
static void twice(struct device *dev, const char *what)
{
	dev_info(dev, "%s: %s done\\n", what, "y");
}
void g(struct device *dev, const char *name)
{
	twice(dev, "Product");
	twice(dev, name);
}
"""})
        objs = self.annotate(db, [
            b"[    1.0] usb usb1: Manufacturer: Linux 6.1 xhci-hcd",
            b"[    1.0] usb 1-1: Product: USB2.0 Hub",
            b"[    1.0] usb 1-1: SerialNumber: 0001"])
        self.assertEqual([o["id"] for o in objs],
                         [crc(b"%s: %s")] * 2 + [None])
        d = database.open_db(db)
        try:
            texts = sorted(t for v in database.site_texts(d).values()
                           for t, _ in v)
        finally:
            d.close()
        # show_other() is not static (callers elsewhere), twice() has a
        # caller that passes a variable: neither gets texts of callers,
        # only their literal arguments
        self.assertEqual(texts, ["%s: x\n", "%s: y done\n",
                                 "Manufacturer: %s\n", "Product: %s\n"])

    def test_a_choice_of_two_literals(self) -> None:
        """x86's dummy_numa_init() prints "%s\\n" with a choice of two
        literals: both are match texts, and a log line gets the ID of
        "%s"; a choice with a variable branch gives none (its line is
        matched by its format alone)."""
        db = self.build("numa", "7.3", {"arch/x86/mm/numa.c": b"""
static int __init dummy_numa_init(void)
{
	printk(KERN_INFO "%s\\n",
	       numa_off ? "NUMA turned off" : "No NUMA configuration found");
	pr_info("%s ready\\n", ok ? "node" : name);
	return 0;
}
"""})
        objs = self.annotate(db, [
            b"[    0.011382] No NUMA configuration found",
            b"[    0.011382] NUMA turned off",
            b"[    0.011382] node ready"])
        self.assertEqual([o["id"] for o in objs],
                         [crc(b"%s")] * 2 + [crc(b"%s ready")])
        (site,) = [s for s in source.scan_file(
            os.path.join(self.tmp, "numa", "arch/x86/mm/numa.c"))
            if s.canonical == "%s ready"]
        self.assertIsNone(site.text)

    def test_pr_fmt_with_arguments_of_its_own(self) -> None:
        """A pr_fmt() that adds a conversion fed by an argument of its
        own ("%s: " fmt, __func__) shifts the arguments: no match
        text rather than a wrong one."""
        path = os.path.join(self.tmp, "y.c")
        with open(path, "wb") as f:
            f.write(b'#define pr_fmt(fmt) "%s: " fmt, __func__\n'
                    b'void f(void) { pr_info("%s ready\\n", "disk"); }\n')
        (site,) = source.scan_file(path, "drivers/y.c")
        self.assertIsNone(site.text)

    def test_lookup_shows_the_format_and_the_line_gets_its_id(self) -> None:
        db = self.build("l73", "7.3", {"init/main.c": MAIN_73})
        status, out, _ = clirun.run(["--db", db, "lookup", CMDLINE_73])
        self.assertEqual(status, 0)
        self.assertIn('"%s%s\\n"', out)
        self.assertNotIn("Kernel command line", out)
        (obj,) = self.annotate(db, [LINE])
        self.assertEqual((obj["id"], obj["id_from"]),
                         (CMDLINE_73, "match"))

    def test_never_the_older_release_id(self) -> None:
        """The five-release database's wrong answer: a 7.3 log's line
        got the older releases' ID."""
        old = self.build("l61", "6.1", {"init/main.c": MAIN_OLD})
        new = self.build("l73", "7.3", {"init/main.c": MAIN_73})
        merged = self.merge(old, new)
        # The log says its release: its format, the printed ID.
        (obj,) = self.annotate(merged, [LINE], "--release", "7.3.4")
        self.assertEqual(obj["id"], CMDLINE_73)
        (obj,) = self.annotate(merged, [LINE], "--release", "6.1.100")
        self.assertEqual(obj["id"], CMDLINE_OLD)
        # It does not: both fit as well, never a guess.
        (obj,) = self.annotate(merged, [LINE])
        self.assertEqual(obj["id_from"], "ambiguous")
        self.assertEqual(sorted(c["id"] for c in obj["candidates"]),
                         sorted([CMDLINE_73, CMDLINE_OLD]))
        self.assertIn("release", obj["why"])
        # merge kept the match text and where it starts
        d = database.open_db(merged)
        try:
            texts = database.site_texts(d)
        finally:
            d.close()
        self.assertEqual(list(texts.values()),
                         [[("\x015Kernel command line: %s\n", "p")]])


class WhitespaceTest(Trees):
    """Item 2."""

    FILES = {"kernel/rcu/tree.c": b"""
#define pr_fmt(fmt) "rcu: " fmt
void rcu_init(void)
{
\tpr_info("\\tRCU restricting CPUs from NR_CPUS=%d to nr_cpu_ids=%u.\\n", 8, 4);
\tpr_info("Table  %s  at %d\\n", "x", 3);
\tpr_info("Table %s at %d\\n", "y", 3);
}
"""}

    def test_tabs_and_runs_of_blanks(self) -> None:
        db = self.build("ws", "7.3", self.FILES)
        tab = crc(b"rcu: \tRCU restricting CPUs from NR_CPUS=%d to "
                  b"nr_cpu_ids=%u.")
        lines = [
            b"rcu: \tRCU restricting CPUs from NR_CPUS=8 to nr_cpu_ids=4.",
            b"rcu:     RCU restricting CPUs from NR_CPUS=8 to "
            b"nr_cpu_ids=4.",   # a terminal's tab
            b"rcu: RCU restricting CPUs from NR_CPUS=8 to nr_cpu_ids=4.",
        ]
        objs = self.annotate(db, [b"[    1.0] " + x for x in lines])
        self.assertEqual([o["id"] for o in objs], [tab] * 3)

    def test_an_exact_match_is_not_changed(self) -> None:
        """Two formats that differ in their blanks: each line gets its
        own, as before."""
        db = self.build("ws", "7.3", self.FILES)
        two = crc(b"rcu: Table  %s  at %d")
        one = crc(b"rcu: Table %s at %d")
        objs = self.annotate(db, [b"[    1.0] rcu: Table  x  at 3",
                                  b"[    1.0] rcu: Table y at 3"])
        self.assertEqual([o["id"] for o in objs], [two, one])
        self.assertEqual([o["id_from"] for o in objs], ["match"] * 2)

    def test_matcher_marks_a_loose_match(self) -> None:
        fmt = b"alpha:\tbeta %d"
        m = match.Matcher([(crc(fmt), fmt, False)])
        r = m.identify(b"alpha: beta 3")
        self.assertEqual((r.id, r.loose), (crc(fmt), True))
        r = m.identify(b"alpha:\tbeta 3")
        self.assertEqual((r.id, r.loose), (crc(fmt), False))


class TieTest(Trees):
    """Item 3."""

    FILES = {
        "drivers/net/ethernet/intel/e1000/e1000_main.c": b"""
void e1000_probe(struct pci_dev *pdev)
{
\tdev_info(&pdev->dev, "link ready after %d ms\\n", 3);
}
""",
        "drivers/net/ethernet/realtek/r8169_main.c": b"""
void rtl_init_one(struct pci_dev *pdev)
{
\tdev_info(&pdev->dev, "link ready after %u ms\\n", 3);
}
""",
    }
    E1000 = crc(b"link ready after %d ms")
    R8169 = crc(b"link ready after %u ms")

    def test_the_driver_the_prefix_names(self) -> None:
        db = self.build("tie", "7.3", self.FILES)
        objs = self.annotate(db, [
            b"[    2.0] e1000 0000:00:03.0: link ready after 12 ms",
            b"[    2.0] r8169 0000:02:00.0 eth0: link ready after 12 ms",
            b"[    2.0] igb 0000:05:00.0: link ready after 12 ms"])
        self.assertEqual([o["id"] for o in objs[:2]],
                         [self.E1000, self.R8169])
        self.assertEqual(objs[2]["id_from"], "ambiguous")
        self.assertIn("igb", objs[2]["why"])
        self.assertIn("none of their places", objs[2]["why"])

    def test_the_releases_around_the_logs(self) -> None:
        """A log of 6.5, which the database does not hold: the format of
        6.1 and 6.12 beats the one only 5.10 had."""
        fmt_new = b'void f(void) { pr_info("cache: %d entries\\n", 3); }\n'
        fmt_old = b'void f(void) { pr_info("cache: %u entries\\n", 3); }\n'
        dbs = [self.build("r510", "5.10", {"mm/c.c": fmt_old}),
               self.build("r61", "6.1", {"mm/c.c": fmt_new}),
               self.build("r612", "6.12", {"mm/c.c": fmt_new})]
        merged = self.merge(*dbs)
        line = b"[    2.0] cache: 12 entries"
        (obj,) = self.annotate(merged, [line], "--release", "6.5.0-1")
        self.assertEqual(obj["id"], crc(b"cache: %d entries"))
        (obj,) = self.annotate(merged, [line], "--release", "5.4.0-1")
        self.assertEqual(obj["id"], crc(b"cache: %u entries"))
        (obj,) = self.annotate(merged, [line])
        self.assertEqual(obj["id_from"], "ambiguous")
        self.assertIn("no release tells them apart", obj["why"])

    def test_user_mode_linux_and_other_architectures(self) -> None:
        """x86's register dump against User Mode Linux's: UML's only
        where the log is one; arm's "%sCode: %s" against arm64's
        "Code: %s": the architecture the log's other answers name."""
        db = self.build("arch", "7.3", {
            "arch/x86/kernel/process_64.c":
                b'void __show_regs(const char *log_lvl)\n'
                b'{ printk("%sR13: %016lx R14: %016lx\\n", log_lvl, 1, 2); }\n',
            "arch/x86/um/sysrq_64.c":
                b'void show_regs(void)\n'
                b'{ printk(KERN_INFO "R13: %016lx R14: %016lx\\n", 1, 2); }\n',
            "arch/arm/kernel/traps.c":
                b'void dump_instr(const char *lvl, char *str)\n'
                b'{ printk("%sCode: %s\\n", lvl, str); }\n',
            "arch/arm64/kernel/traps.c":
                b'void dump_kernel_instr(char *str)\n'
                b'{ printk(KERN_EMERG "Code: %s\\n", str); }\n'
                b'void arm64_only(void) { pr_info("arm64 one\\n"); '
                b'pr_info("arm64 two\\n"); pr_info("arm64 three\\n"); }\n',
        })
        code = b"[    3.0] Code: aa1303e0 97ff561d 17ffff64 (d4210000)"
        objs = self.annotate(db, [
            b"[    3.0] R13: ffff89b146120000 R14: ffff89b1427b4760", code,
            b"[    3.1] arm64 one", b"[    3.1] arm64 two",
            b"[    3.1] arm64 three", code + b" "])
        self.assertEqual(objs[0]["id"], crc(b"%sR13: %016lx R14: %016lx"))
        # arm's or arm64's: the log does not say yet ...
        self.assertEqual(objs[1]["id_from"], "ambiguous")
        self.assertIn("architecture is not known", objs[1]["why"])
        # ... until three answers only arm64's code prints
        self.assertEqual(objs[5]["id"], crc(b"Code: %s"))

    def test_text_output_says_why(self) -> None:
        db = self.build("tie", "7.3", self.FILES)
        path = os.path.join(self.tmp, "log")
        with open(path, "wb") as f:
            f.write(b"[    2.0] igb 0000:05:00.0: link ready after 1 ms\n")
        out = self.annotate_text(db, path)
        first = min(self.E1000, self.R8169)
        self.assertIn("?> ambiguous: (%s)" % first, out)
        self.assertIn("formats fit with as much literal text", out)


if __name__ == "__main__":
    unittest.main()
