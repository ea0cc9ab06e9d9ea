/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): sysfs_emit() into a PAGE_SIZE buffer. */
#ifndef _SHIM_LINUX_SYSFS_H
#define _SHIM_LINUX_SYSFS_H
#include "../shim_base.h"
#include <stdarg.h>
#include <stdio.h>

static inline __attribute__((format(printf, 2, 3)))
int sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = (vsnprintf)(buf, PAGE_SIZE, fmt, ap);	/* libc's */
	va_end(ap);
	return n;
}
#endif
