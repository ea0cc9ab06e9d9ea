/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): the current CPU is shim_cpu, which the fuzz
 * target sets before each call (it chooses from its input).
 */
#ifndef _SHIM_LINUX_SMP_H
#define _SHIM_LINUX_SMP_H
#include "../shim_base.h"
#include "cpumask.h"

extern int shim_cpu;

#define raw_smp_processor_id()	(shim_cpu)
#define smp_processor_id()	(shim_cpu)
#endif
