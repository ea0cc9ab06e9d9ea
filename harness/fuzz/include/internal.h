/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): kernel/printk/internal.h, for msgid.c's
 * #include "internal.h": the printk index's <debugfs>/printk/ dentry,
 * which the target never creates.
 */
#ifndef _SHIM_PRINTK_INTERNAL_H
#define _SHIM_PRINTK_INTERNAL_H
struct dentry;
#define printk_debugfs_root ((struct dentry *)0)
#endif
