/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): the level and tag values of the kernel's
 * <linux/kern_levels.h> and <linux/printk.h>, struct va_format, and a
 * printk_skip_level() written from its documented behaviour: skip one
 * KERN_SOH followed by '0'..'7' or 'c' (KERN_CONT).
 */
#ifndef _SHIM_LINUX_PRINTK_H
#define _SHIM_LINUX_PRINTK_H
#include "../shim_base.h"
#include <stdarg.h>
#include "jump_label.h"

#define KERN_SOH	"\001"
#define KERN_SOH_ASCII	'\001'
#define KERN_EMERG	KERN_SOH "0"
#define KERN_ALERT	KERN_SOH "1"
#define KERN_CRIT	KERN_SOH "2"
#define KERN_ERR	KERN_SOH "3"
#define KERN_WARNING	KERN_SOH "4"
#define KERN_NOTICE	KERN_SOH "5"
#define KERN_INFO	KERN_SOH "6"
#define KERN_DEBUG	KERN_SOH "7"
#define KERN_CONT	KERN_SOH "c"

#define FW_BUG		"[Firmware Bug]: "
#define FW_WARN		"[Firmware Warn]: "
#define FW_INFO		"[Firmware Info]: "
#define HW_ERR		"[Hardware Error]: "
#define DEPRECATED	"[Deprecated]: "

struct va_format {
	const char *fmt;
	va_list *va;
};

static inline const char *printk_skip_level(const char *buffer)
{
	if (buffer[0] == KERN_SOH_ASCII &&
	    ((buffer[1] >= '0' && buffer[1] <= '7') || buffer[1] == 'c'))
		return buffer + 2;
	return buffer;
}
#endif
