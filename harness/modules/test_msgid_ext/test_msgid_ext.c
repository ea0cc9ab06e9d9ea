// SPDX-License-Identifier: GPL-2.0
/*
 * Extended cases and stress of the printk message identifier tests: an
 * out-of-tree module of the harness, not part of the series.
 *
 * harness/selftest-ext/msgid_ext.c writes the name of a case to
 * <debugfs>/test_msgid_ext/emit; this module then prints the messages of
 * that case, through every path whose records must start with the
 * identifier of the caller's format: printk() with a level, pr_*() under
 * pr_fmt(), dev_printk() on a registered device and on NULL,
 * dev_err_probe(), netdev_printk() on a registered net device, DRM's
 * wrappers (with DRM), wrappers that nest %pV, FW_* and DEPRECATED tags in
 * the format or in a %s argument, KERN_CONT, hard interrupt context,
 * ratelimited and oversized messages. <debugfs>/test_msgid_ext/cases lists
 * the case names. The case "stress" prints for stress_ms milliseconds
 * (module parameter) from one kthread per online CPU, from an hrtimer in
 * hard irq context and from a timer in soft irq context, while the test
 * flips printk.msgid on and off; on x86 also from an NMI handler on every
 * CPU, and SysRq 'l' prints NMI backtraces meanwhile.
 *
 * No case prints the HW_ERR tag: monitors page on "[Hardware Error]"
 * whatever follows, so the tagged cases use FW_INFO, FW_BUG, FW_WARN and
 * DEPRECATED (the KUnit suite tests HW_ERR's class without printing it).
 *
 * The formats here are copied verbatim, pr_fmt() prefix included, into
 * the table of expected formats of msgid_ext.c: change both together.
 *
 * It is a module, not a KUnit suite, because the test unloads and reloads
 * it to see that an identifier does not depend on the load address.
 *
 * The bare printk() and pr_cont() calls are the paths under test.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/etherdevice.h>
#include <linux/fs.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/netdevice.h>
#include <linux/platform_device.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/sysrq.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/version.h>

#ifdef CONFIG_X86_LOCAL_APIC
#include <asm/apic.h>
#include <asm/nmi.h>
#endif

#if IS_REACHABLE(CONFIG_DRM)
#include <drm/drm_print.h>
#endif

/* 6.12 (make selftest-lts) has no hrtimer_setup() yet. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
#define hrtimer_setup(t, fn, clock, mode) \
	do { hrtimer_init(t, clock, mode); (t)->function = (fn); } while (0)
#define hrtimer_setup_on_stack(t, fn, clock, mode) \
	do { hrtimer_init_on_stack(t, clock, mode); (t)->function = (fn); } while (0)
#endif

/* Longer than a record (1024 bytes): the message is truncated. */
#define TEST_MSGID_LONG		2000

/* The same format printed at two levels has one identifier. */
#define TEST_MSGID_PLAIN	"test_msgid plain printk: level %d\n"

static struct platform_device *test_msgid_pdev;
static struct net_device *test_msgid_ndev;
static struct dentry *test_msgid_dir;
static unsigned int test_msgid_seq;
static DEFINE_MUTEX(test_msgid_lock);

static unsigned int stress_ms = 3000;
module_param(stress_ms, uint, 0644);
MODULE_PARM_DESC(stress_ms, "how long the case stress prints, in ms (default 3000)");

static void test_msgid_printk(void)
{
	printk(KERN_INFO TEST_MSGID_PLAIN, 6);
	printk(KERN_ERR TEST_MSGID_PLAIN, 3);
}

static void test_msgid_pr(void)
{
	pr_info("pr_info under pr_fmt: %s %u\n", "arg", 42U);
	pr_warn("pr_warn under pr_fmt: %d%%\n", 99);
	pr_err("pr_err under pr_fmt: %08lx %c\n", 0xdeadbeefUL, 'z');
}

static void test_msgid_dev(void)
{
	dev_info(&test_msgid_pdev->dev, "dev_info on a platform device: %d\n", 1);
	dev_err(&test_msgid_pdev->dev, "dev_err on a platform device: %s\n", "boom");
	dev_err(NULL, "dev_err on a NULL device: %d\n", 3);
	/* One more wrapper: dev_err(dev, "error %pe: %pV", ...) */
	dev_err_probe(&test_msgid_pdev->dev, -ENODEV,
		      "dev_err_probe on a platform device: %d\n", 4);
}

#if IS_REACHABLE(CONFIG_DRM)
/*
 * DRM's wrappers print the caller's format through %pV behind "[drm:%ps] ".
 * The debug ones print only while drm.debug has DRM_UT_DRIVER: the selftest
 * sets it around this case.
 */
static void test_msgid_drm(void)
{
	DRM_DEV_ERROR(&test_msgid_pdev->dev, "DRM_DEV_ERROR on a platform device: %d\n", 1);
	DRM_ERROR("DRM_ERROR without a device: %d\n", 2);
	drm_dev_dbg(&test_msgid_pdev->dev, DRM_UT_DRIVER,
		    "drm_dev_dbg on a platform device: %d\n", 3);
	DRM_DEBUG_DRIVER("DRM_DEBUG_DRIVER without a device: %d\n", 4);
}
#endif

static void test_msgid_netdev(void)
{
	netdev_info(test_msgid_ndev, "netdev_info on a dummy device: %d\n", 1);
	netdev_err(test_msgid_ndev, "netdev_err on a dummy device: %s\n", "down");
	netdev_warn(NULL, "netdev_warn on a NULL net device: %d\n", 3);
}

/*
 * Three wrappers, each adding its own format around the caller's, like a
 * driver's ata_dev_printk() or ext4_msg() on top of dev_printk(): the
 * record is printed with dev_printk()'s "%s %s: %pV", whose %pV carries
 * "TMSGID-fs (%s): %pV\n", whose %pV carries "link%u: %pV", whose %pV
 * carries "dev%u.%u: %pV", whose %pV carries the caller's format.
 */
static __printf(2, 3)
void test_msgid_fs_msg(const char *level, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	dev_printk(level, &test_msgid_pdev->dev, "TMSGID-fs (%s): %pV\n", "tmsgid0", &vaf);
	va_end(args);
}

static __printf(3, 4)
void test_msgid_link_msg(const char *level, unsigned int link, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	test_msgid_fs_msg(level, "link%u: %pV", link, &vaf);
	va_end(args);
}

static __printf(2, 3)
void test_msgid_dev_msg(const char *level, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	test_msgid_link_msg(level, 1, "dev%u.%u: %pV", 1, 0, &vaf);
	va_end(args);
}

/* Of two %pV, the first one carries the caller's format. */
static __printf(2, 3)
void test_msgid_second(const struct va_format *first, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("two wrapped formats: %pV, then %pV\n", first, &vaf);
	va_end(args);
}

static __printf(1, 2)
void test_msgid_first(const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	test_msgid_second(&vaf, "the second format: %d", 2);
	va_end(args);
}

static void test_msgid_nested(void)
{
	test_msgid_dev_msg(KERN_WARNING, "nested three levels deep: %d %s", 3, "deep");
	test_msgid_first("the first format: %d", 1);
}

static void test_msgid_tag_fmt(void)
{
	/*
	 * Shaped like mce's report, with a tag that is not a hardware error:
	 * the class comes from the tag in the format.
	 */
	pr_info(FW_INFO "CPU %d: synthetic test event %d (not from firmware) Bank %d: %016llx\n",
		raw_smp_processor_id(), 1, 4, 0xbe00000000800400ULL);
}

/* The tags arrive through a %s argument, as in ghes_print_estatus(). */
static void test_msgid_tags_str(void)
{
	char pfx[64];

	snprintf(pfx, sizeof(pfx), "%s{%u}" FW_INFO, KERN_INFO, ++test_msgid_seq);
	printk("%sFirmware information from test source: %d\n", pfx, 1);
	snprintf(pfx, sizeof(pfx), "%s{%u}" FW_BUG, KERN_WARNING, ++test_msgid_seq);
	printk("%sFirmware bug from test source: %d\n", pfx, 2);
}

static void test_msgid_fw_tags(void)
{
	pr_warn(FW_WARN "firmware warning from the test: %d\n", 1);
	pr_info(FW_INFO "firmware information from the test: %d\n", 2);
	pr_warn(DEPRECATED "deprecated feature from the test: %d\n", 3);
}

/*
 * The fragments are appended to the open record and get no identifier;
 * a fragment that finds no open record starts one, with its own.
 */
static void test_msgid_cont(void)
{
	pr_info("continuation start: %d", 1);
	pr_cont(" middle %s", "fragment");
	pr_cont(" end %d\n", 3);
	pr_info("before an orphan fragment: %d\n", 4);
	pr_cont("orphan continuation fragment: %d\n", 5);
}

static DECLARE_COMPLETION(test_msgid_irq_done);

static enum hrtimer_restart test_msgid_hrtimer_fn(struct hrtimer *timer)
{
	pr_info("hrtimer in hard irq context: in_hardirq=%d\n", !!in_hardirq());
	complete(&test_msgid_irq_done);
	return HRTIMER_NORESTART;
}

static void test_msgid_irq_work_fn(struct irq_work *work)
{
	pr_info("irq_work in hard irq context: in_hardirq=%d\n", !!in_hardirq());
	complete(&test_msgid_irq_done);
}

static void test_msgid_irq(void)
{
	struct irq_work work = IRQ_WORK_INIT_HARD(test_msgid_irq_work_fn);
	struct hrtimer timer;

	reinit_completion(&test_msgid_irq_done);
	hrtimer_setup_on_stack(&timer, test_msgid_hrtimer_fn, CLOCK_MONOTONIC,
			       HRTIMER_MODE_REL_HARD);
	hrtimer_start(&timer, ns_to_ktime(1000), HRTIMER_MODE_REL_HARD);
	if (!wait_for_completion_timeout(&test_msgid_irq_done, 5 * HZ))
		pr_err("the hrtimer did not fire\n");
	hrtimer_cancel(&timer);
	destroy_hrtimer_on_stack(&timer);

	reinit_completion(&test_msgid_irq_done);
	irq_work_queue(&work);
	if (!wait_for_completion_timeout(&test_msgid_irq_done, 5 * HZ))
		pr_err("the irq_work did not run\n");
	irq_work_sync(&work);
}

static void test_msgid_ratelimited(void)
{
	int i;

	for (i = 0; i < 20; i++)
		pr_info_ratelimited("ratelimited message: %d\n", i);
}

static void test_msgid_long(void)
{
	char *buf = kmalloc(TEST_MSGID_LONG + 1, GFP_KERNEL);

	if (!buf)
		return;
	memset(buf, 'x', TEST_MSGID_LONG);
	buf[TEST_MSGID_LONG] = '\0';
	pr_info("long message of %d bytes: %s\n", TEST_MSGID_LONG, buf);
	kfree(buf);
	/*
	 * The truncated record lost its newline, so it stays open for a
	 * continuation and readers of /dev/kmsg do not see it until the
	 * next record closes it.
	 */
	pr_info("after the long message: %d\n", TEST_MSGID_LONG);
}

/*
 * Stress: one kthread per online CPU prints as fast as it can through
 * pr_info(), a dev_printk() wrapper and three nested %pV wrappers, an
 * hrtimer prints from hard irq context every millisecond and a timer from
 * soft irq context every jiffy, for stress_ms.
 * Each message carries the CPU of its thread and a sequence number of that
 * thread, so that the selftest can tell a record of a thread from another
 * and see that none of a thread's records is out of order.
 */
struct test_msgid_stress {
	struct task_struct *task;
	unsigned int cpu;
	unsigned long seq;
};

static struct hrtimer test_msgid_stress_timer;
static atomic_t test_msgid_stress_stop;
static unsigned long test_msgid_stress_ticks;
static struct timer_list test_msgid_stress_softirq;
static unsigned long test_msgid_stress_softirq_ticks;

static int test_msgid_stress_fn(void *data)
{
	struct test_msgid_stress *st = data;

	while (!kthread_should_stop()) {
		pr_info("stress plain: cpu %u seq %lu\n", st->cpu, st->seq++);
		test_msgid_fs_msg(KERN_INFO, "stress fs: cpu %u seq %lu", st->cpu, st->seq++);
		test_msgid_dev_msg(KERN_INFO, "stress nested: cpu %u seq %lu",
				   st->cpu, st->seq++);
		cond_resched();
	}
	return 0;
}

static enum hrtimer_restart test_msgid_stress_timer_fn(struct hrtimer *timer)
{
	pr_info("stress hrtimer: in_hardirq=%d seq %lu\n", !!in_hardirq(),
		test_msgid_stress_ticks++);
	if (atomic_read(&test_msgid_stress_stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ms_to_ktime(1));
	return HRTIMER_RESTART;
}

static void test_msgid_stress_softirq_fn(struct timer_list *timer)
{
	pr_info("stress softirq: in_serving_softirq=%d seq %lu\n",
		!!in_serving_softirq(), test_msgid_stress_softirq_ticks++);
	if (!atomic_read(&test_msgid_stress_stop))
		mod_timer(timer, jiffies + 1);
}

/*
 * NMI context, on x86: an NMI handler that prints when this module sent
 * the NMI (an NMI IPI to every online CPU, through the local APIC), and
 * the NMI backtraces of SysRq 'l', as the hard-lockup detector, RCU stall
 * and hung-task reports print them. The handler's format is a module's,
 * never cached, so each record hashes its format in NMI context. The
 * sender waits until every CPU has handled its NMI before it sends more
 * or asks for backtraces, so that no NMI of one kind is taken for the
 * other's (the kernel would report it as of unknown reason).
 */
#ifdef CONFIG_X86_LOCAL_APIC
static DEFINE_PER_CPU(atomic_t, test_msgid_nmi_armed);
static DEFINE_PER_CPU(unsigned long, test_msgid_nmi_seq);
static atomic_long_t test_msgid_nmi_count;
static unsigned long test_msgid_sysrq_count;

static int test_msgid_nmi_handler(unsigned int type, struct pt_regs *regs)
{
	if (!atomic_xchg(this_cpu_ptr(&test_msgid_nmi_armed), 0))
		return NMI_DONE;
	pr_info("stress nmi: in_nmi=%d cpu %u seq %lu\n", !!in_nmi(),
		smp_processor_id(), __this_cpu_inc_return(test_msgid_nmi_seq) - 1);
	atomic_long_inc(&test_msgid_nmi_count);
	return NMI_HANDLED;
}

/* Every online CPU handled the NMI it was sent, within about 100 ms. */
static bool test_msgid_nmi_wait(void)
{
	unsigned int cpu, tries;

	for (tries = 0; tries < 1000; tries++) {
		bool pending = false;

		for_each_online_cpu(cpu)
			pending |= atomic_read(per_cpu_ptr(&test_msgid_nmi_armed, cpu));
		if (!pending)
			return true;
		usleep_range(100, 200);
	}
	return false;
}

static int test_msgid_nmi_fn(void *data)
{
	unsigned int cpu, round = 0;

	while (!kthread_should_stop()) {
		cpus_read_lock();
		for_each_online_cpu(cpu)
			atomic_set(per_cpu_ptr(&test_msgid_nmi_armed, cpu), 1);
		__apic_send_IPI_mask(cpu_online_mask, NMI_VECTOR);
		cpus_read_unlock();
		if (!test_msgid_nmi_wait()) {
			pr_err("stress: an NMI was not handled within 100 ms\n");
			break;
		}
		/*
		 * A few backtraces a run, the first at once (a slow guest
		 * sends few rounds): each prints a stack per CPU.
		 */
		if (IS_ENABLED(CONFIG_MAGIC_SYSRQ) && round++ % 64 == 0) {
			handle_sysrq('l');
			test_msgid_sysrq_count++;
		}
		usleep_range(2000, 3000);
	}
	return 0;
}

static struct task_struct *test_msgid_nmi_start(void)
{
	struct task_struct *t;
	int ret;

	atomic_long_set(&test_msgid_nmi_count, 0);
	test_msgid_sysrq_count = 0;
	ret = register_nmi_handler(NMI_LOCAL, test_msgid_nmi_handler, 0, KBUILD_MODNAME);
	if (ret) {
		pr_err("stress: no NMI handler: %d\n", ret);
		return NULL;
	}
	t = kthread_run(test_msgid_nmi_fn, NULL, "test_msgid/nmi");
	if (IS_ERR(t)) {
		pr_err("stress: no NMI thread: %pe\n", t);
		unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
		return NULL;
	}
	return t;
}

static void test_msgid_nmi_stop(struct task_struct *t)
{
	if (!t)
		return;
	kthread_stop(t);
	test_msgid_nmi_wait();
	unregister_nmi_handler(NMI_LOCAL, KBUILD_MODNAME);
}

static unsigned long test_msgid_nmi_sent(void)
{
	return atomic_long_read(&test_msgid_nmi_count);
}
#else
static struct task_struct *test_msgid_nmi_start(void) { return NULL; }
static void test_msgid_nmi_stop(struct task_struct *t) { }
static unsigned long test_msgid_nmi_sent(void) { return 0; }
static unsigned long test_msgid_sysrq_count;
#endif /* CONFIG_X86_LOCAL_APIC */

static void test_msgid_stress(void)
{
	struct test_msgid_stress *st;
	struct task_struct *nmi;
	unsigned int cpu, n = 0, ms = READ_ONCE(stress_ms);
	unsigned long sent = 0;
	u64 t0;

	st = kcalloc(nr_cpu_ids, sizeof(*st), GFP_KERNEL);
	if (!st)
		return;

	/* The threads stay on their CPUs: no CPU goes away during the run. */
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		t = kthread_create_on_cpu(test_msgid_stress_fn, &st[cpu], cpu,
					  "test_msgid/%u");
		if (IS_ERR(t)) {
			pr_err("stress: no thread on cpu %u: %pe\n", cpu, t);
			continue;
		}
		st[cpu].task = t;
		st[cpu].cpu = cpu;
		n++;
	}

	test_msgid_stress_ticks = 0;
	atomic_set(&test_msgid_stress_stop, 0);
	hrtimer_setup(&test_msgid_stress_timer, test_msgid_stress_timer_fn,
		      CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	test_msgid_stress_softirq_ticks = 0;
	timer_setup(&test_msgid_stress_softirq, test_msgid_stress_softirq_fn, 0);

	t0 = ktime_get_ns();
	for_each_online_cpu(cpu)
		if (st[cpu].task)
			wake_up_process(st[cpu].task);
	hrtimer_start(&test_msgid_stress_timer, ms_to_ktime(1), HRTIMER_MODE_REL_HARD);
	mod_timer(&test_msgid_stress_softirq, jiffies + 1);
	nmi = test_msgid_nmi_start();

	msleep(ms);

	test_msgid_nmi_stop(nmi);
	atomic_set(&test_msgid_stress_stop, 1);
	hrtimer_cancel(&test_msgid_stress_timer);
	timer_delete_sync(&test_msgid_stress_softirq);
	for_each_online_cpu(cpu) {
		if (!st[cpu].task)
			continue;
		kthread_stop(st[cpu].task);
		sent += st[cpu].seq;
	}
	cpus_read_unlock();

	pr_info("stress done: %u threads, %lu messages, %lu hrtimer, %lu softirq, %lu nmi, %lu sysrq, %llu ms\n",
		n, sent, test_msgid_stress_ticks, test_msgid_stress_softirq_ticks,
		test_msgid_nmi_sent(), test_msgid_sysrq_count,
		div_u64(ktime_get_ns() - t0, NSEC_PER_MSEC));
	kfree(st);
}

static const struct {
	const char *name;
	void (*emit)(void);
} test_msgid_cases[] = {
	{ "printk", test_msgid_printk },
	{ "pr", test_msgid_pr },
	{ "dev", test_msgid_dev },
	{ "netdev", test_msgid_netdev },
#if IS_REACHABLE(CONFIG_DRM)
	{ "drm", test_msgid_drm },
#endif
	{ "nested", test_msgid_nested },
	{ "tag_fmt", test_msgid_tag_fmt },
	{ "tags_str", test_msgid_tags_str },
	{ "fw_tags", test_msgid_fw_tags },
	{ "cont", test_msgid_cont },
	{ "irq", test_msgid_irq },
	{ "ratelimited", test_msgid_ratelimited },
	{ "long", test_msgid_long },
	{ "stress", test_msgid_stress },
};

static ssize_t test_msgid_emit_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	char buf[32], *name;
	size_t len = min(count, sizeof(buf) - 1);
	int i;

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	name = strim(buf);

	for (i = 0; i < ARRAY_SIZE(test_msgid_cases); i++) {
		if (!strcmp(name, test_msgid_cases[i].name)) {
			/* One case at a time: they share the irq completion. */
			mutex_lock(&test_msgid_lock);
			test_msgid_cases[i].emit();
			mutex_unlock(&test_msgid_lock);
			return count;
		}
	}
	return -EINVAL;
}

static const struct file_operations test_msgid_emit_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = test_msgid_emit_write,
	.llseek = noop_llseek,
};

static int test_msgid_cases_show(struct seq_file *s, void *unused)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(test_msgid_cases); i++)
		seq_printf(s, "%s\n", test_msgid_cases[i].name);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(test_msgid_cases);

static netdev_tx_t test_msgid_xmit(struct sk_buff *skb, struct net_device *dev)
{
	dev_kfree_skb(skb);
	return NETDEV_TX_OK;
}

static const struct net_device_ops test_msgid_netdev_ops = {
	.ndo_start_xmit = test_msgid_xmit,
};

static int __init test_msgid_init(void)
{
	int ret;

	test_msgid_pdev = platform_device_register_simple(KBUILD_MODNAME,
							  PLATFORM_DEVID_NONE,
							  NULL, 0);
	if (IS_ERR(test_msgid_pdev))
		return PTR_ERR(test_msgid_pdev);

	test_msgid_ndev = alloc_netdev(0, "tmsgid%d", NET_NAME_ENUM, ether_setup);
	if (!test_msgid_ndev) {
		ret = -ENOMEM;
		goto err_pdev;
	}
	test_msgid_ndev->netdev_ops = &test_msgid_netdev_ops;
	eth_hw_addr_random(test_msgid_ndev);
	SET_NETDEV_DEV(test_msgid_ndev, &test_msgid_pdev->dev);
	ret = register_netdev(test_msgid_ndev);
	if (ret)
		goto err_ndev;

	test_msgid_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("emit", 0200, test_msgid_dir, NULL, &test_msgid_emit_fops);
	debugfs_create_file("cases", 0444, test_msgid_dir, NULL, &test_msgid_cases_fops);
	return 0;

err_ndev:
	free_netdev(test_msgid_ndev);
err_pdev:
	platform_device_unregister(test_msgid_pdev);
	return ret;
}

static void __exit test_msgid_exit(void)
{
	debugfs_remove_recursive(test_msgid_dir);
	unregister_netdev(test_msgid_ndev);
	free_netdev(test_msgid_ndev);
	platform_device_unregister(test_msgid_pdev);
}

module_init(test_msgid_init);
module_exit(test_msgid_exit);

MODULE_DESCRIPTION("Extended cases and stress of the printk message identifier tests");
MODULE_LICENSE("GPL");
