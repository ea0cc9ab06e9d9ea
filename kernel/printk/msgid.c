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
 *
 * vprintk_store() formats every record with vscnprintf() anyway; with
 * identifiers on it does so with vsnprintf_trace() where the format may
 * pass another on (%pV), which reports the format it reached and where
 * that format's text starts, exactly as it formatted them.
 */

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/crc32.h>
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/pgtable.h>
#include <linux/printk.h>
#include <linux/printk_msgid.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/sprintf.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/unaligned.h>
#include <kunit/visibility.h>
#include <asm/sections.h>
#include <asm/word-at-a-time.h>

#include "internal.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "printk."

DEFINE_STATIC_KEY_FALSE(printk_msgid_key);
EXPORT_SYMBOL_IF_KUNIT(printk_msgid_key);

/* ---- The rule: canonical form and hash ---------------------------------- */

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

/* Step 3 of the rule: what zlib's crc32() computes, so user space can too. */
static u32 msgid_crc(const char *s, size_t len)
{
	return ~crc32_le(~0, s, len);
}

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
	return msgid_crc(fmt, len);
}
EXPORT_SYMBOL_IF_KUNIT(printk_msgid_hash);

/* ---- Classes: the tags of include/linux/printk.h ------------------------ */

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

/* DEPRECATED, the shortest tag: none starts in the last MSGID_TAG_MIN - 1 bytes of a text. */
#define MSGID_TAG_MIN	(sizeof(DEPRECATED) - 1)

/* The first '[' in [@s, @stop), or NULL; the text goes on MSGID_TAG_MIN - 1 bytes past @stop. */
static __always_inline const char *msgid_bracket(const char *s, const char *stop)
{
	const struct word_at_a_time constants = WORD_AT_A_TIME_CONSTANTS;
	unsigned long v, w, data;

	BUILD_BUG_ON(sizeof(v) >= MSGID_TAG_MIN);
	for (; s + sizeof(v) < stop; s += 2 * sizeof(v)) {
		v = get_unaligned((const unsigned long *)s) ^ REPEAT_BYTE('[');
		w = get_unaligned((const unsigned long *)s + 1) ^ REPEAT_BYTE('[');
		if (has_zero(v, &data, &constants) | has_zero(w, &data, &constants))
			break;
	}
	for (; s < stop; s += sizeof(v)) {
		v = get_unaligned((const unsigned long *)s) ^ REPEAT_BYTE('[');
		if (has_zero(v, &data, &constants)) {
			s += find_zero(create_zero_mask(prep_zero_mask(v, data, &constants)));
			return s < stop ? s : NULL;
		}
	}
	return NULL;
}

/* The first tag from @p, a '[' in a text that ends at @end, on. */
static noinline enum printk_msgid_class msgid_tag_from(const char *p, const char *end)
{
	int c;

	do {
		for (c = PRINTK_MSGID_NONE + 1; c < PRINTK_MSGID_NR_CLASSES; c++)
			if (end - p >= msgid_classes[c].len &&
			    !memcmp(p, msgid_classes[c].tag, msgid_classes[c].len))
				return c;
	} while ((p = msgid_bracket(p + 1, end - MSGID_TAG_MIN + 1)));
	return PRINTK_MSGID_NONE;
}

/* The first tag in the @len bytes at @s: a leaf until it finds a '['. */
static enum printk_msgid_class msgid_tag_in(const char *s, size_t len)
{
	const char *p = len < MSGID_TAG_MIN ? NULL : msgid_bracket(s, s + len - MSGID_TAG_MIN + 1);

	return p ? msgid_tag_from(p, s + len) : PRINTK_MSGID_NONE;
}

/* ---- Statistics --------------------------------------------------------- */

/*
 * Counted in <debugfs>/printk/msgid: per CPU, so that no
 * record writes a line that all CPUs share. this_cpu_inc() is one
 * instruction on x86, arm64 and s390; elsewhere an NMI that prints between
 * its load and store makes the interrupted record's count lost.
 *
 * Records can be identified before the per-CPU areas exist: the switch is
 * an early parameter. setup_per_cpu_areas() copies the static per-CPU
 * image to every CPU's area, and on x86 prints while the boot CPU still
 * uses the image, so counts made there would be multiplied or lost. Until
 * an early initcall, after it and before the other CPUs come up, turns
 * msgid_percpu on, records are counted in msgid_early instead.
 *
 * A CPU only writes its own counters, from any context; the reader of
 * debugfs sums every CPU's without stopping them. Each counter is one
 * word, read whole: the sum is a snapshot that may miss the records being
 * stored meanwhile, never a torn value. Those reads race with the writers
 * by design (data_race()), and KCSAN is told so.
 */
struct msgid_stats {
	unsigned long count[PRINTK_MSGID_NR_CLASSES];
	unsigned long hashed;
};

static DEFINE_PER_CPU(struct msgid_stats, msgid_stats);
static DEFINE_STATIC_KEY_FALSE(msgid_percpu);
static struct {
	atomic_long_t count[PRINTK_MSGID_NR_CLASSES];
	atomic_long_t hashed;
} msgid_early;

static void msgid_count_hashed(void)
{
	if (static_branch_likely(&msgid_percpu))
		this_cpu_inc(msgid_stats.hashed);
	else
		atomic_long_inc(&msgid_early.hashed);
}

static void msgid_count(enum printk_msgid_class class)
{
	if (static_branch_likely(&msgid_percpu))
		this_cpu_inc(msgid_stats.count[class]);
	else
		atomic_long_inc(&msgid_early.count[class]);
}

/*
 * ---- The cache -------------------------------------------------------------
 *
 * Strings in the kernel's and the modules' .rodata do not change while
 * they are there, so what is learnt about them is kept in one small
 * direct-mapped table, msgid_cache. Its rules:
 *
 *  - Entries only for read-only data: a format's offset in vmlinux
 *    .rodata (not in __ro_after_init data, which init code may still
 *    write), or in the module area, where it is in the .rodata of a module
 *    that is not going (checked when the entry is put). Formats in buffers
 *    are not kept. A module's entries are dropped when it goes.
 *  - A value depends only on its key: the identifier, tag and conversions
 *    of a format. Two writers of one key write the same entry; writers of
 *    two keys that share a slot each write a valid entry, and the last one
 *    stays.
 *  - An entry is one 64-bit word holding its own key, read with READ_ONCE()
 *    and written with WRITE_ONCE() whole: a reader sees an entry written
 *    whole or 0, never a torn one, and an entry of another key is a miss.
 *    No lock and no allocation, so any context may use it, NMI included.
 *    32-bit kernels do not have the cache (no single-copy 64-bit access).
 *
 *   bits  0..31  identifier
 *   bits 32..34  first tag in the format (enum printk_msgid_class)
 *   bit  35      the format has a %pV or %pA: it may pass another on
 *   bit  36      the class is in the text the format prints: it has a %s,
 *                no tag and no %pV or %pA (see msgid_printed_class())
 *   bit  37      the entry is valid
 *   bits 38..62  the offset of the format in its region but for its
 *                MSGID_CACHE_BITS low bits, which the slot stands for
 *   bit  63      the region: vmlinux .rodata (0), the module area (1)
 *
 * A key has the bits 37..63 of its entry, and its slot in bits 0..9.
 */
#define MSGID_CACHE_BITS	10
#define MSGID_CLASS_SHIFT	32
#define MSGID_FMT_FOLLOW	BIT_ULL(35)
#define MSGID_FMT_SCAN		BIT_ULL(36)
#define MSGID_CACHE_VALID_SHIFT	37
#define MSGID_CACHE_VALID	BIT_ULL(MSGID_CACHE_VALID_SHIFT)
#define MSGID_CACHE_OFF_SHIFT	38
#define MSGID_CACHE_MODULE	BIT_ULL(63)
/* The key of a string that is not kept: it lacks the valid bit every entry has. */
#define MSGID_CACHE_NOKEY	MSGID_CACHE_MODULE
#define MSGID_CACHE_SLOTS	BIT(MSGID_CACHE_BITS)

static enum printk_msgid_class msgid_entry_class(u64 e)
{
	return (e >> MSGID_CLASS_SHIFT) & 7;
}

#ifdef CONFIG_64BIT
static u64 msgid_cache[MSGID_CACHE_SLOTS];

#if defined(CONFIG_MODULES) && defined(MODULES_VADDR)
/*
 * Whether @addr is in the .rodata of a module that is not going. The
 * caller is an RCU reader until it has put its entry (vprintk_store()
 * has interrupts off). Preemption off is what __module_address() asks on
 * every kernel that has the module cache's notifier (6.4 and later).
 */
static bool msgid_module_rodata(unsigned long addr)
{
	struct module *mod;

	guard(preempt)();
	mod = __module_address(addr);
	return mod && READ_ONCE(mod->state) != MODULE_STATE_GOING &&
	       within_module_mem_type(addr, mod, MOD_RODATA);
}

/* Forget the formats of every module: one is going. */
static void msgid_cache_drop_modules(void)
{
	unsigned int i;

	for (i = 0; i < MSGID_CACHE_SLOTS; i++)
		if (READ_ONCE(msgid_cache[i]) & MSGID_CACHE_MODULE)
			WRITE_ONCE(msgid_cache[i], 0);
}

static int msgid_module_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	/*
	 * The module is marked going, so no lookup keys its formats any
	 * more; once the lookups that found it live have put their entries,
	 * drop them (its async functions may still print until it is freed).
	 */
	if (state == MODULE_STATE_GOING) {
		synchronize_rcu();
		msgid_cache_drop_modules();
	}
	return NOTIFY_DONE;
}

static struct notifier_block msgid_module_nb = {
	.notifier_call = msgid_module_notify,
};

static void __init msgid_cache_init(void)
{
	register_module_notifier(&msgid_module_nb);
}

#define MSGID_MODULES_BASE	MODULES_VADDR
#else
#define MSGID_MODULES_BASE	0UL	/* no module area: no module keys */
static inline bool msgid_module_rodata(unsigned long addr) { return false; }
static inline void msgid_cache_drop_modules(void) { }
static inline void msgid_cache_init(void) { }
#endif

/*
 * The key of the format at @off in a region (MSGID_CACHE_MODULE or 0), or
 * MSGID_CACHE_NOKEY if @off is beyond the key's reach.
 */
static __always_inline u64 msgid_key(unsigned long off, u64 region)
{
	if (off >= BIT_ULL(63 - MSGID_CACHE_OFF_SHIFT + MSGID_CACHE_BITS))
		return MSGID_CACHE_NOKEY;
	return region | MSGID_CACHE_VALID |
	       (u64)(off >> MSGID_CACHE_BITS) << MSGID_CACHE_OFF_SHIFT |
	       ((off ^ (off >> MSGID_CACHE_BITS)) & (MSGID_CACHE_SLOTS - 1));
}

/*
 * The key of @s: its offset in vmlinux .rodata, else in the module area,
 * whatever it holds there (msgid_cache_put() puts entries only for
 * formats in a module's .rodata, and never for __ro_after_init data);
 * MSGID_CACHE_NOKEY if it has none.
 */
static __always_inline u64 msgid_cache_key(const char *s)
{
	unsigned long addr = (unsigned long)s;

	if (likely(is_kernel_rodata(addr)))
		return msgid_key(addr - (unsigned long)__start_rodata, 0);
	if (!MSGID_MODULES_BASE)
		return MSGID_CACHE_NOKEY;
	return msgid_key(addr - MSGID_MODULES_BASE, MSGID_CACHE_MODULE);
}

/* What the slot of @key holds: the entry of @key, or not. */
static __always_inline u64 msgid_cache_slot(u64 key)
{
	return READ_ONCE(msgid_cache[key & (MSGID_CACHE_SLOTS - 1)]);
}

static void msgid_cache_put(const char *s, u64 key, u64 val)
{
	unsigned long addr = (unsigned long)s;

	BUILD_BUG_ON(PRINTK_MSGID_NR_CLASSES > 8);
	if (!(key & MSGID_CACHE_VALID))
		return;
	if (key & MSGID_CACHE_MODULE ? !msgid_module_rodata(addr) : is_kernel_ro_after_init(addr))
		return;
	WRITE_ONCE(msgid_cache[key & (MSGID_CACHE_SLOTS - 1)],
		   (key & ~(u64)(MSGID_CACHE_SLOTS - 1)) | val);
}
#else
static inline u64 msgid_cache_key(const char *s) { return MSGID_CACHE_NOKEY; }
static inline u64 msgid_cache_slot(u64 key) { return 0; }
static inline void msgid_cache_put(const char *s, u64 key, u64 val) { }
static inline void msgid_cache_drop_modules(void) { }
static inline void msgid_cache_init(void) { }
#endif /* CONFIG_64BIT */

/*
 * The conversions of a format that printk_msgid_vscnprintf() needs to know of:
 * %pV and %pA (which vsnprintf_trace() may follow) and %s (which may print
 * a tag). A '%' that vsnprintf() would not take for one of them may be
 * taken here: that costs a traced pass or a look at the text, never a
 * wrong identifier.
 */
static u64 msgid_conversions(const char *s, size_t len)
{
	const char *end = s + len;
	u64 conv = 0;

	while ((s = memchr(s, '%', end - s)) && ++s < end) {
		/* flags, field width, precision, qualifier */
		while (s < end && strchr("-+ #0123456789.*hHlLqjzt", *s))
			s++;
		if (s == end)
			break;
		if (*s == 's')
			conv |= MSGID_FMT_SCAN;
		else if (*s == 'p' && s + 1 < end && (s[1] == 'V' || s[1] == 'A'))
			conv |= MSGID_FMT_FOLLOW;
		s++;
	}
	return conv;
}

/* A format not in the cache: hash it, and keep it if it is in .rodata. */
static noinline u64 msgid_hash_format(const char *fmt, u64 key)
{
	enum printk_msgid_class class;
	const char *s;
	size_t len;
	u64 conv, e;

	/* printk_msgid_hash(), without finding the canonical form twice. */
	s = printk_msgid_canonical(fmt, &len);
	class = msgid_tag_in(s, len);
	conv = msgid_conversions(s, len);
	if (class || (conv & MSGID_FMT_FOLLOW))
		conv &= ~MSGID_FMT_SCAN;
	e = (u64)class << MSGID_CLASS_SHIFT | conv | msgid_crc(s, len);
	msgid_cache_put(fmt, key, e);
	msgid_count_hashed();
	return e;
}

/* The entry of @fmt, keyed @key: @e, what its slot held, or @fmt hashed. */
static u64 msgid_entry(const char *fmt, u64 key, u64 e)
{
	return (e ^ key) >> MSGID_CACHE_VALID_SHIFT ? msgid_hash_format(fmt, key) : e;
}

/* ---- Identifying a record ----------------------------------------------- */

/*
 * "(%08x): " at @buf, no NUL: each nibble of @id spread to a byte (most
 * significant highest), made its digit as in hex_asc, stored big-endian.
 */
static __always_inline void msgid_render(char *buf, u32 id)
{
	u64 x = id;

	x = (x | x << 16) & 0x0000ffff0000ffffULL;
	x = (x | x << 8) & 0x00ff00ff00ff00ffULL;
	x = (x | x << 4) & 0x0f0f0f0f0f0f0f0fULL;
	/* A nibble of 10 or more gets 'a' - '0' - 10 more. */
	x += 0x3030303030303030ULL +
	     ('a' - '0' - 10) * ((x + 0x0606060606060606ULL) >> 4 & 0x0101010101010101ULL);
	buf[0] = '(';
	put_unaligned_be64(x, buf + 1);
	buf[9] = ')';
	buf[10] = ':';
	buf[11] = ' ';
}

/**
 * printk_msgid_render - write the "(%08x): " prefix of an identifier
 * @buf: room for PRINTK_MSGID_PREFIX_LEN bytes; no NUL is written
 * @id: the identifier
 *
 * Return: the end of the prefix in @buf.
 */
char *printk_msgid_render(char *buf, u32 id)
{
	msgid_render(buf, id);
	return buf + PRINTK_MSGID_PREFIX_LEN;
}
EXPORT_SYMBOL_IF_KUNIT(printk_msgid_render);

/* The last identifier of each tagged class: rare, so one shared word. */
static u32 msgid_last[PRINTK_MSGID_NR_CLASSES];

/* Count a record of identifier @id in @class. */
static __always_inline void msgid_account(enum printk_msgid_class class, u32 id)
{
	msgid_count(class);
	if (class)
		WRITE_ONCE(msgid_last[class], id);
}

/*
 * The record's format has entry @e: its prefix at @prefix, its identity;
 * if @count, the record is counted, unless its class is in its text.
 */
static __always_inline void msgid_identified(char *prefix, struct printk_msgid *msgid, u64 e,
					     bool count)
{
	msgid_render(prefix, (u32)e);
	msgid->id = (u32)e;
	msgid->class = msgid_entry_class(e);
	msgid->in_text = e & MSGID_FMT_SCAN;
	if (count && !msgid->in_text)
		msgid_account(msgid_entry_class(e), (u32)e);
}

/*
 * msgid_vscnprintf() for a format the cache does not know, or one that may
 * pass another on: vsnprintf_trace() finds the caller's format. The trace
 * stays in this frame.
 */
static noinline __printf(3, 0)
int msgid_vscnprintf_slow(char *buf, size_t size, const char *fmt, va_list args,
			  struct printk_msgid *msgid, u64 key, u64 e, bool count)
{
	struct printf_trace trace __uninitialized;
	int len;

	e = msgid_entry(fmt, key, e);
	msgid->fmt = fmt;
	msgid->pos = 0;
	if (!(e & MSGID_FMT_FOLLOW)) {
		len = vscnprintf(buf, size, fmt, args);
	} else {
		len = vsnprintf_trace(buf, size, fmt, args, &trace);
		len = min_t(size_t, len, size ? size - 1 : 0);
		if (trace.fmt != fmt) {
			msgid->fmt = trace.fmt;
			msgid->pos = trace.pos;
			key = msgid_cache_key(trace.fmt);
			e = msgid_entry(trace.fmt, key, msgid_cache_slot(key));
		}
	}
	msgid_identified(buf - PRINTK_MSGID_PREFIX_LEN, msgid, e, count);
	return len;
}

/* printk_msgid_vscnprintf(), and printk_msgid_get(), which does not @count. */
static __always_inline __printf(3, 0)
int msgid_vscnprintf(char *buf, size_t size, const char *fmt, va_list args,
		     struct printk_msgid *msgid, bool count)
{
	u64 key = msgid_cache_key(fmt);
	u64 e = msgid_cache_slot(key);

	/* Not the entry of @fmt, or one whose format may pass another on. */
	if (unlikely((e ^ key) >> MSGID_CACHE_VALID_SHIFT | (e & MSGID_FMT_FOLLOW)))
		return msgid_vscnprintf_slow(buf, size, fmt, args, msgid, key, e, count);
	msgid->pos = 0;
	msgid_identified(buf - PRINTK_MSGID_PREFIX_LEN, msgid, e, count);
	return vscnprintf(buf, size, fmt, args);
}

/**
 * printk_msgid_vscnprintf - format a new record's text after its prefix
 * @buf: where to format the text, as for vscnprintf(); the
 *	PRINTK_MSGID_PREFIX_LEN bytes before it get the prefix, no NUL
 * @size: the size of @buf
 * @fmt: the format passed to printk()
 * @args: its arguments, consumed as by vscnprintf()
 * @msgid: gets the identifier and class of the caller's format, or
 *	@msgid->in_text and what printk_msgid_classify() needs
 *
 * vprintk_store() formats every record with vscnprintf(); for a record
 * that carries an identifier it calls this instead, which counts the
 * record in its class unless that is in the text. A format the cache
 * knows costs a lookup and the prefix; any other is hashed, or formatted
 * with vsnprintf_trace() to find the caller's format. Safe in any
 * context, NMI included: no lock, no allocation. The caller is an RCU
 * reader (vprintk_store() has interrupts off), for the cache's module
 * entries.
 *
 * Return: as vscnprintf().
 */
int printk_msgid_vscnprintf(char *buf, size_t size, const char *fmt, va_list args,
			    struct printk_msgid *msgid)
{
	return msgid_vscnprintf(buf, size, fmt, args, msgid, true);
}

/*
 * The class of a caller's format with a %s but no tag (GHES and CPER pass
 * HW_ERR through "%s"; a wrapper's %s, device names, are not looked at):
 * the first tag in its text from @pos (as vsnprintf() counts) on, in the
 * @printed characters of which printk kept @text_len at @text, the level
 * and @newline (0 or 1) stripped.
 */
static __always_inline enum printk_msgid_class
msgid_printed_class(const char *text, unsigned int pos, size_t printed,
		    size_t text_len, bool newline)
{
	size_t lead = printed - newline - text_len;

	pos = pos > lead ? pos - lead : 0;
	if (pos >= text_len)
		return PRINTK_MSGID_NONE;
	return msgid_tag_in(text + pos, text_len - pos);
}

/**
 * printk_msgid_classify - find a new record's class in its text, count it
 * @text: the record's text after its prefix: the @text_len characters
 *	printk kept
 * @msgid: what printk_msgid_vscnprintf() found, @msgid->in_text set;
 *	gets the class
 * @size: the size printk_msgid_vscnprintf() was given: vprintk_store()
 *	sizes the record to the text, so it printed @size - 1 characters
 * @text_len: how many of them printk kept, once it stripped the log level
 *	off their start and @newline (0 or 1) off their end
 * @newline: whether a trailing newline was stripped
 *
 * Safe in any context, NMI included: no lock, no allocation.
 */
void printk_msgid_classify(const char *text, struct printk_msgid *msgid, size_t size,
			   size_t text_len, bool newline)
{
	msgid->class = msgid_printed_class(text, msgid->pos, size ? size - 1 : 0,
					   text_len, newline);
	msgid_account(msgid->class, msgid->id);
}

/**
 * printk_msgid_get - identify a printk() call
 * @msgid: filled with the caller's format, its identifier and class
 * @fmt: the format passed to printk()
 * @args: its arguments; they are not consumed
 *
 * Identifies the call as vprintk_store() does for every identified record,
 * with the class found in the first 255 characters of the text, and
 * counts nothing.
 */
void printk_msgid_get(struct printk_msgid *msgid, const char *fmt, va_list args)
{
	char buf[PRINTK_MSGID_PREFIX_LEN + 256], *text = buf + PRINTK_MSGID_PREFIX_LEN;
	va_list ap;
	int len;

	msgid->fmt = fmt;
	msgid->pos = 0;
	va_copy(ap, args);
	scoped_guard(preempt)
		len = msgid_vscnprintf(text, 256, fmt, ap, msgid, false);
	va_end(ap);
	if (msgid->in_text)
		msgid->class = msgid_printed_class(text, msgid->pos, len, len, false);
}
EXPORT_SYMBOL_IF_KUNIT(printk_msgid_get);

/**
 * printk_msgid_hashed_here - how many formats this CPU has hashed
 *
 * Formats answered by the cache are not counted; for KUnit.
 *
 * Return: the count of this CPU; the caller keeps it from migrating.
 */
#if IS_ENABLED(CONFIG_KUNIT)
unsigned long printk_msgid_hashed_here(void)
{
	return this_cpu_read(msgid_stats.hashed);
}
EXPORT_SYMBOL_IF_KUNIT(printk_msgid_hashed_here);

/**
 * printk_msgid_drop_modules - forget the modules' formats, as on an unload
 *
 * For KUnit.
 */
void printk_msgid_drop_modules(void)
{
	msgid_cache_drop_modules();
}
EXPORT_SYMBOL_IF_KUNIT(printk_msgid_drop_modules);
#endif

/* ---- Parameters and the debugfs file ------------------------------------ */

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

static int __init msgid_stats_init(void)
{
	msgid_cache_init();
	static_branch_enable(&msgid_percpu);
	return 0;
}
early_initcall(msgid_stats_init);

static int msgid_stats_show(struct seq_file *s, void *unused)
{
	unsigned long n, hashed = atomic_long_read(&msgid_early.hashed);
	int c, cpu;

	for_each_possible_cpu(cpu)
		hashed += data_race(per_cpu(msgid_stats.hashed, cpu)); /* racy sum */

	seq_puts(s, "# class count last_id\n");
	for (c = 0; c < PRINTK_MSGID_NR_CLASSES; c++) {
		n = atomic_long_read(&msgid_early.count[c]);
		for_each_possible_cpu(cpu)
			n += data_race(per_cpu(msgid_stats.count[c], cpu)); /* racy sum */
		seq_printf(s, "%s %lu ", msgid_classes[c].name, n);
		if (c && n)
			seq_printf(s, "%08x\n", READ_ONCE(msgid_last[c]));
		else
			seq_puts(s, "-\n");
	}
	seq_printf(s, "# formats hashed: %lu\n", hashed);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(msgid_stats);

static int __init msgid_debugfs_init(void)
{
	struct dentry *dir = printk_debugfs_root;

	/* Next to the printk index, which makes printk/ when configured. */
	if (!IS_ENABLED(CONFIG_PRINTK_INDEX))
		dir = debugfs_create_dir("printk", NULL);
	debugfs_create_file("msgid", 0444, dir, NULL, &msgid_stats_fops);
	return 0;
}
late_initcall(msgid_debugfs_init);
