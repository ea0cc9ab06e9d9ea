/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): u8..u64, bool, size_t. */
#include "../shim_base.h"
