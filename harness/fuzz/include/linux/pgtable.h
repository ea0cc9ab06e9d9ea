/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): MODULES_VADDR, the start of the module area
 * (x86_64's <asm/pgtable_64_types.h>, through <linux/pgtable.h>). msgid.c
 * keys a module's formats by their offset from it. Here it is a variable:
 * the target maps its module area where mmap() puts it, and sets it.
 */
#ifndef _SHIM_LINUX_PGTABLE_H
#define _SHIM_LINUX_PGTABLE_H
extern unsigned long shim_modules_vaddr;
#define MODULES_VADDR	shim_modules_vaddr
#endif
