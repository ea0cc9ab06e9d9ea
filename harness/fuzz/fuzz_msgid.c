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
 * va_format, a %s argument, the literal of a %pAl argument or what the
 * Rust formatter prints for %pA/%pAl. Program bytes 0 to 2 choose where
 * each text lives (enum place): the shim's ".rodata" (interned, never
 * rewritten, so that msgid.c's cache runs; keyed, beyond the key's reach
 * or __ro_after_init), the heap (exact-size allocations, so ASan sees any
 * over-read), or a range of a fake module (.rodata keyed; data,
 * __ro_after_init, init .rodata not), byte 3 which module; byte 4 makes
 * modules go and come back with other texts at the same addresses, or
 * their entries dropped (enum event). The following bytes decide, slot
 * after slot in the order vsnprintf() reads them (depth first: a nested
 * level's slots come right after its %pV, then the rest of the outer
 * format), what each va_list slot holds: integers, widths, precisions,
 * NULL, numbers below PAGE_SIZE, ERR_PTR()s, pointers into the texts for
 * %s, for %pV a new nested struct va_format (up to 10 nested levels, MAX_LEVELS - 1), for
 * %pAl a struct rust_fmt_literal. The byte after the last slot chooses
 * the CPU of each call.
 *
 * msgid.c does not format: it calls vsnprintf() or vsnprintf_trace(),
 * which this file defines (the shim's sprintf.h routes vsnprintf() to
 * shim_vsnprintf()), from walk(), its rendition of 7.3's __vsnprintf()
 * (format decoding, the va_list slots read, the text printed, the trace
 * of lib/vsprintf.c.patch: the innermost format and pos, where its
 * output starts). walk() runs twice over the same slots: on the
 * program's values, to make them and to predict every text and trace
 * (the model), and inside vsnprintf()/vsnprintf_trace() on the va_list
 * that msgid.c passes on, whose text and trace must be the predicted
 * ones, through the function the rule says (vsnprintf() for a format
 * without %pV/%pA). From the prediction this file computes the class by
 * the rule (the first tag in the caller's format, else, if it has a %s
 * and no %pV/%pA, the first tag in the text it printed, as the record
 * keeps it) and the identifier with its own CRC-32 of its own canonical
 * form.
 *
 * A va_list cannot be built at run time, so each level is a variadic call
 * with NSLOTS long arguments (call_level()); a format of at most MAX_TEXT
 * bytes consumes at most 2/3 of its length in slots ("%*c").
 *
 * Checks, for every level as a starting point, printk_msgid_get() twice
 * (cold and warm cache), on the CPU the program chose, against the model;
 * printk_msgid_wanted(), printk_msgid_vscnprintf() and printk_msgid_classify() as
 * vprintk_store() calls them; the per-CPU count of formats hashed
 * (printk_msgid_hashed_here()) against what the cache rules allow; the
 * debugfs statistics summed over the CPUs. At start-up, a boot: records
 * before, during and after setup_per_cpu_areas(), the early initcall,
 * the late initcall, the parameters. Any mismatch aborts with a
 * description, so libFuzzer keeps the input.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/pgtable.h>
#include <linux/printk.h>
#include <linux/printk_msgid.h>
#include <linux/rcupdate.h>
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
#define FIELD_WIDTH_MAX	((1 << 23) - 1)	/* lib/vsprintf.c, set_field_width() */
#define MAX_LITS	8	/* struct rust_fmt_literal arguments of %pAl */
#define RECORD_MAX	1024	/* kernel/printk/internal.h, PRINTKRB_RECORD_MAX */
#define TEXT_CAP	RECORD_MAX	/* text kept by the model: a record's at most */

/*
 * KNOWN_SCAN_TO_END: msgid.c looks for a %s-printed tag from where the
 * caller's text starts to the end of the record, through any text a
 * wrapper prints after the caller's (the trace reports where the
 * caller's text starts, not where it ends). That is the rule as
 * Documentation/admin-guide/msgid.rst states it; 0 fuzzes a stricter
 * rule (the caller's text only).
 * KNOWN_H_MISSED: msgid_conversions() once missed the qualifier 'H'
 * (fixed); 1 models that bug, for break-test.
 * KNOWN_GOING_PRINTK: 1 prints a format of a module after its
 * MODULE_STATE_GOING notifier, before it is freed, as an async function
 * it scheduled may (delete_module() waits for them after the notifier);
 * msgid.c once keyed it again, and the entry outlived the module (fixed:
 * a going module's formats are not keyed); 0 leaves that print out.
 */
#ifndef KNOWN_SCAN_TO_END
#define KNOWN_SCAN_TO_END	1
#endif
#ifndef KNOWN_H_MISSED
#define KNOWN_H_MISSED		0
#endif
#ifndef KNOWN_GOING_PRINTK
#define KNOWN_GOING_PRINTK	1
#endif
#define BOOT_CPU	(NR_CPUS - 1)	/* not 0 */

/* ---- the shim's globals ------------------------------------------------ */

char *shim_rodata_start, *shim_rodata_end;
char *shim_ro_after_init_start, *shim_ro_after_init_end;
unsigned long shim_modules_vaddr;
int shim_rcu_nesting;
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

/* ---- where texts live: .rodata, the module area, the heap -------------- */

/*
 * msgid.c keys a format by its offset in its region (vmlinux .rodata, or
 * the module area from MODULES_VADDR) if that offset is below 2^35: a
 * 25-bit tag (bits 38..62 of an entry) and the 10-bit slot.
 */
#define KEY_REACH	(1ULL << 35)

/*
 * The shim's .rodata: texts interned in one of three parts, never
 * rewritten. Keyed texts from offset 0; __ro_after_init data right after
 * them (in .rodata, as in vmlinux.lds, but never keyed); texts at offsets
 * the cache does not key in a second mapping at KEY_REACH. The hole
 * between them is reserved PROT_NONE and never poisoned: ASan's shadow of
 * 32 GiB is not written.
 */
#define RO_KEYED	(1UL << 27)
#define RO_AI_SIZE	(1UL << 20)
#define RO_HIGH_SIZE	(1UL << 22)
#define RO_TAB		(1u << 20)

enum ro_part { RO_LOW, RO_AI, RO_HIGH, RO_PARTS };

static const struct {
	unsigned long start, size;
} ro_parts[RO_PARTS] = {
	[RO_LOW] = { 0, RO_KEYED },
	[RO_AI] = { RO_KEYED, RO_AI_SIZE },
	[RO_HIGH] = { KEY_REACH, RO_HIGH_SIZE },
};

static struct ro_ent {
	u64 hash;
	u32 off;	/* from the start of its part */
	u32 len;
	u8 part;
	bool used;
} *ro_tab;
static size_t ro_nr, ro_next[RO_PARTS];

static u64 fnv1a(const char *s, size_t n, u64 h)
{
	while (n--)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

/* Map @size bytes at @addr exactly (NULL: anywhere), or stop. */
static char *map_at(void *addr, size_t size, int prot)
{
	void *p = mmap(addr, size, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
		       (addr ? MAP_FIXED : 0), -1, 0);

	if (p == MAP_FAILED)
		fail("mmap of %zu bytes failed", size);
	return p;
}

static void ro_init(void)
{
	/* The whole span, reserved; then the two parts made writable. */
	shim_rodata_start = map_at(NULL, KEY_REACH + RO_HIGH_SIZE, PROT_NONE);
	shim_rodata_end = shim_rodata_start + KEY_REACH + RO_HIGH_SIZE;
	map_at(shim_rodata_start, RO_KEYED + RO_AI_SIZE, PROT_READ | PROT_WRITE);
	map_at(shim_rodata_start + KEY_REACH, RO_HIGH_SIZE, PROT_READ | PROT_WRITE);
	for (int i = 0; i < RO_PARTS; i++)
		ASAN_POISON_MEMORY_REGION(shim_rodata_start + ro_parts[i].start, ro_parts[i].size);
	shim_ro_after_init_start = shim_rodata_start + RO_KEYED;
	shim_ro_after_init_end = shim_ro_after_init_start + RO_AI_SIZE;
	ro_tab = calloc(RO_TAB, sizeof(*ro_tab));
	if (!ro_tab)
		fail("calloc");
}

/*
 * Write @s (@len bytes and a NUL) at @dst, in a poisoned arena, and
 * return where the next text may start: after a poisoned gap of at least
 * 8 bytes, at any alignment (the compiler merges format strings at any
 * byte), from @h.
 */
static size_t arena_put(char *dst, size_t at, const char *s, size_t len, u64 h)
{
	ASAN_UNPOISON_MEMORY_REGION(dst, len + 1);
	memcpy(dst, s, len);
	dst[len] = '\0';
	return ((at + len + 1 + 7) & ~7ul) + 8 + (h >> 61);
}

/* The most arena_put() takes for a text of @len bytes. */
#define TEXT_ROOM(len)	((len) + 1 + 7 + 8 + 7)

/*
 * The address of @s in .rodata part @part, or NULL when the part or its
 * index is full: a format at a given address never changes, as in the
 * kernel. The first text of RO_LOW is at offset 0, which is keyed.
 */
static const char *ro_intern(const char *s, size_t len, enum ro_part part)
{
	u64 h = fnv1a(s, len, 0xcbf29ce484222325ull + part);
	char *base = shim_rodata_start + ro_parts[part].start;
	u32 i = (u32)h & (RO_TAB - 1);

	for (;; i = (i + 1) & (RO_TAB - 1)) {
		struct ro_ent *e = &ro_tab[i];

		if (!e->used)
			break;
		if (e->hash == h && e->len == len && e->part == part &&
		    !memcmp(base + e->off, s, len))
			return base + e->off;
	}
	if (ro_nr >= RO_TAB / 4 * 3 || ro_next[part] + len + 1 + 16 > ro_parts[part].size)
		return NULL;

	char *dst = base + ro_next[part];

	ro_tab[i] = (struct ro_ent){ h, (u32)ro_next[part], (u32)len, part, true };
	ro_nr++;
	ro_next[part] = arena_put(dst, ro_next[part], s, len, h);
	return dst;
}

/*
 * The module area: NMODS fake modules, each with four ranges of MOD_RANGE
 * bytes (MOD_SPAN apart, so that no address is in two): .rodata (its
 * formats are keyed), writable data, __ro_after_init data and init
 * .rodata (never keyed: written at init, or freed after it). Modules 0 to
 * 2 are in the area from MODULES_VADDR on (module 0's .rodata at offset
 * 0, as vmlinux's first text: only the region bit tells them apart);
 * module 3 is below MODULES_VADDR (as a module allocated outside the area
 * may be): its offset wraps, too large to key.
 *
 * A module stays loaded, its ranges filled as .rodata is (interned, never
 * rewritten), until the target unloads it: MODULE_STATE_GOING to the
 * notifiers, then its ranges are wiped (poisoned, filled with 0xa5) and
 * it is loaded again (COMING, LIVE) at the same addresses, where the next
 * texts will be different ones. Interned texts are looked up linearly:
 * a range holds at most MOD_RANGE / 9 of them.
 */
#define NMODS		4
#define MOD_BELOW	3		/* the module below MODULES_VADDR */
#define MOD_RANGE	(16u << 10)
#define MOD_SPAN	(4 * 2 * MOD_RANGE)

enum mod_range { MR_RODATA, MR_DATA, MR_AI, MR_INIT, MOD_RANGES };

static const enum mod_mem_type mr_type[MOD_RANGES] = {
	[MR_RODATA] = MOD_RODATA, [MR_DATA] = MOD_DATA,
	[MR_AI] = MOD_RO_AFTER_INIT, [MR_INIT] = MOD_INIT_RODATA,
};

struct fake_mod {
	struct module mod;
	char *base;
	size_t next[MOD_RANGES];
	struct { u32 off, len; u64 hash; } ent[MOD_RANGES][MOD_RANGE / 9];
	int nent[MOD_RANGES];
	u8 seen[MOD_RANGE / 8];	/* .rodata formats identified since loaded */
	bool loaded;
};

static struct fake_mod mods[NMODS];
static char *mod_area;		/* from module MOD_BELOW's span on */

/* The notifiers msgid.c registered (one with CONFIG_MODULES, 64-bit). */
static struct notifier_block *notifiers[4];
static int nnotifiers;

int register_module_notifier(struct notifier_block *nb)
{
	for (int i = 0; i < nnotifiers; i++)
		if (notifiers[i] == nb)
			fail("register_module_notifier(): %p registered twice", (void *)nb);
	if (nnotifiers == 4)
		fail("register_module_notifier(): more than 4");
	notifiers[nnotifiers++] = nb;
	return 0;
}

void shim_rcu_bad(void)
{
	fail("rcu_read_unlock() without rcu_read_lock()");
}

/*
 * As the kernel's: the module with any memory at @addr, among those
 * loaded (their ranges are in the module tree); in an RCU read-side
 * critical section, or the module may be freed under the caller.
 */
struct module *__module_address(unsigned long addr)
{
	if (shim_rcu_nesting <= 0)
		fail("__module_address(%#lx) outside an RCU read-side critical section", addr);
	for (int m = 0; m < NMODS; m++) {
		if (!mods[m].loaded)
			continue;
		for (int t = 0; t < MOD_MEM_NUM_TYPES; t++)
			if (within_module_mem_type(addr, &mods[m].mod, t))
				return &mods[m].mod;
	}
	return NULL;
}

/* The loaded module with @p in its range @r, or NULL. */
static struct fake_mod *mod_of(const char *p, enum mod_range r)
{
	for (int m = 0; m < NMODS; m++)
		if (mods[m].loaded &&
		    (unsigned long)(p - mods[m].base - 2 * MOD_RANGE * r) < MOD_RANGE)
			return &mods[m];
	return NULL;
}

static void mod_notify(struct fake_mod *fm, unsigned long state)
{
	fm->mod.state = state;
	for (int i = 0; i < nnotifiers; i++)
		if (notifiers[i]->notifier_call(notifiers[i], state, &fm->mod) & ~NOTIFY_OK)
			fail("module notifier: not NOTIFY_DONE or NOTIFY_OK");
	if (shim_rcu_nesting)
		fail("module notifier left an RCU read-side critical section open");
}

static void mod_load(struct fake_mod *fm)
{
	fm->loaded = true;
	mod_notify(fm, MODULE_STATE_COMING);
	mod_notify(fm, MODULE_STATE_LIVE);
}

static void mod_init(void)
{
	static const char *const names[NMODS] = { "fuzz0", "fuzz1", "fuzz2", "fuzz_below" };

	mod_area = map_at(NULL, (NMODS + 1) * MOD_SPAN, PROT_READ | PROT_WRITE);
	ASAN_POISON_MEMORY_REGION(mod_area, (NMODS + 1) * MOD_SPAN);
	shim_modules_vaddr = (unsigned long)mod_area + MOD_SPAN;
	for (int m = 0; m < NMODS; m++) {
		struct fake_mod *fm = &mods[m];

		fm->base = m == MOD_BELOW ? mod_area : mod_area + (m + 1) * MOD_SPAN;
		fm->mod.name = names[m];
		fm->mod.state = MODULE_STATE_UNFORMED;
		for (int t = 0; t < MOD_MEM_NUM_TYPES; t++)
			fm->mod.mem[t].base = fm->base + MOD_SPAN - 1;	/* size 0 */
		for (int r = 0; r < MOD_RANGES; r++) {
			fm->mod.mem[mr_type[r]].base = fm->base + 2 * MOD_RANGE * r;
			fm->mod.mem[mr_type[r]].size = MOD_RANGE;
		}
		mod_load(fm);
	}
}

static void forget_module_formats(const struct fake_mod *only);
static void going_printk(const char *fmt);

/*
 * Unload module @fm (MODULE_STATE_GOING; its memory freed: wiped here)
 * and load it again at the same addresses, empty.
 */
static void mod_reload(struct fake_mod *fm)
{
	mod_notify(fm, MODULE_STATE_GOING);
	/*
	 * Until free_module(), the module is found (going); a function it
	 * scheduled with async_schedule() may still print one of its formats
	 * here: delete_module() runs async_synchronize_full() after the
	 * notifier.
	 */
	if (KNOWN_GOING_PRINTK && fm->nent[MR_RODATA])
		going_printk(fm->base + 2 * MOD_RANGE * MR_RODATA + fm->ent[MR_RODATA][0].off);
	fm->loaded = false;
	fm->mod.state = MODULE_STATE_UNFORMED;
	for (int r = 0; r < MOD_RANGES; r++) {
		char *p = fm->base + 2 * MOD_RANGE * r;
		size_t n = fm->next[r] < MOD_RANGE ? fm->next[r] : MOD_RANGE;

		/* What was written; the rest was never unpoisoned. */
		ASAN_UNPOISON_MEMORY_REGION(p, n);
		memset(p, 0xa5, n);
		ASAN_POISON_MEMORY_REGION(p, n);
		fm->next[r] = 0;
		fm->nent[r] = 0;
	}
	forget_module_formats(fm);
	mod_load(fm);
}

/* Whether range @r of @fm has room for texts of @need bytes in all. */
static bool mod_room(const struct fake_mod *fm, enum mod_range r, size_t need)
{
	return fm->next[r] + need <= MOD_RANGE;
}

/* The address of @s in range @r of module @fm, or NULL when it is full. */
static const char *mod_intern(struct fake_mod *fm, enum mod_range r, const char *s, size_t len)
{
	u64 h = fnv1a(s, len, 0xcbf29ce484222325ull);
	char *base = fm->base + 2 * MOD_RANGE * r;

	for (int i = 0; i < fm->nent[r]; i++)
		if (fm->ent[r][i].hash == h && fm->ent[r][i].len == len &&
		    !memcmp(base + fm->ent[r][i].off, s, len))
			return base + fm->ent[r][i].off;
	if (!mod_room(fm, r, TEXT_ROOM(len)))
		return NULL;
	fm->ent[r][fm->nent[r]].off = (u32)fm->next[r];
	fm->ent[r][fm->nent[r]].len = (u32)len;
	fm->ent[r][fm->nent[r]++].hash = h;
	base += fm->next[r];
	fm->next[r] = arena_put(base, fm->next[r], s, len, h);
	return base;
}

/*
 * Whether msgid.c's cache keys @p, by its rule: an offset below KEY_REACH
 * in vmlinux .rodata but not in __ro_after_init data, or in the module
 * area where it is in a loaded module's .rodata (with CONFIG_MODULES;
 * offset 0 included, in either region). 32-bit kernels have no cache.
 */
static bool kept(const char *p)
{
#ifdef CONFIG_64BIT
	unsigned long a = (unsigned long)p;

	if (a - (unsigned long)shim_rodata_start < (unsigned long)(shim_rodata_end - shim_rodata_start))
		return a - (unsigned long)shim_rodata_start < KEY_REACH &&
		       a - (unsigned long)shim_ro_after_init_start >= RO_AI_SIZE;
#ifdef CONFIG_MODULES
	if (mod_of(p, MR_RODATA))
		return a - shim_modules_vaddr < KEY_REACH;
#endif
#endif
	return false;
}

/*
 * Kept formats msgid.c has identified so far, and since when: the first
 * time is a miss. vmlinux's in an open-addressing table of offset + 1,
 * never cleared (its .rodata never changes); a module's in its bitmap,
 * cleared when it goes (its entries must go with it).
 */
static u32 *seen_tab;
static size_t seen_nr;

/*
 * The cache as far as its rules let this target know it: the kept format
 * looked up last, whose entry is surely still there. A kept format looked
 * up before, but not last, may have lost its slot to another, or (a
 * module's) to a module that went.
 */
static const char *last_kept;

/* Note @p as seen; return whether it was already. */
static bool seen_add(const char *p)
{
	struct fake_mod *fm = mod_of(p, MR_RODATA);

	if (fm) {
		size_t off = p - fm->base;
		bool was = fm->seen[off / 8] >> (off % 8) & 1;

		fm->seen[off / 8] |= 1 << (off % 8);
		return was;
	}

	u32 key = (u32)(p - shim_rodata_start) + 1;	/* kept: off < RO_KEYED */
	u32 i = (key * 0x9e3779b1u) & (RO_TAB - 1);

	for (; seen_tab[i]; i = (i + 1) & (RO_TAB - 1))
		if (seen_tab[i] == key)
			return true;
	if (seen_nr >= RO_TAB / 4 * 3)
		fail("too many formats for the seen table");
	seen_tab[i] = key;
	seen_nr++;
	return false;
}

/*
 * A module went (@only), or printk_msgid_drop_modules() forgot them all
 * (NULL): the formats of @only, or of every module, are not seen any
 * more (the next lookup must hash them); other modules' may have lost
 * their entries too (msgid.c drops every module's), so no module format
 * is surely still in its slot.
 */
static void forget_module_formats(const struct fake_mod *only)
{
	for (int m = 0; m < NMODS; m++)
		if (!only || only == &mods[m])
			memset(mods[m].seen, 0, sizeof(mods[m].seen));
	if (last_kept && (unsigned long)(last_kept - mod_area) < (NMODS + 1) * MOD_SPAN)
		last_kept = NULL;
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

enum kind { K_INT, K_PREC, K_LONG, K_PTR, K_STR, K_VAF, K_LIT };

/*
 * What the model says a printk() of one level's format prints and
 * traces: its text (the first TEXT_CAP characters; at least what
 * vprintk_store() and printk_msgid_get() keep), its length as
 * vsnprintf() returns it, and the trace as vsnprintf_trace() makes it
 * (fmt, pos), with where the output of fmt ends (end), which
 * vsnprintf_trace() does not report.
 */
struct mtrace {
	const char *fmt;
	size_t pos, end;
};

struct mres {
	struct mtrace t;
	size_t len;
	char text[TEXT_CAP + 1];
};

struct level {
	const char *fmt;
	long slots[NSLOTS];
	int nslots;
	bool generated;
};

/* Where a text lives: bit i % 8 of program bytes 0, 1, 2 are its bits 0, 1, 2. */
enum place {
	P_RODATA,		/* vmlinux .rodata: keyed */
	P_HEAP,			/* an exact-size heap allocation */
	P_HIGH,			/* vmlinux .rodata at offset 2^35 and up: not keyed */
	P_RO_AFTER_INIT,	/* vmlinux __ro_after_init data: not keyed */
	P_MOD_RODATA,		/* a module's .rodata: keyed (not below MODULES_VADDR) */
	P_MOD_DATA,		/* a module's writable data: not keyed */
	P_MOD_AI,		/* a module's __ro_after_init data: not keyed */
	P_MOD_INIT,		/* a module's init .rodata: not keyed */
};

/* Program byte 4: what happens to the modules (bits 0..3: reload module k first). */
enum event {
	EV_DROP_FIRST = 1 << 4,	/* printk_msgid_drop_modules() first */
	EV_DROP_WARM = 1 << 5,	/* ... and before each warm call */
	EV_GO_WARM = 1 << 6,	/* reload the modules without a text of the input, before each warm call */
	EV_ROUND2 = 1 << 7,	/* a second round, the input's modules reloaded (see below) */
};

struct ctx {
	const char *text[MAX_TEXTS];	/* where each text lives */
	char *heap[MAX_TEXTS];		/* its exact-size copy: to free */
	size_t len[MAX_TEXTS];
	int ntexts;
	u8 place[MAX_TEXTS];		/* enum place */
	u8 mod[MAX_TEXTS];		/* its module, if in one */
	struct prog prog;
	struct level lv[MAX_LEVELS];
	int nlev;
	struct va_format vafs[MAX_LEVELS];
	struct rust_fmt_literal lits[MAX_LITS];	/* %pAl arguments */
	int nlits;
	unsigned int events;		/* enum event */
	struct mres want[MAX_LEVELS];	/* the model's result from each level */
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
	case K_LIT:
		if ((b & 7) >= 3 && c->nlits >= MAX_LITS)
			b = (b >> 3) % 3;
		switch (b & 7) {
		case 0:
			return 0;
		case 1:
			return (long)((b >> 3) * 129 + 1) % PAGE_SIZE;
		case 2:
			return (long)ERR_PTR(-(long)(b >> 3) * 127 - 1);
		default:
			/* args: the text Rust prints; fmt: a text, or NULL (next byte odd) */
			b2 = next(&c->prog);
			c->lits[c->nlits].args = c->text[(b >> 3) % c->ntexts];
			c->lits[c->nlits].fmt = b2 & 1 ? NULL : c->text[(b2 >> 1) % c->ntexts];
			return (long)&c->lits[c->nlits++];
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

static int set_field_width(int w)
{
	return w < -FIELD_WIDTH_MAX ? -FIELD_WIDTH_MAX : w > FIELD_WIDTH_MAX ? FIELD_WIDTH_MAX : w;
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

/*
 * The output of a walk: the first @cap characters are kept in @buf (none
 * when @buf is NULL), @n counts them all, as vsnprintf()'s return value
 * counts them. Field widths go up to FIELD_WIDTH_MAX: padding is counted,
 * not looped over, past what is kept.
 */
struct out {
	char *buf;
	size_t cap;
	size_t n;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->buf && o->n < o->cap)
		memcpy(o->buf + o->n, s, n < o->cap - o->n ? n : o->cap - o->n);
	o->n += n;
}

static void pad(struct out *o, char ch, long n)
{
	if (n <= 0)
		return;
	if (o->buf && o->n < o->cap)
		memset(o->buf + o->n, ch, (size_t)n < o->cap - o->n ? (size_t)n : o->cap - o->n);
	o->n += n;
}

/* lib/vsprintf.c's printf_spec flags. */
#define F_SIGN		1
#define F_LEFT		2
#define F_PLUS		4
#define F_SPACE		8
#define F_ZEROPAD	16
#define F_SMALL		32
#define F_SPECIAL	64

struct spec {
	int flags, base, width, prec;
};

/* lib/vsprintf.c, number(), with the same padding rules. */
static void number(struct out *o, unsigned long long num, struct spec sp)
{
	char tmp[24], sign = 0;
	int locase = sp.flags & F_SMALL, i = 0;
	int need_pfx = (sp.flags & F_SPECIAL) && sp.base != 10;
	bool is_zero = num == 0;
	long w = sp.width, prec = sp.prec;

	if (sp.flags & F_LEFT)
		sp.flags &= ~F_ZEROPAD;
	if (sp.flags & F_SIGN) {
		if ((long long)num < 0) {
			sign = '-';
			num = -(long long)num;
			w--;
		} else if (sp.flags & F_PLUS) {
			sign = '+';
			w--;
		} else if (sp.flags & F_SPACE) {
			sign = ' ';
			w--;
		}
	}
	if (need_pfx) {
		if (sp.base == 16)
			w -= 2;
		else if (!is_zero)
			w--;
	}
	do {
		tmp[i++] = "0123456789ABCDEF"[num % sp.base] | (num % sp.base >= 10 ? locase : 0);
		num /= sp.base;
	} while (num);
	if (i > prec)
		prec = i;
	w -= prec;
	if (!(sp.flags & (F_ZEROPAD | F_LEFT))) {
		pad(o, ' ', w);
		w = w > 0 ? 0 : w;
	}
	if (sign)
		put(o, &sign, 1);
	if (need_pfx) {
		if (sp.base == 16 || !is_zero)
			put(o, "0", 1);
		if (sp.base == 16)
			put(o, locase ? "x" : "X", 1);
	}
	if (!(sp.flags & F_LEFT)) {
		pad(o, sp.flags & F_ZEROPAD ? '0' : ' ', w);
		w = w > 0 ? 0 : w;
	}
	pad(o, '0', prec - i);
	while (--i >= 0)
		put(o, &tmp[i], 1);
	pad(o, ' ', w);
}

/* string_nocheck() and widen_string(): @s up to its precision, padded. */
static void string(struct out *o, const char *s, struct spec sp)
{
	size_t n = sp.prec < 0 ? strlen(s) : strnlen(s, sp.prec);

	if (!(sp.flags & F_LEFT))
		pad(o, ' ', (long)sp.width - (long)n);
	put(o, s, n);
	if (sp.flags & F_LEFT)
		pad(o, ' ', (long)sp.width - (long)n);
}

/* error_string(): at most 16 characters without a precision. */
static void error_string(struct out *o, const char *s, struct spec sp)
{
	if (sp.prec < 0)
		sp.prec = 2 * sizeof(void *);
	string(o, s, sp);
}

/* check_pointer_msg() */
static const char *bad_ptr(long v)
{
	return !v ? "(null)" : deref_ok(v) ? NULL : "(efault)";
}

/*
 * rust_fmt_argument() stands in here for the Rust formatter: it prints
 * the text its core::fmt::Arguments points to (one of the input's texts).
 */
static void rust_print(struct out *o, long args)
{
	if (deref_ok(args))
		put(o, (const char *)args, strlen((const char *)args));
	else
		put(o, "(efault)", 8);
}

static void walk(struct src *src, const char *fmt, struct out *o, struct mtrace *t);

/* lib/vsprintf.c, va_format(): the nested format with a copy of its va_list. */
static void follow(struct src *src, long v, struct out *o, struct mtrace *t)
{
	if (src->ap) {
		const struct va_format *vaf = (const struct va_format *)v;
		va_list va;
		struct src sub = { .ap = &va };

		va_copy(va, *vaf->va);
		walk(&sub, vaf->fmt, o, t);
		va_end(va);
	} else {
		struct ctx *c = src->c;
		unsigned long off = (unsigned long)v - (unsigned long)c->vafs;
		int M = (int)(off / sizeof(c->vafs[0]));

		if ((unsigned long)v < (unsigned long)c->vafs || M >= c->nlev ||
		    off % sizeof(c->vafs[0]))
			fail("model: %%pV %#lx is no level", v);
		struct src sub = { .c = c, .level = M };

		walk(&sub, c->lv[M].fmt, o, t);
	}
}

/* The format of a %pV that follow() walks. */
static const char *vaf_fmt(struct src *src, long v)
{
	if (src->ap)
		return ((const struct va_format *)v)->fmt;
	return src->c->lv[((unsigned long)v - (unsigned long)src->c->vafs) /
			   sizeof(src->c->vafs[0])].fmt;
}

/*
 * Format @fmt into @o as 7.3's __vsnprintf() with format_decode() does:
 * read the arguments it reads, print what it prints (every conversion
 * but %p's extensions, which print "(____ptrval____)" as a plain %p does
 * before the pointer hash is ready; %pA/%pAl print rust_print()), follow
 * every %pV it formats, stop where it stops (an invalid conversion: %n,
 * an unknown letter, a qualifier without a conversion, a '%' at the end).
 *
 * While @t is set, this format is traced (lib/vsprintf.c.patch): its
 * first %pV or %pAl ends its trace. A %pV that passes check_pointer_msg()
 * takes the trace into its format, fmt and pos += what this format printed
 * before it; one that does not is printed as "(null)" or "(efault)" and
 * the trace stays with this format (and a later good %pV is not
 * followed). A %pAl whose literal is not NULL takes it to the literal,
 * whose text is what rust_print() prints. The format the trace stays
 * with sets t->end where its output ends.
 */
static void walk(struct src *src, const char *fmt, struct out *o, struct mtrace *t)
{
	const unsigned char *f = (const unsigned char *)fmt, *lit;
	struct mtrace *mine = t;	/* this format's trace: it may end here */
	size_t start = o->n;
	long v;

	for (;;) {
		struct spec sp = { .base = 10, .width = -1, .prec = -1 };
		int size = sizeof(int), ch;

		lit = f;
		while (*f && *f != '%')
			f++;
		put(o, (const char *)lit, f - lit);
		if (!*f)
			break;
		for (;;) {
			ch = *++f;
			if (ch == ' ')
				sp.flags |= F_SPACE;
			else if (ch == '#')
				sp.flags |= F_SPECIAL;
			else if (ch == '+')
				sp.flags |= F_PLUS;
			else if (ch == '-')
				sp.flags |= F_LEFT;
			else if (ch == '0')
				sp.flags |= F_ZEROPAD;
			else
				break;
		}
		if (k_isdigit(*f)) {
			u32 i = 0;	/* skip_atoi(), int wrapping */

			while (k_isdigit(*f))
				i = i * 10 + (*f++ - '0');
			sp.width = set_field_width((int)i);
		} else if (*f == '*') {
			sp.width = set_field_width((int)arg(src, K_INT));
			if (sp.width < 0) {
				sp.width = -sp.width;
				sp.flags |= F_LEFT;
			}
			f++;
		}
		if (*f == '.') {
			f++;
			if (k_isdigit(*f)) {
				u32 i = 0;

				do
					i = i * 10 + (*f++ - '0');
				while (k_isdigit(*f));
				sp.prec = set_precision((int)i);
			} else if (*f == '*') {
				sp.prec = set_precision((int)arg(src, K_PREC));
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
			put(o, "%", 1);
			continue;
		case 'c': {
			char c1 = (char)(unsigned char)arg(src, K_INT);

			if (!(sp.flags & F_LEFT))
				pad(o, ' ', sp.width - 1L);
			put(o, &c1, 1);
			if (sp.flags & F_LEFT)
				pad(o, ' ', sp.width - 1L);
			continue;
		}
		case 'o':
			sp.base = 8;
			goto num;
		case 'x':
			sp.flags |= F_SMALL;
			sp.base = 16;
			goto num;
		case 'X':
			sp.base = 16;
			goto num;
		case 'd': case 'i':
			sp.flags |= F_SIGN;
			goto num;
		case 'u':
		num: {
			unsigned long long num;

			if (size > (int)sizeof(int)) {
				num = (unsigned long long)arg(src, K_LONG);
			} else {
				unsigned int val = (unsigned int)arg(src, K_INT), shift = 32 - size * 8;

				val <<= shift;
				num = sp.flags & F_SIGN ? (unsigned long long)(long long)((int)val >> shift) :
							  val >> shift;
			}
			number(o, num, sp);
			continue;
		}
		case 's':
			v = arg(src, K_STR);
			if (bad_ptr(v))
				error_string(o, bad_ptr(v), sp);
			else
				string(o, (const char *)v, sp);
			continue;
		case 'p':
			if (*f == 'V') {
				v = arg(src, K_VAF);
				if (bad_ptr(v)) {
					error_string(o, bad_ptr(v), sp);
				} else if (t) {
					t->fmt = vaf_fmt(src, v);
					t->pos += o->n - start;
					mine = NULL;
					follow(src, v, o, t);
				} else {
					follow(src, v, o, NULL);
				}
				t = NULL;	/* only the first is followed */
			} else if (*f == 'A') {
				v = arg(src, f[1] == 'l' ? K_LIT : K_PTR);
				if (f[1] != 'l') {
					rust_print(o, v);
				} else if (bad_ptr(v)) {
					error_string(o, bad_ptr(v), sp);
				} else {
					const struct rust_fmt_literal *rl = (const void *)v;

					if (t && rl->fmt) {
						t->fmt = rl->fmt;
						t->pos += o->n - start;
						mine = NULL;
					}
					rust_print(o, (long)rl->args);
					if (t && rl->fmt)
						t->end = o->n;
				}
				if (f[1] == 'l')
					t = NULL;
			} else {
				v = arg(src, K_PTR);
				error_string(o, "(____ptrval____)", sp);
			}
			while (k_isalnum(*f))
				f++;
			continue;
		default:
			goto out;
		}
	}
out:
	if (mine)
		mine->end = o->n;
	if (!src->ap)
		src->c->lv[src->level].generated = true;
}

/* What a printk() of level @L's format prints and traces (the model). */
static void model(struct ctx *c, int L, struct mres *m)
{
	struct src src = { .c = c, .level = L };
	struct out o = { m->text, TEXT_CAP, 0 };

	m->t = (struct mtrace){ c->lv[L].fmt, 0, 0 };
	walk(&src, c->lv[L].fmt, &o, &m->t);
	m->len = o.n;
	m->text[o.n < TEXT_CAP ? o.n : TEXT_CAP] = '\0';
}

/*
 * What msgid.c is expected to call next: vsnprintf_trace() (traced) or
 * vsnprintf() (not), for which model result. NULL: no check (boot).
 */
static struct expect {
	bool traced;
	const struct mres *m;
} *expect;

static void dump(struct ctx *c);

static void print_mres(const char *what, const struct mres *m)
{
	fprintf(stderr, "%s: fmt %p pos %zu end %zu len %zu text \"", what, (void *)m->t.fmt,
		m->t.pos, m->t.end, m->len);
	for (size_t i = 0; i < m->len && i < TEXT_CAP && i < 300; i++)
		fprintf(stderr, isprint((unsigned char)m->text[i]) ? "%c" : "\\x%02x",
			(unsigned char)m->text[i]);
	fprintf(stderr, "\"\n");
}

/*
 * The fuzz build's vsnprintf() and vsnprintf_trace(): walk() on @args,
 * which are consumed as the kernel's consumes them on x86_64 (every
 * argument here is one 8-byte slot), into @buf as vsnprintf() writes it.
 */
static int format_va(char *buf, size_t size, const char *fmt, va_list args,
		     struct printf_trace *trace, const char *who)
{
	va_list ap;
	struct src src = { .ap = &ap };
	struct out o = { buf, size ? size - 1 : 0, 0 };
	struct mtrace t = { fmt, 0, 0 };

	if (size > INT_MAX)
		fail("%s(size %zu)", who, size);
	va_copy(ap, args);
	walk(&src, fmt, &o, trace ? &t : NULL);
	va_end(ap);
	while (src.n--)
		(void)va_arg(args, long);
	if (size)
		buf[o.n < size - 1 ? o.n : size - 1] = '\0';
	if (trace) {
		trace->fmt = t.fmt;
		trace->pos = t.pos;
	}
	if (expect) {
		const struct mres *m = expect->m;
		size_t kept = o.n < o.cap ? o.n : o.cap;

		if (expect->traced != !!trace || o.n != m->len ||
		    (trace && (t.fmt != m->t.fmt || t.pos != m->t.pos)) ||
		    (kept && memcmp(buf, m->text, kept < TEXT_CAP ? kept : TEXT_CAP))) {
			if (cur)
				dump(cur);
			print_mres("want", m);
			fprintf(stderr, "got: %s(), fmt %p pos %zu len %zu\n", who,
				(void *)t.fmt, t.pos, o.n);
			fail("%s(\"%s\"): want %s, fmt %p pos %zu len %zu", who, fmt,
			     expect->traced ? "vsnprintf_trace()" : "vscnprintf()",
			     (void *)m->t.fmt, m->t.pos, m->len);
		}
		expect = NULL;	/* one call per identification */
	}
	return o.n > INT_MAX ? INT_MAX : (int)o.n;
}

int shim_vsnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	return format_va(buf, size, fmt, args, NULL, "vsnprintf");
}

int vsnprintf_trace(char *buf, size_t size, const char *fmt, va_list args,
		    struct printf_trace *trace)
{
	return format_va(buf, size, fmt, args, trace, "vsnprintf_trace");
}

/* The fuzz build's vscnprintf(): vsnprintf(), clamped as 7.3's is. */
int shim_vscnprintf(char *buf, size_t size, const char *fmt, va_list args)
{
	int i = format_va(buf, size, fmt, args, NULL, "vscnprintf");

	if ((size_t)i < size)
		return i;
	return size ? (int)size - 1 : 0;
}

/*
 * The conversions of a format that decide how msgid.c formats it: %pV or
 * %pA (it may pass another format on: formatted with vsnprintf_trace())
 * and %s (its text may hold a tag). msgid_conversions() documents a
 * conservative scan of the canonical form: after a '%', skip the
 * characters of flags, widths, precisions and qualifiers, then look at
 * the conversion (rule_conversions(), written from that description).
 * It may take a '%' that vsnprintf() does not (its text is looked at,
 * or it is traced, for nothing); it must take every one that vsnprintf()
 * does (taken_conversions(), format_decode()'s parse): the union of the
 * two is what msgid.c must find.
 */
#define CONV_FOLLOW	1
#define CONV_STR	2

static int rule_conversions(const char *fmt)
{
	size_t len;
	const char *s = ref_canonical(fmt, &len), *end = s + len;
	int conv = 0;

	while ((s = memchr(s, '%', end - s)) && ++s < end) {
		while (s < end && strchr("-+ #0123456789.*hHlLqjzt", *s))
			s++;
		if (s == end)
			break;
		if (*s == 's')
			conv |= CONV_STR;
		else if (*s == 'p' && s + 1 < end && (s[1] == 'V' || s[1] == 'A'))
			conv |= CONV_FOLLOW;
		s++;
	}
	return conv;
}

static int taken_conversions(const char *fmt)
{
	const unsigned char *f = (const unsigned char *)fmt;
	int conv = 0;
	bool h;

	for (;;) {
		while (*f && *f != '%')
			f++;
		if (!*f)
			return conv;
		f++;
		while (*f == ' ' || *f == '#' || *f == '+' || *f == '-' || *f == '0')
			f++;
		while (k_isdigit(*f) || *f == '*')	/* one of them, as far as s and p go */
			f++;
		if (*f == '.') {
			f++;
			while (k_isdigit(*f) || *f == '*')
				f++;
		}
		h = *f == 'H';
		if (*f == 'l' || *f == 'h')
			f += f[1] == *f ? 2 : 1;
		else if (*f == 'H' || *f == 'L' || *f == 'z' || *f == 't')
			f++;
		if (KNOWN_H_MISSED && h)
			return conv;	/* msgid.c's gap, known: the rest is not looked at */
		switch (*f++) {
		case '%': case 'c': case 'd': case 'i': case 'o': case 'u': case 'x': case 'X':
			continue;
		case 's':
			conv |= CONV_STR;
			continue;
		case 'p':
			if (*f == 'V' || *f == 'A')
				conv |= CONV_FOLLOW;
			while (k_isalnum(*f))
				f++;
			continue;
		default:
			return conv;
		}
	}
}

static int conversions(const char *fmt)
{
	return rule_conversions(fmt) | taken_conversions(fmt);
}

/*
 * What msgid.c must find for a printk() of @fmt whose model result is @m:
 * a format without %pV/%pA is formatted with vscnprintf() and is the caller's
 * format, from position 0 to the end; any other goes through
 * vsnprintf_trace(), and the caller's format is the trace's. The class
 * is the first tag in the caller's format; if it has none, and has a %s
 * but no %pV/%pA, the first tag in the text it printed (pos to end).
 */
struct pred {
	bool traced, scan;
	const char *fmt;
	size_t pos, end;
	int class;
};

static void predict(const char *fmt, const struct mres *m, struct pred *p)
{
	size_t len;
	const char *can;
	int conv;

	p->traced = conversions(fmt) & CONV_FOLLOW;
	p->fmt = p->traced ? m->t.fmt : fmt;
	p->pos = p->traced ? m->t.pos : 0;
	p->end = p->traced ? m->t.end : m->len;
	if (KNOWN_SCAN_TO_END)
		p->end = m->len;
	can = ref_canonical(p->fmt, &len);
	p->class = first_tag(can, len);
	conv = conversions(p->fmt);
	p->scan = !p->class && conv == CONV_STR;
}

/* The class of @p in @text, looked at from @lo to @hi only. */
static int pred_class(const struct pred *p, const char *text, size_t lo, size_t hi)
{
	if (!p->scan)
		return p->class;
	if (lo < p->pos)
		lo = p->pos;
	if (hi > p->end)
		hi = p->end;
	return lo < hi ? first_tag(text + lo, hi - lo) : 0;
}

/* ---- checks ------------------------------------------------------------ */

/* Where @p is, for dump(). */
static void place_name(const char *p, char *buf, size_t size)
{
	static const char *const ranges[MOD_RANGES] = { "rodata", "data", "ro_after_init", "init" };
	unsigned long a = (unsigned long)p;

	if (is_kernel_rodata(a)) {
		snprintf(buf, size, "%s +%#lx", is_kernel_ro_after_init(a) ? "ro_after_init" : "rodata",
			 a - (unsigned long)shim_rodata_start);
		return;
	}
	for (int m = 0; m < NMODS; m++)
		for (int r = 0; r < MOD_RANGES; r++)
			if ((unsigned long)(p - mods[m].base - 2 * MOD_RANGE * r) < MOD_RANGE) {
				snprintf(buf, size, "module %d %s +%#lx", m, ranges[r],
					 a - shim_modules_vaddr);
				return;
			}
	snprintf(buf, size, "heap");
}

static void dump(struct ctx *c)
{
	fprintf(stderr, "texts:\n");
	for (int i = 0; i < c->ntexts; i++) {
		char where[48];

		place_name(c->text[i], where, sizeof(where));
		fprintf(stderr, "  [%d] %s %p%s \"", i, where, (void *)c->text[i],
			kept(c->text[i]) ? " kept" : "");
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
	for (int i = 0; i < c->nlits; i++)
		fprintf(stderr, "literal %p: args %p fmt %p\n", (void *)&c->lits[i],
			c->lits[i].args, (void *)c->lits[i].fmt);
	for (int L = 0; L < c->nlev; L++) {
		char what[32];

		snprintf(what, sizeof(what), "model from level %d", L);
		print_mres(what, &c->want[L]);
	}
	fprintf(stderr, "cpus %#x\n", c->cpus);
}

static bool supplied(struct ctx *c, const char *fmt)
{
	for (int L = 0; L < c->nlev; L++)
		if (c->lv[L].fmt == fmt)
			return true;
	for (int i = 0; i < c->nlits; i++)
		if (c->lits[i].fmt == fmt)
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
 * each (printk_msgid_vscnprintf(), printk_msgid_classify()); formats
 * hashed during boot up to the early initcall, in all, and from there on
 * per CPU (hashed_want), from what each CPU's count was then
 * (hashed_base).
 */
static long stat_count[PRINTK_MSGID_NR_CLASSES];
static u32 stat_last[PRINTK_MSGID_NR_CLASSES];
static unsigned long hashed_boot, hashed_want[NR_CPUS], hashed_base[NR_CPUS];
static const char *const class_names[] = {
	"none", "hardware", "firmware-bug", "firmware-warn", "firmware-info", "deprecated",
};

/*
 * A printk() of @fmt (with zero arguments: NULL pointers print "(null)")
 * outside the checks, on the current CPU, whose hashes are counted.
 */
static noinline void going_printk_va(const char *fmt, ...)
{
	unsigned long h0 = printk_msgid_hashed_here();
	struct printk_msgid m;
	va_list ap;

	va_start(ap, fmt);
	printk_msgid_get(&m, fmt, ap);
	va_end(ap);
	hashed_want[shim_cpu] += printk_msgid_hashed_here() - h0;
}

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
 * After an identification begun at count @h0 that looked up the caller's
 * format of @p and, when traced to another, that one: each was hashed
 * once or answered by the cache, as the cache's rules allow.
 */
static void id_end(const char *fmt, const struct pred *p, unsigned long h0, const char *what)
{
	unsigned long d = printk_msgid_hashed_here() - h0, lo = 0, hi = 0;
	const char *f[2] = { fmt, p->fmt };

	if (shim_rcu_nesting)
		fail("%s: an RCU read-side critical section left open", what);

	for (int i = 0; i < (p->fmt != fmt ? 2 : 1); i++) {
		if (!kept(f[i])) {
			lo++;		/* not keyed: hashed every time */
			hi++;
			continue;
		}
		if (!seen_add(f[i])) {
			lo++;		/* first time */
			hi++;
		} else if (f[i] != last_kept) {
			hi++;		/* another may have taken its slot */
		}
		last_kept = f[i];
	}
	if (d < lo || d > hi) {
		if (cur)
			dump(cur);
		if (p->fmt == fmt)
			fail("%s: \"%s\" (%s) hashed %lu times, want %lu to %lu", what, fmt,
			     kept(fmt) ? "kept" : "not kept", d, lo, hi);
		fail("%s: \"%s\" (%s) and \"%s\" (%s) hashed %lu times, want %lu to %lu", what,
		     fmt, kept(fmt) ? "kept" : "not kept", p->fmt,
		     kept(p->fmt) ? "kept" : "not kept", d, lo, hi);
	}
	hashed_want[shim_cpu] += d;
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

/*
 * printk_msgid_get() from level @L: the caller's format, its identifier
 * and its class in the first 255 characters of the text.
 */
static void check_get(struct ctx *c, int L, va_list args, const char *what)
{
	const struct mres *w = &c->want[L];
	struct expect e;
	struct pred p;
	struct printk_msgid m;
	unsigned long h0;
	int class;

	predict(c->lv[L].fmt, w, &p);
	class = pred_class(&p, w->text, 0, w->len < 255 ? w->len : 255);
	memset(&m, 0x5a, sizeof(m));
	h0 = id_begin(next_cpu(c));
	e = (struct expect){ p.traced, w };
	expect = &e;
	printk_msgid_get(&m, c->lv[L].fmt, args);
	if (expect) {
		dump(c);
		fail("%s get from level %d: neither vscnprintf() nor vsnprintf_trace() called", what, L);
	}
	if (m.fmt != p.fmt || (int)m.class != class || !supplied(c, m.fmt) ||
	    m.class >= PRINTK_MSGID_NR_CLASSES || m.id != ref_id(p.fmt) ||
	    m.id != printk_msgid_hash(m.fmt)) {
		dump(c);
		fail("%s get from level %d: fmt %p class %d id %08x; want fmt %p class %d id %08x",
		     what, L, (void *)m.fmt, (int)m.class, m.id, (void *)p.fmt, class,
		     ref_id(p.fmt));
	}
	id_end(c->lv[L].fmt, &p, h0, what);
}

/* kernel/printk/printk.c, printk_parse_prefix(): the levels that start @text. */
static size_t parse_prefix(const char *text)
{
	size_t n = 0;

	while (text[n] == KERN_SOH_ASCII &&
	       ((text[n + 1] >= '0' && text[n + 1] <= '7') || text[n + 1] == 'c'))
		n += 2;
	return n;
}

/*
 * A record of level 0's format, stored as vprintk_store() stores it:
 * vsnprintf() sizes it (the size, u16, is limited to the record's maximum
 * less the prefix); printk_sprint() formats it after the prefix with
 * printk_msgid_vscnprintf(), which identifies it and writes the prefix of
 * the identifier before it, strips one trailing newline and the leading
 * levels (memmove()); where the class is in the text,
 * printk_msgid_classify() gets the text as stored (in an exact-size
 * buffer: ASan sees any read past it). The record is counted in its class.
 */
static void check_prefix(struct ctx *c, va_list args0)
{
	char want[PRINTK_MSGID_PREFIX_LEN + 1], *rec, *buf;
	const struct mres *w = &c->want[0];
	const char *fmt = c->lv[0].fmt;
	size_t printed, text_len, lead;
	struct printk_msgid m;
	struct expect e;
	struct pred p;
	unsigned long h0;
	u16 reserve;
	bool newline;
	va_list args2;
	int len, class;

	static_branch_disable(&printk_msgid_key);
	if (printk_msgid_wanted(0))
		fail("printk_msgid_wanted(0) with the switch off");
	static_branch_enable(&printk_msgid_key);
	if (printk_msgid_wanted(1) || printk_msgid_wanted(3))
		fail("printk_msgid_wanted() for a facility other than 0");
	if (!printk_msgid_wanted(0))
		fail("printk_msgid_wanted(0) with the switch on");

	/* vprintk_store(): vsnprintf() sizes, the prefix is counted in. */
	predict(fmt, w, &p);
	len = w->len > INT_MAX ? INT_MAX : (int)w->len;
	reserve = (u16)((unsigned int)len + 1);
	if (reserve > RECORD_MAX)
		reserve = RECORD_MAX;
	if (reserve + PRINTK_MSGID_PREFIX_LEN > RECORD_MAX)
		reserve = RECORD_MAX - PRINTK_MSGID_PREFIX_LEN;

	/* printk_sprint(): printk_msgid_vscnprintf() formats and identifies. */
	rec = malloc(PRINTK_MSGID_PREFIX_LEN + reserve + 1);
	va_copy(args2, args0);
	e = (struct expect){ p.traced, w };
	expect = &e;
	h0 = id_begin(next_cpu(c));
	len = printk_msgid_vscnprintf(rec + PRINTK_MSGID_PREFIX_LEN, reserve, fmt, args2, &m);
	if (expect)
		fail("printk_msgid_vscnprintf(\"%s\"): neither vscnprintf() nor vsnprintf_trace() called",
		     fmt);
	id_end(fmt, &p, h0, "format");
	va_end(args2);
	/* As vscnprintf() counts; a size of 0 is vprintk_store()'s u16 wrap. */
	printed = !reserve ? 0 : w->len < reserve ? w->len : reserve - 1u;
	if (len < 0 || (size_t)len != printed)
		fail("printk_msgid_vscnprintf(\"%s\", %u) = %d, want %zu", fmt, reserve, len, printed);
	text_len = printed;
	newline = text_len && rec[PRINTK_MSGID_PREFIX_LEN + text_len - 1] == '\n';
	text_len -= newline;
	lead = reserve ? parse_prefix(rec + PRINTK_MSGID_PREFIX_LEN) : 0;
	text_len -= lead;
	buf = malloc(text_len ? text_len : 1);
	memcpy(buf, rec + PRINTK_MSGID_PREFIX_LEN + lead, text_len);
	if (printed > w->len || memcmp(rec + PRINTK_MSGID_PREFIX_LEN, w->text, printed))
		fail("printk_sprint(\"%s\"): the text is not the model's", fmt);
	snprintf(want, sizeof(want), "(%08x): ", ref_id(p.fmt));
	if (memcmp(rec, want, PRINTK_MSGID_PREFIX_LEN))
		fail("printk_msgid_vscnprintf(\"%s\"): prefix \"%.12s\", want \"%s\"", fmt, rec, want);
	if (m.id != ref_id(p.fmt))
		fail("printk_msgid_vscnprintf(\"%s\"): id %08x, want %08x", fmt, m.id, ref_id(p.fmt));

	/* The caller's text, once stripped: from max(pos, lead) on. */
	class = pred_class(&p, w->text, lead, printed - newline);
	if (m.in_text != p.scan)
		fail("printk_msgid_vscnprintf(\"%s\"): in_text %d, want %d", fmt, m.in_text, p.scan);
	if (m.in_text)
		printk_msgid_classify(buf, &m, reserve, text_len, newline);
	stat_count[class]++;
	stat_last[class] = ref_id(p.fmt);
	if (memcmp(buf, rec + PRINTK_MSGID_PREFIX_LEN + lead, text_len))
		fail("printk_msgid_classify() wrote into the text");
	if ((int)m.class != class) {
		dump(c);
		fail("class %d, want %d (printed %zu, lead %zu, newline %d, text_len %zu, reserve %u)",
		     (int)m.class, class, printed, lead, newline, text_len, reserve);
	}
	free(rec);
	free(buf);
}

/*
 * Between two identifications: modules' entries dropped as the KUnit
 * suite drops them, or modules that hold no text of this input going
 * (their notifier runs between printk()s).
 */
static void between_calls(struct ctx *c)
{
	if (c->events & EV_DROP_WARM) {
		printk_msgid_drop_modules();
		forget_module_formats(NULL);
	}
	if (c->events & EV_GO_WARM) {
		for (int m = 0; m < NMODS; m++) {
			bool holds = false;

			for (int i = 0; i < c->ntexts; i++)
				holds |= (unsigned long)(c->text[i] - mods[m].base) < MOD_SPAN;
			if (!holds)
				mod_reload(&mods[m]);
		}
	}
}

/* In the frame of level 0: every level's va_list is live. */
static void run_checks(struct ctx *c, va_list args0)
{
	for (int L = 0; L < c->nlev; L++) {
		check_get(c, L, *c->vafs[L].va, "cold");
		between_calls(c);
		check_get(c, L, *c->vafs[L].va, "warm");
	}
	check_get(c, 0, args0, "again");
	check_prefix(c, args0);
	check_stats();
}

#define S8(a, i)  a[i], a[i + 1], a[i + 2], a[i + 3], a[i + 4], a[i + 5], a[i + 6], a[i + 7]
#define S64(a)	  S8(a, 0), S8(a, 8), S8(a, 16), S8(a, 24), S8(a, 32), S8(a, 40), \
		  S8(a, 48), S8(a, 56)

static void going_printk(const char *fmt)
{
	static const long zeros[NSLOTS];

	going_printk_va(fmt, S64(zeros));
}

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
	char text[128], rec[PRINTK_MSGID_PREFIX_LEN + 128], want[PRINTK_MSGID_PREFIX_LEN + 1];
	struct printk_msgid m;
	struct pred p = { .fmt = fmt };
	unsigned long h0 = 0;
	int len, text_len;
	va_list ap, ap2;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	if (percpu)
		h0 = id_begin(shim_cpu);
	len = printk_msgid_vscnprintf(rec + PRINTK_MSGID_PREFIX_LEN, 128, fmt, ap2, &m);
	va_end(ap2);
	text_len = vscnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (m.in_text)
		printk_msgid_classify(rec + PRINTK_MSGID_PREFIX_LEN, &m, text_len + 1, text_len, false);
	snprintf(want, sizeof(want), "(%08x): ", ref_id(fmt));
	if (len != text_len || m.fmt != fmt || memcmp(rec, want, PRINTK_MSGID_PREFIX_LEN) ||
	    memcmp(rec + PRINTK_MSGID_PREFIX_LEN, text, text_len) || (int)m.class != class)
		fail("boot: \"%s\": len %d of %d, class %d of %d, prefix \"%.12s\"", fmt, len,
		     text_len, (int)m.class, class, rec);
	if (percpu)
		id_end(fmt, &p, h0, "boot");
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
	/* With modules and the cache, it registers the module notifier. */
	if (nnotifiers != (IS_ENABLED(CONFIG_64BIT) && IS_ENABLED(CONFIG_MODULES)))
		fail("msgid_stats_init() registered %d module notifiers", nnotifiers);
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
	boot();
	mod_init();	/* after the initcalls, as modules are loaded */
	return 0;
}

/*
 * Put every text where its place says (round 1: the texts in modules in
 * the reverse order), or on the heap when that part is full. A module
 * without room for this input's texts is reloaded first: a text already
 * placed in it must not be wiped.
 */
static void place_texts(struct ctx *c, int round)
{
	size_t need[NMODS][MOD_RANGES] = { { 0 } };

	for (int i = 0; i < c->ntexts; i++)
		if (c->place[i] >= P_MOD_RODATA)
			need[c->mod[i]][c->place[i] - P_MOD_RODATA] += TEXT_ROOM(c->len[i]);
	for (int m = 0; m < NMODS; m++)
		for (int r = 0; r < MOD_RANGES; r++)
			if (!mod_room(&mods[m], r, need[m][r])) {
				mod_reload(&mods[m]);
				break;
			}
	for (int k = 0; k < c->ntexts; k++) {
		int i = round ? c->ntexts - 1 - k : k;
		const char *at = NULL;

		switch (c->place[i]) {
		case P_RODATA:
			at = ro_intern(c->heap[i], c->len[i], RO_LOW);
			break;
		case P_HEAP:
			break;
		case P_HIGH:
			at = ro_intern(c->heap[i], c->len[i], RO_HIGH);
			break;
		case P_RO_AFTER_INIT:
			at = ro_intern(c->heap[i], c->len[i], RO_AI);
			break;
		default:
			at = mod_intern(&mods[c->mod[i]], c->place[i] - P_MOD_RODATA,
					c->heap[i], c->len[i]);
			break;
		}
		c->text[i] = at ? at : c->heap[i];
	}
}

/*
 * One round: place the texts, check them, make every level from the
 * argument program (at @slots_at, the same in both rounds), model, and
 * run the checks.
 */
static void run_round(struct ctx *c, int round, size_t slots_at)
{
	place_texts(c, round);
	for (int i = 0; i < c->ntexts; i++)
		check_pure(c->text[i]);
	c->prog.i = slots_at;
	memset(c->lv, 0, sizeof(c->lv));
	c->nlits = 0;
	c->ncalls = 0;

	/* The walk from level 0 makes every level; the others replay. */
	c->lv[0].fmt = c->text[0];
	c->nlev = 1;
	for (int L = 0; L < c->nlev; L++)
		model(c, L, &c->want[L]);
	for (int L = c->nlev; L < MAX_LEVELS; L++)
		c->lv[L].fmt = c->text[0];
	c->cpus = next(&c->prog);
	if (verbose) {
		struct pred pr;

		fprintf(stderr, "round %d, events %#x\n", round, c->events);
		dump(c);
		for (int L = 0; L < c->nlev; L++) {
			predict(c->lv[L].fmt, &c->want[L], &pr);
			fprintf(stderr, "from level %d expect %s, fmt %p id %08x class %d, scan %d from %zu to %zu\n",
				L, pr.traced ? "vsnprintf_trace()" : "vscnprintf()", (void *)pr.fmt,
				ref_id(pr.fmt), pr.class, pr.scan, pr.pos, pr.end);
		}
	}

	call_level(c, MAX_LEVELS - 1, S64(c->lv[MAX_LEVELS - 1].slots));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ctx *c = calloc(1, sizeof(*c));
	const char *p = (const char *)data, *end = p + size, *nul;
	unsigned int want;

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

	/*
	 * Program bytes 0 to 2: where each text lives (bit i % 8 of each, for
	 * text i, is a bit of its enum place); byte 3: its module if in one
	 * (bits 2 * (i % 4) and up); byte 4: events (enum event).
	 */
	unsigned int pl[3] = { next(&c->prog), next(&c->prog), next(&c->prog) };
	unsigned int which = next(&c->prog);
	bool used[NMODS] = { false };

	c->events = next(&c->prog);
	for (int i = 0; i < c->ntexts; i++) {
		c->place[i] = (pl[0] >> (i % 8) & 1) | (pl[1] >> (i % 8) & 1) << 1 |
			      (pl[2] >> (i % 8) & 1) << 2;
		c->mod[i] = which >> (2 * (i % 4)) & 3;
		if (c->place[i] >= P_MOD_RODATA)
			used[c->mod[i]] = true;
	}
	for (int m = 0; m < NMODS; m++)
		if (c->events >> m & 1 || (c->events & EV_ROUND2 && used[m]))
			mod_reload(&mods[m]);
	if (c->events & EV_DROP_FIRST) {
		printk_msgid_drop_modules();
		forget_module_formats(NULL);
	}

	/*
	 * Round 0; then, for EV_ROUND2, the modules that hold texts of this
	 * input go, and round 1 puts those texts back into them in the
	 * reverse order: an address now holds another text than in round 0,
	 * whose identifier a stale cache entry would give.
	 */
	size_t slots_at = c->prog.i;

	cur = c;
	run_round(c, 0, slots_at);
	if (c->events & EV_ROUND2) {
		for (int m = 0; m < NMODS; m++)
			if (used[m])
				mod_reload(&mods[m]);
		run_round(c, 1, slots_at);
	}

	cur = NULL;
	for (int i = 0; i < c->ntexts; i++)
		free(c->heap[i]);
	free(c);
	return 0;
}
