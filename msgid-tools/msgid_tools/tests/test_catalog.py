# SPDX-License-Identifier: GPL-2.0
"""Tests of the message catalog (msgid_tools.catalog) and the shipped files."""

import ast
import os
import re
import tempfile
import unittest
import zlib

from msgid_tools import catalog, source

# The harness's tree (make tree: the base with the series laid on), which
# make check has built before pytest runs; MSGID_KERNEL_TREE for another.
KERNEL_TREE = os.environ.get("MSGID_KERNEL_TREE", os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))), "out", "linux"))
GOOD = """\
# comment
-- 1a2b3c4d
Subject: Something broke
Class: hardware
Documentation: https://example.org/a
Documentation: https://example.org/b

Body line one.
Body line two.

-- 0badf00d
Subject: Other

Text.
"""


def literal(value: str) -> bytes:
    """Decode an X-Format C string literal, independently of the tool."""
    return ast.literal_eval("b" + value.encode("ascii").decode())


class ParseTest(unittest.TestCase):
    def test_parse(self) -> None:
        first, second = catalog.parse(GOOD, "k.catalog")
        self.assertEqual((first.id, first.subject, first.header("Class")),
                         ("1a2b3c4d", "Something broke", "hardware"))
        self.assertEqual(len(first.headers["Documentation"]), 2)
        self.assertEqual(first.body, "Body line one.\nBody line two.")
        self.assertEqual((second.id, second.body), ("0badf00d", "Text."))

    def assert_error(self, text: str, pattern: str) -> None:
        with self.assertRaisesRegex(catalog.CatalogError, pattern):
            catalog.parse(text, "k.catalog")

    def test_errors_name_file_and_line(self) -> None:
        self.assert_error("-- xyz\nSubject: a\n", r"^k\.catalog:1: bad entry")
        self.assert_error("-- 1a2b3c4d\nSubject: a\nno colon here\n",
                          r"^k\.catalog:3: bad header line")
        self.assert_error("-- 1a2b3c4d\nSubject: a\nClass: weird\n",
                          r"^k\.catalog:3: unknown class")
        self.assert_error("-- 1a2b3c4d\nSubjekt: a\n",
                          r"^k\.catalog:2: unknown header")
        self.assert_error("-- 1a2b3c4d\nClass: none\n\ntext\n",
                          r"^k\.catalog:1: entry 1a2b3c4d has no Subject")
        self.assert_error("stray text\n", r"^k\.catalog:1: text before")

    def test_language_selection(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "k.catalog"), "w") as f:
                f.write(GOOD)
            with open(os.path.join(tmp, "k.de.catalog"), "w") as f:
                f.write("-- 1a2b3c4d de\nSubject: Etwas ist kaputt\n")
            self.assertEqual(catalog.Catalog.load(tmp, "de_DE.UTF-8")
                             .get("1a2b3c4d").subject, "Etwas ist kaputt")
            # Fallback to English for untranslated entries and languages.
            self.assertEqual(catalog.Catalog.load(tmp, "de").get("0badf00d")
                             .subject, "Other")
            self.assertEqual(catalog.Catalog.load(tmp, "fr").get("1a2b3c4d")
                             .subject, "Something broke")
            self.assertIsNone(catalog.Catalog.load(tmp, "de").get("00000000"))

    def test_language_from_environment(self) -> None:
        saved = {k: os.environ.pop(k, None)
                 for k in ("LC_ALL", "LC_MESSAGES", "LANG")}
        try:
            os.environ["LANG"] = "de_AT.UTF-8"
            self.assertEqual(catalog.language(), "de")
            os.environ["LC_ALL"] = "C.UTF-8"
            self.assertEqual(catalog.language(), "")
            self.assertEqual(catalog.language("fr"), "fr")
        finally:
            for k, v in saved.items():
                os.environ.pop(k, None)
                if v is not None:
                    os.environ[k] = v

    def test_duplicates(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "k.catalog"), "w") as f:
                f.write(GOOD + "\n-- 1a2b3c4d\nSubject: again\n")
            with self.assertRaisesRegex(
                    catalog.CatalogError, r"k\.catalog:16: duplicate entry "
                    r"1a2b3c4d \(first at .*k\.catalog:2\)"):
                catalog.load_dir(tmp)
            # One translation per language is not a duplicate.
            with open(os.path.join(tmp, "k.catalog"), "w") as f:
                f.write(GOOD + "\n-- 1a2b3c4d de\nSubject: x\n")
            catalog.load_dir(tmp)
            with open(os.path.join(tmp, "k.de.catalog"), "w") as f:
                f.write("-- 1a2b3c4d\nSubject: y\n")
            with self.assertRaisesRegex(catalog.CatalogError,
                                        r"k\.de\.catalog:1: duplicate entry "
                                        r"1a2b3c4d \(de\)"):
                catalog.load_dir(tmp)

    def test_encodings(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "k.catalog")
            with open(path, "wb") as f:
                f.write(b"\xef\xbb\xbf" + GOOD.encode())
            self.assertEqual(len(catalog.load_dir(tmp)), 2)
            for bom in (b"", b"\xef\xbb\xbf"):
                with open(path, "wb") as f:
                    f.write(bom + GOOD.replace("Text.", "caf\xe9")
                            .encode("latin-1"))
                with self.assertRaisesRegex(catalog.CatalogError,
                                            r"k\.catalog:14: not UTF-8 "
                                            r"\(byte 0xe9\)"):
                    catalog.load_dir(tmp)

    def test_long_line_clipped(self) -> None:
        with self.assertRaises(catalog.CatalogError) as cm:
            catalog.parse("-- " + "x" * 100000, "k.catalog")
        self.assertLess(len(str(cm.exception)), 200)

    def test_missing_dir(self) -> None:
        with self.assertRaisesRegex(catalog.CatalogError, "no such catalog"):
            catalog.load_dir("/nonexistent")


class ShippedCatalogTest(unittest.TestCase):
    """The shipped catalog files are valid and their IDs are right."""

    def setUp(self) -> None:
        self.entries = catalog.load_dir(catalog.DEFAULT_DIR)

    def test_every_id_matches_its_format(self) -> None:
        self.assertGreaterEqual(len(self.entries), 20)
        for e in self.entries:
            fmt = e.header("X-Format")
            self.assertIsNotNone(fmt, "%s:%d: no X-Format" % (e.path, e.line))
            self.assertEqual(e.id, "%08x" % zlib.crc32(literal(fmt)),
                             "%s:%d" % (e.path, e.line))
            self.assertFalse(literal(fmt).endswith(b"\n"))

    def test_class_is_the_kernels(self) -> None:
        # A tag in the format gives the class (ids.classify, the
        # kernel's rule); without one, Class may name the class of a
        # tag that arrives in one of the format's first four %s
        # arguments (GHES passes HW_ERR in %s).
        tags = {b"[Hardware Error]: ": "hardware",
                b"[Firmware Bug]: ": "firmware-bug",
                b"[Firmware Warn]: ": "firmware-warn",
                b"[Firmware Info]: ": "firmware-info",
                b"[Deprecated]: ": "deprecated"}
        for e in self.entries:
            fmt = literal(e.header("X-Format"))
            found = [(fmt.find(t), c) for t, c in tags.items() if t in fmt]
            if found:
                self.assertEqual(e.header("Class"), min(found)[1],
                                 "%s:%d" % (e.path, e.line))
            elif e.header("Class"):
                self.assertIn(b"%s", fmt, "%s:%d: Class %s, but no tag "
                              "in the format nor a %%s that could bring one"
                              % (e.path, e.line, e.header("Class")))

    def test_translations_match_english(self) -> None:
        english = {e.id: e for e in self.entries if e.lang == ""}
        for e in self.entries:
            if e.lang:
                self.assertIn(e.id, english, "%s:%d" % (e.path, e.line))
                self.assertEqual(e.header("X-Format"),
                                 english[e.id].header("X-Format"))
                self.assertEqual(e.header("Class"),
                                 english[e.id].header("Class"))

    def test_required_entries(self) -> None:
        selftest = b"test_msgid: [Firmware Info]: firmware information " \
                   b"from the test: %d"
        ids = {e.id for e in self.entries}
        self.assertIn("%08x" % zlib.crc32(selftest), ids)
        for lang in ("", "de", "ja"):
            self.assertIsNotNone(catalog.Catalog(self.entries, lang)
                                 .get("%08x" % zlib.crc32(selftest)))

    def test_hardware_and_firmware_in_german_and_japanese(self) -> None:
        have = {(e.id, e.lang) for e in self.entries}
        for e in self.entries:
            if e.lang or e.header("Class") in (None, "none", "deprecated"):
                continue
            for lang in ("de", "ja"):
                self.assertIn((e.id, lang), have, "%s:%d: %s entry without "
                              "'%s' text" % (e.path, e.line,
                                             e.header("Class"), lang))

    def test_formats_exist_in_kernel_source(self) -> None:
        """Every X-Format is a call site of its X-Source file.

        Either the source scanner finds it there, or, for calls through
        wrappers the scanner does not know (ext4_msg(), ...), it is a
        string literal of the file as written (adjacent literals joined),
        with or without its trailing newline.  X-Pr-Fmt-From names the file whose pr_fmt()
        applies when it is not X-Source's own (kernel/rcu/tree.c for
        tree_stall.h): X-Format is then that prefix and the literal.
        X-Macro names a printk macro and its file when the macro puts a
        literal of its own before the format (edac_mc_printk()).
        """
        if not os.path.isdir(KERNEL_TREE):
            self.skipTest("no kernel tree at %s (set MSGID_KERNEL_TREE)"
                          % KERNEL_TREE)
        scanned: dict[str, set[str]] = {}
        for e in self.entries:
            src = e.header("X-Source")
            if not src or src == "lib/test_msgid.c" or e.lang:
                continue
            where = "%s:%d" % (e.path, e.line)
            path = os.path.join(KERNEL_TREE, src)
            if src not in scanned:
                scanned[src] = {s.canonical for s in
                                source.scan_file(path, src)}
            fmt = literal(e.header("X-Format"))
            if fmt.decode() in scanned[src]:
                continue
            # A literal that the scanner sees with a pr_fmt() prefix is
            # not this format.
            self.assertFalse([s for s in scanned[src] if s.endswith(
                fmt.decode())], "%s: %r is printed with a prefix in %s"
                % (where, fmt, src))
            prefix = b""
            if e.header("X-Macro"):
                prefix = macro_prefix(e.header("X-Macro"), where)
                self.assertTrue(fmt.startswith(prefix), where)
            prefix_from = e.header("X-Pr-Fmt-From")
            if prefix_from:
                with open(os.path.join(KERNEL_TREE, prefix_from), "rb") as f:
                    m = re.search(rb'#define pr_fmt\(fmt\) "([^"]*)" fmt',
                                  f.read())
                self.assertTrue(m, "%s: no pr_fmt in %s" % (where,
                                                             prefix_from))
                prefix = literal('"%s"' % m.group(1).decode())
                self.assertTrue(fmt.startswith(prefix), where)
            body = fmt[len(prefix):]
            with open(path, "rb") as f:
                # Adjacent literals are one string ("a, " "b").
                text = re.sub(rb'"\s+"', b"", f.read())
            c_body = c_literal_body(body)
            self.assertTrue(b'"%s"' % c_body in text or
                            b'"%s\\n"' % c_body in text,
                            "%s: %r is neither a call site nor a literal of "
                            "%s" % (where, fmt, src))


def macro_prefix(header: str, where: str) -> bytes:
    """The literal a printk macro puts before its format: for
    "X-Macro: edac_mc_printk drivers/edac/edac_mc.h", whose definition
    is printk(level "EDAC MC%d: " fmt, ...), "EDAC MC%d: "."""
    name, path = header.split()
    with open(os.path.join(KERNEL_TREE, path), "rb") as f:
        text = f.read().replace(b"\\\n", b" ")
    m = re.search(rb"#define[ \t]+%s\([^)]*\)(.*)" % re.escape(
        name.encode()), text)
    assert m, "%s: no #define %s in %s" % (where, name, path)
    lit = re.search(rb'((?:"(?:[^"\\]|\\.)*"\s*)+)fmt\b', m.group(1))
    assert lit, "%s: %s does not put a literal before fmt" % (where, name)
    return literal('"%s"' % re.sub(r'"\s*"', "", lit.group(1).decode()
                                   .strip())[1:-1])


def c_literal_body(data: bytes) -> bytes:
    """@data as the body of a C string literal, the way kernel code
    writes it (\\n, \\t, \\" and \\\\ escaped)."""
    return (data.replace(b"\\", b"\\\\").replace(b'"', b'\\"')
            .replace(b"\n", b"\\n").replace(b"\t", b"\\t"))


if __name__ == "__main__":
    unittest.main()
