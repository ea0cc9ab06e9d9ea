/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): include/asm-generic/word-at-a-time.h's
 * little-endian 64-bit functions, as msgid_bracket() uses them (the host
 * is x86_64, LP64).
 */
#ifndef _SHIM_ASM_WORD_AT_A_TIME_H
#define _SHIM_ASM_WORD_AT_A_TIME_H
#include "../shim_base.h"

#define REPEAT_BYTE(x)	((~0ul / 0xff) * (x))

struct word_at_a_time {
	const unsigned long one_bits, high_bits;
};

#define WORD_AT_A_TIME_CONSTANTS { REPEAT_BYTE(0x01), REPEAT_BYTE(0x80) }

static inline unsigned long has_zero(unsigned long a, unsigned long *bits,
				     const struct word_at_a_time *c)
{
	unsigned long mask = ((a - c->one_bits) & ~a) & c->high_bits;

	*bits = mask;
	return mask;
}

static inline unsigned long prep_zero_mask(unsigned long a, unsigned long bits,
					   const struct word_at_a_time *c)
{
	return bits;
}

static inline unsigned long create_zero_mask(unsigned long bits)
{
	bits = (bits - 1) & ~bits;
	return bits >> 7;
}

static inline unsigned long find_zero(unsigned long mask)
{
	return mask * 0x0001020304050608ul >> 56;
}
#endif
