/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): debugfs with no file system; the fops of the
 * last file created are kept in shim_debugfs_fops for the fuzz target.
 */
#ifndef _SHIM_LINUX_DEBUGFS_H
#define _SHIM_LINUX_DEBUGFS_H
#include "../shim_base.h"
#include "seq_file.h"

struct dentry {
	int unused;
};

extern struct dentry shim_debugfs_dir;
extern struct dentry *shim_debugfs_lookup_result;
extern const struct file_operations *shim_debugfs_fops;

static inline struct dentry *debugfs_lookup(const char *name, struct dentry *parent)
{
	return shim_debugfs_lookup_result;
}

static inline struct dentry *debugfs_create_dir(const char *name, struct dentry *parent)
{
	return &shim_debugfs_dir;
}

static inline struct dentry *debugfs_create_file(const char *name, unsigned short mode,
						 struct dentry *parent, void *data,
						 const struct file_operations *fops)
{
	shim_debugfs_fops = fops;
	return &shim_debugfs_dir;
}

static inline void dput(struct dentry *dentry)
{
}
#endif
