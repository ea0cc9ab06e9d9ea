// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for kernel/printk/msgid.c, built in user space against
 * the shim in harness/fuzz/include (harness/fuzz.sh builds and runs it).
 *
 * Input: a count, texts ending in NUL bytes, then an "argument program":
 *
 *   N text0 \0 text1 \0 ... text(N-1) \0 program
 *
 * with N = byte 0 % 16 + 1 texts (fewer when the input ends first). The
 * program may contain any byte; when it runs out it reads as zeros.
 * Texts are cut to MAX_TEXT bytes. text0 is the format passed to
 * printk_msgid_get(); every text can also be the format of a struct
 * va_format or a %s argument. Program byte 0 chooses which texts live in
 * the shim's ".rodata" (interned, never rewritten, so that msgid.c's
 * identifier cache runs) and which on the heap (exact-size allocations,
 * so ASan sees any over-read); byte 1 puts rodata texts at offsets the
 * cache does not key. The following bytes decide, slot after slot, what
 * each va_list slot holds, according to what the format reads there:
 * integers, NULL, numbers below PAGE_SIZE, ERR_PTR()s, pointers into the
 * texts for %s, and for %pV a new nested struct va_format (up to 10
 * levels, MAX_LEVELS - 1), one that points back to an enclosing or the
 * same level (a cycle), or one with a NULL fmt or va.
 *
 * A va_list cannot be built at run time, so each level is a variadic call
 * with NSLOTS long arguments (call_level()); a format of at most MAX_TEXT
 * bytes consumes at most 2/3 of its length in slots ("%*c"), so it never
 * reads past them. What each slot holds is decided by an independent
 * reference walk written from Documentation/admin-guide/msgid.rst and
 * lib/vsprintf.c (model_walk()), which also predicts the result: the
 * caller's format and the class. For every level as a starting point,
 * printk_msgid_get() is called twice (cold and warm cache) and must agree
 * with the model; the identifier must equal this file's own CRC-32 of its
 * own canonical form; __printk_msgid_prefix(), printk_msgid_prefix(),
 * printk_msgid_render() and the debugfs statistics are checked as well.
 * Any mismatch aborts with a description, so libFuzzer keeps the input.
 *
 * MSGID_FUZZ_KERNEL_PRECISION=1 makes the model follow vsnprintf()'s
 * precision exactly (a negative "%.*s" precision prints nothing; a digit
 * precision is kept in 16 bits), where msgid.c knowingly differs today;
 * see harness/fuzz/README.
 */
#include <linux/err.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/printk_msgid.h>
#include <linux/debugfs.h>
#include <linux/ctype.h>
#include <asm/sections.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/asan_interface.h>
#define HAVE_ASAN 1
#endif
#endif
#ifndef HAVE_ASAN
#define ASAN_POISON_MEMORY_REGION(a, s)		((void)(a), (void)(s))
#define ASAN_UNPOISON_MEMORY_REGION(a, s)	((void)(a), (void)(s))
#endif

_Static_assert(sizeof(long) == 8 && sizeof(void *) == 8,
	       "the slot model assumes LP64: every argument takes one slot");

/* Not <limits.h>: glibc's pulls the uapi <linux/limits.h>. */
#define INT_MAX		__INT_MAX__
#define INT_MIN		(-__INT_MAX__ - 1)

#define NSLOTS		64
#define MAX_TEXT	95	/* at most 2 * 95 / 3 = 63 slots per format */
#define MAX_TEXTS	16
#define MAX_LEVELS	11	/* level 0 and up to 10 nested va_formats */

/* ---- the shim's globals ------------------------------------------------ */

char *shim_rodata_start, *shim_rodata_end;
bool static_key_initialized;
struct dentry shim_debugfs_dir;
struct dentry *shim_debugfs_lookup_result;
const struct file_operations *shim_debugfs_fops;

/* Defined in msgid.c by the shim's late_initcall(), early_param(), module_param_cb(). */
extern int (*shim_late_initcall)(void);
extern int (*shim_early_param)(char *);
extern const struct kernel_param_ops *shim_param_ops;

static bool kernel_precision, verbose;

#define fail(...) do {							\
	fprintf(stderr, "fuzz_msgid: " __VA_ARGS__);			\
	fputc('\n', stderr);						\
	abort();							\
} while (0)

/* ---- reference CRC-32 and canonical form -------------------------------- */

/* Table-driven, unlike the shim's bitwise crc32_le(). */
static u32 ref_table[256];

static void ref_crc_init(void)
{
	for (u32 i = 0; i < 256; i++) {
		u32 r = i;

		for (int k = 0; k < 8; k++)
			r = r & 1 ? 0xedb88320u ^ (r >> 1) : r >> 1;
		ref_table[i] = r;
	}
}

static u32 ref_crc32(const unsigned char *s, size_t n)
{
	u32 c = 0xffffffffu;

	while (n--)
		c = ref_table[(c ^ *s++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

/* Documentation/admin-guide/msgid.rst, "3. The canonical form". */
static const char *ref_canonical(const char *fmt, size_t *len)
{
	size_t n;

	while (fmt[0] == '\001' && ((fmt[1] >= '0' && fmt[1] <= '7') || fmt[1] == 'c'))
		fmt += 2;
	n = strlen(fmt);
	if (n > 0 && fmt[n - 1] == '\n')
		n--;
	*len = n;
	return fmt;
}

static u32 ref_id(const char *fmt)
{
	size_t len;
	const char *c = ref_canonical(fmt, &len);

	return ref_crc32((const unsigned char *)c, len);
}

/* ---- the shim's .rodata: interned texts, never rewritten ---------------- */

#define RO_KEYED	(1UL << 28)	/* offsets below this are cached */
#define RO_SIZE		(RO_KEYED + (1UL << 22))
#define RO_TAB		(1u << 20)

static struct ro_ent {
	u64 hash;
	u32 off;
	u32 len;
	bool used;
} *ro_tab;
static size_t ro_nr, ro_next[2] = { 0, RO_KEYED };

static u64 fnv1a(const char *s, size_t n, u64 h)
{
	while (n--)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

static void ro_init(void)
{
	void *p = mmap(NULL, RO_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		fail("mmap of the .rodata arena failed");
	shim_rodata_start = p;
	shim_rodata_end = shim_rodata_start + RO_SIZE;
	ASAN_POISON_MEMORY_REGION(p, RO_SIZE);
	ro_tab = calloc(RO_TAB, sizeof(*ro_tab));
	if (!ro_tab)
		fail("calloc");
}

/*
 * The address of @s in .rodata (@high: at an offset the cache does not
 * key), or NULL when the arena or its index is full: a format at a given
 * address never changes, as in the kernel.
 */
static const char *ro_intern(const char *s, size_t len, bool high)
{
	u64 h = fnv1a(s, len, high ? 0x9e3779b97f4a7c15ull : 0xcbf29ce484222325ull);
	size_t limit = high ? RO_SIZE : RO_KEYED;
	u32 i = (u32)h & (RO_TAB - 1);

	for (;; i = (i + 1) & (RO_TAB - 1)) {
		struct ro_ent *e = &ro_tab[i];

		if (!e->used)
			break;
		if (e->hash == h && e->len == len &&
		    (e->off >= RO_KEYED) == high &&
		    !memcmp(shim_rodata_start + e->off, s, len))
			return shim_rodata_start + e->off;
	}
	if (ro_nr >= RO_TAB / 4 * 3 || ro_next[high] + len + 1 + 16 > limit)
		return NULL;

	char *dst = shim_rodata_start + ro_next[high];

	ASAN_UNPOISON_MEMORY_REGION(dst, len + 1);
	memcpy(dst, s, len);
	dst[len] = '\0';
	ro_tab[i] = (struct ro_ent){ h, (u32)ro_next[high], (u32)len, true };
	ro_nr++;
	/* A poisoned gap of at least 8 bytes after each text. */
	ro_next[high] = ((ro_next[high] + len + 1 + 7) & ~7ul) + 8;
	return dst;
}

/* ---- input ------------------------------------------------------------- */

struct prog {
	const unsigned char *p;
	size_t n, i;
};

static unsigned int next(struct prog *pr)
{
	return pr->i < pr->n ? pr->p[pr->i++] : 0;
}

enum kind { K_INT, K_PREC, K_LONG, K_PTR, K_STR, K_VAF };

struct level {
	const char *fmt;
	long slots[NSLOTS];
	int nslots;
	bool generated;
};

struct expect {
	const char *fmt;
	int class;
};

struct ctx {
	const char *text[MAX_TEXTS];	/* where each text lives */
	char *heap[MAX_TEXTS];		/* to free */
	size_t len[MAX_TEXTS];
	int ntexts;
	struct prog prog;
	struct level lv[MAX_LEVELS];
	int nlev;
	struct va_format vafs[MAX_LEVELS];
	struct va_format nofmt, nova;
	struct expect exp[MAX_LEVELS];
};

static const struct {
	const char *tag;
	int class;
} tags[] = {
	{ HW_ERR, PRINTK_MSGID_HW_ERR },
	{ FW_BUG, PRINTK_MSGID_FW_BUG },
	{ FW_WARN, PRINTK_MSGID_FW_WARN },
	{ FW_INFO, PRINTK_MSGID_FW_INFO },
	{ DEPRECATED, PRINTK_MSGID_DEPRECATED },
};

/* The tag that fits entirely in the @n bytes at @s, or 0. */
static int tag_in(const char *s, size_t n)
{
	for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
		size_t l = strlen(tags[t].tag);

		if (l <= n && !memcmp(s, tags[t].tag, l))
			return tags[t].class;
	}
	return 0;
}

static bool deref_ok(long v)
{
	return (unsigned long)v >= PAGE_SIZE && !IS_ERR_VALUE((unsigned long)v);
}

static const int prec_values[] = {
	-1, -2, -100, INT_MIN, 0, 1, 2, 3, 5, 12, 18, 40, 32767, 32768, 65537, INT_MAX,
};

/* A value for a slot of kind @k of level @L, from the program. */
static long gen_value(struct ctx *c, int L, enum kind k)
{
	unsigned int b = next(&c->prog), b2;

	switch (k) {
	case K_INT:
		return (long)(int)(b * 0x01010101u);
	case K_PREC:
		return b < 16 ? prec_values[b] : (int)b - 128;
	case K_LONG:
		return (long)(b * 0x0101010101010101ul);
	case K_PTR:
		return (b & 1) ? (long)c->text[(b >> 1) % c->ntexts] : (long)b << 4;
	case K_STR:
		switch (b & 7) {
		case 0:
			return 0;
		case 1:
			return (long)((b >> 3) * 131 + 1) % PAGE_SIZE;
		case 2:
			return (long)ERR_PTR(-(long)(b >> 3) * 127 - 1);
		default:
			b2 = next(&c->prog);
			b = (b >> 3) % c->ntexts;
			return (long)(c->text[b] + b2 % (c->len[b] + 1));
		}
	case K_VAF:
		switch (b & 7) {
		case 0:
			return 0;
		case 1:
			return (long)((b >> 3) * 129 + 1) % PAGE_SIZE;
		case 2:
			return (long)ERR_PTR(-(long)(b >> 3) * 127 - 1);
		case 3:
			return (long)&c->nofmt;
		case 4:
			return (long)&c->nova;
		case 5:
			return (long)&c->vafs[(b >> 3) % (L + 1)];	/* a cycle */
		default:
			if (c->nlev >= MAX_LEVELS)
				return (long)&c->vafs[(b >> 3) % (L + 1)];
			c->lv[c->nlev].fmt = c->text[(b >> 3) % c->ntexts];
			return (long)&c->vafs[c->nlev++];
		}
	}
	return 0;
}

static long slot(struct ctx *c, int L, int *n, enum kind k)
{
	struct level *lv = &c->lv[L];
	long v;

	if (*n >= NSLOTS)
		fail("model: more than %d slots in \"%s\"", NSLOTS, lv->fmt);
	if (lv->generated) {
		if (*n >= lv->nslots)
			fail("model: replay of level %d needs slot %d of %d", L, *n, lv->nslots);
		return lv->slots[(*n)++];
	}
	v = gen_value(c, L, k);
	lv->slots[(*n)++] = v;
	lv->nslots = *n;
	return v;
}

/* The effective precision of "%.*s" with @v, or -1 for none. */
static long star_precision(long v)
{
	int p = (int)v;

	if (kernel_precision)	/* set_precision() and format_decode() */
		return p < 0 ? 0 : p > 32767 ? 32767 : p;
	return p < 0 ? -1 : p;
}

/* The effective precision of "%.<digits>s". */
static long digit_precision(const unsigned char *d, size_t n)
{
	if (kernel_precision) {	/* skip_atoi() into a signed 16-bit field */
		u32 v = 0;

		for (size_t i = 0; i < n; i++)
			v = v * 10 + (d[i] - '0');
		int16_t p = (int16_t)(uint16_t)v;

		return p < 0 ? 0 : p;
	}
	long v = 0;

	for (size_t i = 0; i < n && v < 1000000; i++)
		v = v * 10 + (d[i] - '0');
	return v;
}

/*
 * Walk level @L's format as vsnprintf() would, from the documentation's
 * rule, generating (first time) or replaying its slots. Unless @class is
 * set, set it to the first tag in the text: the literal text, or a %s
 * argument, but a %s only in a format that does not pass on a %pV.
 * Return the %pV pointer, with *@vaf set, or 0 with *@vaf clear when the
 * format ends or stops.
 */
static long model_walk(struct ctx *c, int L, int *class, bool *vaf)
{
	const unsigned char *f = (const unsigned char *)c->lv[L].fmt;
	int lit = 0, any = 0;	/* first tag in the literal text; in text or %s */
	int n = 0;
	long v = 0;

	*vaf = false;
	for (;;) {
		long prec = -1;
		unsigned char q = 0, conv;

		while (*f != '%') {
			if (!*f)
				goto out;
			if (*f == '[' && !lit) {
				lit = tag_in((const char *)f, strnlen((const char *)f, 64));
				if (!any)
					any = lit;
			}
			f++;
		}
		f++;
		while (*f && strchr("-+ #0", *f))
			f++;
		if (*f == '*') {
			slot(c, L, &n, K_INT);
			f++;
		} else {
			while (isdigit(*f))
				f++;
		}
		if (*f == '.') {
			f++;
			if (*f == '*') {
				prec = star_precision(slot(c, L, &n, K_PREC));
				f++;
			} else if (isdigit(*f)) {
				const unsigned char *d = f;

				while (isdigit(*f))
					f++;
				prec = digit_precision(d, f - d);
			}
		}
		if (*f && strchr("hlLzt", *f)) {
			q = *f++;
			if ((q == 'l' || q == 'h') && *f == q) {
				q = q == 'l' ? 'L' : 'H';
				f++;
			}
		}
		conv = *f;
		if (!conv)
			goto out;
		f++;
		switch (conv) {
		case '%':
			break;
		case 'c':
			slot(c, L, &n, K_INT);
			break;
		case 'd': case 'i': case 'o': case 'u': case 'x': case 'X':
			slot(c, L, &n, q == 'L' || q == 'l' || q == 'z' || q == 't' ? K_LONG : K_INT);
			break;
		case 's':
			v = slot(c, L, &n, K_STR);
			if (!any && deref_ok(v)) {
				const char *s = (const char *)v;
				size_t lim = strlen(s);

				if (prec >= 0 && (size_t)prec < lim)
					lim = prec;
				for (size_t i = 0; i < lim && !any; i++)
					if (s[i] == '[')
						any = tag_in(s + i, lim - i);
			}
			break;
		case 'p':
			if (*f == 'V') {
				v = slot(c, L, &n, K_VAF);
				*vaf = true;
				goto out;
			}
			slot(c, L, &n, K_PTR);
			while (isalnum(*f))
				f++;
			break;
		default:	/* %n, unknown conversion: vsnprintf() stops */
			goto out;
		}
	}
out:
	if (!*class)
		*class = *vaf ? lit : any;
	c->lv[L].generated = true;
	return *vaf ? v : 0;
}

/* The expected caller's format and class, starting at level @start. */
static struct expect model(struct ctx *c, int start)
{
	struct expect e = { c->lv[start].fmt, 0 };
	int L = start;

	for (int depth = 0; ; depth++) {
		bool vaf;
		long v = model_walk(c, L, &e.class, &vaf);

		if (!vaf || depth == PRINTK_MSGID_MAX_DEPTH || !deref_ok(v))
			break;
		if (v == (long)&c->nofmt || v == (long)&c->nova)
			break;
		L = (struct va_format *)v - c->vafs;
		if (L < 0 || L >= c->nlev)
			fail("model: bad level %d", L);
		e.fmt = c->lv[L].fmt;
	}
	return e;
}

/* ---- checks ------------------------------------------------------------ */

static void dump(struct ctx *c)
{
	fprintf(stderr, "texts:\n");
	for (int i = 0; i < c->ntexts; i++) {
		fprintf(stderr, "  [%d] %s %p \"", i,
			c->heap[i] ? "heap" : "rodata", (void *)c->text[i]);
		for (const char *s = c->text[i]; *s; s++)
			fprintf(stderr, isprint((unsigned char)*s) ? "%c" : "\\x%02x",
				(unsigned char)*s);
		fprintf(stderr, "\"\n");
	}
	for (int L = 0; L < c->nlev; L++) {
		fprintf(stderr, "level %d: vaf %p fmt %p slots", L, (void *)&c->vafs[L],
			(void *)c->lv[L].fmt);
		for (int i = 0; i < c->lv[L].nslots; i++)
			fprintf(stderr, " %#lx", c->lv[L].slots[i]);
		fprintf(stderr, "\n");
	}
	fprintf(stderr, "nofmt %p nova %p\n", (void *)&c->nofmt, (void *)&c->nova);
}

static bool supplied(struct ctx *c, const char *fmt)
{
	for (int L = 0; L < c->nlev; L++)
		if (c->lv[L].fmt == fmt)
			return true;
	return false;
}

static void check_render(u32 id)
{
	char buf[PRINTK_MSGID_PREFIX_LEN + 4], want[PRINTK_MSGID_PREFIX_LEN + 1];
	char *end;

	memset(buf, 0x5a, sizeof(buf));
	end = printk_msgid_render(buf, id);
	snprintf(want, sizeof(want), "(%08x): ", id);
	if (end != buf + PRINTK_MSGID_PREFIX_LEN ||
	    memcmp(buf, want, PRINTK_MSGID_PREFIX_LEN))
		fail("render(%08x) gave \"%.12s\", end +%td", id, buf, end - buf);
	for (size_t i = PRINTK_MSGID_PREFIX_LEN; i < sizeof(buf); i++)
		if (buf[i] != 0x5a)
			fail("render(%08x) wrote past the prefix", id);
}

/* Canonical form, hash and rendering of one format, against the reference. */
static void check_pure(const char *fmt)
{
	size_t len = (size_t)-1, rlen;
	const char *can = printk_msgid_canonical(fmt, &len);
	const char *rcan = ref_canonical(fmt, &rlen);
	u32 id = printk_msgid_hash(fmt);

	if (can != rcan || len != rlen)
		fail("canonical(\"%s\"): +%td len %zu, want +%td len %zu",
		     fmt, can - fmt, len, rcan - fmt, rlen);
	if (id != ref_id(fmt))
		fail("hash(\"%s\") = %08x, want %08x", fmt, id, ref_id(fmt));
	check_render(id);
}

static long stat_count[PRINTK_MSGID_NR_CLASSES];
static u32 stat_last[PRINTK_MSGID_NR_CLASSES];
static const char *const class_names[] = {
	"none", "hardware", "firmware-bug", "firmware-warn", "firmware-info", "deprecated",
};

/* <debugfs>/printk/msgid must show what this target counted. */
static void check_stats(void)
{
	char got[1024], want[1024];
	struct seq_file m = { got, sizeof(got), 0 };
	int n;

	got[0] = '\0';
	shim_debugfs_fops->show(&m, NULL);
	n = snprintf(want, sizeof(want), "# class count last_id\n");
	for (int i = 0; i < PRINTK_MSGID_NR_CLASSES; i++) {
		if (stat_count[i])
			n += snprintf(want + n, sizeof(want) - n, "%s %ld %08x\n",
				      class_names[i], stat_count[i], stat_last[i]);
		else
			n += snprintf(want + n, sizeof(want) - n, "%s 0 -\n", class_names[i]);
	}
	if (strcmp(got, want))
		fail("debugfs stats:\n%s\nwant:\n%s", got, want);
}

static void check_get(struct ctx *c, int L, va_list args, const char *what)
{
	const struct expect *e = &c->exp[L];
	struct printk_msgid m;

	memset(&m, 0x5a, sizeof(m));
	printk_msgid_get(&m, c->lv[L].fmt, args);
	if (m.fmt != e->fmt || (int)m.class != e->class || !supplied(c, m.fmt) ||
	    m.class >= PRINTK_MSGID_NR_CLASSES || m.id != ref_id(e->fmt) ||
	    m.id != printk_msgid_hash(m.fmt)) {
		dump(c);
		fail("%s get from level %d: fmt %p class %d id %08x; want fmt %p class %d id %08x",
		     what, L, (void *)m.fmt, (int)m.class, m.id, (void *)e->fmt, e->class,
		     ref_id(e->fmt));
	}
}

extern struct static_key_false printk_msgid_key;

/* In the frame of level 0: every level's va_list is live. */
static void run_checks(struct ctx *c, va_list args0)
{
	char buf[PRINTK_MSGID_PREFIX_LEN + 4];
	const struct expect *e = &c->exp[0];
	u16 n;

	c->nofmt = (struct va_format){ NULL, c->vafs[0].va };
	c->nova = (struct va_format){ c->text[0], NULL };

	for (int L = 0; L < c->nlev; L++) {
		check_get(c, L, *c->vafs[L].va, "cold");
		check_get(c, L, *c->vafs[L].va, "warm");
	}
	check_get(c, 0, args0, "again");

	memset(buf, 0x5a, sizeof(buf));
	n = __printk_msgid_prefix(buf, c->lv[0].fmt, args0);
	stat_count[e->class]++;
	stat_last[e->class] = ref_id(e->fmt);
	if (n != PRINTK_MSGID_PREFIX_LEN || buf[PRINTK_MSGID_PREFIX_LEN] != 0x5a)
		fail("__printk_msgid_prefix returned %u", n);
	check_stats();

	/* The inline wrapper: only facility 0, only when switched on. */
	static_branch_disable(&printk_msgid_key);
	if (printk_msgid_prefix(buf, 0, c->lv[0].fmt, args0))
		fail("printk_msgid_prefix with the switch off");
	static_branch_enable(&printk_msgid_key);
	if (printk_msgid_prefix(buf, 1, c->lv[0].fmt, args0))
		fail("printk_msgid_prefix for facility 1");
	if (printk_msgid_prefix(buf, 0, c->lv[0].fmt, args0) != PRINTK_MSGID_PREFIX_LEN)
		fail("printk_msgid_prefix for facility 0");
	stat_count[e->class]++;
	stat_last[e->class] = ref_id(e->fmt);
	char want[PRINTK_MSGID_PREFIX_LEN + 1];

	snprintf(want, sizeof(want), "(%08x): ", ref_id(e->fmt));
	if (memcmp(buf, want, PRINTK_MSGID_PREFIX_LEN))
		fail("prefix \"%.12s\", want \"%s\"", buf, want);
}

#define S8(a, i)  a[i], a[i + 1], a[i + 2], a[i + 3], a[i + 4], a[i + 5], a[i + 6], a[i + 7]
#define S64(a)	  S8(a, 0), S8(a, 8), S8(a, 16), S8(a, 24), S8(a, 32), S8(a, 40), \
		  S8(a, 48), S8(a, 56)

/* One frame, one va_list per level, from the outermost level in. */
static noinline void call_level(struct ctx *c, int L, ...)
{
	va_list ap;

	va_start(ap, L);
	c->vafs[L].fmt = c->lv[L].fmt;
	c->vafs[L].va = &ap;
	if (L == 0)
		run_checks(c, ap);
	else
		call_level(c, L - 1, S64(c->lv[L - 1].slots));
	va_end(ap);
}

/* ---- libFuzzer --------------------------------------------------------- */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const struct {
		const char *s;
		u32 id;
	} vectors[] = {	/* from Documentation/admin-guide/msgid.rst and the KUnit table */
		{ "123456789", 0xcbf43926 },
		{ "", 0 },
		{ "a", 0xe8b7be43 },
		{ "%s %s: %pV", 0xb28752d5 },
		{ "\0016Hello %s\n", 0x1fd761ca },
		{ "PIIX3: Enabling Passive Release\n", 0xed0153ad },
	};
	const char *env = getenv("MSGID_FUZZ_KERNEL_PRECISION");
	char buf[PAGE_SIZE];

	kernel_precision = env && *env == '1';
	env = getenv("MSGID_FUZZ_VERBOSE");
	verbose = env && *env == '1';
	ref_crc_init();
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		if (ref_id(vectors[i].s) != vectors[i].id)
			fail("reference CRC of \"%s\" is %08x", vectors[i].s, ref_id(vectors[i].s));
		check_pure(vectors[i].s);
	}
	ro_init();

	/* The initcall, both ways, and the parameter. */
	shim_debugfs_lookup_result = &shim_debugfs_dir;
	shim_late_initcall();
	shim_debugfs_fops = NULL;
	shim_debugfs_lookup_result = NULL;
	shim_late_initcall();
	if (!shim_debugfs_fops)
		fail("msgid_debugfs_init created no file");
	check_stats();

	static_key_initialized = false;
	if (shim_early_param("1") || static_key_enabled(&printk_msgid_key))
		fail("early param before jump labels");
	static_key_initialized = true;
	if (shim_early_param(NULL) || !static_key_enabled(&printk_msgid_key))
		fail("early param \"printk.msgid\"");
	if (shim_param_ops->set("0", NULL) || static_key_enabled(&printk_msgid_key) ||
	    shim_param_ops->get(buf, NULL) != 2 || strcmp(buf, "N\n"))
		fail("printk.msgid=0");
	if (shim_param_ops->set("bogus", NULL) != -EINVAL ||
	    static_key_enabled(&printk_msgid_key))
		fail("printk.msgid=bogus");
	if (shim_param_ops->set("on", NULL) || !static_key_enabled(&printk_msgid_key) ||
	    shim_param_ops->get(buf, NULL) != 2 || strcmp(buf, "Y\n"))
		fail("printk.msgid=on");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctx *c = calloc(1, sizeof(*c));
	const char *p = (const char *)data, *end = p + size, *nul;
	unsigned int place, high, want;

	if (!c)
		return 0;
	/* Byte 0: the number of texts; each ends at a NUL; the rest is the program. */
	want = size ? data[0] % MAX_TEXTS + 1 : 1;
	if (size)
		p++;
	while (c->ntexts < (int)want) {
		nul = memchr(p, '\0', end - p);
		size_t n = (nul ? nul : end) - p;
		char *h = malloc((n > MAX_TEXT ? MAX_TEXT : n) + 1);

		if (!h)
			abort();
		c->len[c->ntexts] = n > MAX_TEXT ? MAX_TEXT : n;
		memcpy(h, p, c->len[c->ntexts]);
		h[c->len[c->ntexts]] = '\0';
		c->heap[c->ntexts++] = h;
		p = nul ? nul + 1 : end;
		if (!nul)
			break;
	}
	c->prog = (struct prog){ (const unsigned char *)p, (size_t)(end - p), 0 };

	/* Program bytes 0 and 1: where each text lives (bit clear: .rodata). */
	place = next(&c->prog);
	high = next(&c->prog);
	for (int i = 0; i < c->ntexts; i++) {
		const char *ro = NULL;

		if (!(place >> (i % 8) & 1))
			ro = ro_intern(c->heap[i], c->len[i], high >> (i % 8) & 1);
		if (ro) {
			free(c->heap[i]);
			c->heap[i] = NULL;
			c->text[i] = ro;
		} else {
			c->text[i] = c->heap[i];
		}
		check_pure(c->text[i]);
	}

	c->lv[0].fmt = c->text[0];
	c->nlev = 1;
	for (int L = 0; L < c->nlev; L++)	/* c->nlev grows as levels are made */
		c->exp[L] = model(c, L);
	for (int L = c->nlev; L < MAX_LEVELS; L++)
		c->lv[L].fmt = c->text[0];
	if (verbose) {
		dump(c);
		for (int L = 0; L < c->nlev; L++)
			fprintf(stderr, "from level %d expect fmt %p class %d id %08x\n", L,
				(void *)c->exp[L].fmt, c->exp[L].class, ref_id(c->exp[L].fmt));
	}

	call_level(c, MAX_LEVELS - 1, S64(c->lv[MAX_LEVELS - 1].slots));

	for (int i = 0; i < c->ntexts; i++)
		free(c->heap[i]);
	free(c);
	return 0;
}
