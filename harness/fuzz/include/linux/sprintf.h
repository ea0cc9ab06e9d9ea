/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): struct printf_trace and PRINTF_TRACE_STRS as
 * include/linux/sprintf.h.patch adds them, and the prototype of
 * vsnprintf_trace(). Not lib/vsprintf.c's: the fuzz target defines its
 * own vsnprintf_trace(), from its reference walk of 7.3's vsnprintf().
 */
#ifndef _SHIM_LINUX_SPRINTF_H
#define _SHIM_LINUX_SPRINTF_H
#include "../shim_base.h"
#include <stdarg.h>

/* How many %s arguments of its innermost format a trace records. */
#define PRINTF_TRACE_STRS	4

struct printf_trace {
	const char *fmt;
	unsigned int nstr;
	struct {
		const char *s;
		int precision;
	} str[PRINTF_TRACE_STRS];
};

int vsnprintf_trace(char *buf, size_t size, const char *fmt, va_list args,
		    struct printf_trace *trace);
#endif
