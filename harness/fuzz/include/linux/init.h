/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): initcalls and early parameters are not run
 * by a kernel; the shim keeps a pointer to each so that the fuzz target
 * can call them (shim_late_initcall, shim_early_param).
 */
#ifndef _SHIM_LINUX_INIT_H
#define _SHIM_LINUX_INIT_H
#include "../shim_base.h"

#define late_initcall(fn)	int (*shim_late_initcall)(void) = (fn)
#define early_param(str, fn)	int (*shim_early_param)(char *) = (fn)
#endif
