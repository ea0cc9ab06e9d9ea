/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): get_unaligned() of a word, as memcpy(). */
#ifndef _SHIM_LINUX_UNALIGNED_H
#define _SHIM_LINUX_UNALIGNED_H
#include "../shim_base.h"

#define get_unaligned(p) ({					\
	__typeof__(+*(p)) __v;					\
	memcpy(&__v, (p), sizeof(__v));				\
	__v; })
#endif
