/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): struct printf_trace and struct
 * rust_fmt_literal as include/linux/sprintf.h.patch adds them, the
 * prototype of vsnprintf_trace(), and vsnprintf() and vscnprintf() routed
 * to the target's own (shim_vsnprintf(), shim_vscnprintf()). None is
 * lib/vsprintf.c's: the fuzz target defines them from its rendition of
 * 7.3's vsnprintf() (walk()).
 * <stdio.h> is included first, so that its declaration of vsnprintf()
 * stays libc's; the shims that want libc's (sysfs.h, seq_file.h) call
 * (vsnprintf)(), which the function-like macro below does not touch.
 */
#ifndef _SHIM_LINUX_SPRINTF_H
#define _SHIM_LINUX_SPRINTF_H
#include "../shim_base.h"
#include <stdarg.h>
#include <stdio.h>

struct printf_trace {
	const char *fmt;
	size_t pos;
};

struct rust_fmt_literal {
	const void *args;
	const char *fmt;
};

int vsnprintf_trace(char *buf, size_t size, const char *fmt, va_list args,
		    struct printf_trace *trace);
int shim_vsnprintf(char *buf, size_t size, const char *fmt, va_list args);
int shim_vscnprintf(char *buf, size_t size, const char *fmt, va_list args);
#define vsnprintf(buf, size, fmt, args)	shim_vsnprintf(buf, size, fmt, args)
#define vscnprintf(buf, size, fmt, args)	shim_vscnprintf(buf, size, fmt, args)
#endif
