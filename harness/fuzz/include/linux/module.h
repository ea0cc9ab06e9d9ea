/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): what msgid.c uses of <linux/module.h> (and of
 * <linux/notifier.h>, which it includes): a module's memory by type (7.3's
 * enum mod_mem_type and struct module_memory, without the tree nodes),
 * within_module_mem_type() as the kernel's, the module states, and a
 * notifier_block. The fuzz target defines __module_address(), over its
 * fake modules (it requires an RCU read-side critical section, as the
 * kernel's), and register_module_notifier(), which keeps the block so
 * that the target can call it when it loads and unloads a module.
 */
#ifndef _SHIM_LINUX_MODULE_H
#define _SHIM_LINUX_MODULE_H
#include "../shim_base.h"
#include "moduleparam.h"

enum module_state {
	MODULE_STATE_LIVE,	/* Normal state. */
	MODULE_STATE_COMING,	/* Full formed, running module_init. */
	MODULE_STATE_GOING,	/* Going away. */
	MODULE_STATE_UNFORMED,	/* Still setting it up. */
};

enum mod_mem_type {
	MOD_TEXT = 0,
	MOD_DATA,
	MOD_RODATA,
	MOD_RO_AFTER_INIT,
	MOD_INIT_TEXT,
	MOD_INIT_DATA,
	MOD_INIT_RODATA,

	MOD_MEM_NUM_TYPES,
	MOD_INVALID = -1,
};

struct module_memory {
	void *base;
	unsigned int size;
};

struct module {
	enum module_state state;
	const char *name;
	struct module_memory mem[MOD_MEM_NUM_TYPES];
};

static inline bool within_module_mem_type(unsigned long addr,
					  const struct module *mod,
					  enum mod_mem_type type)
{
	unsigned long base, size;

	base = (unsigned long)mod->mem[type].base;
	size = mod->mem[type].size;
	return addr - base < size;
}

struct module *__module_address(unsigned long addr);

/* <linux/notifier.h> */
struct notifier_block;
typedef int (*notifier_fn_t)(struct notifier_block *nb, unsigned long action, void *data);

struct notifier_block {
	notifier_fn_t notifier_call;
	struct notifier_block *next;
	int priority;
};

#define NOTIFY_DONE		0x0000
#define NOTIFY_OK		0x0001

int register_module_notifier(struct notifier_block *nb);
#endif
