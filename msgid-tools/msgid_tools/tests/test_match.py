# SPDX-License-Identifier: GPL-2.0
"""Identifying lines without an ID by their text (msgid_tools.match, and
annotate / lookup --text).  Expected IDs are zlib.crc32() of the formats
as written here, never the tool's output."""

import contextlib
import io
import json
import os
import sqlite3
import tempfile
import time
import unittest
import zlib

from msgid_tools import database
from msgid_tools import cli
from msgid_tools import match
from msgid_tools.match import Matcher


def crc(fmt: bytes) -> str:
    return "%08x" % zlib.crc32(fmt)


# (canonical format, may be continued by KERN_CONT)
FORMATS = [
    (b"PIIX3: Enabling Passive Release", False),
    (b"Run %s as init process", False),
    (b"Run %s", False),
    (b"%s", False),
    (b"e820: %s: [mem %#018Lx-%#018Lx] ", True),
    (b"%sEXT4-fs (%s): %pV", False),
    (b"mounted filesystem %pU %s with%s. Quota mode: %s.", False),
    (b"hello %d world", False),
    (b"hello %u world", False),
    (b"CPU %d: irq %u done", False),
    (b"ata%u: link up %s", False),
]


def matcher() -> Matcher:
    return Matcher((crc(f), f, c) for f, c in FORMATS)


class MatcherTest(unittest.TestCase):
    def setUp(self) -> None:
        self.m = matcher()

    def check(self, text: bytes, fmt: bytes) -> None:
        r = self.m.identify(text)
        self.assertEqual((r.how, r.id), ("match", crc(fmt)), text)

    def test_plain_and_specificity(self) -> None:
        # "Run %s" fits too: the format with more literal text wins.
        self.check(b"Run /init as init process", b"Run %s as init process")
        self.check(b"Run /sbin/init", b"Run %s")
        self.check(b"CPU 3: irq 17 done", b"CPU %d: irq %u done")
        self.check(b"CPU -3: irq 17 done", b"CPU %d: irq %u done")

    def test_text_words(self) -> None:
        # text_words() finds what TEXT_WORD_RE finds, non-ASCII bytes and
        # words glued to digits included.
        for text in (b"", b"ab cd_e 0x1f x86 _a1 1abc abc1", b"a\xe9bc\x80def",
                     b"pci 0000:00:01.0: [8086:7000] type 00 class 0x0601",
                     b"\tfoo\nbar-baz__ qux/quux,corge;\x00grault"):
            self.assertEqual(match.text_words(text),
                             set(match.TEXT_WORD_RE.findall(text)), text)

    def test_positions_single_and_several(self) -> None:
        # One position (the common walk) and several (after a conversion
        # that takes any text, a run of bytes up to a space).
        toks = match.tokenize(b"a %d b")[0]
        self.assertEqual(match.positions(toks, b"a 12 b"), {6})
        self.assertEqual(match.positions(toks, b"a x b"), set())
        toks = match.tokenize(b"%s: %s")[0]
        self.assertEqual(match.positions(toks, b"x: y: z"), range(3, 8))
        toks = match.tokenize(b"%s: %d")[0]
        self.assertEqual(match.positions(toks, b"x: 1: 23"), {4, 8})
        toks = match.tokenize(b"%pM ok")[0]
        self.assertEqual(match.positions(toks, b"ab ok ok"), {5})

    def test_conversion_types(self) -> None:
        # %u prints no sign, %d no letters: these texts fit no format.
        for text in (b"CPU 3: irq -17 done", b"CPU x: irq 17 done",
                     b"CPU 3: irq 17 done!"):
            self.assertIsNone(self.m.identify(text).how, text)

    def test_no_space_pointer_extensions(self) -> None:
        # %pe prints an error name or a pointer, %pM a MAC address: never
        # a space. A text whose words after the literal are several is
        # not theirs (ACPICA's "Method execution failed \\_SB.PCI0._PRT
        # due to previous error (...)" is not "%s failed %pe").
        fmts = [b"%s failed %pe", b"link %pM up at %s", b"%s called at %pS"]
        m = Matcher((crc(f), f, False) for f in fmts)
        for text, fmt in ((b"sdhci failed -ENOMEM", fmts[0]),
                          (b"sdhci failed 00000000deadbeef", fmts[0]),
                          (b"link 52:54:00:12:34:56 up at 1 Gbps", fmts[1]),
                          (b"x called at foo+0x1/0x2 [mod]", fmts[2])):
            r = m.identify(text)
            self.assertEqual((r.how, r.id), ("match", crc(fmt)), text)
        for text in (b"Method execution failed \\_SB.PCI0._PRT due to "
                     b"previous error (AE_AML_LOOP_TIMEOUT)",
                     b"sdhci failed ", b"link 52:54 :00 up at 1"):
            self.assertIsNone(m.identify(text).how, text)
        # With a field width (padded with spaces) or beside another
        # conversion, the extension is any text.
        self.assertEqual(match.tokenize(b"a %16pe b")[0][1][0], match.ANY)
        self.assertEqual(match.tokenize(b"a %pe%s b")[0][1][0], match.ANY)
        self.assertEqual(match.tokenize(b"a %pe b")[0][1][0], match.WORD)

    def test_words_beyond_the_remembered_ones(self) -> None:
        # Once MAX_KNOWN words are remembered, a new word's bucket is
        # still read and used, only not kept.
        saved = match.MAX_KNOWN
        self.addCleanup(setattr, match, "MAX_KNOWN", saved)
        match.MAX_KNOWN = 2
        m = matcher()
        m.no_cache()
        for _ in range(2):
            r = m.identify(b"hello 3 world")
            self.assertEqual(r.how, "ambiguous")  # %d and %u both fit
            r = m.identify(b"ata1: link up 1.5 Gbps")
            self.assertEqual((r.how, r.id), ("match",
                                             crc(b"ata%u: link up %s")))
        self.assertEqual(len(m.known), 2)

    def test_dev_printk_prefix(self) -> None:
        self.check(b"pci 0000:00:01.0: PIIX3: Enabling Passive Release",
                   b"PIIX3: Enabling Passive Release")

    def test_pv_wrapper_gives_the_inner_id(self) -> None:
        self.check(b"EXT4-fs (vda): mounted filesystem 1234-5678 r/w with "
                   b"ordered data mode. Quota mode: none.",
                   b"mounted filesystem %pU %s with%s. Quota mode: %s.")

    def test_subsystem_prefix_of_the_index(self) -> None:
        # An index entry's subsystem prefix that is not a device prefix
        # (DRM's, dev_err_probe()'s) is where its caller's text starts:
        # "[drm:drm_minor_register] " is no device prefix, and no wrapper
        # format in this database prints it.
        m = Matcher([
            (crc(b"new minor registered %d"), b"new minor registered %d",
             False, "[drm:%ps] "),
            (crc(b"probe of %s failed"), b"probe of %s failed", False,
             "%s %s: error %pe: "),
            (crc(b"device name %s"), b"device name %s", False, "%s %s: "),
        ])
        for text, fmt in (
                (b"[drm:drm_minor_register] new minor registered 0",
                 b"new minor registered %d"),
                (b"foo 0000:00:01.0: error -EINVAL: probe of bar failed",
                 b"probe of %s failed"),
                (b"foo bar: device name baz", b"device name %s")):
            r = m.identify(text)
            self.assertEqual((r.how, r.id), ("match", crc(fmt)), text)
            self.assertTrue(m.fits(crc(fmt), text), text)
        # Without its prefix the text is not that format's.
        self.assertIsNone(m.identify(b"new minor registered 0").how)
        self.assertIsNone(m.identify(b"[drm:x]new minor registered 0").how)
        self.assertEqual(match.where("[drm:%ps] "), "=[drm:%ps] ")
        self.assertEqual(match.where("%s %s %s%s: "), "d")
        self.assertEqual((match.where(""), match.where(None)), ("p", ""))

    def test_kern_cont_join(self) -> None:
        text = (b"e820: BIOS-e820: [mem 0x0000000000000000-"
                b"0x000000000009fbff] usable")
        self.check(text, b"e820: %s: [mem %#018Lx-%#018Lx] ")
        self.assertTrue(self.m.identify(text).cont)
        # A format ending in a newline ends its record: no prefix match.
        self.assertIsNone(self.m.identify(
            b"PIIX3: Enabling Passive Release and more").how)

    def test_kern_cont_join_with_more_literal_text_wins(self) -> None:
        start, generic = b"smpboot: CPU%d: ", b"%s version %s"
        longer = b"%s newer kernel version %s"
        m = Matcher([(crc(start), start, True), (crc(generic), generic,
                                                 False),
                     (crc(longer), longer, False)])
        r = m.identify(b"smpboot: CPU0: AMD QEMU Virtual CPU version 2.5+ "
                       b"(family: 0xf, model: 0x6b, stepping: 0x1)")
        self.assertEqual((r.how, r.id, r.cont), ("match", crc(start), True))
        # With less literal text than the whole-line match, it loses.
        r = m.identify(b"smpboot: CPU0: newer kernel version 1.0")
        self.assertEqual((r.how, r.id, r.cont),
                         ("match", crc(longer), False))

    def test_record_of_several_lines(self) -> None:
        # A log shows such a record as several lines, the ID on the first:
        # the first line of the format identifies it.
        fmt = b"Zone ranges for node %d:\n  %s %d"
        m = Matcher([(crc(fmt), fmt, False)])
        r = m.identify(b"Zone ranges for node 0:")
        self.assertEqual((r.how, r.id), ("match", crc(fmt)))
        self.assertIsNone(m.identify(b"Zone ranges for node 0: DMA").how)

    def test_ambiguous_is_not_guessed(self) -> None:
        r = self.m.identify(b"hello 5 world")
        self.assertEqual(r.how, "ambiguous")
        self.assertIsNone(r.id)
        self.assertEqual(r.candidates,
                         sorted([crc(b"hello %d world"),
                                 crc(b"hello %u world")]))
        self.check(b"hello -5 world", b"hello %d world")

    def test_no_literal_never_identifies(self) -> None:
        self.assertIsNone(Matcher([(crc(b"%s"), b"%s", False)])
                          .identify(b"anything at all").how)
        # A word glued to a conversion is not a literal word of the text.
        self.assertIsNone(self.m.identify(b"ata1: link down").how)
        self.check(b"ata1: link up 1.5 Gbps", b"ata%u: link up %s")

    def test_hostile_input_in_bounded_time(self) -> None:
        # Formats that compile to catastrophic regular expressions
        # ((a.*)*b): many wildcards separated by a frequent literal.
        evil = [b"aaa%saaa%saaa%saaa%saaa%saaa%saaa%saaa%s b%d end"
                + b"x" * i for i in range(50)]
        evil_formats = [(crc(f), f, True) for f in evil]
        m = Matcher(evil_formats + [(crc(f), f, c) for f, c in FORMATS])
        lines = [b"aaa" * 700, b"aaa " * 500 + b"b", b"\xff\xfe" * 500,
                 b"x" * (1 << 20), b"aaa" * 600 + b" b12 end" + b"x" * 49]
        start = time.perf_counter()
        results = [m.identify(line) for line in lines]
        self.assertLess(time.perf_counter() - start, 5.0)
        self.assertIsNone(results[3].how)  # longer than any record
        r = results[4]
        self.assertEqual((r.how, r.id), ("match", crc(evil[49])))


    def test_wrapper_with_open_end_is_not_followed(self) -> None:
        # "wrap: %s%pV" could end its prefix anywhere: not followed, in
        # bounded time, and the plain format after it is still found at 0.
        fmts = [b"wrap: %s%pV", b"wrap: %s tail %d"]
        m = Matcher((crc(f), f, False) for f in fmts)
        start = time.perf_counter()
        r = m.identify(b"wrap: " + b"x " * 900 + b"tail 7")
        self.assertLess(time.perf_counter() - start, 2.0)
        self.assertEqual((r.how, r.id), ("match", crc(fmts[1])))

    def test_where_the_text_starts(self) -> None:
        # A dev_printk() format follows a device prefix, a printk() one
        # starts the line or follows a %pV wrapper's prefix; a format of
        # unknown origin (older database) may do either.
        dev = b"Linux version %s"
        plain = b"Enabling %s mode"
        unknown = b"Disabling %s mode"
        wrapper = b"%sEXT4-fs: %pV"
        m = Matcher([(crc(dev), dev, False, "%s %s: "),
                     (crc(plain), plain, False, ""),
                     (crc(unknown), unknown, False, None),
                     (crc(wrapper), wrapper, False, "")])
        for text, fmt in (
                (b"hl 0000:01:00.0: Linux version 1.2.3", dev),
                (b"Enabling fast mode", plain),
                (b"EXT4-fs: Enabling fast mode", plain),
                (b"Disabling fast mode", unknown),
                (b"pci 0000:00:01.0: Disabling fast mode", unknown)):
            r = m.identify(text)
            self.assertEqual((r.how, r.id), ("match", crc(fmt)), text)
        for text in (b"Linux version 6.12.118 (root@host) #1 SMP",
                     b"EXT4-fs: Linux version 1.2.3",
                     b"pci 0000:00:01.0: Enabling fast mode"):
            self.assertIsNone(m.identify(text).how, text)

    def test_large_bucket(self) -> None:
        # 9 formats with "alpha" only, 9 with "alpha" and "beta", 9 with
        # "beta" only: "alpha" is the rarest word of 18 formats (a bucket
        # split by the second word, b"" for the 9 without one).
        fmts = ([b"alpha " + b"-" * i + b" %d" for i in range(9)]
                + [b"alpha " + b"+" * i + b" beta %d" for i in range(9)]
                + [b"beta " + b"=" * i + b" %d" for i in range(9)])
        m = Matcher((crc(f), f, False) for f in fmts)
        self.assertGreater(len(fmts) * 2 // 3, match.BIG)
        self.assertIsInstance(m.bucket(b"alpha"), dict)
        for i, f in enumerate(fmts):
            text = f.replace(b"%d", b"%d" % (i * 7))
            r = m.identify(text)
            self.assertEqual((r.how, r.id), ("match", crc(f)), text)


INDEX = b"""\
# <level/flags> filename:line function "format"
<6> drivers/pci/quirks.c:332 quirk_passive_release "%s %s: PIIX3: Enabling Passive Release\\n"
<6> init/main.c:1354 run_init_process "Run %s as init process\\n"
<6> arch/x86/kernel/e820.c:200 e820__print_table "e820: %s: [mem %#018Lx-%#018Lx] "
<c> arch/x86/kernel/e820.c:190 e820_print_type "usable"
<6> kernel/h.c:1 h1 "hello %d world\\n"
<6> kernel/h.c:2 h2 "hello %u world\\n"
"""
PIIX = crc(b"PIIX3: Enabling Passive Release")
RUN = crc(b"Run %s as init process")
E820 = crc(b"e820: %s: [mem %#018Lx-%#018Lx] ")
LOG = (b"[    0.000000] e820: BIOS-e820: [mem 0x0000000000000000-"
       b"0x000000000009fbff] usable\n"
       b"[    0.9] pci 0000:00:01.0: PIIX3: Enabling Passive Release\n"
       b"[    1.0] hello 5 world\n"
       b"[    1.1] (%s): Run /init as init process\n"
       b"[    1.2] (%s): Run /init as init process\n"
       b"[    1.3] no format has this text\n" % (RUN.encode(), PIIX.encode()))


class CliMatchTest(unittest.TestCase):
    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.db = os.path.join(tmp.name, "msgid.db")
        index = os.path.join(tmp.name, "index")
        os.mkdir(index)
        with open(os.path.join(index, "vmlinux"), "wb") as f:
            f.write(INDEX)
        self.log = os.path.join(tmp.name, "boot.log")
        with open(self.log, "wb") as f:
            f.write(LOG)
        self.assertEqual(self.run_cli("build", "--index-dir", index)[0], 0)

    def run_cli(self, *argv: str) -> tuple[int, str, str]:
        raw, err = io.BytesIO(), io.StringIO()
        out = io.TextIOWrapper(raw, encoding="utf-8")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = cli.main(["--db", self.db] + list(argv))
            except SystemExit as e:
                status = e.code
            out.flush()
        return status, raw.getvalue().decode(), err.getvalue()

    def test_annotate_json(self) -> None:
        status, out, _ = self.run_cli("annotate", "--json", self.log)
        self.assertEqual(status, 0)
        objs = [json.loads(x) for x in out.splitlines()]
        self.assertEqual([(o["id"], o["id_from"]) for o in objs], [
            (E820, "match"), (PIIX, "match"), (None, "ambiguous"),
            (RUN, "prefix"), (PIIX, "prefix"), (None, None)])
        self.assertEqual(objs[0]["sites"][0]["function"],
                         "e820__print_table")
        self.assertTrue(objs[0]["cont"])
        self.assertEqual(sorted(c["id"] for c in objs[2]["candidates"]),
                         sorted([crc(b"hello %d world"),
                                 crc(b"hello %u world")]))
        self.assertNotIn("contradicted_by", objs[3])
        self.assertEqual(objs[4]["contradicted_by"], RUN)

    def test_annotate_text_marks_matched_ids(self) -> None:
        status, out, _ = self.run_cli("annotate", self.log)
        self.assertEqual(status, 0)
        self.assertIn("  ~> (%s) matched by text" % PIIX, out)
        self.assertIn("  -> drivers/pci/quirks.c:332 quirk_passive_release",
                      out)
        self.assertIn("  !> the text matches (%s), not the printed ID"
                      % RUN, out)
        self.assertIn("ambiguous: (%s)" % min(crc(b"hello %d world"),
                                              crc(b"hello %u world")), out)
        # Every input line is still there, in order.
        self.assertEqual([x for x in out.splitlines()
                          if not x.startswith("  ")],
                         LOG.decode().splitlines())
        _, plain, _ = self.run_cli("annotate", "--no-match", self.log)
        self.assertNotIn("~>", plain)

    def test_stored_word_index(self) -> None:
        # build stores the word index; without it (an older database) the
        # same answers come from an index built in memory.
        texts = [LOG.splitlines()[i].split(b"] ", 1)[1] for i in (0, 1, 2)]
        answers = []
        for stored in (True, False):
            if not stored:
                conn = sqlite3.connect(self.db)
                conn.execute("DROP TABLE match")
                conn.commit()
                conn.close()
            db = database.open_db(self.db)
            self.addCleanup(db.close)
            self.assertEqual(match.has_index(db), stored)
            m = match.load(db)
            self.assertEqual(isinstance(m, match.DbMatcher), stored)
            answers.append([(r.how, r.id, r.candidates) for r in
                            map(m.identify, texts)])
        self.assertEqual(answers[0], answers[1])
        self.assertEqual(answers[0][:2], [("match", E820, []),
                                          ("match", PIIX, [])])
        self.assertEqual(answers[0][2][0], "ambiguous")

    def test_site_map(self) -> None:
        db = database.open_db(self.db)
        self.addCleanup(db.close)
        sites = database.SiteMap(db)
        self.assertIn(RUN, sites)
        self.assertEqual(sites.get(RUN)[0][:3],  # type: ignore[index]
                         ("init/main.c", 1354, "run_init_process"))
        self.assertNotIn(crc(b"not in the index"), sites)
        self.assertEqual(sites.get(crc(b"not in the index"), []), [])

    def test_lookup_text(self) -> None:
        status, out, _ = self.run_cli("lookup", "--text",
                                      "Run /bin/sh as init process")
        self.assertEqual(status, 0)
        self.assertIn("%s~ init/main.c:1354 run_init_process" % RUN, out)
        status, _, err = self.run_cli("lookup", "--text", "nothing known")
        self.assertEqual(status, 1)
        self.assertIn("no format matches", err)
        self.assertEqual(self.run_cli("lookup")[0], 2)


if __name__ == "__main__":
    unittest.main()
