/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): every symbol is visible, nothing exported. */
#include "../shim_base.h"
#define EXPORT_SYMBOL_IF_KUNIT(sym)	__SHIM_NOTHING
