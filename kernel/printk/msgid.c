// SPDX-License-Identifier: GPL-2.0
/*
 * Stable identifiers for printk messages
 *
 * With CONFIG_PRINTK_MSGID=y and printk.msgid=1 every new kernel record
 * starts with "(%08x): ", the CRC-32 of the format string written at the
 * call site. Wrappers such as dev_printk() pass the caller's format on
 * through a %pV argument; it is followed, so that a driver's message gets
 * the identifier of its own format and not the one of "%s %s: %pV".
 *
 * The identifier depends only on the format, never on the arguments, the
 * log level or the load address, so it is the same on every machine that
 * runs the same source. Documentation/admin-guide/msgid.rst has the exact
 * rule and the tools that map an identifier back to its call site.
 */

#include <linux/crc32.h>
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/hash.h>
#include <linux/hex.h>
#include <linux/init.h>
#include <linux/kstrtox.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/printk_msgid.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <kunit/visibility.h>
#include <asm/sections.h>

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "printk."

DEFINE_STATIC_KEY_FALSE(printk_msgid_key);
EXPORT_SYMBOL_IF_KUNIT(printk_msgid_key);

/* The largest precision vsnprintf() honours. */
#define MSGID_PRECISION_MAX	32767

/* The longest tag, HW_ERR. */
#define MSGID_TAG_MAX		(sizeof(HW_ERR) - 1)

static const struct {
	const char *tag;
	unsigned int len;
	const char *name;
} msgid_classes[PRINTK_MSGID_NR_CLASSES] = {
	[PRINTK_MSGID_NONE]	  = { "", 0, "none" },
	[PRINTK_MSGID_HW_ERR]	  = { HW_ERR, sizeof(HW_ERR) - 1, "hardware" },
	[PRINTK_MSGID_FW_BUG]	  = { FW_BUG, sizeof(FW_BUG) - 1, "firmware-bug" },
	[PRINTK_MSGID_FW_WARN]	  = { FW_WARN, sizeof(FW_WARN) - 1, "firmware-warn" },
	[PRINTK_MSGID_FW_INFO]	  = { FW_INFO, sizeof(FW_INFO) - 1, "firmware-info" },
	[PRINTK_MSGID_DEPRECATED] = { DEPRECATED, sizeof(DEPRECATED) - 1, "deprecated" },
};

/* Which tag, if any, starts at @s ('['), with @len bytes readable. */
static enum printk_msgid_class msgid_tag_at(const char *s, size_t len)
{
	int c;

	for (c = PRINTK_MSGID_NONE + 1; c < PRINTK_MSGID_NR_CLASSES; c++) {
		if (len >= msgid_classes[c].len &&
		    !memcmp(s, msgid_classes[c].tag, msgid_classes[c].len))
			return c;
	}
	return PRINTK_MSGID_NONE;
}

/* The first tag in a %s argument, as much of it as vsnprintf() prints. */
static enum printk_msgid_class msgid_tag_in_arg(const char *s, int precision)
{
	const char *p, *end;

	/* vsnprintf() prints "(null)" or "(efault)" for these. */
	if ((unsigned long)s < PAGE_SIZE || IS_ERR(s))
		return PRINTK_MSGID_NONE;

	/* No precision: one pass over the string, no strlen() first. */
	if (precision < 0) {
		for (p = strchr(s, '['); p; p = strchr(p + 1, '[')) {
			enum printk_msgid_class c = msgid_tag_at(p, strnlen(p, MSGID_TAG_MAX));

			if (c)
				return c;
		}
		return PRINTK_MSGID_NONE;
	}

	end = s + strnlen(s, precision);
	for (p = memchr(s, '[', end - s); p; p = memchr(p + 1, '[', end - p - 1)) {
		enum printk_msgid_class c = msgid_tag_at(p, end - p);

		if (c)
			return c;
	}
	return PRINTK_MSGID_NONE;
}

/*
 * What a format takes from its arguments, one 3-bit code per argument, up
 * to its first %pV or its last %s that is scanned for a tag. The walk
 * records it; a later call of a cached format replays it instead of parsing
 * the format again (msgid_replay()).
 */
enum msgid_arg {
	MSGID_ARG_END,		/* no further argument matters */
	MSGID_ARG_INT,		/* int or shorter; a '*' width or precision */
	MSGID_ARG_LONG,
	MSGID_ARG_LLONG,
	MSGID_ARG_SIZE,
	MSGID_ARG_PTRDIFF,
	MSGID_ARG_PTR,		/* %p but %pV; a %s after a tag in the text */
	MSGID_ARG_STR,		/* a %s, without precision, scanned for a tag */
};

#define MSGID_ARG_BITS		3
#define MSGID_ARG_MASK		((1U << MSGID_ARG_BITS) - 1)
/* As many codes as fit in the 32 low bits of a plan cache entry. */
#define MSGID_PLAN_ARGS		10

/*
 * One format's walk: its arguments as codes, the first tag in its text,
 * whether it ends at a %pV, and whether a replay can stand for it.
 */
struct msgid_plan {
	u32 args;
	unsigned int nargs;
	unsigned int nused;
	enum printk_msgid_class lit;
	enum printk_msgid_class str;
	bool pv;
	bool scans;
	bool exact;
};

static void msgid_plan_add(struct msgid_plan *plan, enum msgid_arg arg)
{
	if (plan->nargs < MSGID_PLAN_ARGS)
		plan->args |= arg << (plan->nargs * MSGID_ARG_BITS);
	plan->nargs++;
}

/*
 * @plan ends at a %pV: its %s arguments were the wrapper's own, so forget
 * what they showed, and make the replay skip them.
 */
static void msgid_plan_wrapper(struct msgid_plan *plan)
{
	unsigned int i;

	for (i = 0; i < min(plan->nargs, MSGID_PLAN_ARGS); i++) {
		if (((plan->args >> (i * MSGID_ARG_BITS)) & MSGID_ARG_MASK) == MSGID_ARG_STR)
			plan->args ^= (MSGID_ARG_STR ^ MSGID_ARG_PTR) << (i * MSGID_ARG_BITS);
	}
	plan->str = PRINTK_MSGID_NONE;
	plan->scans = false;
	plan->exact = true;
	plan->nused = plan->nargs;
	plan->pv = true;
}

/* The identity of a format depends on nothing but the format. */
static bool msgid_plan_plain(const struct msgid_plan *plan)
{
	return !plan->pv && !plan->scans;
}

/*
 * Walk @fmt the way vsnprintf() does, consuming one argument of the right
 * type from @ap for each conversion, and note in @plan the first tag in the
 * literal text (lit) and the first one in a %s argument before it (str). A
 * %s is scanned only until the text itself has shown a tag, and, in a
 * format that passes on a %pV, not at all: there the %s arguments are the
 * wrapper's own (driver, device, interface names), not the message's.
 * @plan also records what was consumed, for msgid_replay().
 *
 * Return: the struct va_format of the first %pV, or NULL when the format
 * ends without one, or where vsnprintf() would stop formatting (%n, an
 * unknown conversion, a trailing '%').
 */
static const struct va_format *msgid_walk(const char *fmt, va_list *ap,
					  struct msgid_plan *plan)
{
	const char *p = fmt;

	*plan = (struct msgid_plan){ .exact = true };
	for (;;) {
		bool precision_arg = false;
		int precision = -1;
		const char *s;
		char qualifier;

		for (; *p != '%'; p++) {
			if (!*p)
				return NULL;
			if (*p == '[' && !plan->lit)
				plan->lit = msgid_tag_at(p, strnlen(p, MSGID_TAG_MAX));
		}
		p++;

		while (*p == '-' || *p == '+' || *p == ' ' || *p == '#' || *p == '0')
			p++;

		if (*p == '*') {
			(void)va_arg(*ap, int);
			msgid_plan_add(plan, MSGID_ARG_INT);
			p++;
		} else {
			while (isdigit(*p))
				p++;
		}

		if (*p == '.') {
			p++;
			if (*p == '*') {
				precision = va_arg(*ap, int);
				precision_arg = true;
				msgid_plan_add(plan, MSGID_ARG_INT);
				p++;
			} else if (isdigit(*p)) {
				precision = 0;
				for (; isdigit(*p); p++)
					precision = min(precision * 10 + (*p - '0'),
							MSGID_PRECISION_MAX);
			}
		}

		qualifier = 0;
		if (*p == 'h' || *p == 'l' || *p == 'L' || *p == 'z' || *p == 't') {
			qualifier = *p++;
			if (qualifier == 'l' && *p == 'l') {
				qualifier = 'L';
				p++;
			} else if (qualifier == 'h' && *p == 'h') {
				p++;
			}
		}

		switch (*p++) {
		case '%':
			break;
		case 'c':
			(void)va_arg(*ap, int);
			msgid_plan_add(plan, MSGID_ARG_INT);
			break;
		case 's':
			s = va_arg(*ap, const char *);
			if (plan->lit) {
				msgid_plan_add(plan, MSGID_ARG_PTR);
				break;
			}
			/* A replay scans whole strings: no precision. */
			if (precision >= 0 || precision_arg)
				plan->exact = false;
			msgid_plan_add(plan, MSGID_ARG_STR);
			plan->nused = plan->nargs;
			plan->scans = true;
			if (!plan->str)
				plan->str = msgid_tag_in_arg(s, precision);
			break;
		case 'p':
			s = va_arg(*ap, const void *);
			if (*p == 'V') {
				msgid_plan_wrapper(plan);
				return (const struct va_format *)s;
			}
			msgid_plan_add(plan, MSGID_ARG_PTR);
			while (isalnum(*p))
				p++;
			break;
		case 'd':
		case 'i':
		case 'o':
		case 'u':
		case 'x':
		case 'X':
			switch (qualifier) {
			case 'L':
				(void)va_arg(*ap, long long);
				msgid_plan_add(plan, MSGID_ARG_LLONG);
				break;
			case 'l':
				(void)va_arg(*ap, long);
				msgid_plan_add(plan, MSGID_ARG_LONG);
				break;
			case 'z':
				(void)va_arg(*ap, size_t);
				msgid_plan_add(plan, MSGID_ARG_SIZE);
				break;
			case 't':
				(void)va_arg(*ap, ptrdiff_t);
				msgid_plan_add(plan, MSGID_ARG_PTRDIFF);
				break;
			default:
				(void)va_arg(*ap, int);
				msgid_plan_add(plan, MSGID_ARG_INT);
				break;
			}
			break;
		default:
			return NULL;
		}
	}
}

/**
 * printk_msgid_canonical - the part of a format that is hashed
 * @fmt: a printk format
 * @len: set to the length of the canonical form
 *
 * Leading KERN_SOH level and flag pairs (KERN_ERR, KERN_CONT, ...) and one
 * trailing newline are not part of the identity of a message: changing
 * pr_info() into pr_warn() keeps the identifier.
 *
 * Return: the start of the canonical form within @fmt.
 */
const char *printk_msgid_canonical(const char *fmt, size_t *len)
{
	const char *next;
	size_t n;

	while ((next = printk_skip_level(fmt)) != fmt)
		fmt = next;

	n = strlen(fmt);
	if (n && fmt[n - 1] == '\n')
		n--;
	*len = n;
	return fmt;
}
EXPORT_SYMBOL_IF_KUNIT(printk_msgid_canonical);

/**
 * printk_msgid_hash - the identifier of a format
 * @fmt: the caller's format
 *
 * Return: the CRC-32 (as zlib's crc32()) of the canonical form of @fmt.
 */
u32 printk_msgid_hash(const char *fmt)
{
	size_t len;

	fmt = printk_msgid_canonical(fmt, &len);
	return ~crc32_le(~0, fmt, len);
}
EXPORT_SYMBOL_IF_KUNIT(printk_msgid_hash);

/* ---- Identifier cache (begin) ------------------------------------------
 *
 * Formats in the kernel's .rodata never change, so what is learnt about
 * them is kept in small direct-mapped tables, keyed by the offset in
 * .rodata. An entry is one 64-bit word, read and written whole with
 * READ_ONCE()/WRITE_ONCE(), so that a reader never sees a torn entry: no
 * lock, no allocation, safe in NMI. Each entry holds its own key, so an
 * entry is never taken for another format's, and racing writers only
 * overwrite each other with equally valid entries. Formats elsewhere
 * (modules, buffers) are never cached.
 *
 * A slot of msgid_cache holds, in its first word, what a format needs on
 * the next call: for a plain format (no %pV, no %s scanned for a tag: see
 * msgid_plan_plain()) its identifier, for the others the plan of their
 * walk, replayed instead of parsing the format again:
 *   bits  0..31  identifier (plain); else argument codes in bits 0..29
 *                (struct msgid_plan), the first in bits 0..2, and bit 30
 *                set when the last argument is the struct va_format of a %pV
 *   bits 32..34  first tag in the format's text
 *   bit  35      plain
 *   bits 36..63  offset of the format in .rodata, never 0
 *
 * and in its second word, in the same cache line, the identifier of a
 * format that is not plain, for the calls that end there (a caller's
 * format with %s arguments):
 *   bits  0..31  identifier
 *   bits 36..63  offset of the format in .rodata, never 0
 *
 * msgid_strs holds the tag of a %s argument that is a string in .rodata
 * (__func__, a driver's name):
 *   bits 32..34  first tag in the string
 *   bits 36..63  offset of the string in .rodata, never 0
 */
#define MSGID_CACHE_CLASS_SHIFT	32
#define MSGID_CACHE_PLAIN	BIT_ULL(35)
#define MSGID_CACHE_PV		BIT_ULL(30)
#define MSGID_CACHE_ARGS	GENMASK(29, 0)

/* The tag (bits 32..34) of an entry of any of the tables. */
static enum printk_msgid_class msgid_entry_class(u64 e)
{
	return (e >> MSGID_CACHE_CLASS_SHIFT) & 7;
}

#ifdef CONFIG_64BIT
#define MSGID_CACHE_BITS	9
#define MSGID_CACHE_OFF_SHIFT	36

static u64 msgid_cache[1 << MSGID_CACHE_BITS][2] __aligned(16);
static u64 msgid_strs[1 << MSGID_CACHE_BITS];

/*
 * The key of @fmt, or 0 when @fmt is not cached: outside .rodata, or in
 * its __ro_after_init part, which init code may still write.
 */
static u64 msgid_cache_key(const char *fmt)
{
	unsigned long off = (unsigned long)fmt - (unsigned long)__start_rodata;

	if (!is_kernel_rodata((unsigned long)fmt) || !off ||
	    off >= BIT_ULL(64 - MSGID_CACHE_OFF_SHIFT) ||
	    is_kernel_ro_after_init((unsigned long)fmt))
		return 0;
	return (u64)off << MSGID_CACHE_OFF_SHIFT;
}

static unsigned int msgid_cache_slot(u64 key)
{
	return hash_32(key >> MSGID_CACHE_OFF_SHIFT, MSGID_CACHE_BITS);
}

/* The entry of @key in @entry, or 0. */
static u64 msgid_entry_get(const u64 *entry, u64 key)
{
	u64 e;

	if (!key)
		return 0;
	e = READ_ONCE(*entry);
	return (e >> MSGID_CACHE_OFF_SHIFT) == (key >> MSGID_CACHE_OFF_SHIFT) ? e : 0;
}

static void msgid_entry_put(u64 *entry, u64 key, u64 val)
{
	if (key)
		WRITE_ONCE(*entry, key | val);
}

/* A plain format's identifier entry, or a plan entry, or 0. */
static u64 msgid_cache_get(u64 key)
{
	return msgid_entry_get(&msgid_cache[msgid_cache_slot(key)][0], key);
}

static void msgid_cache_put_plain(u64 key, u32 id, enum printk_msgid_class lit)
{
	BUILD_BUG_ON(PRINTK_MSGID_NR_CLASSES > 8);
	msgid_entry_put(&msgid_cache[msgid_cache_slot(key)][0], key,
			MSGID_CACHE_PLAIN | (u64)lit << MSGID_CACHE_CLASS_SHIFT | id);
}

static void msgid_plan_put(u64 key, const struct msgid_plan *plan)
{
	BUILD_BUG_ON(MSGID_PLAN_ARGS * MSGID_ARG_BITS > 30);
	/* Nothing to replay, or a replay would not do what the walk did. */
	if (msgid_plan_plain(plan) || !plan->exact || plan->nused > MSGID_PLAN_ARGS)
		return;
	msgid_entry_put(&msgid_cache[msgid_cache_slot(key)][0], key,
			(plan->pv ? MSGID_CACHE_PV : 0) |
			(u64)plan->lit << MSGID_CACHE_CLASS_SHIFT |
			(plan->args & (u32)(BIT_ULL(plan->nused * MSGID_ARG_BITS) - 1)));
}

/* The identifier entry of a format that is not plain, or 0. */
static u64 msgid_id_get(u64 key)
{
	return msgid_entry_get(&msgid_cache[msgid_cache_slot(key)][1], key);
}

static void msgid_id_put(u64 key, u32 id)
{
	msgid_entry_put(&msgid_cache[msgid_cache_slot(key)][1], key, id);
}

/* The first tag in %s argument @s; looked for once if @s is in .rodata. */
static enum printk_msgid_class msgid_str_class(const char *s)
{
	u64 key = msgid_cache_key(s);
	u64 *entry = &msgid_strs[msgid_cache_slot(key)];
	u64 e = msgid_entry_get(entry, key);
	enum printk_msgid_class c;

	if (e)
		return msgid_entry_class(e);
	c = msgid_tag_in_arg(s, -1);
	msgid_entry_put(entry, key, (u64)c << MSGID_CACHE_CLASS_SHIFT);
	return c;
}
#else
static inline u64 msgid_cache_key(const char *fmt) { return 0; }
static inline u64 msgid_cache_get(u64 key) { return 0; }
static inline void msgid_cache_put_plain(u64 key, u32 id,
					 enum printk_msgid_class lit) { }
static inline void msgid_plan_put(u64 key, const struct msgid_plan *plan) { }
static inline u64 msgid_id_get(u64 key) { return 0; }
static inline void msgid_id_put(u64 key, u32 id) { }
static inline enum printk_msgid_class msgid_str_class(const char *s)
{
	return msgid_tag_in_arg(s, -1);
}
#endif /* CONFIG_64BIT */

/*
 * Consume from @ap what the format of plan entry @e takes, as msgid_walk()
 * did when it recorded the plan, and set @class the same way: every %s
 * scanned comes before the first tag in the text, by construction.
 */
static const struct va_format *msgid_replay(u64 e, va_list *ap,
					    enum printk_msgid_class *class)
{
	u32 args;

	for (args = e & MSGID_CACHE_ARGS; args; args >>= MSGID_ARG_BITS) {
		const char *s;

		switch (args & MSGID_ARG_MASK) {
		case MSGID_ARG_INT:
			(void)va_arg(*ap, int);
			break;
		case MSGID_ARG_LONG:
			(void)va_arg(*ap, long);
			break;
		case MSGID_ARG_LLONG:
			(void)va_arg(*ap, long long);
			break;
		case MSGID_ARG_SIZE:
			(void)va_arg(*ap, size_t);
			break;
		case MSGID_ARG_PTRDIFF:
			(void)va_arg(*ap, ptrdiff_t);
			break;
		case MSGID_ARG_PTR:
			(void)va_arg(*ap, const void *);
			break;
		case MSGID_ARG_STR:
			s = va_arg(*ap, const char *);
			if (!*class)
				*class = msgid_str_class(s);
			break;
		}
	}
	if (!*class)
		*class = msgid_entry_class(e);
	if (e & MSGID_CACHE_PV)
		return va_arg(*ap, const struct va_format *);
	return NULL;
}

/* ---- Identifier cache (end) -------------------------------------------- */

/*
 * Identify the call as @fmt, a cached plain format of entry @e; @class is
 * the tag found in %s arguments on the way, if any, else the format's own.
 */
static void msgid_set_plain(struct printk_msgid *msgid, const char *fmt,
			    u64 e, enum printk_msgid_class class)
{
	msgid->fmt = fmt;
	msgid->id = (u32)e;
	msgid->class = class ?: msgid_entry_class(e);
}

/*
 * The rest of printk_msgid_get(), for a format that is not a cached plain
 * one: replay or walk each format from @fmt (key @key, cache entry @e) on,
 * following %pV, and identify the last.
 */
static noinline void msgid_follow(struct printk_msgid *msgid, const char *fmt,
				  va_list args, u64 key, u64 e)
{
	enum printk_msgid_class class = PRINTK_MSGID_NONE;
	enum printk_msgid_class lit = PRINTK_MSGID_NONE;
	const struct va_format *vaf;
	struct msgid_plan plan;
	bool plain = false;
	va_list ap;
	int depth;

	va_copy(ap, args);
	for (depth = 0; ; depth++) {
		if (e) {
			/* A plan: only formats that are not plain have one. */
			vaf = msgid_replay(e, &ap, &class);
		} else {
			vaf = msgid_walk(fmt, &ap, &plan);
			msgid_plan_put(key, &plan);
			if (!class)
				class = plan.str ?: plan.lit;
			lit = plan.lit;
			plain = msgid_plan_plain(&plan);
		}
		va_end(ap);
		if (!vaf || depth == PRINTK_MSGID_MAX_DEPTH ||
		    (unsigned long)vaf < PAGE_SIZE || IS_ERR(vaf) ||
		    !vaf->fmt || !vaf->va)
			break;
		fmt = vaf->fmt;
		key = msgid_cache_key(fmt);
		e = msgid_cache_get(key);
		if (e & MSGID_CACHE_PLAIN) {
			/* Nothing more to learn from the arguments. */
			msgid_set_plain(msgid, fmt, e, class);
			return;
		}
		va_copy(ap, *vaf->va);
	}

	msgid->fmt = fmt;
	msgid->class = class;
	if (plain) {
		/* Walked, so not cached yet: a plain format has no plan. */
		msgid->id = printk_msgid_hash(fmt);
		msgid_cache_put_plain(key, msgid->id, lit);
		return;
	}
	e = msgid_id_get(key);
	msgid->id = e ? (u32)e : printk_msgid_hash(fmt);
	if (!e)
		msgid_id_put(key, msgid->id);
}

/**
 * printk_msgid_get - identify a printk() call
 * @msgid: filled with the caller's format, its identifier and class
 * @fmt: the format passed to printk()
 * @args: its arguments; they are not consumed
 *
 * Follows the first %pV of each format to the format it carries, at most
 * PRINTK_MSGID_MAX_DEPTH times. A %pV whose struct va_format is NULL, an
 * error pointer, below PAGE_SIZE or has no format ends the search, as it
 * ends the formatting in vsnprintf().
 */
void printk_msgid_get(struct printk_msgid *msgid, const char *fmt, va_list args)
{
	u64 key = msgid_cache_key(fmt);
	u64 e = msgid_cache_get(key);

	/* The common case, a format seen before that no argument changes. */
	if (e & MSGID_CACHE_PLAIN) {
		msgid_set_plain(msgid, fmt, e, PRINTK_MSGID_NONE);
		return;
	}
	msgid_follow(msgid, fmt, args, key, e);
}
EXPORT_SYMBOL_IF_KUNIT(printk_msgid_get);

/**
 * printk_msgid_render - write the "(%08x): " prefix of an identifier
 * @buf: room for PRINTK_MSGID_PREFIX_LEN bytes; no NUL is written
 * @id: the identifier
 *
 * Return: the end of the prefix in @buf.
 */
char *printk_msgid_render(char *buf, u32 id)
{
	*buf++ = '(';
	buf = hex_byte_pack(buf, id >> 24);
	buf = hex_byte_pack(buf, id >> 16);
	buf = hex_byte_pack(buf, id >> 8);
	buf = hex_byte_pack(buf, id);
	*buf++ = ')';
	*buf++ = ':';
	*buf++ = ' ';
	return buf;
}
EXPORT_SYMBOL_IF_KUNIT(printk_msgid_render);

/* Per-class statistics of identified records, for debugfs. */
static atomic_long_t msgid_count[PRINTK_MSGID_NR_CLASSES];
static u32 msgid_last[PRINTK_MSGID_NR_CLASSES];

/**
 * __printk_msgid_prefix - identify a new record and write its prefix
 * @buf: room for PRINTK_MSGID_PREFIX_LEN bytes
 * @fmt: the format passed to vprintk_emit()
 * @args: its arguments; they are not consumed
 *
 * Safe in any context, NMI included: no lock, no allocation.
 *
 * Return: PRINTK_MSGID_PREFIX_LEN.
 */
u16 __printk_msgid_prefix(char *buf, const char *fmt, va_list args)
{
	struct printk_msgid msgid;

	printk_msgid_get(&msgid, fmt, args);
	WRITE_ONCE(msgid_last[msgid.class], msgid.id);
	atomic_long_inc(&msgid_count[msgid.class]);
	printk_msgid_render(buf, msgid.id);
	return PRINTK_MSGID_PREFIX_LEN;
}

static int msgid_param_set(const char *val, const struct kernel_param *kp)
{
	bool on = true;

	/* "printk.msgid" alone on the command line means on, as for bools. */
	if (val && kstrtobool(val, &on))
		return -EINVAL;
	if (on)
		static_branch_enable(&printk_msgid_key);
	else
		static_branch_disable(&printk_msgid_key);
	return 0;
}

static int msgid_param_get(char *buffer, const struct kernel_param *kp)
{
	return sysfs_emit(buffer, "%c\n",
			  static_key_enabled(&printk_msgid_key) ? 'Y' : 'N');
}

static const struct kernel_param_ops msgid_param_ops = {
	.set = msgid_param_set,
	.get = msgid_param_get,
};
module_param_cb(msgid, &msgid_param_ops, NULL, 0644);
MODULE_PARM_DESC(msgid, "Start each new record with its message identifier");

/*
 * Also parse the switch as an early parameter, so that identifiers start
 * with the earliest records the architecture allows: where setup_arch()
 * initialises jump labels before it parses early parameters (x86, arm64,
 * powerpc, riscv, s390, loongarch), from there on; elsewhere, when the
 * regular parameters are parsed.
 */
static int __init msgid_early_param(char *val)
{
	if (!static_key_initialized)
		return 0;
	return msgid_param_set(val, NULL);
}
early_param("printk.msgid", msgid_early_param);

static int msgid_stats_show(struct seq_file *s, void *unused)
{
	int c;

	seq_puts(s, "# class count last_id\n");
	for (c = 0; c < PRINTK_MSGID_NR_CLASSES; c++) {
		long n = atomic_long_read(&msgid_count[c]);

		seq_printf(s, "%s %ld ", msgid_classes[c].name, n);
		if (n)
			seq_printf(s, "%08x\n", READ_ONCE(msgid_last[c]));
		else
			seq_puts(s, "-\n");
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(msgid_stats);

static int __init msgid_debugfs_init(void)
{
	struct dentry *dir = debugfs_lookup("printk", NULL);

	/* Next to the printk index, which creates printk/ when configured. */
	if (IS_ERR_OR_NULL(dir)) {
		dir = debugfs_create_dir("printk", NULL);
		debugfs_create_file("msgid", 0444, dir, NULL, &msgid_stats_fops);
	} else {
		debugfs_create_file("msgid", 0444, dir, NULL, &msgid_stats_fops);
		dput(dir);
	}
	return 0;
}
late_initcall(msgid_debugfs_init);
