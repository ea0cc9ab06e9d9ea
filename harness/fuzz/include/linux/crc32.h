/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): a test double for the kernel's crc32_le(), a
 * minimal bitwise CRC-32 (reflected polynomial 0xedb88320, no pre- or
 * post-inversion: the caller does those, as in lib/crc32.c). The fuzz
 * target checks every identifier against its own table-driven CRC-32.
 */
#ifndef _SHIM_LINUX_CRC32_H
#define _SHIM_LINUX_CRC32_H
#include "../shim_base.h"

static inline u32 crc32_le(u32 crc, const void *p, size_t len)
{
	const unsigned char *s = p;
	int k;

	while (len--) {
		crc ^= *s++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & -(crc & 1));
	}
	return crc;
}
#endif
