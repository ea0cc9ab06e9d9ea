/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space shim for fuzzing kernel/printk/msgid.c (harness/fuzz.sh).
 *
 * Only what msgid.c and include/linux/printk_msgid.h use, on top of the C
 * library's headers. Nothing here is kernel code: the base kernel's
 * headers must never be on the include path of the fuzz build (fuzz.sh
 * checks the dependency list). Do not include <errno.h> or any other libc
 * header that pulls <linux/...> uapi headers: they would resolve here.
 */
#ifndef _SHIM_BASE_H
#define _SHIM_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;

#define PAGE_SIZE	4096UL
#define ULONG_MAX	(~0UL)	/* <linux/limits.h> */

/* <linux/kconfig.h>: 1 if the option is defined to 1 (-DCONFIG_FOO). */
#define __SHIM_ARG_PLACEHOLDER_1		0,
#define __shim_take_second_arg(__ignored, val, ...)	val
#define __shim_is_defined(x)			___shim_is_defined(x)
#define ___shim_is_defined(val)			____shim_is_defined(__SHIM_ARG_PLACEHOLDER_##val)
#define ____shim_is_defined(arg1_or_junk)	__shim_take_second_arg(arg1_or_junk 1, 0)
#define IS_ENABLED(option)			__shim_is_defined(option)

#define __init
#define __used		__attribute__((__used__))
#define __maybe_unused	__attribute__((__unused__))
#define noinline	__attribute__((__noinline__))
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))
#define __uninitialized	/* the kernel's: no -ftrivial-auto-var-init here */
#ifndef __always_inline	/* glibc's <sys/cdefs.h> has one */
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define __aligned(x)	__attribute__((__aligned__(x)))

/*
 * In the type of a + b: the kernel's min() accepts mixed signedness only
 * where one side is a non-negative constant, where this gives the same
 * result. min_t() converts both to @type first, as the kernel's.
 */
#define min(a, b) ({						\
	__typeof__((a) + (b)) __shim_a = (a), __shim_b = (b);	\
	__shim_a < __shim_b ? __shim_a : __shim_b; })
#define min_t(type, a, b) ({					\
	type __shim_ta = (a), __shim_tb = (b);			\
	__shim_ta < __shim_tb ? __shim_ta : __shim_tb; })

#define BIT(n)			(1UL << (n))
#define BIT_ULL(n)		(1ULL << (n))
#define GENMASK(h, l)		((~0UL << (l)) & (~0UL >> (8 * sizeof(long) - 1 - (h))))
#define BUILD_BUG_ON(cond)	_Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")

#define WRITE_ONCE(x, val)	(*(volatile __typeof__(x) *)&(x) = (val))
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define data_race(expr)		(expr)

typedef struct {
	long counter;
} atomic_long_t;

static inline void atomic_long_inc(atomic_long_t *v)
{
	__atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED);
}

static inline long atomic_long_read(const atomic_long_t *v)
{
	return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);
}

/*
 * Swallow the ';' after a file-scope macro use without generating code:
 * a redundant declaration is valid C.
 */
#define __SHIM_NOTHING	extern int __shim_nothing

#endif /* _SHIM_BASE_H */
