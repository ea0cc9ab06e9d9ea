/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): va_list from the compiler. */
#include <stdarg.h>
