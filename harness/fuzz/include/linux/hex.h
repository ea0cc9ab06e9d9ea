/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): hex_byte_pack(), lower case as the kernel's. */
#ifndef _SHIM_LINUX_HEX_H
#define _SHIM_LINUX_HEX_H
#include "../shim_base.h"

static inline char *hex_byte_pack(char *buf, u8 byte)
{
	static const char digits[] = "0123456789abcdef";

	*buf++ = digits[byte >> 4];
	*buf++ = digits[byte & 15];
	return buf;
}
#endif
