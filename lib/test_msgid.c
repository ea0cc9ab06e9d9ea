// SPDX-License-Identifier: GPL-2.0
/*
 * Messages for tools/testing/selftests/msgid: when <debugfs>/test_msgid/emit
 * is written, one message through each of printk() with a level, pr_*()
 * under pr_fmt(), dev_printk() and a FW_INFO tag, and nothing else, so that
 * each call site of this file in the printk index has one record.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/printk.h>

static struct platform_device *test_msgid_pdev;
static struct dentry *test_msgid_dir;

static ssize_t test_msgid_emit_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	printk(KERN_INFO "test_msgid plain printk: level %d\n", 6);
	pr_warn("pr_warn under pr_fmt: %s %u\n", "arg", 42U);
	pr_err("pr_err under pr_fmt: %08lx %c\n", 0xdeadbeefUL, 'z');
	dev_info(&test_msgid_pdev->dev, "dev_info on a platform device: %d\n", 1);
	dev_err(&test_msgid_pdev->dev, "dev_err on a platform device: %s\n", "boom");
	pr_info(FW_INFO "firmware information from the test: %d\n", 2);
	return count;
}

static const struct file_operations test_msgid_emit_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = test_msgid_emit_write,
	.llseek = noop_llseek,
};

static int __init test_msgid_init(void)
{
	test_msgid_pdev = platform_device_register_simple(KBUILD_MODNAME,
							  PLATFORM_DEVID_NONE,
							  NULL, 0);
	if (IS_ERR(test_msgid_pdev))
		return PTR_ERR(test_msgid_pdev);

	test_msgid_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("emit", 0200, test_msgid_dir, NULL, &test_msgid_emit_fops);
	return 0;
}

static void __exit test_msgid_exit(void)
{
	debugfs_remove_recursive(test_msgid_dir);
	platform_device_unregister(test_msgid_pdev);
}

module_init(test_msgid_init);
module_exit(test_msgid_exit);

MODULE_DESCRIPTION("Messages for the printk message identifier selftest");
MODULE_LICENSE("GPL");
