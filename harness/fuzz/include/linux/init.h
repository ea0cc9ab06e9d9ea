/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): initcalls and early parameters are not run
 * by a kernel; the shim keeps a pointer to each so that the fuzz target
 * can call them (shim_early_initcall, shim_late_initcall,
 * shim_early_param) at the points of its simulated boot.
 */
#ifndef _SHIM_LINUX_INIT_H
#define _SHIM_LINUX_INIT_H
#include "../shim_base.h"

#define early_initcall(fn)	int (*shim_early_initcall)(void) = (fn)
#define late_initcall(fn)	int (*shim_late_initcall)(void) = (fn)
#define early_param(str, fn)	int (*shim_early_param)(char *) = (fn)
#endif
