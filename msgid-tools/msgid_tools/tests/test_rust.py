# SPDX-License-Identifier: GPL-2.0
"""Rust call sites: pr_*!() and dev_*!() (rust/kernel/print.rs, device.rs).

A Rust message is identified by its format string literal, as C's by its
format; its printk index entry names file!() as rustc was given it
("../lib/x.rs" in an object directory inside the tree, absolute with
O=/elsewhere), which the tools name as in the tree.  The expected IDs are
those the kernel printed (out/selftest-rust/boot.log) and its KUnit suite
printk_msgid_rust holds, written out here, not computed.
"""

import os
import sqlite3
import tempfile
import unittest
import zlib

from msgid_tools.core import ids, index
from msgid_tools import database
from msgid_tools import figures, match, source, source_rs
from msgid_tools.match import Matcher
from msgid_tools.tests import clirun
from msgid_tools.tests import elf_builder as eb

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))

#: lib/test_msgid_rust.rs: literal -> the ID its records carry.
LITERALS = {
    b"rust pr_info: {} apples\n": "bbbdacf3",
    b"rust pr_warn: {:?}\n": "f86d5972",
    b"rust line starts: {}": "342a7425",
    b" and continues: {}\n": "ee1a98e4",
    b"[Firmware Info]: rust synthetic test event {} (not a message from "
    b"the firmware)\n": "47c47c82",
    b"rust dev_info on a faux device: {}\n": "f56e24c7",
    b"rust dev_err on a faux device: {:#x}\n": "ce143efc",
}
#: msgid.rst's example.
PROBE = (b"probe failed: {:?}\n", "5902c155")

#: The printk index entries of lib/test_msgid_rust.rs as rust/kernel/
#: print.rs and device.rs make them: (literal, file!(), line, level, prefix).
RUST_LEVEL = b"\x016%s: %pAl"
ENTRIES = [
    eb.Entry(b"rust pr_info: {} apples\n", b"test_msgid_rust",
             b"../lib/test_msgid_rust.rs", 28, RUST_LEVEL, b"%s: "),
    eb.Entry(b"rust pr_warn: {:?}\n", b"test_msgid_rust",
             b"../lib/test_msgid_rust.rs", 29, b"\x014%s: %pAl", b"%s: "),
    eb.Entry(b" and continues: {}\n", b"test_msgid_rust",
             b"../lib/test_msgid_rust.rs", 31, b"\x01c%pAl", None),
    eb.Entry(b"[Firmware Info]: rust synthetic test event {} (not a "
             b"message from the firmware)\n", b"test_msgid_rust",
             b"/home/u/src/linux/lib/test_msgid_rust.rs", 32,
             b"\x013%s: %pAl", b"%s: "),
    eb.Entry(b"rust dev_err on a faux device: {:#x}\n", b"test_msgid_rust",
             b"/usr/src/linux-7.3/lib/test_msgid_rust.rs", 38, b"\x013",
             b"%s %s: "),
    eb.Entry(PROBE[0], b"kernel::auxiliary",
             b"/srv/kernel/linux/rust/kernel/auxiliary.rs", 278,
             b"\x014", b"%s %s: "),
    # C: as before, however odd.
    eb.Entry(b"\x016hello %d\n", b"hi", b"../init/main.c", 42),
]


class RustPathTest(unittest.TestCase):
    """file!() of a Rust call site, named as in the tree."""

    def test_above_the_tree(self) -> None:
        for name, want in (
                ("../lib/test_msgid_rust.rs", "lib/test_msgid_rust.rs"),
                ("../../samples/rust/rust_print_main.rs",
                 "samples/rust/rust_print_main.rs"),
                ("./rust/kernel/print.rs", "rust/kernel/print.rs"),
                ("../linux/drivers/android/binder/rust_binder_main.rs",
                 "drivers/android/binder/rust_binder_main.rs")):
            self.assertEqual(ids.tree_path(name), want, name)

    def test_absolute(self) -> None:
        """The tree starts at the last run of top-level directories: not
        at /usr of /usr/src, nor at kernel/ of rust/kernel/."""
        for name, want in (
                ("/usr/src/linux/rust/kernel/print.rs",
                 "rust/kernel/print.rs"),
                ("/home/kernel/linux/rust/kernel/net/phy.rs",
                 "rust/kernel/net/phy.rs"),
                ("/build/lib/linux/drivers/net/phy/ax88796b_rust.rs",
                 "drivers/net/phy/ax88796b_rust.rs"),
                ("/x/linux/samples/rust/../rust/rust_minimal.rs",
                 "samples/rust/rust_minimal.rs"),
                ("/home/u/linux/mm/x.rs", "mm/x.rs")):
            self.assertEqual(ids.tree_path(name), want, name)

    def test_the_kernels_rust_files(self) -> None:
        """Every .rs file of a kernel tree, wherever the tree is."""
        tree = os.path.join(ROOT, "out", "linux")
        if not os.path.isdir(os.path.join(tree, "rust")):
            self.skipTest("no kernel tree at out/linux")
        names = []
        for top in sorted(ids.TOP_DIRS):
            for path, dirs, files in os.walk(os.path.join(tree, top)):
                dirs.sort()
                names += [os.path.relpath(os.path.join(path, f), tree)
                          for f in files if f.endswith(".rs")]
        self.assertGreater(len(names), 100)
        for rel in names:
            for where in ("", "../", "../../", "/usr/src/linux-7.3/",
                          "/home/u/kernel/linux/", "/lib/modules/7.3/build/"):
                self.assertEqual(ids.tree_path(where + rel), rel, where + rel)

    def test_as_they_are(self) -> None:
        """Already in the tree, not in a tree, or C."""
        for name in ("rust/kernel/print.rs", "x.rs", "../x.rs", "/abs/x.rs",
                     "?", "../init/main.c", "/usr/src/linux/init/main.c",
                     "/home/u/linux/drivers/x.c", "kernel/printk/printk.c"):
            self.assertEqual(ids.tree_path(name), name, name)


class RustIdTest(unittest.TestCase):
    """The ID of a literal, as the kernel prints it."""

    def test_literals(self) -> None:
        for literal, want in list(LITERALS.items()) + [PROBE]:
            self.assertEqual(ids.msgid(literal), want, literal)
            site = ids.CallSite.from_format(
                literal, file="../lib/test_msgid_rust.rs", line=1,
                function="test_msgid_rust", module="vmlinux", origin="elf",
                level="6", subsys="%s: ")
            self.assertEqual((site.id, site.file, site.format),
                             (want, "lib/test_msgid_rust.rs",
                              literal.decode()), literal)

    def test_class(self) -> None:
        site = ids.CallSite.from_format(
            ENTRIES[3].fmt, file="a.rs", line=1, function="m",
            module="vmlinux", origin="elf")
        self.assertEqual(site.msg_class, "firmware-info")

    def test_one_newline(self) -> None:
        self.assertEqual(ids.msgid(b"rust pr_warn: {:?}\n"),
                         ids.msgid(b"rust pr_warn: {:?}"))
        self.assertNotEqual(ids.msgid(b"rust pr_warn: {:?}\n\n"),
                            LITERALS[b"rust pr_warn: {:?}\n"])


class RustIndexTest(unittest.TestCase):
    """Rust entries of the live index (<debugfs>/printk/index/)."""

    LINES = [
        b'<6> ../lib/test_msgid_rust.rs:28 test_msgid_rust "%s: rust '
        b'pr_info: {} apples\\n" msgid=bbbdacf3',
        b'<6> ../lib/test_msgid_rust.rs:28 test_msgid_rust "%s: rust '
        b'pr_info: {} apples\\n"',
        b'<6> /o/linux/lib/test_msgid_rust.rs:37 test_msgid_rust "%s %s: '
        b'rust dev_info on a faux device: {}\\n"',
        b'<c> lib/test_msgid_rust.rs:31 test_msgid_rust " and continues: '
        b'{}\\n" msgid=ee1a98e4',
        b'<c> lib/test_msgid_rust.rs:31 test_msgid_rust " and continues: '
        b'{}\\n"',
    ]

    def test_lines(self) -> None:
        want = [("bbbdacf3", 28, "%s: ", "6"), ("bbbdacf3", 28, "%s: ", "6"),
                ("f56e24c7", 37, "%s %s: ", "6"), ("ee1a98e4", 31, "", "c"),
                ("ee1a98e4", 31, "", "c")]
        for line, (msgid, no, subsys, level) in zip(self.LINES, want):
            site = index.parse_line(line, "vmlinux")
            assert site is not None
            self.assertEqual((site.id, site.file, site.line, site.subsys,
                              site.level),
                             (msgid, "lib/test_msgid_rust.rs", no, subsys,
                              level), line)
            self.assertNotIn("%s", site.canonical)

    def test_c_keeps_its_s(self) -> None:
        """A C format starting with "%s: " is the caller's own."""
        site = index.parse_line(b'<6> lib/x.c:1 f "%s: apples\\n"', "m")
        assert site is not None
        self.assertEqual((site.canonical, site.subsys), ("%s: apples", ""))


class RustElfTest(unittest.TestCase):
    """Rust entries of a vmlinux's .printk_index."""

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.vmlinux = os.path.join(tmp.name, "vmlinux")
        with open(self.vmlinux, "wb") as f:
            f.write(eb.build_exec(ENTRIES))
        self.db = os.path.join(tmp.name, "msgid.db")
        status, _, err = clirun.run(["--db", self.db, "build", "--vmlinux",
                                     self.vmlinux])
        self.assertEqual(status, 0, err)

    def test_sites(self) -> None:
        db = database.Database(self.db)
        self.addCleanup(db.close)
        got = sorted((s.id, s.file, s.line, s.function, s.level, s.msg_class)
                     for s in db.all_sites())
        self.assertEqual(got, sorted([
            ("bbbdacf3", "lib/test_msgid_rust.rs", 28, "test_msgid_rust",
             "6", "none"),
            ("f86d5972", "lib/test_msgid_rust.rs", 29, "test_msgid_rust",
             "4", "none"),
            ("ee1a98e4", "lib/test_msgid_rust.rs", 31, "test_msgid_rust",
             "c", "none"),
            ("47c47c82", "lib/test_msgid_rust.rs", 32, "test_msgid_rust",
             "3", "firmware-info"),
            ("ce143efc", "lib/test_msgid_rust.rs", 38, "test_msgid_rust",
             "3", "none"),
            (PROBE[1], "rust/kernel/auxiliary.rs", 278, "kernel::auxiliary",
             "4", "none"),
            (ids.msgid(b"hello %d"), "../init/main.c", 42, "hi", "6",
             "none")]))

    def test_lookup(self) -> None:
        status, out, _ = clirun.run(["--db", self.db, "lookup", "ce143efc"])
        self.assertEqual((status, out), (0, (
            'lib/test_msgid_rust.rs:38 test_msgid_rust <3> "rust dev_err on '
            'a faux device: {:#x}\\n" (vmlinux) origin=elf\n')))


def crc(literal: bytes) -> str:
    """The ID of @literal, computed here with zlib alone."""
    return "%08x" % zlib.crc32(literal[:-1] if literal.endswith(b"\n")
                               else literal)


#: A Rust file: what rustc reads each literal as is spelled out.
SOURCE = rb"""// SPDX-License-Identifier: GPL-2.0
//! pr_info!("not in a doc comment\n");
use kernel::prelude::*;

/* a /* nested */ comment: pr_err!("not here\n"); */
fn probe(dev: &Device, e: Error) -> Result {
    pr_info!("probe failed: {:?}\n", e);
    kernel::pr_warn!(
        "two lines: {} {}\n",
        1, 2
    );
    dev_err!(dev.as_ref(), "dev {:#x}\n", 0x2a);
    dev_info!(foo(a, [b, c], |x| x.bar('"')), "after a busy device\n");
    dev_dbg![dev, r"raw \n {}", 1];
    pr_notice!{r#"hashes "quoted" {}"#, 3}
    pr_crit!("esc \" \\ \t \x41 \u{e9} \u{1F600} \0 tail\n");
    pr_cont!("cont {}\n", 4);
    pr_info_once!("once\n");
    let s = "pr_info!(\"in a string\n\")";
    pr_emerg!("continued \
               line\n");
    pr_alert!("CAFE {}\n", 5);
    fn inner<'a>(x: &'a str) {
        pr_debug!("inner {}\n", x);
    }
    Ok(())
}

fn not_literals() {
    pr_info!("\xc3 is no char\n");
    pr_info!(concat!("a", "b"));
    pr_info!(FORMAT, 1);
    pr_err!("a" , 1);
    dev_info!(dev);
    pr_info!(b"bytes {}\n", 1);
    pr_info!("{}" .to_string());
}

macro_rules! my_assert {
    ($cond:expr, $($arg:tt)+) => {
        if !($cond) {
            pr_err!($($arg)*);
        }
    }
}

fn uses_it(n: usize) {
    my_assert!(n < 4, "n must be < 4, was {}", n);
}
""".replace(b"CAFE", "caf\u00e9".encode())
#: (line, function, level, prefix, the literal as rustc reads it)
WANT = [
    (7, "probe", "6", "%s: ", b"probe failed: {:?}\n"),
    (8, "probe", "4", "%s: ", b"two lines: {} {}\n"),
    (12, "probe", "3", "%s %s: ", b"dev {:#x}\n"),
    (13, "probe", "6", "%s %s: ", b"after a busy device\n"),
    (14, "probe", "7", "%s %s: ", b"raw \\n {}"),
    (15, "probe", "5", "%s: ", b'hashes "quoted" {}'),
    (16, "probe", "2", "%s: ", b'esc " \\ \t A \xc3\xa9 \xf0\x9f\x98\x80 '),
    (17, "probe", "c", "", b"cont {}\n"),
    (18, "probe", "6", "%s: ", b"once\n"),
    (20, "probe", "0", "%s: ", b"continued line\n"),
    (22, "probe", "1", "%s: ", b"caf\xc3\xa9 {}\n"),
    (24, "inner", "7", "%s: ", b"inner {}\n"),
    (33, "not_literals", "3", "%s: ", b"a"),
    (48, "uses_it", "3", "%s: ", b"n must be < 4, was {}"),
]


class RustSourceTest(unittest.TestCase):
    """--source: pr_*!() and dev_*!() literals in .rs files."""

    def test_call_sites(self) -> None:
        sites = source_rs.scan_text(SOURCE, "drivers/x/y.rs")
        got = [(s.line, s.function, s.level, s.subsys, s.format.encode())
               for s in sites]
        self.assertEqual(got, [w[:4] + (w[4],) for w in WANT])
        for s, w in zip(sites, WANT):
            self.assertEqual((s.id, s.file, s.origin),
                             (crc(w[4]), "drivers/x/y.rs", "source"), w)

    def test_escapes(self) -> None:
        for body, want in ((rb"a\nb", b"a\nb"), (rb"\u{1_F6_00}", "\U0001f600".encode()),
                           (rb"\x7f", b"\x7f"), (rb"x\
  \n  y", b"x\n  y")):
            self.assertEqual(source_rs.unescape(body), want, body)
        for bad in (rb"\x80", rb"\q", rb"\u{d800}", rb"\u{110000}", b"\\"):
            self.assertIsNone(source_rs.unescape(bad), bad)

    def test_crlf_and_nul(self) -> None:
        """A CRLF file reads as LF; the kernel reads a literal up to its
        first NUL."""
        text = SOURCE.replace(b"\n", b"\r\n")
        self.assertEqual([s.id for s in source_rs.scan_text(text, "a.rs")],
                         [crc(w[4]) for w in WANT])
        site, = source_rs.scan_text(b'fn f() { pr_info!("a\\0b\\n"); }',
                                    "a.rs")
        self.assertEqual(site.id, crc(b"a"))

    def test_unterminated(self) -> None:
        """Cut anywhere, the file is scanned, in linear time."""
        for cut in range(0, len(SOURCE), 7):
            source_rs.scan_text(SOURCE[:cut], "a.rs")
        for text in (b'pr_info!("' * 20000, b"/*" * 50000, b"r#\"" * 30000,
                     b"dev_info!(" * 20000 + b'"x"', b"'" * 100000,
                     b"fn f(" * 20000):
            source_rs.scan_text(text, "a.rs")

    def test_scan_tree(self) -> None:
        """source.scan_tree() takes .rs files too."""
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "samples", "rust"))
            with open(os.path.join(tmp, "samples", "rust", "s.rs"),
                      "wb") as f:
                f.write(SOURCE)
            with open(os.path.join(tmp, "samples", "c.c"), "wb") as f:
                f.write(b'void f(void) { pr_info("c %d\\n", 1); }\n')
            sites = list(source.scan_tree(tmp, jobs=1))
        self.assertEqual(sorted({s.file for s in sites}),
                         ["samples/c.c", "samples/rust/s.rs"])
        self.assertEqual(len(sites), len(WANT) + 1)



def rust_matcher(*literals: bytes, subsys: object = None) -> Matcher:
    """A matcher of Rust @literals (their prefix @subsys, None if not
    known), and of C formats that spell the same words."""
    return Matcher([(crc(x), ids.canonical(x), not x.endswith(b"\n"),
                     subsys, True) for x in literals] +
                   [(crc(b"%d apples %x"), b"%d apples %x", False, "", False)])


class RustMatchTest(unittest.TestCase):
    """Lines without an ID matched against Rust literals."""

    def fits(self, literal: bytes, text: bytes, yes: bool = True) -> None:
        r = rust_matcher(literal, subsys="").identify(text)
        self.assertEqual((r.how, r.id) if yes else r.how,
                         ("match", crc(literal)) if yes else None,
                         (literal, text))

    def test_placeholders(self) -> None:
        for literal, good, bad in (
                (b"seen {} apples", b"seen 3 apples", b"seen apples"),
                (b"seen {:?} apples", b'seen "a b" apples', None),
                (b"seen {name} and {0} apples", b"seen x and y z apples",
                 None),
                (b"seen {:>8} apples", b"seen        3 apples", None),
                (b"seen {:x} apples", b"seen 2a apples", b"seen 0x2a apples"),
                (b"seen {:#x} apples", b"seen 0x2a apples", b"seen 2a apples"),
                (b"seen {:X} apples", b"seen 2A apples", b"seen 2a apples"),
                (b"seen {:#X} apples", b"seen 0x2A apples",
                 b"seen 0X2A apples"),
                (b"seen {:08x} apples", b"seen 0000002a apples", None),
                (b"seen {:>6x} apples", b"seen     2a apples", None),
                (b"seen {:<6x}| apples", b"seen 2a    | apples",
                 b"seen     2a| apples"),
                (b"seen {:*^6x} apples", b"seen **2a** apples", None),
                (b"seen {:#o} apples", b"seen 0o52 apples", b"seen 52 apples"),
                (b"seen {:#b} apples", b"seen 0b101 apples",
                 b"seen 0b102 apples"),
                (b"seen {:p} apples", b"seen 0xffff8880 apples",
                 b"seen a b apples"),
                (b"seen {:.3} apples", b"seen 1.500 apples", None),
                (b"seen {{}} apples {}", b"seen {} apples 3",
                 b"seen {3} apples 3"),
                (b"seen 50% and %d apples", b"seen 50% and %d apples",
                 b"seen 50% and 3 apples")):
            self.fits(literal, good)
            if bad is not None:
                self.fits(literal, bad, False)

    def test_words(self) -> None:
        """A placeholder is no word, nor are its name and spec; escaped
        braces and "%" are literal."""
        self.assertEqual(match.literal_words(b"apples {name} {:#x}", True),
                         {b"apples"})
        self.assertEqual(match.literal_words(b"{}", True), set())
        self.assertEqual(match.literal_words(b"{{pears}} {:x}", True),
                         {b"pears"})
        self.assertEqual(match.literal_words(b"%dapples {}", True),
                         {b"dapples"})

    def test_prefixes(self) -> None:
        """pr_*!() print the module name first, dev_*!() the device: where
        the index says, and either where it is not known."""
        info, dev = b"rust pr_info: {} apples\n", \
            b"rust dev_info on a faux device: {}\n"
        for subsys, matcher in (("%s: ", rust_matcher(info, subsys="%s: ")),
                                (None, rust_matcher(info, dev))):
            r = matcher.identify(b"test_msgid_rust: rust pr_info: 3 apples")
            self.assertEqual((r.how, r.id), ("match", crc(info)), subsys)
            self.assertTrue(matcher.fits(
                crc(info), b"test_msgid_rust: rust pr_info: 3 apples"))
        m = rust_matcher(dev, subsys="%s %s: ")
        r = m.identify(b"faux_driver test_msgid_rust: rust dev_info on a "
                       b"faux device: 4")
        self.assertEqual((r.how, r.id), ("match", crc(dev)))
        # Not the C format, whose conversions print digits.
        r = m.identify(b"3 apples 2a")
        self.assertEqual((r.how, r.id), ("match", crc(b"%d apples %x")))

    def test_databases(self) -> None:
        """The word index of a database says which formats are Rust
        literals; one without a word index reads the sites' files; one
        built before the column was there has C formats only."""
        with tempfile.TemporaryDirectory() as tmp:
            vmlinux = os.path.join(tmp, "vmlinux")
            with open(vmlinux, "wb") as f:
                f.write(eb.build_exec(ENTRIES))
            path = os.path.join(tmp, "msgid.db")
            status, _, err = clirun.run(["--db", path, "build", "--vmlinux",
                                         vmlinux])
            self.assertEqual(status, 0, err)
            text = (b"faux_driver test_msgid_rust: rust dev_err on a faux "
                    b"device: 0x2a")
            # The sites' files say which formats are Rust literals, to
            # check a printed ID (fits()) whatever the word index.
            for change, want in (
                    ("", "ce143efc"),
                    ("ALTER TABLE match DROP COLUMN rust", None),
                    ("DROP TABLE match; DELETE FROM meta WHERE key = 'match'",
                     "ce143efc")):
                if change:
                    conn = sqlite3.connect(path)
                    conn.executescript(change)
                    conn.close()
                db = database.Database(path)
                try:
                    m = match.load(db)
                    self.assertEqual(m.identify(text).id, want, change)
                    self.assertTrue(m.fits("ce143efc", text), change)
                finally:
                    db.close()


BOOT_LOG = os.path.join(ROOT, "out", "selftest-rust", "boot.log")
VMLINUX = os.path.join(ROOT, "out", "build", "rust", "vmlinux")
#: The one Rust record whose text a format with more literal text prints
#: too: pr_info!("A {} that", "line") and pr_cont!()s give "A line that is
#: continued with args", which pr_info!("A line that") and pr_cont!()s of
#: the same sample print as well (" is continued", " with {}").
SAME_TEXT = ("c79396e6", "8d8979f6")


@unittest.skipUnless(os.path.isfile(VMLINUX) and os.path.isfile(BOOT_LOG),
                     "needs out/build/rust/vmlinux and "
                     "out/selftest-rust/boot.log (make check-rust)")
class RustKernelTest(unittest.TestCase):
    """The Rust kernel's index and its boot log (printk.msgid=1)."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "msgid.db")
        status, _, err = clirun.run(["--db", cls.path, "build", "--vmlinux",
                                     VMLINUX])
        assert status == 0, err
        cls.db = database.Database(cls.path)
        cls.rust = {s.id: s for s in cls.db.all_sites()
                    if s.file.endswith(".rs")}

    @classmethod
    def tearDownClass(cls) -> None:
        cls.db.close()
        cls.tmp.cleanup()

    def test_index(self) -> None:
        """Every Rust entry at a file of the tree, test_msgid_rust's
        literals with the IDs the kernel printed."""
        tree = os.path.join(ROOT, "out", "linux")
        for site in self.rust.values():
            self.assertFalse(site.file.startswith(("/", "../")), site)
            if os.path.isdir(tree):
                self.assertTrue(os.path.isfile(os.path.join(tree, site.file)),
                                site)
        for literal, msgid in LITERALS.items():
            self.assertEqual(self.rust[msgid].file, "lib/test_msgid_rust.rs")
            self.assertEqual(self.rust[msgid].format, literal.decode())

    def test_printed_ids(self) -> None:
        """The ID of every Rust record of the log is a Rust entry's."""
        with open(BOOT_LOG, "rb") as f:
            log = f.read()
        for prefix in (b"test_msgid_rust: ", b"rust_print: ",
                       b"faux_driver test_msgid_rust: "):
            printed = [line[line.index(b"(") + 1:][:8].decode()
                       for line in log.splitlines()
                       if b"): " + prefix in line]
            self.assertGreaterEqual(len(printed), 2, prefix)
            for msgid in printed:
                self.assertIn(msgid, self.rust, prefix)

    def test_source(self) -> None:
        """--source finds each Rust entry's ID, at its file and line but
        where the literal is in a macro of another file (dbg!())."""
        tree = os.path.join(ROOT, "out", "linux")
        if not os.path.isdir(tree):
            self.skipTest("no kernel tree at out/linux")
        found = {}
        for site in self.db.all_sites():
            if site.file.endswith(".rs") and site.file not in found:
                found[site.file] = {
                    (s.id, s.line) for s in source.scan_file(
                        os.path.join(tree, site.file), site.file)}
        elsewhere = [(s.id, s.file, s.line) for s in self.db.all_sites()
                     if s.file.endswith(".rs")
                     and (s.id, s.line) not in found[s.file]]
        self.assertEqual(elsewhere, [("c67b9964",
                                      "samples/rust/rust_print_main.rs", 35)])
        std = source.scan_file(os.path.join(tree, "rust/kernel/std_vendor.rs"),
                               "rust/kernel/std_vendor.rs")
        self.assertIn("c67b9964", [s.id for s in std])

    def test_match(self) -> None:
        """The records of Rust literals, their IDs taken off, identified by
        their text: all right but those of literals without a word, and
        the one whose text another literal prints too."""
        fig = figures.match_figures(self.path, BOOT_LOG)
        report = "\n".join([fig.summary("rust")] + fig.details())
        wordless = {i for i, s in self.rust.items()
                    if not match.literal_words(s.canonical.encode(), True)}
        self.assertEqual([w for w in fig.wrong if w[0] in self.rust],
                         [w for w in fig.wrong if w[:2] == SAME_TEXT],
                         report)
        missed = [x for x in fig.unmatched + fig.ambiguous
                  if x[0] in self.rust]
        self.assertEqual([x for x in missed if x[0] not in wordless], [],
                         report)
        with open(BOOT_LOG, "rb") as f:
            right = sum(1 for line in f for i in self.rust
                        if b"(%s): " % i.encode() in line)
        right -= len(missed) + len([w for w in fig.wrong
                                    if w[0] in self.rust])
        self.assertGreaterEqual(right, 24, report)


if __name__ == "__main__":
    unittest.main()
