/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): hash_32() with the kernel's multiplier. */
#ifndef _SHIM_LINUX_HASH_H
#define _SHIM_LINUX_HASH_H
#include "../shim_base.h"

#define GOLDEN_RATIO_32	0x61C88647

static inline u32 hash_32(u32 val, unsigned int bits)
{
	return (u32)(val * GOLDEN_RATIO_32) >> (32 - bits);
}
#endif
