/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): as the kernel's: with CONFIG_KUNIT (fuzz.sh
 * defines it) VISIBLE_IF_KUNIT symbols are global, so that the target can
 * call them; without it they are static. Nothing is exported.
 */
#include "../shim_base.h"
#if IS_ENABLED(CONFIG_KUNIT)
#define VISIBLE_IF_KUNIT
#else
#define VISIBLE_IF_KUNIT		static
#endif
#define EXPORT_SYMBOL_IF_KUNIT(sym)	__SHIM_NOTHING
