/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): atomic_long_t (in shim_base.h), relaxed builtins. */
#include "../shim_base.h"
