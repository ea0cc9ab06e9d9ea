/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): the kernel's .rodata is a region the fuzz
 * target maps and fills with interned, never rewritten formats, so that
 * the identifier cache of msgid.c (keyed by the offset in .rodata) runs
 * as it does in the kernel. It spans two mappings, the second at an
 * offset the cache does not key (2^35), and a hole between them that is
 * never touched. __ro_after_init data is a part of it, as in vmlinux.lds.
 * The target defines the bounds.
 */
#ifndef _SHIM_ASM_SECTIONS_H
#define _SHIM_ASM_SECTIONS_H
#include "../shim_base.h"

extern char *shim_rodata_start, *shim_rodata_end;
extern char *shim_ro_after_init_start, *shim_ro_after_init_end;

#define __start_rodata	shim_rodata_start
#define __end_rodata	shim_rodata_end

static inline bool is_kernel_rodata(unsigned long addr)
{
	return addr >= (unsigned long)shim_rodata_start &&
	       addr < (unsigned long)shim_rodata_end;
}

static inline bool is_kernel_ro_after_init(unsigned long addr)
{
	return addr >= (unsigned long)shim_ro_after_init_start &&
	       addr < (unsigned long)shim_ro_after_init_end;
}
#endif
