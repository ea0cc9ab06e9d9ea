/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): memchr, memcmp, strlen, strnlen from libc. */
#include <string.h>
