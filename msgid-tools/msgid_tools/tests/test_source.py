# SPDX-License-Identifier: GPL-2.0
"""Tests of the approximate C source scanner (msgid_tools.source)."""

import multiprocessing
import os
import random
import re
import tempfile
import time
import unittest
import zlib
from concurrent import futures
from unittest import mock

from msgid_tools import source


def crc(text: bytes) -> str:
    return "%08x" % zlib.crc32(text)


HEADER = b'#undef pr_fmt\n#define pr_fmt(fmt) "mce: " fmt\n'
C_FILE = rb'''// SPDX-License-Identifier: GPL-2.0
#include <linux/printk.h>
#include "internal.h"
#define DRV "drv"

/* pr_err("commented out %d\n", 1); */
static void __print_mce(struct mce *m)
{
	pr_emerg(HW_ERR "CPU %d: Machine Check%s: %Lx Bank %d: %016Lx\n",
		 m->extcpu, "", 0, 1, 2);
	printk(KERN_ERR DRV ": raw %s\n", "x");
	pr_cont("more\n");
	pr_info(some_variable);
}

int probe(struct device *dev)
{
	dev_err(dev, "probe failed: %d\n", -5);
	pci_info(pdev, "PIIX3: Enabling Passive Release\n");
	dev_printk(KERN_WARNING, dev, "direct %s\n", "x");
	netdev_warn(ndev, "link %s\n", "down");
	pr_warn_once(FW_BUG "bad table\n");
	return 0;
}
'''


class ScanTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        os.makedirs(os.path.join(self.tmp.name, "mce"))
        with open(os.path.join(self.tmp.name, "mce", "internal.h"), "wb") as f:
            f.write(HEADER)
        with open(os.path.join(self.tmp.name, "mce", "core.c"), "wb") as f:
            f.write(C_FILE)
        self.sites = list(source.scan_tree(self.tmp.name))
        self.by_canon = {s.canonical: s for s in self.sites}

    def test_found(self) -> None:
        self.assertEqual(sorted(self.by_canon), sorted([
            "mce: [Hardware Error]: CPU %d: Machine Check%s: %Lx Bank %d: "
            "%016Lx",
            "drv: raw %s", "more", "probe failed: %d", "direct %s",
            "PIIX3: Enabling Passive Release",
            "link %s", "mce: [Firmware Bug]: bad table"]))

    def test_wrapper_prefix(self) -> None:
        # What precedes the caller's text: the device prefix of dev_*()
        # and netdev_*(), nothing for printk() and pr_*().
        self.assertEqual({c: s.subsys for c, s in self.by_canon.items()
                          if c in ("drv: raw %s", "probe failed: %d",
                                   "direct %s", "link %s",
                                   "PIIX3: Enabling Passive Release")},
                         {"drv: raw %s": "", "probe failed: %d": "%s %s: ",
                          "PIIX3: Enabling Passive Release": "%s %s: ",
                          "direct %s": "%s %s: ",
                          "link %s": "%s %s %s%s: "})

    def test_pr_fmt_from_local_header(self) -> None:
        s = self.by_canon["mce: [Hardware Error]: CPU %d: Machine Check%s: "
                          "%Lx Bank %d: %016Lx"]
        self.assertEqual(s.id, crc(b"mce: [Hardware Error]: CPU %d: Machine "
                                   b"Check%s: %Lx Bank %d: %016Lx"))
        self.assertEqual((s.file, s.line, s.function, s.level, s.msg_class,
                          s.origin),
                         ("mce/core.c", 9, "__print_mce", "0", "hardware",
                          "source-approx"))

    def test_levels(self) -> None:
        self.assertEqual(self.by_canon["drv: raw %s"].level, "3")
        self.assertEqual(self.by_canon["more"].level, "c")
        self.assertEqual(self.by_canon["probe failed: %d"].level, "3")
        self.assertEqual(self.by_canon["direct %s"].level, "4")
        self.assertEqual(self.by_canon["probe failed: %d"].function, "probe")

    def test_kbuild_modname(self) -> None:
        path = os.path.join(self.tmp.name, "test_msgid.c")
        with open(path, "wb") as f:
            f.write(b'#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt\n'
                    b'void f(void)\n{\n\tpr_emerg(HW_ERR "CPU %d: x\\n", 1);'
                    b'\n}\n')
        (site,) = source.scan_file(path, "lib/test_msgid.c")
        self.assertEqual(site.id, crc(b"test_msgid: [Hardware Error]: "
                                      b"CPU %d: x"))

    def test_pci_wrappers(self) -> None:
        # pci_err() is dev_err() on &pdev->dev (dev_fmt applies);
        # pci_printk() is dev_printk() (it does not).
        path = os.path.join(self.tmp.name, "aer.c")
        with open(path, "wb") as f:
            f.write(b'#define pr_fmt(fmt) "AER: " fmt\n'
                    b'#define dev_fmt pr_fmt\n'
                    b'void f(void)\n{\n'
                    b'\tpci_err(dev, "Uncorrectable error %d\\n", 1);\n'
                    b'\tpci_info_ratelimited(dev, "rl %d\\n", 1);\n'
                    b'\tpci_printk(KERN_ERR, dev, "PCIe Bus Error: %s\\n",'
                    b' "x");\n'
                    b'\tpci_printk(level, dev, "  device [%04x]\\n", 1);\n'
                    b'}\n')
        got = {s.canonical: s.level for s in source.scan_file(path, "aer.c")}
        self.assertEqual(got, {"AER: Uncorrectable error %d": "3",
                               "AER: rl %d": "6",
                               "PCIe Bus Error: %s": "3",
                               "  device [%04x]": "-1"})

    def test_net_ratelimited(self) -> None:
        # net_<level>_ratelimited() is pr_<level>() under a rate limit:
        # pr_fmt applies (TCP's SYN flood warning, on busy servers).
        path = os.path.join(self.tmp.name, "tcp_input.c")
        with open(path, "wb") as f:
            f.write(b'#define pr_fmt(fmt) "TCP: " fmt\n'
                    b'void f(void)\n{\n'
                    b'\tnet_info_ratelimited("%s: Possible SYN flooding on '
                    b'port %pI4:%u. %s.\\n", "x", &a, 1, "y");\n'
                    b'\tnet_dbg_ratelimited("%s: drop %d\\n", "x", 1);\n'
                    b'}\n')
        got = {s.canonical: (s.id, s.level)
               for s in source.scan_file(path, "tcp_input.c")}
        syn = b"TCP: %s: Possible SYN flooding on port %pI4:%u. %s."
        self.assertEqual(got, {syn.decode(): (crc(syn), "6"),
                               "TCP: %s: drop %d": (crc(b"TCP: %s: drop %d"),
                                                    "7")})

    def test_netif_wrappers(self) -> None:
        # netif_<level>(priv, type, dev, fmt, ...) is netdev_<level>():
        # the format is the fourth argument and the netdev prefix comes
        # first; a driver's own macro around it (e1000's e_info()) is
        # followed to it.
        path = os.path.join(self.tmp.name, "e1000_main.c")
        with open(path, "wb") as f:
            f.write(b'#define e_info(msglvl, format, arg...) \\\n'
                    b'\tnetif_info(adapter, msglvl, adapter->netdev, '
                    b'format, ## arg)\n'
                    b'void f(void)\n{\n'
                    b'\tnetif_err(adapter, hw, netdev, "Reset %d\\n", 1);\n'
                    b'\te_info(probe, "Intel(R) PRO/1000 Network '
                    b'Connection\\n");\n'
                    b'}\n')
        got = {s.canonical: (s.id, s.level, s.subsys)
               for s in source.scan_file(path, "e1000_main.c")}
        self.assertEqual(got, {
            "Reset %d": (crc(b"Reset %d"), "3", "%s %s %s%s: "),
            "Intel(R) PRO/1000 Network Connection": (
                crc(b"Intel(R) PRO/1000 Network Connection"), "6",
                "%s %s %s%s: ")})

    def test_pr_fmt_redefined(self) -> None:
        path = os.path.join(self.tmp.name, "bugs.c")
        with open(path, "wb") as f:
            f.write(b'#define pr_fmt(fmt) "A: " fmt\n'
                    b'void a(void) { pr_info("one\\n"); }\n'
                    b'#undef pr_fmt\n'
                    b'#define pr_fmt(fmt) "B: " fmt\n'
                    b'void b(void) { pr_info("two\\n"); }\n'
                    b'#undef pr_fmt\n'
                    b'void c(void) { pr_info("three\\n"); }\n'
                    b'#define pr_fmt(fmt) "%s: " fmt, __func__\n'
                    b'void d(void) { pr_info("four\\n"); }\n'
                    b'#undef pr_fmt\n'
                    b'#define pr_fmt(fmt) PREFIX fmt\n'
                    b'void e(void) { pr_info("five\\n"); }\n')
        got = [(s.function, s.canonical) for s in source.scan_file(path)]
        self.assertEqual(got, [("a", "A: one"), ("b", "B: two"),
                               ("c", "three"), ("d", "%s: four")])

    def test_c_unescape(self) -> None:
        self.assertEqual(source.c_unescape(rb"a\n\001\x41\"\\\7"),
                         b'a\n\x01A"\\\x07')

    def test_garbage_file(self) -> None:
        path = os.path.join(self.tmp.name, "junk.c")
        with open(path, "wb") as f:
            f.write(os.urandom(65536) + b'pr_err("x\\n"')
        source.scan_file(path)  # must not raise


#: The definition finder before find_functions(): cubic time on some input.
REFERENCE_FUNC_RE = re.compile(
    rb"^[A-Za-z_][^;#{}=]*?\b([A-Za-z_]\w*)[ \t]*\([^;{}]*\)[ \t\n]*\{",
    re.MULTILINE)


class GarbageTest(unittest.TestCase):
    """Malformed C: no exception, and time linear in the size."""

    def scan(self, data: bytes, name: str = "x.c") -> list:
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, name)
            with open(path, "wb") as f:
                f.write(data)
            return source.scan_file(path, "x.c")

    def test_find_functions_matches_reference(self) -> None:
        rng = random.Random(5)
        alphabet = [b"a", b"b", b"_", b"1", b" ", b"\t", b"\n", b"(", b")",
                    b"{", b"}", b";", b"=", b"#", b"x(", b") {", b"int ",
                    b"\n{", b"*", b","]
        for _ in range(3000):
            text = b"".join(rng.choice(alphabet)
                            for _ in range(rng.randrange(1, 40)))
            self.assertEqual(source.find_functions(text),
                             [(m.start(), m.group(1))
                              for m in REFERENCE_FUNC_RE.finditer(text)],
                             text)
        self.assertEqual(source.find_functions(C_FILE),
                         [(m.start(), m.group(1))
                          for m in REFERENCE_FUNC_RE.finditer(C_FILE)])

    def test_pathological_inputs_are_fast(self) -> None:
        """Each took minutes to hours on 100 kB before (cubic/quadratic)."""
        n = 100000
        cases = {
            "lines": b"a(b)\n" * (n // 5),
            "open calls": b"pr_info(" * (n // 8),
            "nested calls": b"pr_info(" * (n // 16) + b")" * (n // 16),
            "open comments": b"/* " * (n // 3),
            "escaped quotes": b'\\"' * (n // 2),
            "self include": b'#include "x.c"\n' * (n // 15),
            "one line": b'pr_info("x"); ' * (n // 14),
        }
        for name, data in cases.items():
            start = time.perf_counter()
            self.scan(data)
            self.assertLess(time.perf_counter() - start, 2, name)

    def test_malformed_calls(self) -> None:
        sites = self.scan(b'#include "a\0b"\nvoid f(void)\n{\n'
                          b'\tdev_printk(KERN_INFO, dev);\n'
                          b'\tdev_printk(KERN_INFO);\n\tdev_err(d);\n'
                          b'\tpr_err("unterminated\n\tpr_err(\n'
                          b'\tpr_info("ok\\n");\n}\n/* open comment')
        self.assertEqual([(s.canonical, s.line, s.function) for s in sites],
                         [("ok", 9, "f")])

    def test_kbuild_basename(self) -> None:
        # drivers/input/input.c: "input: %s as %s".
        sites = self.scan(b'#define pr_fmt(fmt) KBUILD_BASENAME ": " fmt\n'
                          b'void f(void)\n{\n\tpr_info("%s as %s\\n", a, b);'
                          b'\n}\n', name="input.c")
        self.assertEqual([(s.canonical, s.id) for s in sites],
                         [("input: %s as %s", crc(b"input: %s as %s"))])

    def test_kbuild_modname_of_a_composite_object(self) -> None:
        # net/wireless/Makefile: "cfg80211-y += core.o ... reg.o"; reg.c's
        # pr_fmt() prints "cfg80211: ", its own name stays KBUILD_BASENAME.
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "Makefile"), "wb") as f:
                f.write(b"obj-$(CONFIG_CFG80211) += cfg80211.o\n"
                        b"ccflags-y += -D__CHECK_ENDIAN__\n"
                        b"cfg80211-y += core.o \\\n\treg.o scan.o\n"
                        b"obj-y += lone.o\n")
            src = (b'#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt\n'
                   b'void f(void)\n{\n\tpr_info("failed to load %s\\n", '
                   b'KBUILD_BASENAME);\n}\n')
            for name, mod in (("reg.c", b"cfg80211"), ("lone.c", b"lone"),
                              ("other.c", b"other")):
                path = os.path.join(tmp, name)
                with open(path, "wb") as f:
                    f.write(src)
                sites = source.scan_file(path, name)
                fmt = mod + b": failed to load %s"
                self.assertEqual([(s.canonical, s.id) for s in sites],
                                 [(fmt.decode(), crc(fmt))], name)

    def test_subsystem_wrappers(self) -> None:
        # The wrappers whose callers the index holds: the format is the
        # caller's (with the literal a macro adds), the prefix recorded.
        sites = self.scan(
            b'void f(void)\n{\n'
            b'\tDRM_DEBUG("new minor registered %d\\n", 0);\n'
            b'\tDRM_INFO("Found bochs VGA, ID 0x%x.\\n", id);\n'
            b'\tdrm_err(drm, "pipe %d stuck\\n", p);\n'
            b'\tql_log(ql_log_info, NULL, 0x0005, "QLogic Driver: %s.\\n", v);\n'
            b'\treturn dev_err_probe(dev, ret, "no clock\\n");\n}\n')
        self.assertEqual(
            [(s.canonical, s.id, s.subsys) for s in sites],
            [("new minor registered %d", crc(b"new minor registered %d"),
              "[drm:%ps] "),
             ("[drm] Found bochs VGA, ID 0x%x.",
              crc(b"[drm] Found bochs VGA, ID 0x%x."), ""),
             ("[drm] *ERROR* pipe %d stuck",
              crc(b"[drm] *ERROR* pipe %d stuck"), "%s %s: "),
             ("QLogic Driver: %s.", crc(b"QLogic Driver: %s."),
              "qla2xxx [%s]-%04x:%s: "),
             ("no clock", crc(b"no clock"), "%s %s: error %pe: ")])

    def test_local_header_call_sites(self) -> None:
        """kernel/rcu/tree_plugin.h: its calls take the pr_fmt() of the
        file that includes it, and count once however often included."""
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "rcu"))
            with open(os.path.join(tmp, "rcu", "tree_plugin.h"), "wb") as f:
                f.write(b'static void f(void)\n{\n'
                        b'\tpr_info("Hierarchical RCU implementation.\\n");'
                        b'\n}\n')
            for c in ("tree.c", "tree2.c"):
                with open(os.path.join(tmp, "rcu", c), "wb") as f:
                    f.write(b'#define pr_fmt(fmt) "rcu: " fmt\n'
                            b'#include "tree_plugin.h"\n')
            with open(os.path.join(tmp, "rcu", "other.c"), "wb") as f:
                f.write(b'#include "tree_plugin.h"\n')
            sites = sorted((s.file, s.line, s.function, s.canonical, s.id)
                           for s in source.scan_tree(tmp))
        want = "rcu: Hierarchical RCU implementation."
        self.assertEqual(sites, sorted([
            ("rcu/tree_plugin.h", 3, "f", want, crc(want.encode())),
            ("rcu/tree_plugin.h", 3, "f", want[5:],
             crc(want[5:].encode()))]))

    def test_headers_of_local_headers(self) -> None:
        """drivers/input/serio: i8042.c includes "i8042.h", which
        includes "i8042-acpipnpio.h": its calls take i8042.c's pr_fmt(),
        once, named by the header's path; a header outside the tree and
        an include loop add nothing."""
        with tempfile.TemporaryDirectory() as tmp:
            serio = os.path.join(tmp, "tree", "serio")
            os.makedirs(serio)
            files = {
                "i8042.c": b'#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt\n'
                           b'#include "i8042.h"\n',
                "i8042.h": b'#include "i8042-acpipnpio.h"\n'
                           b'#include "../../outside.h"\n',
                "i8042-acpipnpio.h": b'#include "i8042.h"\n'
                                     b'static int f(void)\n{\n'
                                     b'\tpr_info("PNP: PS/2 Controller '
                                     b'[%s%s%s]\\n", a, b, c);\n}\n',
                "../../outside.h": b'void g(void)\n{\n'
                                   b'\tpr_info("outside\\n");\n}\n'}
            for name, data in files.items():
                with open(os.path.join(serio, name), "wb") as f:
                    f.write(data)
            sites = [(s.file, s.line, s.function, s.canonical, s.id)
                     for s in source.scan_tree(os.path.join(tmp, "tree"))]
        want = b"i8042: PNP: PS/2 Controller [%s%s%s]"
        self.assertEqual(sites, [("serio/i8042-acpipnpio.h", 4, "f",
                                  want.decode(), crc(want))])

    def test_pr_fmt_of_a_header_of_a_local_header(self) -> None:
        """security/integrity/evm: evm_main.c defines pr_fmt() as "EVM: "
        and includes "evm.h", which includes "../integrity.h", which
        replaces it with KBUILD_MODNAME ": ": the kernel prints "evm:
        HMAC attrs: 0x1". A definition in evm.h after that #include
        would win again: the calls after a second file's show it."""
        with tempfile.TemporaryDirectory() as tmp:
            evm = os.path.join(tmp, "integrity", "evm")
            os.makedirs(evm)
            files = {
                "../integrity.h": b'#ifdef pr_fmt\n#undef pr_fmt\n#endif\n'
                                  b'#define pr_fmt(fmt) KBUILD_MODNAME '
                                  b'": " fmt\n',
                "evm.h": b'#include "../integrity.h"\n',
                "late.h": b'#include "../integrity.h"\n'
                          b'#undef pr_fmt\n'
                          b'#define pr_fmt(fmt) "late: " fmt\n',
                "Makefile": b'obj-y += evm.o\n'
                            b'evm-y := evm_main.o other.o\n',
                "evm_main.c": b'#define pr_fmt(fmt) "EVM: "fmt\n'
                              b'#include "evm.h"\n'
                              b'void f(void)\n{\n'
                              b'\tpr_info("HMAC attrs: 0x%x\\n", a);\n}\n',
                "other.c": b'#define pr_fmt(fmt) "EVM: "fmt\n'
                           b'#include "late.h"\n'
                           b'void g(void)\n{\n'
                           b'\tpr_info("HMAC attrs: 0x%x\\n", a);\n}\n'}
            for name, data in files.items():
                with open(os.path.join(evm, name), "wb") as f:
                    f.write(data)
            sites = {s.file: s.canonical for s in source.scan_tree(tmp)}
        self.assertEqual(sites, {
            "integrity/evm/evm_main.c": "evm: HMAC attrs: 0x%x",
            "integrity/evm/other.c": "late: HMAC attrs: 0x%x"})

    def test_wrapper_macros(self) -> None:
        """A file's own wrapper macros, expanded at each call: vgaarb's
        prefix, printk's con_printk() from a local header with pr_fmt()
        in its format, a fixed format, a body that is not a print."""
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "internal.h"), "wb") as f:
                f.write(b'#define con_printk(lvl, con, fmt, ...)\t\\\n'
                        b'\tprintk(lvl pr_fmt("%s%sconsole [%s%d] " fmt),'
                        b'\t\\\n\t\tcon->a, con->b, ##__VA_ARGS__)\n')
            with open(os.path.join(tmp, "printk.c"), "wb") as f:
                f.write(b'#define pr_fmt(fmt) "printk: " fmt\n'
                        b'#include "internal.h"\n'
                        b'#define vga_info(dev, fmt, arg...) '
                        b'dev_info(dev, "vgaarb: " fmt, ##arg)\n'
                        b'#define fixed(x) pr_warn("fixed %d\\n", x)\n'
                        b'#define not_a_print(a, b) ((a) + (b))\n'
                        b'void reg(void)\n{\n'
                        b'\tcon_printk(KERN_INFO, c, "enabled\\n");\n'
                        b'\tvga_info(d, "VGA device added: %s\\n", s);\n'
                        b'\tfixed(1);\n\tnot_a_print(1, 2);\n'
                        b'\tvga_info(d, variable);\n}\n')
            sites = list(source.scan_tree(tmp))
        got = [(s.canonical, s.id, s.line, s.function, s.level, s.subsys)
               for s in sites if s.file == "printk.c"]
        self.assertEqual(got, [
            ("printk: %s%sconsole [%s%d] enabled",
             crc(b"printk: %s%sconsole [%s%d] enabled"), 8, "reg", "6", ""),
            ("vgaarb: VGA device added: %s",
             crc(b"vgaarb: VGA device added: %s"), 9, "reg", "6", "%s %s: "),
            # pr_warn() in a macro: the pr_fmt() where it is used.
            ("printk: fixed %d", crc(b"printk: fixed %d"), 10, "reg", "4",
             "")])

    def test_undecodable_file_name(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            name = os.fsdecode(b"\xff-x.c")
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(b'#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt\n'
                        b'void f(void)\n{\n\tpr_info("hi\\n");\n}\n')
            (site,) = source.scan_tree(tmp)
            self.assertEqual(site.canonical, "\\xff_x: hi")


class ParallelScanTest(unittest.TestCase):
    """scan_tree() with several processes: the same sites in the same
    order as one, a header's sites once, an unreadable file skipped."""

    def setUp(self) -> None:
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = tmp.name
        os.makedirs(os.path.join(self.root, "drv", "sub"))
        with open(os.path.join(self.root, "drv", "common.h"), "wb") as f:
            f.write(b'static inline void g(void)\n{\n'
                    b'\tpr_err("shared header %d\\n", 1);\n}\n')
        for i in range(24):
            name = os.path.join(self.root, "drv" if i % 2 else "drv/sub",
                                "f%02d.c" % i)
            with open(name, "wb") as f:
                if i % 2:
                    f.write(b'#include "common.h"\n')
                f.write(b'void f(void)\n{\n\tpr_info("file %d of %%d\\n", '
                        b'%d);\n}\n' % (i, i))
        os.symlink("missing.c", os.path.join(self.root, "drv", "dangling.c"))
        self.chunk = mock.patch.object(source, "_CHUNK", 2)
        self.chunk.start()
        self.addCleanup(self.chunk.stop)

    def test_same_as_one_process(self) -> None:
        one = list(source.scan_tree(self.root, jobs=1))
        real = futures.ProcessPoolExecutor
        with mock.patch.object(futures, "ProcessPoolExecutor",
                               side_effect=real) as pool:
            two = list(source.scan_tree(self.root, jobs=2))
        pool.assert_called_once()
        self.assertEqual(pool.call_args.args[0], 2)
        self.assertEqual(two, one)
        texts = [s.canonical for s in one]
        self.assertEqual(texts.count("shared header %d"), 1)
        self.assertEqual(sorted(t for t in texts if t.startswith("file")),
                         sorted("file %d of %%d" % i for i in range(24)))

    def test_stopped_early(self) -> None:
        """A reader that stops (an interrupted build) leaves no process
        behind."""
        sites = source.scan_tree(self.root, jobs=2)
        next(sites)
        sites.close()
        self.assertEqual(multiprocessing.active_children(), [])


if __name__ == "__main__":
    unittest.main()
