# SPDX-License-Identifier: GPL-2.0
"""Tests of the message catalog (msgid_db.catalog) and the shipped files."""

import ast
import os
import tempfile
import unittest
import zlib

from msgid_db import catalog, source

KERNEL_TREE = os.environ.get("MSGID_KERNEL_TREE",
                             "/tmp/base/linux-source-6.12")
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
        selftest = b"test_msgid: [Hardware Error]: CPU %d: Machine Check: " \
                   b"test event %d Bank %d: %016llx"
        ids = {e.id for e in self.entries}
        self.assertIn("%08x" % zlib.crc32(selftest), ids)
        for lang in ("", "de"):
            self.assertIsNotNone(catalog.Catalog(self.entries, lang)
                                 .get("%08x" % zlib.crc32(selftest)))

    def test_formats_exist_in_kernel_source(self) -> None:
        """Every X-Format is a call site of its X-Source file."""
        if not os.path.isdir(KERNEL_TREE):
            self.skipTest("no kernel tree at %s (set MSGID_KERNEL_TREE)"
                          % KERNEL_TREE)
        for e in self.entries:
            src = e.header("X-Source")
            if not src or src == "lib/test_msgid.c":
                continue
            found = {s.canonical for s in
                     source.scan_file(os.path.join(KERNEL_TREE, src), src)}
            fmt = literal(e.header("X-Format")).decode()
            self.assertTrue(fmt in found, "%s:%d: %r not in %s"
                            % (e.path, e.line, fmt, src))

if __name__ == "__main__":
    unittest.main()
