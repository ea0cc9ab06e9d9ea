# SPDX-License-Identifier: GPL-2.0
"""Tests of pv_wrappers.py on a small synthetic kernel tree.

Run from the repo root: python3 -m unittest harness/research/test_pv_wrappers.py
The expected numbers below were counted by hand from the files in TREE.
"""
import io
import json
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stdout
from typing import Dict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pv_wrappers as pw  # noqa: E402

TREE: Dict[str, str] = {
    'Makefile': 'VERSION = 9\nPATCHLEVEL = 8\nSUBLEVEL = 7\nEXTRAVERSION =\nNAME = Test\n',
    'include/linux/printk.h': r'''
#define __printk_index_emit(_fmt, _level, _subsys_fmt_prefix) do { } while (0)
#define printk_index_subsys_emit(subsys_fmt_prefix, level, fmt, ...) \
	__printk_index_emit(fmt, level, subsys_fmt_prefix)
#define printk_index_wrap(_p_func, _fmt, ...)			\
	({							\
		__printk_index_emit(_fmt, NULL, NULL);		\
		_p_func(_fmt, ##__VA_ARGS__);			\
	})
#define printk(fmt, ...) printk_index_wrap(_printk, fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR pr_fmt(fmt), ##__VA_ARGS__)
#define pr_debug(fmt, ...) dynamic_pr_debug(fmt, ##__VA_ARGS__)
int _printk(const char *fmt, ...);
''',
    'include/linux/dynamic_debug.h': r'''
#define _dynamic_func_call(fmt, func, ...) do { func(&id, ##__VA_ARGS__); } while (0)
#define dynamic_pr_debug(fmt, ...) \
	_dynamic_func_call(fmt, __dynamic_pr_debug, fmt, ##__VA_ARGS__)
''',
    'include/linux/dev_printk.h': r'''
#define dev_printk_index_emit(level, fmt, ...) \
	printk_index_subsys_emit("%s %s: ", level, fmt)
#define dev_printk_index_wrap(_p_func, level, dev, fmt, ...)	\
	({							\
		dev_printk_index_emit(level, fmt);		\
		_p_func(dev, fmt, ##__VA_ARGS__);		\
	})
#define dev_err(dev, fmt, ...) \
	dev_printk_index_wrap(_dev_err, KERN_ERR, dev, fmt, ##__VA_ARGS__)
/* the first branch does not reach dynamic debug: the dynamic one wins */
#if defined(DEBUG)
#define dev_dbg(dev, fmt, ...) \
	dev_printk_index_wrap(_dev_err, KERN_DEBUG, dev, fmt, ##__VA_ARGS__)
#else
#define dev_dbg(dev, fmt, ...) \
	_dynamic_func_call(fmt, __dynamic_dev_dbg, dev, fmt, ##__VA_ARGS__)
#endif
#define dev_level_ratelimited(dev_level, dev, fmt, ...)		\
do {								\
	if (__ratelimit(&_rs))					\
		dev_level(dev, fmt, ##__VA_ARGS__);		\
} while (0)
#define dev_err_ratelimited(dev, fmt, ...) \
	dev_level_ratelimited(dev_err, dev, fmt, ##__VA_ARGS__)
void _dev_err(const struct device *dev, const char *fmt, ...);
int dev_err_probe(const struct device *dev, int err, const char *fmt, ...);
''',
    'include/linux/other.h': r'''
/* a global DBG: drivers/foo has its own */
#define DBG(d, fmt, ...) dev_err(d, fmt, ##__VA_ARGS__)
''',
    'include/drm/drm_print.h': r'''
#define __drm_printk(drm, level, type, fmt, ...) \
	dev_##level##type((drm)->dev, "[drm] " fmt, ##__VA_ARGS__)
#define drm_err(drm, fmt, ...) \
	__drm_printk((drm), err,, "*ERROR* " fmt, ##__VA_ARGS__)
''',
    'drivers/base/core.c': r'''
#include <linux/dev_printk.h>

static void __dev_printk(const char *level, const struct device *dev,
			 struct va_format *vaf)
{
	if (dev)
		dev_printk_emit(level[1] - '0', dev, "%s %s: %pV",
				dev_driver_string(dev), dev_name(dev), vaf);
	else
		printk("%s(NULL device *): %pV", level, vaf);
}

#define define_dev_printk_level(func, kern_level)		\
void func(const struct device *dev, const char *fmt, ...)	\
{								\
	struct va_format vaf;					\
	va_list args;						\
								\
	va_start(args, fmt);					\
	vaf.fmt = fmt;						\
	vaf.va = &args;						\
	__dev_printk(kern_level, dev, &vaf);			\
	va_end(args);						\
}

define_dev_printk_level(_dev_err, KERN_ERR);

static void __dev_probe_failed(const struct device *dev, int err,
			       const char *fmt, va_list vargsp)
{
	struct va_format vaf;
	va_list vargs;

	va_copy(vargs, vargsp);
	vaf.fmt = fmt;
	vaf.va = &vargs;
	/* inside a wrapper: not a call site */
	dev_err(dev, "error %pe: %pV", ERR_PTR(err), &vaf);
	va_end(vargs);
}

int dev_err_probe(const struct device *dev, int err, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	__dev_probe_failed(dev, err, fmt, args);
	va_end(args);
	return err;
}
''',
    'lib/dynamic_debug.c': r'''
void __dynamic_pr_debug(struct _ddebug *descriptor, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	printk(KERN_DEBUG "%s%pV", "", &vaf);
	va_end(args);
}

void __dynamic_dev_dbg(struct _ddebug *descriptor, const struct device *dev,
		       const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_printk_emit(LOGLEVEL_DEBUG, dev, "%s%s %s: %pV", "", "", "", &vaf);
	va_end(args);
}
''',
    'drivers/foo/foo.h': r'''
#define foo_err(foo, fmt, ...) foo_printk(foo, KERN_ERR, fmt, ##__VA_ARGS__)
#define foo_dbg(foo, fmt, ...) foo_printk(foo, KERN_DEBUG, fmt, ##__VA_ARGS__)
#define foo_indexed(foo, fmt, ...)					\
	({								\
		printk_index_subsys_emit("foo: ", KERN_INFO, fmt);	\
		foo_printk(foo, KERN_INFO, fmt, ##__VA_ARGS__);		\
	})
/* not variadic: not followed */
#define FOO_FIXED(foo) foo_printk(foo, KERN_ERR, "fixed\n")
/* hides include/linux/other.h's DBG in drivers/foo */
#define DBG(fmt, ...) foo_printk(NULL, KERN_DEBUG, fmt, ##__VA_ARGS__)

void foo_printk(struct foo *foo, const char *level, const char *fmt, ...);

static inline void foo_inline(struct foo *foo)
{
	foo_err(foo, "inline\n");
}
''',
    'drivers/foo/foo.c': r'''
#include <linux/dev_printk.h>
#include "foo.h"

void foo_printk(struct foo *foo, const char *level, const char *fmt, ...)
{
	struct va_format vaf = {
		.fmt = fmt,
	};
	va_list args;

	va_start(args, fmt);
	vaf.va = &args;
	printk("%sfoo: %pV", level, &vaf);
	va_end(args);
}

void foo_warn(struct foo *foo, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	foo_printk(foo, KERN_WARNING, "%pV", &vaf);
	va_end(args);
}

/* seq_file and trace-only users are not printk wrappers */
static void foo_seq(struct seq_file *m, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	seq_printf(m, "%pV", &vaf);
	va_end(args);
}

static void foo_trace(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	trace_foo(&vaf);
	va_end(args);
}

#ifdef CONFIG_A
static int foo_x(int a) {
#else
static int foo_x(int a, int b) {
#endif
	foo_err(NULL, "x\n");
	return 0;
}

int foo_probe(struct foo *foo)
{
	foo_err(foo, "bad %d\n", 1);
	foo_err(foo,
		"multi-line\n");
	foo_dbg(foo, "dbg\n");
	foo_indexed(foo, "idx\n");
	foo_printk(foo, KERN_INFO, "direct\n");
	foo_warn(foo, "warn\n");
	FOO_FIXED(foo);
	DBG("local dbg\n");
	/* foo_err(foo, "in a comment\n"); */
	pr_err("foo_err(foo, \"in a string\")\n");
	dev_err(foo->dev, "dev\n");
	dev_err_ratelimited(foo->dev, "rl\n");
	dev_dbg(foo->dev, "dbg\n");
	pr_debug("pd\n");
	foo->ops->foo_err(foo);
	return dev_err_probe(foo->dev, -22, "probe\n");
}
''',
    'drivers/bar/bar.c': r'''
#include <linux/other.h>
#include <drm/drm_print.h>

void bar(struct device *d, struct drm_device *drm)
{
	DBG(d, "global DBG\n");
	drm_err(drm, "pasted\n");
	foo_err(NULL, "foo.h is not visible here\n");
}
''',
    'fs/baz/messages.h': r'''
#define baz_err(fmt, ...) _baz_printk(fmt, ##__VA_ARGS__)
''',
    'fs/baz/messages.c': r'''
#include "messages.h"

void _baz_printk(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	/* an emit inside a function: fmt is not constant, not indexed */
	printk_index_subsys_emit("%sBAZ: ", NULL, fmt);
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	_printk("BAZ: %pV\n", &vaf);
	va_end(args);
}
''',
    'fs/baz/super.c': r'''
#include "messages.h"

int baz_fill_super(void)
{
	baz_err("a\n");
	if (1) {
		baz_err("b\n");
	}
	return 0;
}
''',
    'drivers/qux/qux.h': r'''
#define qux_level(l) ((l) == 3 ? KERN_ERR : KERN_INFO)
/* a pure emitter that calls a non-printing helper */
#define qux_index_emit(level, fmt) \
	printk_index_subsys_emit("qux: ", qux_level(level), fmt)
/* a macro named as the function it indexes */
#define qux_printk(level, fmt, ...)				\
	({							\
		qux_index_emit(level, fmt);			\
		qux_printk(level, fmt, ##__VA_ARGS__);		\
	})
/* pr_err() emits for its own branch only */
#define qux_mixed(fmt, ...)					\
do {								\
	if (qux_verbose)					\
		pr_err(fmt, ##__VA_ARGS__);			\
	else							\
		qux_other(fmt, ##__VA_ARGS__);			\
} while (0)
void qux_printk(int level, const char *fmt, ...);
void qux_other(const char *fmt, ...);
''',
    'drivers/qux/qux.c': r'''
#include "qux.h"

void (qux_printk)(int level, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	printk("qux: %pV", &vaf);
	va_end(args);
}

void qux_other(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err("qux other: %pV", &vaf);
	va_end(args);
}

void qux_use(void)
{
	qux_printk(3, "one\n");
	qux_mixed("two\n");
}
''',
    # left out of the scan
    'tools/x.c': 'void t(void) { foo_err(NULL, "tools\\n"); dev_err(0, "t\\n"); }\n',
}


class SyntheticTree(unittest.TestCase):
    tmp: tempfile.TemporaryDirectory
    r: dict

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        for path, text in TREE.items():
            full = os.path.join(cls.tmp.name, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, 'w') as f:
                f.write(text)
        cls.r = pw.run(cls.tmp.name, jobs=2)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def family(self, entry: str) -> dict:
        for f in self.r['table']:
            if entry in f['entry_points']:
                return f
        self.fail('no family with %s' % entry)

    def test_index_macros(self) -> None:
        self.assertEqual(self.r['index_emitters'],
                         ['__printk_index_emit', 'dev_printk_index_emit',
                          'printk_index_subsys_emit', 'qux_index_emit'])
        self.assertEqual(self.r['index_wrappers'], ['dev_printk_index_wrap', 'printk_index_wrap'])

    def test_entry_points(self) -> None:
        # _dev_err (template), dev_err_probe + __dev_probe_failed (split),
        # foo_printk + foo_warn, _baz_printk, qux_printk + qux_other;
        # not foo_seq, foo_trace
        self.assertEqual(self.r['entry_points'], 8)
        self.assertEqual(self.r['families'], 5)
        self.assertEqual(self.r['dynamic_entry_points'], 2)
        self.assertEqual(self.r['dynamic_families'], 2)
        self.assertEqual(self.family('foo_printk')['entry_points'], ['foo_printk', 'foo_warn'])
        self.assertEqual(self.family('dev_err_probe')['entry_points'],
                         ['__dev_probe_failed', 'dev_err_probe'])
        self.assertEqual(self.family('_dev_err')['helpers'], ['__dev_printk'])

    def test_totals(self) -> None:
        self.assertEqual(self.r['version'], '9.8.7')
        # foo 9, dev 4, dev_err_probe 1, baz 2, qux 2
        self.assertEqual(self.r['sites'], 18)
        self.assertEqual(self.r['indexed'], 6)
        self.assertEqual(self.r['not_indexed'], 12)
        # debug names: foo_dbg and DBG in foo.c, DBG in bar.c (indexed)
        self.assertEqual(self.r['nondebug_sites'], 15)
        self.assertEqual(self.r['nondebug_indexed'], 5)
        self.assertEqual(self.r['dynamic_sites'], 2)
        self.assertEqual({d['family']: d['sites'] for d in self.r['dynamic']},
                         {'__dynamic_dev_dbg': 1, '__dynamic_pr_debug': 1})

    def test_foo(self) -> None:
        f = self.family('foo_printk')
        # foo.c: foo_err x2 in foo_probe, 1 in foo_x, foo_dbg, foo_indexed,
        # foo_printk, foo_warn, local DBG; foo.h: foo_err in foo_inline
        self.assertEqual(f['sites'], 9)
        self.assertEqual(f['debug_sites'], 2)
        self.assertEqual(f['indexed_sites'], 1)
        self.assertEqual(f['indexed'], 'partly')
        self.assertEqual(f['names']['foo_err'], [4, 0])
        self.assertEqual(f['names']['foo_indexed'], [1, 1])
        self.assertEqual(f['names']['DBG'], [1, 0])
        self.assertNotIn('FOO_FIXED', f['names'])
        self.assertEqual(f['formats'][0], {'function': 'foo_printk', 'sink': 'printk',
                                           'format': '"%sfoo: %pV'})

    def test_dev_printk(self) -> None:
        f = self.family('_dev_err')
        # foo.c dev_err, dev_err_ratelimited; bar.c global DBG, drm_err (paste)
        self.assertEqual(f['sites'], 4)
        self.assertEqual(f['debug_sites'], 1)
        self.assertEqual(f['indexed'], 'yes')
        self.assertEqual(f['names'], {'dev_err': [1, 1], 'dev_err_ratelimited': [1, 1],
                                      'DBG': [1, 1], 'drm_err': [1, 1]})

    def test_direct_call_and_function_emit(self) -> None:
        f = self.family('dev_err_probe')
        self.assertEqual((f['sites'], f['indexed_sites'], f['indexed']), (1, 0, 'no'))
        f = self.family('_baz_printk')
        self.assertEqual((f['sites'], f['indexed_sites'], f['indexed']), (2, 0, 'no'))

    def test_self_named_macro(self) -> None:
        f = self.family('qux_printk')
        self.assertEqual(f['entry_points'], ['qux_other', 'qux_printk'])
        self.assertEqual(f['names'], {'qux_printk': [1, 1], 'qux_mixed': [1, 0]})
        self.assertEqual(f['indexed'], 'partly')

    def test_text_and_json_output(self) -> None:
        out = io.StringIO()
        with redirect_stdout(out):
            pw.print_text(self.r, 3, 2, ['foo_err'])
        text = out.getvalue()
        self.assertIn('call sites (without dynamic debug): 18', text)
        self.assertIn('foo_err                              4 sites, 0 indexed', text)
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(pw.main([self.tmp.name, '--json', '-j', '1']), 0)
        self.assertEqual(json.loads(out.getvalue())['sites'], 18)


class Lexing(unittest.TestCase):
    def test_strip_keeps_length(self) -> None:
        src = 'a /* x\ny */ "s\\"t" \'c\' // z\nb'
        out = pw.strip_comments(src, keep_strings=False)
        self.assertEqual(len(out), len(src))
        self.assertEqual(out.count('\n'), 2)
        self.assertNotIn('x', out)
        self.assertEqual(out.split(), ['a', '"', '"', "'", "'", 'b'])

    def test_else_branch_braces_ignored(self) -> None:
        src = '#if A\nint f(int a) {\n#else\nint f(int a, int b) {\n#endif\n}\n'
        code, ignored = pw.blank_directives(src)
        self.assertEqual(len(ignored), 1)
        s, e = ignored[0]
        self.assertIn('int f(int a, int b) {', src[s:e])
        self.assertNotIn('#', code)


if __name__ == '__main__':
    unittest.main()
