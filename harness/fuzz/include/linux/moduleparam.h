/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): module parameters are not registered; the
 * shim keeps the ops of the (only) parameter in shim_param_ops.
 */
#ifndef _SHIM_LINUX_MODULEPARAM_H
#define _SHIM_LINUX_MODULEPARAM_H
#include "../shim_base.h"

struct kernel_param;

struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buffer, const struct kernel_param *kp);
};

#define MODULE_PARAM_PREFIX	""
#define module_param_cb(name, ops, arg, perm) \
	const struct kernel_param_ops *shim_param_ops = (ops)
#define MODULE_PARM_DESC(name, desc)	__SHIM_NOTHING
#endif
