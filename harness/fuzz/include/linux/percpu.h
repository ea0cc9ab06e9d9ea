/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): per-CPU variables as the kernel lays them out.
 * DEFINE_PER_CPU() puts the variable in the section shim_percpu, the
 * static per-CPU image; CPU n's copy is at the image address plus
 * shim_per_cpu_offset[n]. Until the fuzz target's setup_per_cpu_areas()
 * every offset is 0 (every CPU works on the image, as the boot CPU does
 * before the kernel's setup_per_cpu_areas()); it then copies the image to
 * one exact-size heap area per CPU and sets the offsets. per_cpu_ptr() of
 * an address outside the image, or of a CPU that is not possible, stops
 * the target (shim_percpu_bad()).
 *
 * The section name is a C identifier, so that ASan leaves its variables
 * without redzones (the image is copied whole) and the linker defines
 * __start_shim_percpu and __stop_shim_percpu.
 */
#ifndef _SHIM_LINUX_PERCPU_H
#define _SHIM_LINUX_PERCPU_H
#include "../shim_base.h"
#include "cpumask.h"
#include "smp.h"

extern char __start_shim_percpu[], __stop_shim_percpu[];
extern unsigned long shim_per_cpu_offset[NR_CPUS];
void shim_percpu_bad(const void *ptr, int cpu) __attribute__((__noreturn__));

#define DEFINE_PER_CPU(type, name) \
	__attribute__((__section__("shim_percpu"), __aligned__(64))) __typeof__(type) name

static inline unsigned long shim_per_cpu_addr(const void *ptr, int cpu)
{
	unsigned long p = (unsigned long)ptr;

	if (p < (unsigned long)__start_shim_percpu || p >= (unsigned long)__stop_shim_percpu ||
	    cpu < 0 || cpu >= NR_CPUS)
		shim_percpu_bad(ptr, cpu);
	return p + shim_per_cpu_offset[cpu];
}

#define per_cpu_ptr(ptr, cpu)	((__typeof__(ptr))shim_per_cpu_addr((ptr), (cpu)))
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), (cpu)))
#define this_cpu_ptr(ptr)	per_cpu_ptr((ptr), raw_smp_processor_id())
#define this_cpu_inc(pcp)	((void)(*this_cpu_ptr(&(pcp)))++)
#define this_cpu_read(pcp)	READ_ONCE(*this_cpu_ptr(&(pcp)))
#endif
