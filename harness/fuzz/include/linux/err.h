/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): error pointers, the kernel's values. */
#ifndef _SHIM_LINUX_ERR_H
#define _SHIM_LINUX_ERR_H
#include "../shim_base.h"

#define MAX_ERRNO	4095
#define EINVAL		22

#define IS_ERR_VALUE(x)	((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE((unsigned long)ptr);
}
#endif
