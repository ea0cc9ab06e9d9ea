/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fuzz shim (harness/fuzz): not a copy; the repo's own header, found
 * relative to this file (harness/fuzz/include/linux/ -> repo root).
 */
#include "../../../../include/linux/printk_msgid.h"
