// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark of printk message identifiers, driven by KUnit: an out-of-tree
 * module of the harness (harness/bench.sh builds it against out/linux).
 *
 * The same file is also built into the kernel the benchmark boots
 * (MSGID_BENCH_VMLINUX, see harness/bench.sh), where it only provides its
 * call sites, msgid_bench_store_vmlinux(): so every kind of message is
 * measured twice, with its format in vmlinux .rodata (the identifier
 * cache keeps those) and in the module's (kind names ending in "@mod").
 *
 * Stores @count messages of each kind through printk(), @reps times, and
 * prints per kind and mode the median, mean, lowest and highest
 * instructions (or nanoseconds) per message, with the printk.msgid switch
 * off and on (only off without CONFIG_PRINTK_MSGID or with only_off=1),
 * the on/off ratio of each repetition (median and mean), and, with
 * CONFIG_PRINTK_MSGID, the cost of printk_msgid_get() alone.
 * Kinds, places and modes are interleaved inside each repetition, and the
 * order of the modes alternates between repetitions, so that a slow phase
 * of the machine weighs on every cell alike.
 *
 * The consoles are suspended (flushed, then held) for the whole of the
 * measurement, so that no timed window pays for a console printing or
 * skipping records, its own or another window's; they are resumed before
 * the results are printed. The messages measured are KERN_DEBUG, the
 * results KERN_INFO lines of the form
 *
 *   msgid_bench: kind=short mode=on ns=812.3 mean=812.9 min=... max=...
 *
 * so boot with loglevel=7: the console then prints the results and none
 * of the messages measured.
 */

#include <kunit/test.h>
#include <linux/console.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/printk_msgid.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

/*
 * What pr_info() expands to in a file with a pr_fmt() using __func__ (the
 * same literal in vmlinux and in the module, whatever KBUILD_MODNAME is).
 */
#define BENCH_PR_FMT(fmt) "msgid_bench: %s: " fmt

/*
 * A device name is not in .rodata (dev_name() is the kobject's allocated
 * name), a built-in driver's name is.
 */
static char bench_dev_name[] = "msgid-bench.0";

/* A dev_printk()-style wrapper: the caller's format goes on through %pV. */
static __printf(1, 2) void bench_dev_printk(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	printk(KERN_DEBUG "%s %s: %pV", "msgid-bench-drv", bench_dev_name, &vaf);
	va_end(args);
}

/* Three wrappers, each adding a prefix through %pV: 3 levels of nesting. */
static __printf(1, 2) void bench_nest1(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	printk(KERN_DEBUG "n0 %s: %pV", "outer", &vaf);
	va_end(args);
}

static __printf(1, 2) void bench_nest2(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	bench_nest1("n1 %d: %pV", 1, &vaf);
	va_end(args);
}

static __printf(1, 2) void bench_nest3(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	bench_nest2("n2 %s: %pV", "inner", &vaf);
	va_end(args);
}

#define BENCH_LONG_FMT \
	"bench long %d: the quick brown fox jumps over the lazy dog; " \
	"status=%u flags=%#x name=%s len=%zu at %p; lorem ipsum dolor sit " \
	"amet, consectetur adipiscing elit, sed do eiusmod tempor %lld\n"

enum bench_kind {
	BENCH_SHORT,
	BENCH_PR_FMT_KIND,
	BENCH_DEV,
	BENCH_NESTED,
	BENCH_LONG,
	BENCH_CONT,
	BENCH_NR_KINDS,
};

static const char * const bench_kind_names[BENCH_NR_KINDS] = {
	[BENCH_SHORT]		= "short",
	[BENCH_PR_FMT_KIND]	= "pr_fmt",
	[BENCH_DEV]		= "dev",
	[BENCH_NESTED]		= "nested",
	[BENCH_LONG]		= "long",
	[BENCH_CONT]		= "cont",
};

/* Continuation fragments per open record, so that records stay short. */
#define BENCH_CONT_RUN	15

/* Store @n messages of @kind; return the nanoseconds spent in printk(). */
static u64 bench_store(enum bench_kind kind, unsigned int n)
{
	u64 t0, ns = 0;
	unsigned int i, j;

	switch (kind) {
	case BENCH_SHORT:
		t0 = ktime_get_ns();
		for (i = 0; i < n; i++)
			printk(KERN_DEBUG "bench short %d\n", i);
		return ktime_get_ns() - t0;
	case BENCH_PR_FMT_KIND:
		t0 = ktime_get_ns();
		for (i = 0; i < n; i++)
			printk(KERN_DEBUG BENCH_PR_FMT("bench pr_fmt %d\n"), __func__, i);
		return ktime_get_ns() - t0;
	case BENCH_DEV:
		t0 = ktime_get_ns();
		for (i = 0; i < n; i++)
			bench_dev_printk("bench dev %d\n", i);
		return ktime_get_ns() - t0;
	case BENCH_NESTED:
		t0 = ktime_get_ns();
		for (i = 0; i < n; i++)
			bench_nest3("bench nested %d\n", i);
		return ktime_get_ns() - t0;
	case BENCH_LONG:
		t0 = ktime_get_ns();
		for (i = 0; i < n; i++)
			printk(KERN_DEBUG BENCH_LONG_FMT, i, i * 7, i, "msgid-bench",
			       (size_t)i, &ns, (long long)i << 20);
		return ktime_get_ns() - t0;
	case BENCH_CONT:
		/* Only the fragments are timed, not the records they extend. */
		for (i = 0; i < n; i += BENCH_CONT_RUN) {
			printk(KERN_DEBUG "bench cont %d:", i);
			t0 = ktime_get_ns();
			for (j = i; j < i + BENCH_CONT_RUN && j < n; j++)
				pr_cont(" %d", j);
			ns += ktime_get_ns() - t0;
			pr_cont("\n");
		}
		return ns;
	default:
		return 0;
	}
}

#ifdef MSGID_BENCH_VMLINUX

/* The call sites of bench_store(), built into vmlinux. */
u64 msgid_bench_store_vmlinux(int kind, unsigned int n);
u64 msgid_bench_store_vmlinux(int kind, unsigned int n)
{
	return bench_store(kind, n);
}
EXPORT_SYMBOL_GPL(msgid_bench_store_vmlinux);

/*
 * The window of a profile (harness/profile.sh): its QEMU plugin counts the
 * instructions executed from the entry into the first to the entry into
 * the second, found by their addresses in System.map.
 */
noinline void msgid_bench_profile_begin(void);
noinline void msgid_bench_profile_begin(void)
{
	barrier();
}
EXPORT_SYMBOL_GPL(msgid_bench_profile_begin);

noinline void msgid_bench_profile_end(void);
noinline void msgid_bench_profile_end(void)
{
	barrier();
}
EXPORT_SYMBOL_GPL(msgid_bench_profile_end);

#else /* !MSGID_BENCH_VMLINUX: the module */

u64 msgid_bench_store_vmlinux(int kind, unsigned int n);
void msgid_bench_profile_begin(void);
void msgid_bench_profile_end(void);

MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");

static unsigned int count = 2000;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "messages per kind, mode and repetition");

static unsigned int reps = 15;
module_param(reps, uint, 0444);
MODULE_PARM_DESC(reps, "repetitions; the median is reported");

/*
 * A kernel that switches the identifiers on between measurements leaves
 * longer records in the ring buffer, which the next measurement with the
 * switch off then pushes out: to compare the switch-off path with a
 * CONFIG_PRINTK_MSGID=n kernel, measure it alone.
 */
static bool only_off;
module_param(only_off, bool, 0444);
MODULE_PARM_DESC(only_off, "measure with the switch off only, never turning it on");

/*
 * A profile (harness/profile.sh) instead of the measurement: @count
 * messages of one kind (its name, "@mod" for the module's call site) in
 * one mode, between the profile's markers, after a warm-up of @count / 4.
 */
static char *profile;
module_param(profile, charp, 0444);
MODULE_PARM_DESC(profile, "kind to profile (e.g. short, short@mod); none by default");

static int profile_mode;
module_param(profile_mode, int, 0444);
MODULE_PARM_DESC(profile_mode, "switch of the profiled messages: 0 off, 1 on");

/* The result lines: nothing to wake anyone for. */
#define bench_report(fmt, ...) \
	printk(KERN_INFO "msgid_bench: " fmt "\n", ##__VA_ARGS__)

#ifdef CONFIG_PRINTK_MSGID

static __printf(2, 3) void bench_get(struct printk_msgid *m, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	printk_msgid_get(m, fmt, args);
	va_end(args);
}

/* printk_msgid_get() of the same calls as bench_store(), as they reach it. */
static __printf(2, 3) void bench_get_dev(struct printk_msgid *m, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	bench_get(m, KERN_DEBUG "%s %s: %pV", "msgid-bench-drv", bench_dev_name, &vaf);
	va_end(args);
}

static __printf(2, 3) void bench_get_nest1(struct printk_msgid *m, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	bench_get(m, KERN_DEBUG "n0 %s: %pV", "outer", &vaf);
	va_end(args);
}

static __printf(2, 3) void bench_get_nest2(struct printk_msgid *m, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	bench_get_nest1(m, "n1 %d: %pV", 1, &vaf);
	va_end(args);
}

static __printf(2, 3) void bench_get_nest3(struct printk_msgid *m, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	bench_get_nest2(m, "n2 %s: %pV", "inner", &vaf);
	va_end(args);
}

/* Identify message @i of @kind as printk() does. */
static void bench_one(enum bench_kind kind, struct printk_msgid *m, unsigned int i)
{
	switch (kind) {
	case BENCH_SHORT:
		bench_get(m, KERN_DEBUG "bench short %d\n", i);
		break;
	case BENCH_PR_FMT_KIND:
		bench_get(m, KERN_DEBUG BENCH_PR_FMT("bench pr_fmt %d\n"), "bench_store", i);
		break;
	case BENCH_DEV:
		bench_get_dev(m, "bench dev %d\n", i);
		break;
	case BENCH_NESTED:
		bench_get_nest3(m, "bench nested %d\n", i);
		break;
	case BENCH_LONG:
		bench_get(m, KERN_DEBUG BENCH_LONG_FMT, i, i * 7, i, "msgid-bench",
			  (size_t)i, m, (long long)i << 20);
		break;
	case BENCH_CONT:
		/* A fragment that opens a new record (the other one is not identified). */
		bench_get(m, KERN_CONT " %d", i);
		break;
	default:
		break;
	}
}

/* Identify @n messages of @kind; return the nanoseconds spent. */
static u64 bench_ident(enum bench_kind kind, unsigned int n, u32 *sink)
{
	struct printk_msgid m;
	unsigned int i;
	u64 t0, ns;
	u32 acc = 0;

	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		bench_one(kind, &m, i);
		acc += m.id;
	}
	ns = ktime_get_ns() - t0;
	*sink += acc;
	return ns;
}

#define BENCH_NR_MODES	2

static void bench_set_mode(int on)
{
	if (on)
		static_branch_enable(&printk_msgid_key);
	else
		static_branch_disable(&printk_msgid_key);
}

static bool bench_get_mode(void)
{
	return static_key_enabled(&printk_msgid_key);
}

#else /* !CONFIG_PRINTK_MSGID */

#define BENCH_NR_MODES	1

static void bench_set_mode(int on) { }
static bool bench_get_mode(void) { return false; }

#endif /* CONFIG_PRINTK_MSGID */

static const char * const bench_mode_names[] = { "off", "on" };

/* Where the format of a kind is: vmlinux .rodata, or the module's. */
#define BENCH_NR_PLACES	2
static const char * const bench_place_suffix[BENCH_NR_PLACES] = { "", "@mod" };

static u64 bench_store_at(int place, enum bench_kind kind, unsigned int n)
{
	return place ? bench_store(kind, n) : msgid_bench_store_vmlinux(kind, n);
}

static int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Median of @n values, which are sorted in place. */
static u64 bench_median(u64 *v, unsigned int n)
{
	sort(v, n, sizeof(*v), bench_cmp_u64, NULL);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static u64 bench_mean(const u64 *v, unsigned int n)
{
	u64 sum = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		sum += v[i];
	return div_u64(sum, n);
}

/* ns/message with one decimal, as "812.3", from a total over @n messages. */
struct bench_ns {
	char s[24];
};

static struct bench_ns bench_ns(u64 total, unsigned int n)
{
	struct bench_ns b;
	u32 tenth;
	u64 ns = div_u64_rem(div_u64(total * 10, n), 10, &tenth);

	snprintf(b.s, sizeof(b.s), "%llu.%u", ns, tenth);
	return b;
}

/*
 * The consoles, suspended around the measurement: console_suspend()
 * flushes each one, then holds it, so that no console prints (or skips
 * past) a record inside a timed window.
 */
#define BENCH_MAX_CONSOLES	8
static struct console *bench_consoles[BENCH_MAX_CONSOLES];
static int bench_nr_consoles;

static void bench_consoles_suspend(void)
{
	struct console *con;
	int i;

	console_list_lock();
	for_each_console(con) {
		if (bench_nr_consoles < BENCH_MAX_CONSOLES && (con->flags & CON_ENABLED))
			bench_consoles[bench_nr_consoles++] = con;
	}
	console_list_unlock();
	for (i = 0; i < bench_nr_consoles; i++)
		console_suspend(bench_consoles[i]);
}

static void bench_consoles_resume(void)
{
	while (bench_nr_consoles > 0)
		console_resume(bench_consoles[--bench_nr_consoles]);
}

#define BENCH_NR_CELLS	(BENCH_NR_KINDS * BENCH_NR_PLACES)

/* The cell named by @name ("short", "short@mod"), or -1. */
static int bench_cell(const char *name)
{
	int c;

	for (c = 0; c < BENCH_NR_CELLS; c++) {
		const char *kind = bench_kind_names[c / BENCH_NR_PLACES];
		size_t len = strlen(kind);

		if (!strncmp(name, kind, len) &&
		    !strcmp(name + len, bench_place_suffix[c % BENCH_NR_PLACES]))
			return c;
	}
	return -1;
}

static void msgid_bench_profile(struct kunit *test, const char *name)
{
	int c = bench_cell(name);

	KUNIT_ASSERT_GE_MSG(test, c, 0, "no kind %s", name);
	KUNIT_ASSERT_LT(test, profile_mode, BENCH_NR_MODES);
	bench_consoles_suspend();
	bench_set_mode(profile_mode);
	bench_store_at(c % BENCH_NR_PLACES, c / BENCH_NR_PLACES, count / 4);
	msgid_bench_profile_begin();
	bench_store_at(c % BENCH_NR_PLACES, c / BENCH_NR_PLACES, count);
	msgid_bench_profile_end();
	bench_set_mode(0);
	bench_consoles_resume();
	bench_report("profiled kind=%s mode=%d n=%u", name, profile_mode, count);
}

static void msgid_bench_printk(struct kunit *test)
{
	/* per kind, place and mode: the time of each repetition */
	u64 *t = kunit_kcalloc(test, BENCH_NR_CELLS * BENCH_NR_MODES * reps,
			       sizeof(*t), GFP_KERNEL);
	/* per kind and place: on/off per repetition, in parts per 10^6 */
	u64 *ratio = kunit_kcalloc(test, BENCH_NR_CELLS * reps, sizeof(*ratio),
				   GFP_KERNEL);
	int nmodes = only_off ? 1 : BENCH_NR_MODES;
	bool was_on = bench_get_mode();
	unsigned int r, n = count;
	int k, c, i, mode, place;

	if (profile && *profile) {
		msgid_bench_profile(test, profile);
		return;
	}
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, ratio);
	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_ASSERT_GT(test, reps, 0);
#define T(c, mode, r) t[((c) * BENCH_NR_MODES + (mode)) * reps + (r)]

	bench_consoles_suspend();

	/* Warm up caches and the ring buffer. */
	for (c = 0; c < BENCH_NR_CELLS; c++)
		for (mode = 0; mode < nmodes; mode++) {
			bench_set_mode(mode);
			bench_store_at(c % BENCH_NR_PLACES, c / BENCH_NR_PLACES, n / 4);
		}

	for (r = 0; r < reps; r++) {
		for (c = 0; c < BENCH_NR_CELLS; c++) {
			k = c / BENCH_NR_PLACES;
			place = c % BENCH_NR_PLACES;
			for (i = 0; i < nmodes; i++) {
				/* off, on in even repetitions; on, off in odd ones */
				mode = r % 2 ? nmodes - 1 - i : i;
				bench_set_mode(mode);
				T(c, mode, r) = bench_store_at(place, k, n);
			}
			if (nmodes == 2)
				ratio[c * reps + r] = div64_u64(T(c, 1, r) * 1000000,
								max_t(u64, T(c, 0, r), 1));
		}
		cond_resched();
	}
	bench_set_mode(was_on);
	bench_consoles_resume();

	bench_report("start config_msgid=%d modes=%d count=%u reps=%u consoles_suspended=yes",
		     IS_ENABLED(CONFIG_PRINTK_MSGID), nmodes, n, reps);
	for (c = 0; c < BENCH_NR_CELLS; c++) {
		const char *kind = bench_kind_names[c / BENCH_NR_PLACES];
		const char *at = bench_place_suffix[c % BENCH_NR_PLACES];

		for (mode = 0; mode < nmodes; mode++) {
			u64 mean = bench_mean(&T(c, mode, 0), reps);
			u64 med = bench_median(&T(c, mode, 0), reps);
			u64 lo = T(c, mode, 0), hi = T(c, mode, reps - 1);

			bench_report("kind=%s%s mode=%s ns=%s mean=%s min=%s max=%s n=%u reps=%u",
				     kind, at, bench_mode_names[mode], bench_ns(med, n).s,
				     bench_ns(mean, n).s, bench_ns(lo, n).s,
				     bench_ns(hi, n).s, n, reps);
		}
		if (nmodes == 2) {
			u64 mean = bench_mean(&ratio[c * reps], reps);
			u64 med = bench_median(&ratio[c * reps], reps);

			bench_report("kind=%s%s on_off_ppm=%llu mean_ppm=%llu min_ppm=%llu max_ppm=%llu",
				     kind, at, med, mean, ratio[c * reps],
				     ratio[c * reps + reps - 1]);
		}
	}
#undef T
}

#ifdef CONFIG_PRINTK_MSGID
static void msgid_bench_get(struct kunit *test)
{
	u64 *t = kunit_kcalloc(test, BENCH_NR_KINDS * reps, sizeof(*t), GFP_KERNEL);
	unsigned int r, n = count;
	u32 sink = 0;
	int k;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (k = 0; k < BENCH_NR_KINDS; k++)
		bench_ident(k, n / 4, &sink);
	for (r = 0; r < reps; r++) {
		for (k = 0; k < BENCH_NR_KINDS; k++)
			t[k * reps + r] = bench_ident(k, n, &sink);
		cond_resched();
	}
	for (k = 0; k < BENCH_NR_KINDS; k++) {
		u64 med = bench_median(&t[k * reps], reps);

		bench_report("kind=%s get_ns=%s n=%u reps=%u",
			     bench_kind_names[k], bench_ns(med, n).s, n, reps);
	}
	/* Keep the identifiers alive, so that nothing is optimised away. */
	KUNIT_EXPECT_NE(test, sink, 0x5eed5eed);
}
#endif

#ifdef CONFIG_PRINTK_MSGID
/*
 * Not a measurement: the identity of each kind, asked for twice (the second
 * time from any cache printk_msgid_get() keeps), is the one of its format.
 */
static void msgid_bench_check(struct kunit *test)
{
	static const struct {
		int kind;
		const char *leaf;
	} cases[] = {
		{ BENCH_SHORT, "bench short %d\n" },
		{ BENCH_PR_FMT_KIND, BENCH_PR_FMT("bench pr_fmt %d\n") },
		{ BENCH_DEV, "bench dev %d\n" },
		{ BENCH_NESTED, "bench nested %d\n" },
		{ BENCH_LONG, BENCH_LONG_FMT },
		{ BENCH_CONT, " %d" },
	};
	struct printk_msgid m;
	int i, pass;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		for (pass = 0; pass < 2; pass++) {
			bench_one(cases[i].kind, &m, i);
			KUNIT_EXPECT_STREQ_MSG(test, printk_skip_level(m.fmt), cases[i].leaf,
					       "kind %s pass %d", bench_kind_names[i], pass);
			KUNIT_EXPECT_EQ_MSG(test, m.id, printk_msgid_hash(cases[i].leaf),
					    "kind %s pass %d", bench_kind_names[i], pass);
			KUNIT_EXPECT_EQ_MSG(test, m.class, PRINTK_MSGID_NONE,
					    "kind %s pass %d", bench_kind_names[i], pass);
		}
	}
	for (pass = 0; pass < 2; pass++) {
		bench_get(&m, KERN_ERR HW_ERR "bench hw %d\n", pass);
		KUNIT_EXPECT_EQ(test, m.class, PRINTK_MSGID_HW_ERR);
		KUNIT_EXPECT_EQ(test, m.id, printk_msgid_hash(HW_ERR "bench hw %d\n"));
	}
}
#endif

static void msgid_bench_done(struct kunit *test)
{
	bench_report("done");
}

static struct kunit_case msgid_bench_cases[] = {
	KUNIT_CASE_SLOW(msgid_bench_printk),
#ifdef CONFIG_PRINTK_MSGID
	KUNIT_CASE_SLOW(msgid_bench_get),
	KUNIT_CASE(msgid_bench_check),
#endif
	KUNIT_CASE(msgid_bench_done),
	{}
};

static struct kunit_suite msgid_bench_suite = {
	.name = "printk_msgid_bench",
	.test_cases = msgid_bench_cases,
};
kunit_test_suite(msgid_bench_suite);

MODULE_DESCRIPTION("Benchmark of printk message identifiers");
MODULE_LICENSE("GPL");

#endif /* MSGID_BENCH_VMLINUX */
