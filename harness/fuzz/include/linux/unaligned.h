/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): get_unaligned() of a word, as memcpy(), and
 * put_unaligned_be64() byte by byte, most significant first.
 */
#ifndef _SHIM_LINUX_UNALIGNED_H
#define _SHIM_LINUX_UNALIGNED_H
#include "../shim_base.h"

#define get_unaligned(p) ({					\
	__typeof__(+*(p)) __v;					\
	memcpy(&__v, (p), sizeof(__v));				\
	__v; })

static inline void put_unaligned_be64(u64 v, void *p)
{
	unsigned char *b = p;
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (56 - 8 * i));
}
#endif
