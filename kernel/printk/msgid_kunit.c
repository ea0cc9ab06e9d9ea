// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for printk message identifiers.
 *
 * The expected identifiers were computed outside the kernel, with
 * Python's zlib.crc32() over the canonical format:
 *
 *   python3 -c 'import zlib; print(hex(zlib.crc32(b"Hello %s")))'
 */

#include <kunit/test.h>
#include <linux/crc32.h>
#include <linux/err.h>
#include <linux/kmsg_dump.h>
#include <linux/pgtable.h>
#include <linux/printk.h>
#include <linux/printk_msgid.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

static __printf(2, 3) void msgid_get(struct printk_msgid *m, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	printk_msgid_get(m, fmt, args);
	va_end(args);
}

/* Canonical forms: leading levels and one trailing newline go. */
static const struct {
	const char *fmt;
	const char *canonical;
} msgid_canonical_cases[] = {
	{ "hello", "hello" },
	{ KERN_INFO "hello\n", "hello" },
	{ KERN_CONT "tail\n", "tail" },
	{ KERN_WARNING KERN_CONT "both", "both" },
	{ "two\n\n", "two\n" },
	{ "\n", "" },
	{ "", "" },
	{ KERN_SOH "9 not a level", KERN_SOH "9 not a level" },
	{ KERN_SOH, KERN_SOH },
	{ "inner " KERN_INFO "kept", "inner " KERN_INFO "kept" },
	{ "mid\nnewline\n", "mid\nnewline" },
};

static void msgid_canonical_test(struct kunit *test)
{
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(msgid_canonical_cases); i++) {
		const char *c = printk_msgid_canonical(msgid_canonical_cases[i].fmt, &len);

		KUNIT_EXPECT_EQ_MSG(test, len, strlen(msgid_canonical_cases[i].canonical),
				    "case %zu", i);
		KUNIT_EXPECT_MEMEQ_MSG(test, c, msgid_canonical_cases[i].canonical, len,
				       "case %zu", i);
	}
}

/* A format as written in C (a plain literal), zlib.crc32() of its canonical form. */
#define MSGID_VECTOR(fmt, id) { fmt, id }

static const struct {
	const char *fmt;
	u32 id;
} msgid_vectors[] = {
	MSGID_VECTOR("", 0x00000000),
	MSGID_VECTOR("\n", 0x00000000),
	MSGID_VECTOR("123456789", 0xcbf43926),
	MSGID_VECTOR("\0016123456789\n", 0xcbf43926),
	MSGID_VECTOR("The quick brown fox jumps over the lazy dog", 0x414fa339),
	MSGID_VECTOR("\0010mce: [Hardware Error]: CPU %d: Machine Check: %llx Bank %d\n",
		     0xd680fe2e),
	MSGID_VECTOR("%s %s: %pV", 0xb28752d5),
	MSGID_VECTOR("\0016Hello %s\n", 0x1fd761ca),
	MSGID_VECTOR("\0013Hello %s", 0x1fd761ca),
	MSGID_VECTOR("leaf %s %d", 0x27e408ef),
	MSGID_VECTOR("inner %d", 0x49749e07),
	MSGID_VECTOR("\0016msgid kunit cont %u", 0x48e28db4),
	MSGID_VECTOR("\001cmsgid kunit orphan %u\n", 0x9b6b2b6b),
	MSGID_VECTOR("msgid kunit deferred %u\n", 0xfa92e49a),
	MSGID_VECTOR("\0016msgid kunit long %u %s\n", 0x43b0819b),
	MSGID_VECTOR("%c %hhd %ld %lld %zu %td %p %*d %s tail", 0x8debe315),
	MSGID_VECTOR("%s: disk", 0x4024703c),
};

static u32 msgid_vector_id(const char *fmt)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msgid_vectors); i++)
		if (!strcmp(msgid_vectors[i].fmt, fmt))
			return msgid_vectors[i].id;
	return 0;
}

static void msgid_crc_test(struct kunit *test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msgid_vectors); i++)
		KUNIT_EXPECT_EQ_MSG(test, printk_msgid_hash(msgid_vectors[i].fmt),
				    msgid_vectors[i].id, "vector %zu", i);
}

static const char *const msgid_inner = "inner %d";

static __printf(2, 3) void msgid_check_outer(struct kunit *test, const char *outer, ...)
{
	struct printk_msgid m;
	va_list args;

	va_start(args, outer);
	printk_msgid_get(&m, outer, args);
	va_end(args);
	KUNIT_EXPECT_PTR_EQ_MSG(test, m.fmt, msgid_inner, "walk over \"%s\"", outer);
	KUNIT_EXPECT_EQ_MSG(test, m.id, msgid_vector_id(msgid_inner), "walk over \"%s\"", outer);
}

/*
 * The %pV is found after each kind of argument vsnprintf() consumes (64-bit
 * values take two slots on 32-bit architectures) and in the wrapper formats
 * of dev_printk() and netdev_printk().
 */
#define CHECK_WALK(conv, ...) \
	msgid_check_outer(test, "a " conv " b %pV", __VA_ARGS__)

static void msgid_walk_body(struct kunit *test, struct va_format *vaf)
{
	char fmt_l[16];

	CHECK_WALK("%d", -3, vaf);
	CHECK_WALK("%c", 'c', vaf);
	CHECK_WALK("%p", (void *)8, vaf);
	CHECK_WALK("%%", vaf);
	/* A width on %% consumes nothing, whatever gcc's format check says. */
	__diag_push();
	__diag_ignore_all("-Wformat", "a width on %% is tested on purpose");
	CHECK_WALK("%5%", vaf);
	__diag_pop();
	CHECK_WALK("%lld", 0x0000000500000007LL, vaf);
	/* The 'L' qualifier, built at run time: checkpatch takes %L for a typo. */
	snprintf(fmt_l, sizeof(fmt_l), "a %%%cx b %%pV", 'L');
	msgid_check_outer(test, fmt_l, 0x0000000500000007ULL, vaf);
	CHECK_WALK("%hhd", (signed char)-3, vaf);
	CHECK_WALK("%hd", (short)-3, vaf);
	CHECK_WALK("%ld", -3L, vaf);
	CHECK_WALK("%zu", (size_t)3, vaf);
	CHECK_WALK("%td", (ptrdiff_t)-3, vaf);
	CHECK_WALK("%*d", 4, 3, vaf);
	CHECK_WALK("%.*s", 2, "str", vaf);
	CHECK_WALK("%d %lld %s %zu %c", 1, 0x0000000500000007LL, "s", (size_t)2, 'c', vaf);
	msgid_check_outer(test, "%s %s: %pV", "e1000", "0000:00:03.0", vaf);
	msgid_check_outer(test, "%s(NULL device *): %pV", "", vaf);
	msgid_check_outer(test, "%s %s %s%s: %pV", "e1000", "0000:00:03.0", "eth0", "", vaf);
}

/* Call @body with a va_format of @fmt and the arguments after @body. */
static void msgid_with_vaf(struct kunit *test, const char *fmt,
			   void (*body)(struct kunit *test, struct va_format *vaf), ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, body);
	vaf.fmt = fmt;
	vaf.va = &args;
	body(test, &vaf);
	va_end(args);
}

static void msgid_walk_test(struct kunit *test)
{
	msgid_with_vaf(test, msgid_inner, msgid_walk_body, 7);
}

static const struct {
	const char *fmt;
	const char *arg;
	enum printk_msgid_class class;
} msgid_class_cases[] = {
	{ KERN_EMERG "mce: " HW_ERR "CPU %s: Machine Check", "0", PRINTK_MSGID_HW_ERR },
	{ FW_BUG "ACPI: %s", "x", PRINTK_MSGID_FW_BUG },
	{ "pci: " FW_WARN "%s", "x", PRINTK_MSGID_FW_WARN },
	{ FW_INFO "%s", "x", PRINTK_MSGID_FW_INFO },
	{ DEPRECATED "%s", "x", PRINTK_MSGID_DEPRECATED },
	/* GHES: the tag and even the level arrive in a %s argument. */
	{ "%sHardware error from APEI Generic Hardware Error Source",
	  KERN_ERR "{1}" HW_ERR, PRINTK_MSGID_HW_ERR },
	{ "%sACPI: table", "{2}" FW_BUG, PRINTK_MSGID_FW_BUG },
	{ "first " FW_BUG "%s", HW_ERR, PRINTK_MSGID_FW_BUG },
	{ "%.4s: tail", HW_ERR, PRINTK_MSGID_NONE },
	{ "%s", "[Hardware Err", PRINTK_MSGID_NONE },
	{ "plain [x] %s", "[y] z", PRINTK_MSGID_NONE },
	{ "[Hardware Error] no colon %s", "", PRINTK_MSGID_NONE },
	{ "%s", NULL, PRINTK_MSGID_NONE },
};

static void msgid_class_test(struct kunit *test)
{
	struct printk_msgid m, plain;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msgid_class_cases); i++) {
		msgid_get(&m, msgid_class_cases[i].fmt, msgid_class_cases[i].arg);
		KUNIT_EXPECT_EQ_MSG(test, m.class, msgid_class_cases[i].class, "case %zu", i);
		/* The class never changes the identifier. */
		msgid_get(&plain, msgid_class_cases[i].fmt, "x");
		KUNIT_EXPECT_EQ_MSG(test, m.id, plain.id, "case %zu", i);
	}
	__diag_push();
	__diag_ignore_all("-Wformat", "an error pointer for %s is tested on purpose");
	msgid_get(&m, "%s", ERR_PTR(-EFAULT));
	__diag_pop();
	KUNIT_EXPECT_EQ(test, m.class, PRINTK_MSGID_NONE);

	/* ghes_print_estatus(): an argument after the tagged %s. */
	msgid_get(&m, "%sHardware error from APEI Generic Hardware Error Source: %d\n",
		  KERN_ERR "{1}" HW_ERR, 3);
	KUNIT_EXPECT_EQ(test, m.class, PRINTK_MSGID_HW_ERR);
	/* The tag in the second of two %s: the first is passed over. */
	msgid_get(&m, "%s%s", "{2}", FW_BUG);
	KUNIT_EXPECT_EQ(test, m.class, PRINTK_MSGID_FW_BUG);
	msgid_get(&plain, "%s%s", "x", "y");
	KUNIT_EXPECT_EQ(test, m.id, plain.id);
}

/*
 * dev_printk()'s format, with a tag in the device name and in its own text,
 * around a caller's format: only the caller's format and its %s count.
 */
static void msgid_class_vaf_body(struct kunit *test, struct va_format *vaf)
{
	const enum printk_msgid_class *want = test->priv;
	struct printk_msgid m;

	msgid_get(&m, "%s %s: %pV", "ahci", FW_INFO, vaf);
	KUNIT_EXPECT_EQ(test, m.class, *want);
	KUNIT_EXPECT_PTR_EQ(test, m.fmt, vaf->fmt);
	msgid_get(&m, "%s " FW_WARN "%s: %pV", "ahci", FW_INFO, vaf);
	KUNIT_EXPECT_EQ(test, m.class, *want);
	KUNIT_EXPECT_PTR_EQ(test, m.fmt, vaf->fmt);
	KUNIT_EXPECT_EQ(test, m.id, printk_msgid_hash(vaf->fmt));
}

/* Twice: the second time the formats are known (cached on 64-bit). */
static void msgid_class_vaf_test(struct kunit *test)
{
	static const enum printk_msgid_class hw = PRINTK_MSGID_HW_ERR;
	static const enum printk_msgid_class none = PRINTK_MSGID_NONE;
	int i;

	for (i = 0; i < 2; i++) {
		test->priv = (void *)&hw;
		msgid_with_vaf(test, HW_ERR "disk %s failed", msgid_class_vaf_body, "sda");
		msgid_with_vaf(test, "%s: disk", msgid_class_vaf_body, HW_ERR);
		test->priv = (void *)&none;
		msgid_with_vaf(test, "%s: disk", msgid_class_vaf_body, "sda");
	}
	test->priv = NULL;
}

/*
 * The same formats, again and again with other arguments: once a format is
 * known (64-bit kernels cache its identifier), the arguments must still
 * decide the class.
 */
static void msgid_replay_test(struct kunit *test)
{
	static const char *const tags[] = { "x", FW_BUG, "x", HW_ERR, NULL, "[y]" };
	enum printk_msgid_class want[ARRAY_SIZE(tags)] = {
		PRINTK_MSGID_NONE, PRINTK_MSGID_FW_BUG, PRINTK_MSGID_NONE,
		PRINTK_MSGID_HW_ERR, PRINTK_MSGID_NONE, PRINTK_MSGID_NONE,
	};
	struct printk_msgid m;
	size_t i, t;

	/* Twice through: .rodata strings are looked at once, then known. */
	for (i = 0; i < 2 * ARRAY_SIZE(tags); i++) {
		t = i % ARRAY_SIZE(tags);
		/* Every argument type before the %s. */
		msgid_get(&m, "%c %hhd %ld %lld %zu %td %p %*d %s tail",
			  'c', 1, 2L, 0x0000000500000007LL, (size_t)3, (ptrdiff_t)4,
			  test, 5, 6, tags[t]);
		KUNIT_EXPECT_EQ_MSG(test, m.class, want[t], "typed, call %zu", i);
		KUNIT_EXPECT_EQ_MSG(test, m.id,
				    msgid_vector_id("%c %hhd %ld %lld %zu %td %p %*d %s tail"),
				    "typed, call %zu", i);

		/* A tag in the format's text comes first, wherever it is. */
		msgid_get(&m, "%s " FW_WARN "x", tags[t]);
		KUNIT_EXPECT_EQ_MSG(test, m.class, PRINTK_MSGID_FW_WARN,
				    "tag after %%s, call %zu", i);

		/* A tag in the text before the %s: the argument is not looked at. */
		msgid_get(&m, DEPRECATED "%s", tags[t]);
		KUNIT_EXPECT_EQ_MSG(test, m.class, PRINTK_MSGID_DEPRECATED,
				    "tag before %%s, call %zu", i);

		/* As much of the string as vsnprintf() prints. */
		msgid_get(&m, "%.20s|%.*s", tags[t], 3, tags[t]);
		KUNIT_EXPECT_EQ_MSG(test, m.class, want[t], "precision, call %zu", i);

		/* Every %s is looked at, the first tag counts. */
		msgid_get(&m, "%s%s", tags[t], DEPRECATED);
		KUNIT_EXPECT_EQ_MSG(test, m.class, want[t] ?: PRINTK_MSGID_DEPRECATED,
				    "first of two, call %zu", i);
	}

	/* Precisions: the tag must be printed whole (-1 is 0 to vsnprintf()). */
	msgid_get(&m, "%.*s|", -1, HW_ERR);
	KUNIT_EXPECT_EQ(test, m.class, PRINTK_MSGID_NONE);
	msgid_get(&m, "%.*s|", 18, HW_ERR);
	KUNIT_EXPECT_EQ(test, m.class, PRINTK_MSGID_HW_ERR);
	msgid_get(&m, "%.*s|", 17, HW_ERR);
	KUNIT_EXPECT_EQ(test, m.class, PRINTK_MSGID_NONE);
	msgid_get(&m, "%.0s|%s", HW_ERR, FW_BUG);
	KUNIT_EXPECT_EQ(test, m.class, PRINTK_MSGID_FW_BUG);
}

static char msgid_writable_fmt[24];

/*
 * A format in .rodata (of vmlinux, or of this module when it is one) is
 * hashed once, then answered by the cache; a format elsewhere is hashed
 * on every call. Interrupts are off so that no other printk() on this CPU
 * counts in between.
 */
static void msgid_cache_test(struct kunit *test)
{
	static const char *const fmt = "msgid kunit cache %d";
	char buf[32];
	unsigned long h[5];
	struct printk_msgid m1, m2;
	unsigned long flags;

	if (!IS_ENABLED(CONFIG_64BIT))
		kunit_skip(test, "32-bit kernels have no identifier cache");
#ifndef MODULES_VADDR
	if (!IS_BUILTIN(CONFIG_PRINTK_MSGID_KUNIT_TEST))
		kunit_skip(test, "no module area: a module's formats are not cached");
#endif

	strscpy(buf, fmt, sizeof(buf));
	strscpy(msgid_writable_fmt, fmt, sizeof(msgid_writable_fmt));
	local_irq_save(flags);
	h[0] = printk_msgid_hashed_here();
	msgid_get(&m1, fmt, 1);
	h[1] = printk_msgid_hashed_here();
	msgid_get(&m2, fmt, 2);
	h[2] = printk_msgid_hashed_here();
	msgid_get(&m2, buf, 3);
	msgid_get(&m2, buf, 4);
	h[3] = printk_msgid_hashed_here();
	msgid_get(&m2, msgid_writable_fmt, 5);
	msgid_get(&m2, msgid_writable_fmt, 6);
	h[4] = printk_msgid_hashed_here();
	local_irq_restore(flags);

	KUNIT_EXPECT_EQ_MSG(test, h[1] - h[0], 1, "first call: hashed");
	KUNIT_EXPECT_EQ_MSG(test, h[2] - h[1], 0, "second call: from the cache");
	KUNIT_EXPECT_EQ_MSG(test, h[3] - h[2], 2, "a format on the stack: hashed every time");
	KUNIT_EXPECT_EQ_MSG(test, h[4] - h[3], 2, "a format in writable data: hashed every time");
	KUNIT_EXPECT_EQ(test, m1.id, printk_msgid_hash(fmt));
	KUNIT_EXPECT_EQ(test, m2.id, m1.id);

	/* When a module goes, the formats of modules are hashed again. */
	local_irq_save(flags);
	h[0] = printk_msgid_hashed_here();
	printk_msgid_drop_modules();
	msgid_get(&m2, fmt, 7);
	h[1] = printk_msgid_hashed_here();
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ_MSG(test, h[1] - h[0], !IS_BUILTIN(CONFIG_PRINTK_MSGID_KUNIT_TEST),
			    "after a module went");
	KUNIT_EXPECT_EQ(test, m2.id, m1.id);
}

/* Records: printed through printk, read back with the kmsg_dump iterator. */
#define MSGID_LINE_MAX	2048

struct msgid_record {
	char line[MSGID_LINE_MAX];
	const char *text;
	size_t len;
};

/* The newest record that contains @marker, without the time prefix. */
static bool msgid_find(struct msgid_record *r, const char *marker)
{
	struct kmsg_dump_iter iter;
	char *line = kmalloc(MSGID_LINE_MAX, GFP_KERNEL);
	bool found = false;
	size_t len;

	if (!line)
		return false;
	kmsg_dump_rewind(&iter);
	while (kmsg_dump_get_line(&iter, false, line, MSGID_LINE_MAX - 1, &len)) {
		line[len] = '\0';
		if (!strstr(line, marker))
			continue;
		strscpy(r->line, line, sizeof(r->line));
		found = true;
	}
	kfree(line);
	if (!found)
		return false;

	r->text = r->line;
	if (r->line[0] == '[') {
		const char *end = strstr(r->line, "] ");

		if (end)
			r->text = end + 2;
	}
	r->len = strcspn(r->text, "\n");
	return true;
}

/* Whether @r starts with the prefix of the identifier of the vector @fmt. */
static bool msgid_prefixed(const struct msgid_record *r, const char *fmt)
{
	char prefix[PRINTK_MSGID_PREFIX_LEN + 1];

	snprintf(prefix, sizeof(prefix), "(%08x): ", msgid_vector_id(fmt));
	return r->len >= PRINTK_MSGID_PREFIX_LEN &&
	       !memcmp(r->text, prefix, PRINTK_MSGID_PREFIX_LEN);
}

struct msgid_suite {
	bool was_on;
	struct msgid_record rec;
	char marker[48];
};

static int msgid_record_init(struct kunit *test)
{
	struct msgid_suite *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->was_on = static_key_enabled(&printk_msgid_key);
	static_branch_enable(&printk_msgid_key);
	test->priv = s;
	return 0;
}

static void msgid_record_exit(struct kunit *test)
{
	struct msgid_suite *s = test->priv;

	if (!s->was_on)
		static_branch_disable(&printk_msgid_key);
}

static u32 msgid_marker(struct msgid_suite *s, const char *what)
{
	u32 n = get_random_u32();

	snprintf(s->marker, sizeof(s->marker), "%s %u", what, n);
	return n;
}

static void msgid_record_cont_test(struct kunit *test)
{
	struct msgid_suite *s = test->priv;
	u32 n;
	int i;

	/* Twice: the second record's format is known to the cache. */
	for (i = 0; i < 2; i++) {
		n = msgid_marker(s, "msgid kunit cont");
		pr_info("msgid kunit cont %u", n);
		pr_cont(" tail\n");
		KUNIT_ASSERT_TRUE(test, msgid_find(&s->rec, s->marker));
		KUNIT_EXPECT_TRUE_MSG(test, msgid_prefixed(&s->rec, "\0016msgid kunit cont %u"),
				      "%s", s->rec.text);
		/* One prefix, at the start: the fragment is appended without one. */
		KUNIT_EXPECT_EQ(test, s->rec.len,
				PRINTK_MSGID_PREFIX_LEN + strlen(s->marker) + strlen(" tail"));
	}

	/* A fragment with no open record to go to opens one: identified. */
	n = msgid_marker(s, "msgid kunit orphan");
	pr_cont("msgid kunit orphan %u\n", n);
	KUNIT_ASSERT_TRUE(test, msgid_find(&s->rec, s->marker));
	KUNIT_EXPECT_TRUE_MSG(test, msgid_prefixed(&s->rec, "\001cmsgid kunit orphan %u\n"),
			      "%s", s->rec.text);
}

static void msgid_record_deferred_test(struct kunit *test)
{
	struct msgid_suite *s = test->priv;
	u32 n __maybe_unused = msgid_marker(s, "msgid kunit deferred");

	if (!IS_BUILTIN(CONFIG_PRINTK_MSGID_KUNIT_TEST))
		kunit_skip(test, "printk_deferred() is not exported to modules");
#if IS_BUILTIN(CONFIG_PRINTK_MSGID_KUNIT_TEST)
	printk_deferred("msgid kunit deferred %u\n", n);
#endif
	KUNIT_ASSERT_TRUE(test, msgid_find(&s->rec, s->marker));
	KUNIT_EXPECT_TRUE_MSG(test, msgid_prefixed(&s->rec, "msgid kunit deferred %u\n"),
			      "%s", s->rec.text);
}

static void msgid_record_long_test(struct kunit *test)
{
	struct msgid_suite *s = test->priv;
	char *filler = kunit_kzalloc(test, 1500, GFP_KERNEL);
	u32 n = msgid_marker(s, "msgid kunit long");

	KUNIT_ASSERT_NOT_NULL(test, filler);
	memset(filler, 'x', 1499);
	pr_info("msgid kunit long %u %s\n", n, filler);
	/* Truncation cut the newline: the record is open until the next one. */
	pr_info("msgid kunit long done\n");
	KUNIT_ASSERT_TRUE(test, msgid_find(&s->rec, s->marker));
	KUNIT_EXPECT_TRUE(test, msgid_prefixed(&s->rec, "\0016msgid kunit long %u %s\n"));
	/* Truncated to the record limit, prefix included, as before. */
	KUNIT_EXPECT_LE(test, s->rec.len, 1024);
	KUNIT_EXPECT_GT(test, s->rec.len, 1000);
	KUNIT_EXPECT_EQ(test, s->rec.text[s->rec.len - 1], 'x');
}

static struct kunit_case msgid_rule_cases[] = {
	KUNIT_CASE(msgid_canonical_test),
	KUNIT_CASE(msgid_crc_test),
	KUNIT_CASE(msgid_walk_test),
	KUNIT_CASE(msgid_class_test),
	KUNIT_CASE(msgid_class_vaf_test),
	KUNIT_CASE(msgid_replay_test),
	KUNIT_CASE(msgid_cache_test),
	{}
};

static struct kunit_suite msgid_rule_suite = {
	.name = "printk_msgid",
	.test_cases = msgid_rule_cases,
};

static struct kunit_case msgid_record_cases[] = {
	KUNIT_CASE(msgid_record_cont_test),
	KUNIT_CASE(msgid_record_deferred_test),
	KUNIT_CASE(msgid_record_long_test),
	{}
};

static struct kunit_suite msgid_record_suite = {
	.name = "printk_msgid_record",
	.init = msgid_record_init,
	.exit = msgid_record_exit,
	.test_cases = msgid_record_cases,
};

kunit_test_suites(&msgid_rule_suite, &msgid_record_suite);

MODULE_DESCRIPTION("KUnit tests for printk message identifiers");
MODULE_LICENSE("GPL");
