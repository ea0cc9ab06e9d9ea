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
 * cache runs) and which on the heap (exact-size allocations, so ASan sees
 * any over-read); byte 1 puts rodata texts at offsets the cache does not
 * key. The following bytes decide, slot after slot in the order
 * vsnprintf() reads them (depth first: a nested level's slots come right
 * after its %pV, then the rest of the outer format), what each va_list
 * slot holds: integers, precisions, NULL, numbers below PAGE_SIZE,
 * ERR_PTR()s, pointers into the texts for %s, and for %pV a new nested
 * struct va_format (up to 10 nested levels, MAX_LEVELS - 1). The byte
 * after the last slot chooses the CPU of each call.
 *
 * msgid.c does not parse formats: it calls vsnprintf_trace(), which this
 * file defines, from walk(), its rendition of 7.3's __vsnprintf() (format
 * decoding, the va_list slots read, the trace of lib/vsprintf.c.patch).
 * walk() runs twice over the same slots: on the program's values, to make
 * them and to predict every trace (the model), and inside
 * vsnprintf_trace() on the va_list that msgid.c passes on, whose trace
 * must be the predicted one. From the predicted trace this file computes
 * the class by the rule (the first tag in the caller's format, else in
 * its first PRINTF_TRACE_STRS %s as far as printed) and the identifier
 * with its own CRC-32 of its own canonical form.
 *
 * A va_list cannot be built at run time, so each level is a variadic call
 * with NSLOTS long arguments (call_level()); a format of at most MAX_TEXT
 * bytes consumes at most 2/3 of its length in slots ("%*c").
 *
 * Checks, for every level as a starting point, printk_msgid_get() twice
 * (cold and warm cache), on the CPU the program chose, against the model;
 * printk_msgid_wanted(), printk_msgid_size() and printk_msgid_prefix() as
 * vprintk_store() calls them; the per-CPU count of formats hashed
 * (printk_msgid_hashed_here()) against what the cache rules allow; the
 * debugfs statistics summed over the CPUs. At start-up, a boot: records
 * before, during and after setup_per_cpu_areas(), the early initcall,
 * the late initcall, the parameters. Any mismatch aborts with a
 * description, so libFuzzer keeps the input.
 */
#include <linux/err.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/printk_msgid.h>
#include <linux/sprintf.h>
#include <linux/debugfs.h>
#include <asm/sections.h>

#include <ctype.h>
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
#define PRECISION_MAX	32767	/* lib/vsprintf.c, set_precision() */
#define BOOT_CPU	(NR_CPUS - 1)	/* not 0 */

/* ---- the shim's globals ------------------------------------------------ */

char *shim_rodata_start, *shim_rodata_end;
bool static_key_initialized;
struct dentry shim_debugfs_dir;
struct dentry *shim_debugfs_lookup_result;
const struct file_operations *shim_debugfs_fops;
int shim_cpu;
unsigned long shim_per_cpu_offset[NR_CPUS];

/* Defined in msgid.c by the shim's initcalls, early_param(), module_param_cb(). */
extern int (*shim_early_initcall)(void);
extern int (*shim_late_initcall)(void);
extern int (*shim_early_param)(char *);
extern const struct kernel_param_ops *shim_param_ops;

static bool verbose;

#define fail(...) do {							\
	fprintf(stderr, "fuzz_msgid: " __VA_ARGS__);			\
	fputc('\n', stderr);						\
	abort();							\
} while (0)

void shim_percpu_bad(const void *ptr, int cpu)
{
	fail("per_cpu_ptr(%p, %d): not a per-CPU variable, or not a possible CPU", ptr, cpu);
}

/* ---- per-CPU areas ----------------------------------------------------- */

static char *percpu_area[NR_CPUS];

static void boot_record(bool percpu, int class, const char *fmt, ...);

/*
 * As x86's: every CPU gets a copy of the static image, counts included;
 * the boot CPU (the current one) moves to its copy last, after a record
 * printed while it still uses the image.
 */
static void setup_per_cpu_areas(void)
{
	size_t size = __stop_shim_percpu - __start_shim_percpu;

	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		percpu_area[cpu] = malloc(size);
		if (!percpu_area[cpu])
			fail("malloc");
		memcpy(percpu_area[cpu], __start_shim_percpu, size);
		if (cpu != shim_cpu)
			shim_per_cpu_offset[cpu] = (unsigned long)percpu_area[cpu] -
						   (unsigned long)__start_shim_percpu;
	}
	boot_record(false, PRINTK_MSGID_NONE, "percpu: Embedded %u pages/cpu", 1);
	shim_per_cpu_offset[shim_cpu] = (unsigned long)percpu_area[shim_cpu] -
					(unsigned long)__start_shim_percpu;
}

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

/*
 * Whether msgid.c's cache keys @p: by its rule, a non-zero offset in
 * vmlinux .rodata that fits the key; 32-bit kernels have no cache.
 */
static bool kept(const char *p)
{
#ifdef CONFIG_64BIT
	return p > shim_rodata_start && p < shim_rodata_start + RO_KEYED;
#else
	return false;
#endif
}

/* Kept formats msgid.c has identified so far: the first time is a miss. */
static u32 *seen_tab;
static size_t seen_nr;

/* Note @p as seen; return whether it was already. */
static bool seen_add(const char *p)
{
	u32 off = (u32)(p - shim_rodata_start);	/* kept: 0 < off < 2^28 */
	u32 i = (off * 0x9e3779b1u) & (RO_TAB - 1);

	for (; seen_tab[i]; i = (i + 1) & (RO_TAB - 1))
		if (seen_tab[i] == off)
			return true;
	if (seen_nr >= RO_TAB / 4 * 3)
		fail("too many formats for the seen table");
	seen_tab[i] = off;
	seen_nr++;
	return false;
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

struct ctx {
	const char *text[MAX_TEXTS];	/* where each text lives */
	char *heap[MAX_TEXTS];		/* to free */
	size_t len[MAX_TEXTS];
	int ntexts;
	struct prog prog;
	struct level lv[MAX_LEVELS];
	int nlev;
	struct va_format vafs[MAX_LEVELS];
	struct printf_trace want[MAX_LEVELS];	/* the trace from each level */
	unsigned int cpus;		/* bit k % 8: the CPU of call k */
	int ncalls;
};

static struct ctx *cur;		/* for dump() from vsnprintf_trace() */

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

/* The first tag in the @n bytes at @s, or 0. */
static int first_tag(const char *s, size_t n)
{
	int t;

	for (size_t i = 0; i < n; i++)
		if (s[i] == '[' && (t = tag_in(s + i, n - i)))
			return t;
	return 0;
}

/* lib/vsprintf.c's check_pointer_msg() passes. */
static bool deref_ok(long v)
{
	return (unsigned long)v >= PAGE_SIZE && !IS_ERR_VALUE((unsigned long)v);
}

static const int prec_values[] = {
	-1, -2, -100, INT_MIN, 0, 1, 2, 3, 5, 12, 18, 40, 32767, 32768, 65537, INT_MAX,
};

/*
 * A value for a slot of kind @k, from the program. A %pV gets NULL, a
 * number below PAGE_SIZE, an ERR_PTR() or a new nested level; never a
 * va_format of an enclosing level (vsnprintf() would recurse forever) nor
 * one with a NULL fmt or va (it would crash): those choices (3, 4, 5 of
 * the old encoding) are new levels too. With no level left, a bad pointer.
 */
static long gen_value(struct ctx *c, enum kind k)
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
		if ((b & 7) >= 3 && c->nlev >= MAX_LEVELS)
			b = (b >> 3) % 3;
		switch (b & 7) {
		case 0:
			return 0;
		case 1:
			return (long)((b >> 3) * 129 + 1) % PAGE_SIZE;
		case 2:
			return (long)ERR_PTR(-(long)(b >> 3) * 127 - 1);
		default:
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
	v = gen_value(c, k);
	lv->slots[(*n)++] = v;
	lv->nslots = *n;
	return v;
}

/* ---- the walk: 7.3's __vsnprintf(), as far as it reads and traces ------- */

/* lib/ctype.c: Latin-1 letters count, but not 0xd7 and 0xf7. */
static bool k_isdigit(unsigned char ch)
{
	return ch >= '0' && ch <= '9';
}

static bool k_isalnum(unsigned char ch)
{
	return k_isdigit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= 0xc0 && ch != 0xd7 && ch != 0xf7);
}

static bool spec_flag(unsigned char ch)
{
	return ch == ' ' || ch == '#' || ch == '+' || ch == '-' || ch == '0';
}

static int set_precision(int prec)
{
	return prec < 0 ? 0 : prec > PRECISION_MAX ? PRECISION_MAX : prec;
}

/*
 * Where a walk reads its arguments: the model (level @level of @c, slots
 * generated the first time and replayed after), or a va_list (@ap).
 */
struct src {
	struct ctx *c;
	int level;
	int n;			/* arguments read */
	va_list *ap;
};

static long arg(struct src *s, enum kind k)
{
	if (!s->ap)
		return slot(s->c, s->level, &s->n, k);
	s->n++;
	switch (k) {
	case K_INT:
	case K_PREC:
		return va_arg(*s->ap, int);
	case K_LONG:
		return va_arg(*s->ap, long long);
	default:
		return (long)va_arg(*s->ap, void *);
	}
}

static void walk(struct src *src, const char *fmt, struct printf_trace *trace);

/* lib/vsprintf.c, va_format(): the nested format with a copy of its va_list. */
static void follow(struct src *src, long v, struct printf_trace *trace)
{
	if (src->ap) {
		const struct va_format *vaf = (const struct va_format *)v;
		va_list va;
		struct src sub = { .ap = &va };

		if (trace) {
			trace->fmt = vaf->fmt;
			trace->nstr = 0;
		}
		va_copy(va, *vaf->va);
		walk(&sub, vaf->fmt, trace);
		va_end(va);
	} else {
		struct ctx *c = src->c;
		unsigned long off = (unsigned long)v - (unsigned long)c->vafs;
		int M = (int)(off / sizeof(c->vafs[0]));

		if ((unsigned long)v < (unsigned long)c->vafs || M >= c->nlev ||
		    off % sizeof(c->vafs[0]))
			fail("model: %%pV %#lx is no level", v);
		struct src sub = { .c = c, .level = M };

		if (trace) {
			trace->fmt = c->lv[M].fmt;
			trace->nstr = 0;
		}
		walk(&sub, c->lv[M].fmt, trace);
	}
}

/*
 * Walk @fmt as 7.3's __vsnprintf() with format_decode() does: read the
 * arguments it reads, follow every %pV it formats, stop where it stops
 * (an invalid conversion: %n, an unknown letter, a qualifier without a
 * conversion, a '%' at the end). While @trace is set, note each %s in it;
 * a %pV that passes check_pointer_msg() takes the trace into its format,
 * and the rest of this format is not traced (trace = NULL). A %pV that
 * does not pass is printed as "(null)" or "(efault)" by pointer(), and
 * the trace stays with this format, for its later %s and %pV.
 */
static void walk(struct src *src, const char *fmt, struct printf_trace *trace)
{
	const unsigned char *f = (const unsigned char *)fmt;

	for (;;) {
		int prec = -1, size = sizeof(int);
		long v;

		while (*f && *f != '%')
			f++;
		if (!*f)
			break;
		while (spec_flag(*++f))
			;
		if (k_isdigit(*f)) {
			while (k_isdigit(*f))
				f++;
		} else if (*f == '*') {
			arg(src, K_INT);
			f++;
		}
		if (*f == '.') {
			f++;
			if (k_isdigit(*f)) {
				u32 i = 0;	/* skip_atoi(), int wrapping (-fno-strict-overflow) */

				do
					i = i * 10 + (*f++ - '0');
				while (k_isdigit(*f));
				prec = set_precision((int)i);
			} else if (*f == '*') {
				prec = set_precision((int)arg(src, K_PREC));
				f++;
			}
		}
		switch (*f) {
		case 'l':
			size = sizeof(long long);
			f += f[1] == 'l' ? 2 : 1;
			break;
		case 'h':
			size = f[1] == 'h' ? 1 : 2;
			f += f[1] == 'h' ? 2 : 1;
			break;
		case 'H':
			size = 1;
			f++;
			break;
		case 'L':
		case 'z':
		case 't':
			size = 8;
			f++;
			break;
		}
		switch (*f++) {
		case '%':
			continue;
		case 'c':
			arg(src, K_INT);
			continue;
		case 'd': case 'i': case 'o': case 'u': case 'x': case 'X':
			arg(src, size > (int)sizeof(int) ? K_LONG : K_INT);
			continue;
		case 's':
			v = arg(src, K_STR);
			if (trace) {
				if (trace->nstr < PRINTF_TRACE_STRS) {
					trace->str[trace->nstr].s = deref_ok(v) ? (const char *)v : NULL;
					trace->str[trace->nstr].precision = prec;
				}
				trace->nstr++;
			}
			continue;
		case 'p':
			v = arg(src, *f == 'V' ? K_VAF : K_PTR);
			if (*f == 'V') {
				/*
				 * The first %pV ends the trace of this level. One
				 * printed as "(null)" or "(efault)" is not followed,
				 * and this wrapper's %s are not recorded.
				 */
				if (deref_ok(v))
					follow(src, v, trace);
				else if (trace)
					trace->nstr = 0;
				trace = NULL;
			}
			while (k_isalnum(*f))
				f++;
			continue;
		default:
			goto out;
		}
	}
out:
	if (!src->ap)
		src->c->lv[src->level].generated = true;
}

/* The trace vsnprintf_trace() reports for a printk() of level @L's format. */
static void model(struct ctx *c, int L, struct printf_trace *t)
{
	struct src src = { .c = c, .level = L };

	memset(t, 0, sizeof(*t));
	t->fmt = c->lv[L].fmt;
	walk(&src, c->lv[L].fmt, t);
}

/* Entries of the trace past nstr: msgid.c must not look at them. */
static char trace_poison[32] __aligned(32);

/* When set, what the next vsnprintf_trace() must report. */
static const struct printf_trace *want_trace;

static void dump(struct ctx *c);

static bool same_trace(const struct printf_trace *a, const struct printf_trace *b)
{
	if (a->fmt != b->fmt || a->nstr != b->nstr)
		return false;
	for (unsigned int i = 0; i < a->nstr && i < PRINTF_TRACE_STRS; i++)
		if (a->str[i].s != b->str[i].s || a->str[i].precision != b->str[i].precision)
			return false;
	return true;
}

static void print_trace(const char *what, const struct printf_trace *t)
{
	fprintf(stderr, "%s: fmt %p nstr %u", what, (void *)t->fmt, t->nstr);
	for (unsigned int i = 0; i < t->nstr && i < PRINTF_TRACE_STRS; i++)
		fprintf(stderr, " {%p %d}", (void *)t->str[i].s, t->str[i].precision);
	fprintf(stderr, "\n");
}

/*
 * The fuzz build's vsnprintf_trace(): it only sizes (@size must be 0) and
 * returns 0, which msgid.c does not use. It reads @args as the kernel's
 * does on x86_64: the caller's va_list is consumed. Entries of @trace
 * past nstr, which the kernel's leaves stale or uninitialised, point into
 * ASan-poisoned memory.
 */
int vsnprintf_trace(char *buf, size_t size, const char *fmt, va_list args,
		    struct printf_trace *trace)
{
	va_list ap;
	struct src src = { .ap = &ap };

	if (size)
		fail("vsnprintf_trace() of the fuzz build only sizes: size %zu", size);
	trace->fmt = fmt;
	trace->nstr = 0;
	va_copy(ap, args);
	walk(&src, fmt, trace);
	va_end(ap);
	while (src.n--)		/* every argument here is one 8-byte slot */
		(void)va_arg(args, long);
	for (unsigned int i = trace->nstr; i < PRINTF_TRACE_STRS; i++) {
		trace->str[i].s = trace_poison;
		trace->str[i].precision = -1;
	}
	if (want_trace && !same_trace(trace, want_trace)) {
		if (cur)
			dump(cur);
		print_trace("want", want_trace);
		print_trace("got", trace);
		fail("vsnprintf_trace(\"%s\") saw other arguments than predicted", fmt);
	}
	return 0;
}

/*
 * The class by the rule: the first tag in the caller's format, else in
 * the first PRINTF_TRACE_STRS %s, each as far as vsnprintf() prints it.
 * @looked: set to the %s strings msgid.c's cache is asked about (no
 * precision), in order; @nlooked their number.
 */
static int want_class(const struct printf_trace *t, const char **looked, int *nlooked)
{
	size_t len;
	const char *can = ref_canonical(t->fmt, &len);
	int class = first_tag(can, len);

	*nlooked = 0;
	for (unsigned int i = 0; !class && i < t->nstr && i < PRINTF_TRACE_STRS; i++) {
		const char *s = t->str[i].s;
		int p = t->str[i].precision;

		if (!s)
			continue;
		if (p < 0)
			looked[(*nlooked)++] = s;
		class = first_tag(s, p < 0 ? strlen(s) : strnlen(s, p));
	}
	return class;
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
	for (int L = 0; L < c->nlev; L++) {
		char what[32];

		snprintf(what, sizeof(what), "trace from level %d", L);
		print_trace(what, &c->want[L]);
	}
	fprintf(stderr, "cpus %#x\n", c->cpus);
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

/*
 * What the target counted: records per class and the last identifier of
 * each (printk_msgid_prefix()); formats hashed during boot up to the
 * early initcall, in all, and from there on per CPU (hashed_want), from
 * what each CPU's count was then (hashed_base).
 */
static long stat_count[PRINTK_MSGID_NR_CLASSES];
static u32 stat_last[PRINTK_MSGID_NR_CLASSES];
static unsigned long hashed_boot, hashed_want[NR_CPUS], hashed_base[NR_CPUS];
static const char *const class_names[] = {
	"none", "hardware", "firmware-bug", "firmware-warn", "firmware-info", "deprecated",
};

/*
 * The cache as far as its rules let this target know it: the kept format
 * of the last identification, and whether its entry is surely still there
 * (1: no string was put since), surely gone (-1: a string at the same
 * offset took the slot) or either (0).
 */
static const char *last_fmt;
static int last_fmt_state;

/* Before an identification on @cpu: the CPU's count is the expected one. */
static unsigned long id_begin(int cpu)
{
	unsigned long h;

	shim_cpu = cpu;
	h = printk_msgid_hashed_here();
	if (h != hashed_want[cpu])
		fail("CPU %d has hashed %lu formats, want %lu", cpu, h, hashed_want[cpu]);
	return h;
}

/*
 * After an identification of trace @t begun at count @h0: the format was
 * hashed once or answered by the cache, as the cache's rules allow.
 */
static void id_end(const struct printf_trace *t, unsigned long h0, const char *what)
{
	unsigned long d = printk_msgid_hashed_here() - h0;
	const char *f = t->fmt, *looked[PRINTF_TRACE_STRS];
	int must = -1, nlooked;

	(void)want_class(t, looked, &nlooked);
	if (!kept(f))
		must = 1;		/* not keyed: hashed every time */
	else if (!seen_add(f))
		must = 1;		/* first time */
	else if (f == last_fmt && last_fmt_state)
		must = last_fmt_state > 0 ? 0 : 1;
	if (d > 1 || (must >= 0 && d != (unsigned long)must)) {
		if (cur)
			dump(cur);
		fail("%s: \"%s\" (%s) hashed %lu times, want %s", what, f,
		     kept(f) ? "kept" : "not kept", d, must < 0 ? "0 or 1" : must ? "1" : "0");
	}
	hashed_want[shim_cpu] += d;

	last_fmt = kept(f) ? f : NULL;
	last_fmt_state = 1;
	for (int i = 0; i < nlooked; i++) {
		if (!kept(looked[i]))
			continue;
		if (looked[i] == f)
			last_fmt_state = -1;
		else if (last_fmt_state > 0)
			last_fmt_state = 0;
	}
}

/* <debugfs>/printk/msgid: the sums over the CPUs of what this target counted. */
static void check_stats(void)
{
	char got[1024], want[1024];
	struct seq_file m = { got, sizeof(got), 0 };
	unsigned long hashed = hashed_boot;
	int n;

	got[0] = '\0';
	shim_debugfs_fops->show(&m, NULL);
	n = snprintf(want, sizeof(want), "# class count last_id\n");
	for (int i = 0; i < PRINTK_MSGID_NR_CLASSES; i++) {
		if (i && stat_count[i])
			n += snprintf(want + n, sizeof(want) - n, "%s %ld %08x\n",
				      class_names[i], stat_count[i], stat_last[i]);
		else
			n += snprintf(want + n, sizeof(want) - n, "%s %ld -\n",
				      class_names[i], stat_count[i]);
	}
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		hashed += hashed_want[cpu] - hashed_base[cpu];
	snprintf(want + n, sizeof(want) - n, "# formats hashed: %lu\n", hashed);
	if (strcmp(got, want))
		fail("debugfs stats:\n%s\nwant:\n%s", got, want);
}

static int next_cpu(struct ctx *c)
{
	return ((c->cpus >> (c->ncalls++ % 8)) & 1) % NR_CPUS;
}

static void check_get(struct ctx *c, int L, va_list args, const char *what)
{
	const struct printf_trace *w = &c->want[L];
	const char *looked[PRINTF_TRACE_STRS];
	int nlooked, class = want_class(w, looked, &nlooked);
	struct printk_msgid m;
	unsigned long h0;

	memset(&m, 0x5a, sizeof(m));
	h0 = id_begin(next_cpu(c));
	want_trace = w;
	printk_msgid_get(&m, c->lv[L].fmt, args);
	want_trace = NULL;
	if (m.fmt != w->fmt || (int)m.class != class || !supplied(c, m.fmt) ||
	    m.class >= PRINTK_MSGID_NR_CLASSES || m.id != ref_id(w->fmt) ||
	    m.id != printk_msgid_hash(m.fmt)) {
		dump(c);
		fail("%s get from level %d: fmt %p class %d id %08x; want fmt %p class %d id %08x",
		     what, L, (void *)m.fmt, (int)m.class, m.id, (void *)w->fmt, class,
		     ref_id(w->fmt));
	}
	id_end(w, h0, what);
}

/* As vprintk_store() does: ask, size with vsnprintf_trace(), write the prefix. */
static void check_prefix(struct ctx *c, va_list args0)
{
	char buf[PRINTK_MSGID_PREFIX_LEN + 4], want[PRINTK_MSGID_PREFIX_LEN + 1];
	const struct printf_trace *w = &c->want[0];
	const char *looked[PRINTF_TRACE_STRS];
	int nlooked, class = want_class(w, looked, &nlooked);
	struct printk_msgid m;
	unsigned long h0;
	va_list args2;
	u16 n;

	static_branch_disable(&printk_msgid_key);
	if (printk_msgid_wanted(0))
		fail("printk_msgid_wanted(0) with the switch off");
	static_branch_enable(&printk_msgid_key);
	if (printk_msgid_wanted(1) || printk_msgid_wanted(3))
		fail("printk_msgid_wanted() for a facility other than 0");
	if (!printk_msgid_wanted(0))
		fail("printk_msgid_wanted(0) with the switch on");

	/* vprintk_store(): printk_msgid_size() sizes and identifies. */
	va_copy(args2, args0);
	want_trace = w;
	h0 = id_begin(next_cpu(c));
	printk_msgid_size(NULL, 0, c->lv[0].fmt, args2, &m);
	id_end(w, h0, "size");
	want_trace = NULL;
	va_end(args2);

	memset(buf, 0x5a, sizeof(buf));
	n = printk_msgid_prefix(buf, &m);
	stat_count[class]++;
	stat_last[class] = ref_id(w->fmt);
	snprintf(want, sizeof(want), "(%08x): ", ref_id(w->fmt));
	if (n != PRINTK_MSGID_PREFIX_LEN || memcmp(buf, want, PRINTK_MSGID_PREFIX_LEN))
		fail("printk_msgid_prefix() returned %u, \"%.12s\"; want \"%s\"", n, buf, want);
	for (size_t i = PRINTK_MSGID_PREFIX_LEN; i < sizeof(buf); i++)
		if (buf[i] != 0x5a)
			fail("printk_msgid_prefix() wrote past the prefix");
}

/* In the frame of level 0: every level's va_list is live. */
static void run_checks(struct ctx *c, va_list args0)
{
	for (int L = 0; L < c->nlev; L++) {
		check_get(c, L, *c->vafs[L].va, "cold");
		check_get(c, L, *c->vafs[L].va, "warm");
	}
	check_get(c, 0, args0, "again");
	check_prefix(c, args0);
	check_stats();
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

/* ---- boot -------------------------------------------------------------- */

/*
 * A record stored during boot on the current CPU, of class @class, with a
 * format outside .rodata (hashed every time); @percpu: after the early
 * initcall, when the CPU's count is known.
 */
static void boot_record(bool percpu, int class, const char *fmt, ...)
{
	char buf[PRINTK_MSGID_PREFIX_LEN];
	struct printf_trace t;
	struct printk_msgid m;
	unsigned long h0 = 0;
	va_list ap, ap2;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	vsnprintf_trace(NULL, 0, fmt, ap, &t);
	if (percpu)
		h0 = id_begin(shim_cpu);
	printk_msgid_size(NULL, 0, fmt, ap2, &m);
	va_end(ap2);
	va_end(ap);
	if (printk_msgid_prefix(buf, &m) != PRINTK_MSGID_PREFIX_LEN)
		fail("boot: printk_msgid_prefix()");
	if (percpu)
		id_end(&t, h0, "boot");
	else
		hashed_boot++;
	stat_count[class]++;
	stat_last[class] = ref_id(fmt);
}

/*
 * start_kernel() as msgid.c sees it, on BOOT_CPU: the early parameter
 * before and after jump labels, records before setup_per_cpu_areas()
 * (while every CPU's per-CPU data is the static image), during it (after
 * the copy, the boot CPU still on the image) and after it, the early
 * initcall, a record after it; each CPU's count (nothing on the CPUs
 * that have not run: the copy of the image would have multiplied counts)
 * and the sums in debugfs (every record counted once); the late initcall
 * (debugfs), both ways; the parameter.
 */
static void boot(void)
{
	char buf[PAGE_SIZE];

	shim_cpu = BOOT_CPU;
	static_key_initialized = false;
	if (shim_early_param("1") || static_key_enabled(&printk_msgid_key))
		fail("early param before jump labels");
	static_key_initialized = true;
	if (shim_early_param(NULL) || !static_key_enabled(&printk_msgid_key))
		fail("early param \"printk.msgid\"");

	boot_record(false, PRINTK_MSGID_HW_ERR, HW_ERR "boot %s", "early");
	boot_record(false, PRINTK_MSGID_NONE, "%.3s", FW_BUG);	/* "[Fi": no tag printed */
	setup_per_cpu_areas();
	boot_record(false, PRINTK_MSGID_FW_BUG, "%s", FW_BUG "set up");
	if (shim_early_initcall())
		fail("msgid_stats_init() failed");
	/*
	 * The other CPUs have not run: nothing counted there (copies of the
	 * image would be). The boot CPU's count may hold what it hashed (all
	 * early records count in the debugfs sum, wherever they are kept).
	 */
	for (int cpu = 0; cpu < NR_CPUS; cpu++) {
		shim_cpu = cpu;
		hashed_want[cpu] = hashed_base[cpu] = printk_msgid_hashed_here();
		if (cpu != BOOT_CPU && hashed_want[cpu])
			fail("CPU %d, not up yet, has hashed %lu formats", cpu, hashed_want[cpu]);
	}
	shim_cpu = BOOT_CPU;
	boot_record(true, PRINTK_MSGID_DEPRECATED, DEPRECATED "%s", "per-CPU");

	shim_debugfs_lookup_result = &shim_debugfs_dir;
	shim_late_initcall();
	shim_debugfs_fops = NULL;
	shim_debugfs_lookup_result = NULL;
	shim_late_initcall();
	if (!shim_debugfs_fops)
		fail("msgid_debugfs_init created no file");
	check_stats();

	if (shim_param_ops->set("0", NULL) || static_key_enabled(&printk_msgid_key) ||
	    shim_param_ops->get(buf, NULL) != 2 || strcmp(buf, "N\n"))
		fail("printk.msgid=0");
	if (shim_param_ops->set("bogus", NULL) != -EINVAL ||
	    static_key_enabled(&printk_msgid_key))
		fail("printk.msgid=bogus");
	if (shim_param_ops->set("on", NULL) || !static_key_enabled(&printk_msgid_key) ||
	    shim_param_ops->get(buf, NULL) != 2 || strcmp(buf, "Y\n"))
		fail("printk.msgid=on");
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
	const char *env = getenv("MSGID_FUZZ_VERBOSE");

	verbose = env && *env == '1';
	ref_crc_init();
	for (size_t i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		if (ref_id(vectors[i].s) != vectors[i].id)
			fail("reference CRC of \"%s\" is %08x", vectors[i].s, ref_id(vectors[i].s));
		check_pure(vectors[i].s);
	}
	ro_init();
	seen_tab = calloc(RO_TAB, sizeof(*seen_tab));
	if (!seen_tab)
		fail("calloc");
	ASAN_POISON_MEMORY_REGION(trace_poison, sizeof(trace_poison));
	boot();
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

	/* The walk from level 0 makes every level; the others replay. */
	c->lv[0].fmt = c->text[0];
	c->nlev = 1;
	for (int L = 0; L < c->nlev; L++)
		model(c, L, &c->want[L]);
	for (int L = c->nlev; L < MAX_LEVELS; L++)
		c->lv[L].fmt = c->text[0];
	c->cpus = next(&c->prog);
	cur = c;
	if (verbose) {
		const char *looked[PRINTF_TRACE_STRS];
		int nlooked;

		dump(c);
		for (int L = 0; L < c->nlev; L++)
			fprintf(stderr, "from level %d expect fmt %p class %d id %08x\n", L,
				(void *)c->want[L].fmt, want_class(&c->want[L], looked, &nlooked),
				ref_id(c->want[L].fmt));
	}

	call_level(c, MAX_LEVELS - 1, S64(c->lv[MAX_LEVELS - 1].slots));

	cur = NULL;
	for (int i = 0; i < c->ntexts; i++)
		free(c->heap[i]);
	free(c);
	return 0;
}
