/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): NR_CPUS possible CPUs, 0 .. NR_CPUS - 1; the
 * fuzz target runs each call on one of them (<linux/smp.h>).
 */
#ifndef _SHIM_LINUX_CPUMASK_H
#define _SHIM_LINUX_CPUMASK_H
#include "../shim_base.h"

#define NR_CPUS		2
#define nr_cpu_ids	NR_CPUS

#define for_each_possible_cpu(cpu)	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++)
#endif
