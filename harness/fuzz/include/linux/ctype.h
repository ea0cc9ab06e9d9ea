/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): isdigit/isalnum from libc <ctype.h>, through
 * unsigned char as the kernel's _ctype[] lookup does. (The build uses
 * -funsigned-char like Kbuild.) Unlike the kernel's table, the "C" locale
 * does not count Latin-1 letters (0xc0-0xff) as alnum; the fuzz target's
 * reference walk uses these same functions.
 */
#ifndef _SHIM_LINUX_CTYPE_H
#define _SHIM_LINUX_CTYPE_H
#include <ctype.h>

static inline int shim_isdigit(int c)
{
	return isdigit((unsigned char)c);
}

static inline int shim_isalnum(int c)
{
	return isalnum((unsigned char)c);
}

#undef isdigit
#undef isalnum
#define isdigit(c)	shim_isdigit(c)
#define isalnum(c)	shim_isalnum(c)
#endif
