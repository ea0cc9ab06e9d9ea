/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): RCU read-side critical sections as a nesting
 * count, shim_rcu_nesting, so that the target's __module_address() can
 * require one (the kernel's must be called in one: the module may be
 * freed otherwise) and can check that each is left. guard(rcu)() is
 * <linux/cleanup.h>'s: rcu_read_lock() now, rcu_read_unlock() at the end
 * of the scope.
 */
#ifndef _SHIM_LINUX_RCUPDATE_H
#define _SHIM_LINUX_RCUPDATE_H
#include "../shim_base.h"

extern int shim_rcu_nesting;
void shim_rcu_bad(void);	/* unbalanced: stops the target */

static inline void rcu_read_lock(void)
{
	shim_rcu_nesting++;
}

static inline void rcu_read_unlock(void)
{
	if (shim_rcu_nesting-- <= 0)
		shim_rcu_bad();
}

#define __SHIM_PASTE2(a, b)	a##b
#define __SHIM_PASTE(a, b)	__SHIM_PASTE2(a, b)
#define guard(_name)							\
	class_##_name##_t __SHIM_PASTE(__shim_guard_, __COUNTER__)	\
	__attribute__((__cleanup__(class_##_name##_destructor), __unused__)) = \
	class_##_name##_constructor

typedef struct {
	char unused;
} class_rcu_t;

static inline class_rcu_t class_rcu_constructor(void)
{
	rcu_read_lock();
	return (class_rcu_t){ 0 };
}

static inline void class_rcu_destructor(class_rcu_t *g)
{
	rcu_read_unlock();
}

/* scoped_guard(rcu) stmt: stmt in a read-side critical section. */
#define scoped_guard(_name)						\
	for (class_##_name##_t __shim_scope __attribute__((		\
		__cleanup__(class_##_name##_destructor), __unused__)) =	\
		class_##_name##_constructor(), *__shim_once = &__shim_scope; \
	     __shim_once; __shim_once = NULL)

/*
 * One thread: no reader can be inside a critical section while the
 * notifier runs; waiting in one would never end.
 */
static inline void synchronize_rcu(void)
{
	if (shim_rcu_nesting)
		shim_rcu_bad();
}
#endif
