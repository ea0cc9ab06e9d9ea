// SPDX-License-Identifier: GPL-2.0
/*
 * The cases of kernel/printk/msgid_kunit.c that the series does not send:
 * an out-of-tree KUnit module of the harness. make check-debug builds it
 * against the test kernel and loads it after the kselftest
 * (harness/selftest-hw.sh, harness/selftest-hw-run.sh); its suites'
 * results are checked with those of the suites built in.
 *
 *  - printk_msgid_ext: more CRC vectors and canonical forms; a %pV after
 *    every conversion, qualifier, flag, width and precision (the series
 *    keeps one per kind of argument vsnprintf() consumes) and in more
 *    wrapper formats; the identifier with another level and other
 *    arguments; the class of a record after many arguments, in the 4th or
 *    5th of five %s and below dev_printk() with a plain device name;
 *    precisions at the edges; the prefix printk_msgid_render() writes;
 *  - printk_msgid_record_ext: records printed with pr_info(), with the
 *    switch off and with dev_info() on a KUnit device, read back with the
 *    kmsg_dump iterator (the kselftest checks the same paths through a
 *    module on a booted kernel).
 *
 * The expected identifiers (MSGID_VECTOR()) are zlib.crc32() of the
 * canonical format; make vectors recomputes them (harness/check-vectors.py).
 * Its formats are a module's: cached from its .rodata, as vmlinux's are.
 */

#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/inet.h>
#include <linux/kmsg_dump.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/printk.h>
#include <linux/printk_msgid.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

#define MSGID_VECTOR(fmt, id) { fmt, id }

static const struct {
	const char *fmt;
	u32 id;
} msgid_vectors[] = {
	MSGID_VECTOR("inner %d", 0x49749e07),
	MSGID_VECTOR("\0016Hello %s\n", 0x1fd761ca),
	MSGID_VECTOR("%s: disk", 0x4024703c),
	MSGID_VECTOR("a", 0xe8b7be43),
	MSGID_VECTOR("%pV", 0x6cf0d02e),
	MSGID_VECTOR("w%d: %pV", 0x15451ab2),
	MSGID_VECTOR("leaf %s %d", 0x27e408ef),
	MSGID_VECTOR("abc %", 0x674e13f4),
	MSGID_VECTOR("x %y %pV", 0x450adce9),
	MSGID_VECTOR("\0016msgid kunit: %u\n", 0x3b276aba),
	MSGID_VECTOR("msgid kunit dev %u\n", 0xe060fb40),
};

static u32 msgid_vector_id(const char *fmt)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msgid_vectors); i++)
		if (!strcmp(msgid_vectors[i].fmt, fmt))
			return msgid_vectors[i].id;
	return 0;
}

static void msgid_crc_ext_test(struct kunit *test)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msgid_vectors); i++)
		KUNIT_EXPECT_EQ_MSG(test, printk_msgid_hash(msgid_vectors[i].fmt),
				    msgid_vectors[i].id, "vector %zu", i);
}

/* Canonical forms of other levels. */
static void msgid_canonical_ext_test(struct kunit *test)
{
	size_t len;

	KUNIT_EXPECT_STREQ(test, printk_msgid_canonical(KERN_EMERG "hello", &len), "hello");
	KUNIT_EXPECT_EQ(test, len, (size_t)5);
	KUNIT_EXPECT_STREQ(test, printk_msgid_canonical(KERN_DEBUG "hello", &len), "hello");
	KUNIT_EXPECT_EQ(test, len, (size_t)5);
}

static __printf(2, 3) void msgid_get(struct printk_msgid *m, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	printk_msgid_get(m, fmt, args);
	va_end(args);
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

#define CHECK_WALK(conv, ...) \
	msgid_check_outer(test, "a " conv " b %pV", __VA_ARGS__)

static void msgid_walk_body(struct kunit *test, struct va_format *vaf)
{
	static const u8 bytes[4] = { 1, 2, 3, 4 };
	__be32 addr = htonl(0x7f000001);

	CHECK_WALK("%i", 3, vaf);
	CHECK_WALK("%u", 3u, vaf);
	CHECK_WALK("%x", 3u, vaf);
	CHECK_WALK("%X", 3u, vaf);
	CHECK_WALK("%o", 3u, vaf);
	CHECK_WALK("%pI4", &addr, vaf);
	CHECK_WALK("%pS", (void *)8, vaf);
	CHECK_WALK("%*ph", 4, bytes, vaf);
	CHECK_WALK("%llx", 0x0000000500000007ULL, vaf);
	CHECK_WALK("%llu", 0x0000000500000007ULL, vaf);
	CHECK_WALK("%#018llx", 0x0000000500000007ULL, vaf);
	CHECK_WALK("%hhx", (unsigned char)3, vaf);
	CHECK_WALK("%hu", (unsigned short)3, vaf);
	CHECK_WALK("%lu", 3UL, vaf);
	CHECK_WALK("%lx", 3UL, vaf);
	CHECK_WALK("%zd", (ssize_t)-3, vaf);
	CHECK_WALK("%zx", (size_t)3, vaf);
	CHECK_WALK("%-*d", 4, 3, vaf);
	CHECK_WALK("%*.*s", 5, 2, "str", vaf);
	CHECK_WALK("%-8.3d", 3, vaf);
	CHECK_WALK("%+d", 3, vaf);
	CHECK_WALK("% d", 3, vaf);
	CHECK_WALK("%05d", 3, vaf);
	CHECK_WALK("%5s", "s", vaf);
	CHECK_WALK("%.3s", "str", vaf);
	CHECK_WALK("%s", "str", vaf);
	/* netdev_printk()'s other formats, and a level before a wrapper's %s. */
	msgid_check_outer(test, "%s%s%s: %pV", "", "eth0", "", vaf);
	msgid_check_outer(test, "%s(NULL net_device): %pV", "", vaf);
	msgid_check_outer(test, KERN_ERR "%s: %pV", "ata1", vaf);
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

static void msgid_walk_ext_test(struct kunit *test)
{
	msgid_with_vaf(test, msgid_inner, msgid_walk_body, 7);
}

/* The identifier does not depend on the level, the newline or the arguments. */
static void msgid_level_ext_test(struct kunit *test)
{
	struct printk_msgid a, b;

	msgid_get(&a, KERN_INFO "Hello %s\n", "world");
	msgid_get(&b, KERN_ERR "Hello %s", "kernel");
	KUNIT_EXPECT_EQ(test, a.id, b.id);
	KUNIT_EXPECT_EQ(test, a.id, msgid_vector_id("\0016Hello %s\n"));
}

/* The class: the first tag of the text the format's %s printed. */
static void msgid_class_ext_test(struct kunit *test)
{
	static const char *const tags[] = { "x", FW_BUG, "x", HW_ERR, NULL, "[y]" };
	static const enum printk_msgid_class want[ARRAY_SIZE(tags)] = {
		PRINTK_MSGID_NONE, PRINTK_MSGID_FW_BUG, PRINTK_MSGID_NONE,
		PRINTK_MSGID_HW_ERR, PRINTK_MSGID_NONE, PRINTK_MSGID_NONE,
	};
	struct printk_msgid m;
	size_t i, t;

	for (i = 0; i < 2 * ARRAY_SIZE(tags); i++) {
		t = i % ARRAY_SIZE(tags);
		msgid_get(&m, "%d %d %d %d %d %d %d %d %d %d %d %s",
			  1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, tags[t]);
		KUNIT_EXPECT_EQ_MSG(test, m.class, want[t], "11 ints, call %zu", i);
		msgid_get(&m, "%s%s%s%s%s", "a", "b", "c", tags[t], "e");
		KUNIT_EXPECT_EQ_MSG(test, m.class, want[t], "4th %%s, call %zu", i);
		msgid_get(&m, "%s%s%s%s%s", "a", "b", "c", "d", tags[t]);
		KUNIT_EXPECT_EQ_MSG(test, m.class, want[t], "5th %%s, call %zu", i);
	}
}

/*
 * dev_printk()'s format around a caller's "%s: disk": the caller's %s may
 * hold the tag; dev_printk()'s own %s (a device name, with a tag or not)
 * and a wrapper's own text are not looked at.
 */
static void msgid_vaf_body(struct kunit *test, struct va_format *vaf)
{
	const enum printk_msgid_class *want = test->priv;
	const char *name = want[0] ? FW_INFO : "0000:00:1f.2";
	struct printk_msgid m;

	msgid_get(&m, "%s %s: %pV", "ahci", name, vaf);
	KUNIT_EXPECT_EQ(test, m.class, want[1]);
	KUNIT_EXPECT_PTR_EQ(test, m.fmt, vaf->fmt);
	KUNIT_EXPECT_EQ(test, m.id, msgid_vector_id("%s: disk"));

	msgid_get(&m, "%s " FW_WARN "%s: %pV", "ahci", name, vaf);
	KUNIT_EXPECT_EQ(test, m.class, want[1]);
	KUNIT_EXPECT_PTR_EQ(test, m.fmt, vaf->fmt);
	KUNIT_EXPECT_EQ(test, m.id, msgid_vector_id("%s: disk"));
}

static void msgid_vaf_ext_test(struct kunit *test)
{
	static const enum printk_msgid_class vaf_cases[][2] = {
		{ PRINTK_MSGID_NONE, PRINTK_MSGID_NONE },
		{ PRINTK_MSGID_NONE, PRINTK_MSGID_HW_ERR },
		{ PRINTK_MSGID_FW_INFO, PRINTK_MSGID_HW_ERR },
		{ PRINTK_MSGID_FW_INFO, PRINTK_MSGID_NONE },
		{ PRINTK_MSGID_NONE, PRINTK_MSGID_NONE },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vaf_cases); i++) {
		test->priv = (void *)vaf_cases[i];
		msgid_with_vaf(test, "%s: disk", msgid_vaf_body,
			       vaf_cases[i][1] ? HW_ERR : "sda");
	}
	test->priv = NULL;
}

/* The class is the first tag vsnprintf() prints of the format's %s. */
static __printf(2, 3)
void msgid_class_as_printed(struct kunit *test, const char *fmt, ...)
{
	enum printk_msgid_class want = PRINTK_MSGID_NONE;
	struct printk_msgid m;
	char out[128];
	va_list args;

	va_start(args, fmt);
	vsnprintf(out, sizeof(out), fmt, args);
	va_end(args);
	if (strstr(out, HW_ERR))
		want = PRINTK_MSGID_HW_ERR;

	va_start(args, fmt);
	printk_msgid_get(&m, fmt, args);
	va_end(args);
	KUNIT_EXPECT_EQ_MSG(test, m.class, want, "\"%s\" printed \"%s\"", fmt, out);
}

/*
 * Precisions at the edges: a digit precision above 32767 is clamped, with
 * a warning, on 7.3 (6.12 kept it in 16 bits and printed nothing). The
 * warning is expected and kept off the log, where the splat check would
 * see it. (It is a WARN_ONCE(): the count is not checked.)
 */
static void msgid_precision_ext_test(struct kunit *test)
{
	msgid_class_as_printed(test, "%.*s|", 1, HW_ERR);
	msgid_class_as_printed(test, "%.32767s|", HW_ERR);
	kunit_warning_suppress(test)
		msgid_class_as_printed(test, "%.40000s|", HW_ERR);
}

/* The prefix as printk_msgid_render() writes it (the in-tree suite checks it in records). */
static void msgid_render_test(struct kunit *test)
{
	static const struct {
		u32 id;
		const char *text;
	} cases[] = {
		{ 0, "(00000000): " },
		{ 0xdeadbeef, "(deadbeef): " },
		{ 0x0a0b0c0d, "(0a0b0c0d): " },
		{ 0xffffffff, "(ffffffff): " },
	};
	char buf[PRINTK_MSGID_PREFIX_LEN + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(buf, 'X', sizeof(buf));
		KUNIT_EXPECT_PTR_EQ(test, printk_msgid_render(buf, cases[i].id),
				    buf + PRINTK_MSGID_PREFIX_LEN);
		KUNIT_EXPECT_MEMEQ(test, buf, cases[i].text, PRINTK_MSGID_PREFIX_LEN);
		KUNIT_EXPECT_EQ(test, buf[PRINTK_MSGID_PREFIX_LEN], 'X');
	}
}

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

/* The identifier of a record's prefix, or -1 when it has none. */
static s64 msgid_of(const struct msgid_record *r)
{
	char hex[9];
	u32 id;

	if (r->len < PRINTK_MSGID_PREFIX_LEN || r->text[0] != '(' ||
	    memcmp(r->text + 9, "): ", 3))
		return -1;
	memcpy(hex, r->text + 1, 8);
	hex[8] = '\0';
	if (kstrtou32(hex, 16, &id))
		return -1;
	return id;
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

static void msgid_record_plain_test(struct kunit *test)
{
	struct msgid_suite *s = test->priv;
	u32 n = msgid_marker(s, "msgid kunit:");

	pr_info("msgid kunit: %u\n", n);
	KUNIT_ASSERT_TRUE(test, msgid_find(&s->rec, s->marker));
	KUNIT_EXPECT_EQ(test, msgid_of(&s->rec), msgid_vector_id("\0016msgid kunit: %u\n"));
	KUNIT_EXPECT_EQ(test, s->rec.len, PRINTK_MSGID_PREFIX_LEN + strlen(s->marker));
	KUNIT_EXPECT_MEMEQ(test, s->rec.text + PRINTK_MSGID_PREFIX_LEN, s->marker,
			   strlen(s->marker));
}

static void msgid_record_off_test(struct kunit *test)
{
	struct msgid_suite *s = test->priv;
	u32 n = msgid_marker(s, "msgid kunit:");

	static_branch_disable(&printk_msgid_key);
	pr_info("msgid kunit: %u\n", n);
	static_branch_enable(&printk_msgid_key);
	KUNIT_ASSERT_TRUE(test, msgid_find(&s->rec, s->marker));
	KUNIT_EXPECT_EQ(test, msgid_of(&s->rec), -1);
	KUNIT_EXPECT_EQ(test, s->rec.len, strlen(s->marker));
}

static void msgid_record_dev_test(struct kunit *test)
{
	struct msgid_suite *s = test->priv;
	struct device *dev = kunit_device_register(test, "msgid-kunit-dev");
	u32 n = msgid_marker(s, "msgid kunit dev");

	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(dev));
	dev_info(dev, "msgid kunit dev %u\n", n);
	KUNIT_ASSERT_TRUE(test, msgid_find(&s->rec, s->marker));
	KUNIT_EXPECT_EQ(test, msgid_of(&s->rec), msgid_vector_id("msgid kunit dev %u\n"));
	KUNIT_EXPECT_NOT_NULL(test, strnstr(s->rec.text, "msgid-kunit-dev: ", s->rec.len));
}

/* Nest @levels wrappers "w%d: %pV" around @fmt, then identify the call. */
static __printf(3, 4) void msgid_chain(struct printk_msgid *m, int levels, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	if (levels == 0) {
		printk_msgid_get(m, fmt, args);
	} else {
		struct va_format vaf = { .fmt = fmt, .va = &args };

		msgid_chain(m, levels - 1, "w%d: %pV", levels, &vaf);
	}
	va_end(args);
}

/* As deep as vsnprintf() goes: it has no limit, nor has the trace. */
static void msgid_depth_test(struct kunit *test)
{
	static const char *const leaf = "leaf %s %d";
	struct printk_msgid m;
	int levels;

	for (levels = 0; levels <= 12; levels++) {
		msgid_chain(&m, levels, leaf, "x", 1);
		KUNIT_EXPECT_PTR_EQ_MSG(test, m.fmt, leaf, "%d levels", levels);
		KUNIT_EXPECT_EQ_MSG(test, m.id, msgid_vector_id(leaf), "%d levels", levels);
	}
}

/*
 * A %pV that vsnprintf() prints as "(null)" or "(efault)" leaves the
 * current format as the caller's. (A va_format with a NULL fmt, or one
 * that refers to itself, crashes vsnprintf() itself.)
 */
static void msgid_bad_vaf_test(struct kunit *test)
{
	static const char *const outer = "%s: %pV";
	struct printk_msgid m;

	msgid_get(&m, outer, "x", NULL);
	KUNIT_EXPECT_PTR_EQ(test, m.fmt, outer);
	msgid_get(&m, outer, "x", ERR_PTR(-EINVAL));
	KUNIT_EXPECT_PTR_EQ(test, m.fmt, outer);
	msgid_get(&m, outer, "x", (void *)16);
	KUNIT_EXPECT_PTR_EQ(test, m.fmt, outer);
	KUNIT_EXPECT_EQ(test, m.id, printk_msgid_hash(outer));

	/*
	 * The %s before such a %pV are the wrapper's (a device name), not
	 * message text: a tag in one does not classify the record. Without
	 * a %pV, the same argument is the message's own.
	 */
	msgid_get(&m, outer, HW_ERR "in a device name", NULL);
	KUNIT_EXPECT_PTR_EQ(test, m.fmt, outer);
	KUNIT_EXPECT_EQ(test, m.class, PRINTK_MSGID_NONE);
	msgid_get(&m, "%s: %d", HW_ERR "in the message", 1);
	KUNIT_EXPECT_EQ(test, m.class, PRINTK_MSGID_HW_ERR);
}

/* Where vsnprintf() stops formatting, the trace stops too. */
static void msgid_malformed_body(struct kunit *test, struct va_format *vaf)
{
	static const char *const stops[] = {
		"x %y %pV", "x %n %pV", "x %q %pV", "x %ll %pV", "x %5", "x %.", "x %l",
		"%", "abc %",
	};
	struct printk_msgid m;
	size_t i;

	/*
	 * vsnprintf() warns once per boot about an unknown conversion: the
	 * warning is expected, and kept off the log, where a built-in run of
	 * the suite would show it as a splat.
	 */
	kunit_warning_suppress(test) {
		for (i = 0; i < ARRAY_SIZE(stops); i++) {
			msgid_get(&m, stops[i], vaf);
			KUNIT_EXPECT_PTR_EQ_MSG(test, m.fmt, stops[i], "format %s", stops[i]);
			KUNIT_EXPECT_EQ_MSG(test, m.id, printk_msgid_hash(stops[i]),
					    "format %s", stops[i]);
		}
	}
}

static void msgid_malformed_test(struct kunit *test)
{
	msgid_with_vaf(test, msgid_inner, msgid_malformed_body, 7);
}

/*
 * A tag at every offset of the text a "%s" printed that the search's
 * steps (two words, then one) can meet it at: followed by more text, at
 * the very end (the shortest tag, and one character short of it), after a
 * '[' that starts no tag; and the same text without its '['.
 */
static void msgid_tag_offsets_ext_test(struct kunit *test)
{
	struct printk_msgid m;
	char text[64];
	int i;

	for (i = 0; i <= 40; i++) {
		memset(text, 'x', i);
		strscpy(text + i, HW_ERR "disk", sizeof(text) - i);
		msgid_get(&m, "%s", text);
		KUNIT_EXPECT_EQ_MSG(test, m.class, PRINTK_MSGID_HW_ERR, "tag at %d", i);
		text[i] = '{';
		msgid_get(&m, "%s", text);
		KUNIT_EXPECT_EQ_MSG(test, m.class, PRINTK_MSGID_NONE, "no '[', %d", i);

		strscpy(text + i, DEPRECATED, sizeof(text) - i);
		msgid_get(&m, "%s", text);
		KUNIT_EXPECT_EQ_MSG(test, m.class, PRINTK_MSGID_DEPRECATED, "tag ends text, %d", i);
		msgid_get(&m, "%.*s", i + (int)strlen(DEPRECATED) - 1, text);
		KUNIT_EXPECT_EQ_MSG(test, m.class, PRINTK_MSGID_NONE, "cut tag, %d", i);

		text[0] = '[';
		strscpy(text + i + 1, FW_BUG, sizeof(text) - i - 1);
		msgid_get(&m, "%s", text);
		KUNIT_EXPECT_EQ_MSG(test, m.class, PRINTK_MSGID_FW_BUG, "after '[', %d", i);
	}
}

static struct kunit_case msgid_ext_cases[] = {
	KUNIT_CASE(msgid_crc_ext_test),
	KUNIT_CASE(msgid_canonical_ext_test),
	KUNIT_CASE(msgid_walk_ext_test),
	KUNIT_CASE(msgid_level_ext_test),
	KUNIT_CASE(msgid_class_ext_test),
	KUNIT_CASE(msgid_vaf_ext_test),
	KUNIT_CASE(msgid_precision_ext_test),
	KUNIT_CASE(msgid_render_test),
	KUNIT_CASE(msgid_depth_test),
	KUNIT_CASE(msgid_bad_vaf_test),
	KUNIT_CASE(msgid_malformed_test),
	KUNIT_CASE(msgid_tag_offsets_ext_test),
	{}
};

static struct kunit_suite msgid_ext_suite = {
	.name = "printk_msgid_ext",
	.test_cases = msgid_ext_cases,
};

static struct kunit_case msgid_record_ext_cases[] = {
	KUNIT_CASE(msgid_record_plain_test),
	KUNIT_CASE(msgid_record_off_test),
	KUNIT_CASE(msgid_record_dev_test),
	{}
};

static struct kunit_suite msgid_record_ext_suite = {
	.name = "printk_msgid_record_ext",
	.init = msgid_record_init,
	.exit = msgid_record_exit,
	.test_cases = msgid_record_ext_cases,
};

kunit_test_suites(&msgid_ext_suite, &msgid_record_ext_suite);

MODULE_DESCRIPTION("The harness's extended KUnit cases of printk message identifiers");
MODULE_LICENSE("GPL");
