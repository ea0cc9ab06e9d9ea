# SPDX-License-Identifier: GPL-2.0
"""Tests of msgid-db.py metrics: the output is parsed with the rules of the
Prometheus text exposition format (version 0.0.4)."""

import os
import re
import tempfile
import unittest

from msgid_tools import cli
from msgid_tools import metrics
from msgid_tools.tests import clirun

# As the kernel writes it: "none" never shows a last identifier, and
# comment lines follow the class lines.
KERNEL_FILE = """\
# class count last_id
none 203 -
hardware 3 ea076b71
firmware-bug 1 6beac258
firmware-warn 0 -
firmware-info 0 -
deprecated 0 -
# formats hashed: 141
"""
NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r"[a-zA-Z_][a-zA-Z0-9_]*"
VALUE = r'"((?:[^"\\\n]|\\[\\"n])*)"'
SAMPLE_RE = re.compile(r"(%s)(?:\{((?:%s=%s,?)*)\})? (\S+)" % (NAME, LABEL,
                                                              VALUE))
# A Go ParseFloat value as the format allows it (no "1_0", no "infinity").
FLOAT_RE = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
                      r"|[+-]?Inf|NaN")


def parse_exposition(text: str) -> dict:
    """Parse @text; return {family: (type, help, [(labels, value)])}.

    Fails on anything the format forbids: a sample before its TYPE, two
    TYPE or HELP lines for one family, a family whose lines are not one
    group, a sample repeated with the same labels, a bad name, label or
    escape, a counter not named *_total, a value that is not a float, no
    final newline.
    """
    assert text.endswith("\n"), "no newline at the end"
    families: dict = {}
    current = None
    for line in text[:-1].split("\n"):
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            kind, name, rest = line[2:6], *line[7:].split(" ", 1)
            assert re.fullmatch(NAME, name), line
            assert name == current or name not in families, \
                "lines of %s not in one group" % name
            current = name
            fam = families.setdefault(name, {"samples": []})
            assert kind not in fam, "second %s for %s" % (kind, name)
            assert not fam["samples"], "%s after samples" % kind
            if kind == "TYPE":
                assert rest in ("counter", "gauge", "untyped", "summary",
                                "histogram"), line
            fam[kind] = rest
            continue
        assert not line.startswith("#") and line.strip(), repr(line)
        m = SAMPLE_RE.fullmatch(line)
        assert m, "bad sample line %r" % line
        name, labels, value = m.group(1), m.group(2) or "", m.group(4)
        assert FLOAT_RE.fullmatch(value), "bad value %r" % line
        fam = families.get(name)
        assert fam and "TYPE" in fam, "sample before TYPE: %r" % line
        assert name == current, "lines of %s not in one group" % name
        pairs = dict((k, re.sub(r"\\(.)", lambda x: {"n": "\n"}.get(
            x.group(1), x.group(1)), v))
                     for k, v in re.findall(r"(%s)=%s" % (LABEL, VALUE),
                                            labels))
        assert pairs not in [p for p, _ in fam["samples"]], \
            "sample repeated: %r" % line
        fam["samples"].append((pairs, float(value)))
    for name, fam in families.items():
        if fam.get("TYPE") == "counter":
            assert name.endswith("_total"), name
    return families


class MetricsTest(unittest.TestCase):
    def run_cli(self, *argv: str) -> tuple[int, str, str]:
        return clirun.run(list(argv))

    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.file = os.path.join(self.tmp.name, "msgid")
        with open(self.file, "w") as f:
            f.write(KERNEL_FILE)

    def test_counters_in_exposition_format(self) -> None:
        status, out, _ = self.run_cli("metrics", "--file", self.file)
        self.assertEqual(status, 0)
        fam = parse_exposition(out)
        total = fam["printk_msgid_messages_total"]
        self.assertEqual(total["TYPE"], "counter")
        self.assertTrue(total["HELP"])
        self.assertEqual({s[0]["class"]: s[1] for s in total["samples"]},
                         {"none": 203, "hardware": 3, "firmware-bug": 1,
                          "firmware-warn": 0, "firmware-info": 0,
                          "deprecated": 0})
        last = fam["printk_msgid_last_info"]
        self.assertEqual(sorted((s[0]["class"], s[0]["id"]) for s in
                                last["samples"]),
                         [("firmware-bug", "6beac258"),
                          ("hardware", "ea076b71")])

    def test_comment_lines_and_ids_shown_or_not(self) -> None:
        """Comment lines anywhere are skipped; "-" is no identifier
        whatever the count, and an identifier is kept for any class (as
        earlier versions of the kernel file showed one for "none")."""
        text = ("# class count last_id\n"
                "# a comment before the classes\n"
                "none 5 26b3d371\n"
                "hardware 2 -\n"
                "# formats hashed: 0\n"
                "# formats hashed: 7\n")
        self.assertEqual(metrics.parse(text, "f"),
                         [metrics.Counter("none", 5, "26b3d371"),
                          metrics.Counter("hardware", 2, "")])
        fam = parse_exposition(metrics.render(metrics.parse(text, "f")))
        self.assertEqual([s[0] for s in
                          fam["printk_msgid_last_info"]["samples"]],
                         [{"class": "none", "id": "26b3d371"}])
        for bad in ("none 1 -\nformats hashed: 3\n",
                    "none 1 -\n #formats hashed: 3\n"):
            with self.assertRaisesRegex(metrics.InputError,
                                        r"f:2: not a class counter line"):
                metrics.parse(bad, "f")

    def test_label_escaping(self) -> None:
        odd = 'we"ird\\cl\nass'
        text = metrics.render([metrics.Counter(odd, 1, "0badf00d")])
        fam = parse_exposition(text)
        self.assertEqual(fam["printk_msgid_messages_total"]["samples"][0][0]
                         ["class"], odd)

    def test_parser_rejects_bad_exposition(self) -> None:
        for bad in ('x_total{class="a"} 1\n',  # no TYPE
                    "# TYPE a counter\na 1\n",  # counter not *_total
                    '# TYPE a_total counter\na_total{c="\\q"} 1\n',
                    "# TYPE a_total counter\na_total one\n",
                    "# TYPE a_total counter\na_total 1",  # no newline
                    "# TYPE a_total counter\na_total 1\na_total 2\n",
                    "# TYPE a_total counter\n# TYPE b gauge\nb 1\n"
                    "a_total 1\n"):
            with self.assertRaises(AssertionError, msg=bad):
                parse_exposition(bad)

    def test_output_file_replaced_atomically(self) -> None:
        prom = os.path.join(self.tmp.name, "printk_msgid.prom")
        self.assertEqual(self.run_cli("metrics", "--file", self.file,
                                      "-o", prom)[0], 0)
        with open(prom) as f:
            good = f.read()
        parse_exposition(good)
        # Garbage in: clear error, exit 2, the previous file is kept.
        with open(self.file, "w") as f:
            f.write("# class count last_id\nhardware three ea076b71\n")
        status, out, err = self.run_cli("metrics", "--file", self.file,
                                        "-o", prom)
        self.assertEqual((status, out), (2, ""))
        self.assertRegex(err, r"msgid:2: not a class counter line")
        with open(prom) as f:
            self.assertEqual(f.read(), good)
        self.assertEqual(sorted(os.listdir(self.tmp.name)),
                         ["msgid", "printk_msgid.prom"])

    def test_default_file_is_the_kernels(self) -> None:
        args = cli.build_parser().parse_args(["metrics"])
        self.assertEqual(args.file, metrics.DEFAULT_PATH)
        self.assertEqual(metrics.DEFAULT_PATH,
                         "/sys/kernel/debug/printk/msgid")

    def test_missing_and_empty_file(self) -> None:
        status, _, err = self.run_cli("metrics", "--file",
                                      os.path.join(self.tmp.name, "nope"))
        self.assertEqual(status, 2)
        self.assertIn("No such file", err)
        with open(self.file, "w") as f:
            f.write("# class count last_id\n")
        status, _, err = self.run_cli("metrics", "--file", self.file)
        self.assertEqual(status, 2)
        self.assertIn("no class counters", err)
        with open(self.file, "w") as f:
            f.write("hardware 1 -\nhardware 2 -\n")
        self.assertIn("counted twice",
                      self.run_cli("metrics", "--file", self.file)[2])


if __name__ == "__main__":
    unittest.main()
