/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): guard(preempt)() and scoped_guard(preempt).
 * Preemption off is an RCU read-side critical section (one RCU since
 * 4.20: synchronize_rcu() waits for it), so it counts in the same
 * nesting as rcu_read_lock() (linux/rcupdate.h of the shim).
 */
#ifndef _SHIM_LINUX_PREEMPT_H
#define _SHIM_LINUX_PREEMPT_H
#include "rcupdate.h"

typedef struct {
	char unused;
} class_preempt_t;

static inline class_preempt_t class_preempt_constructor(void)
{
	rcu_read_lock();
	return (class_preempt_t){ 0 };
}

static inline void class_preempt_destructor(class_preempt_t *g)
{
	rcu_read_unlock();
}
#endif
