/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): kstrtobool(), the values the kernel accepts. */
#ifndef _SHIM_LINUX_KSTRTOX_H
#define _SHIM_LINUX_KSTRTOX_H
#include "../shim_base.h"
#include "err.h"

static inline int kstrtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N') {
			*res = true;
			return 0;
		}
		if (s[1] == 'f' || s[1] == 'F') {
			*res = false;
			return 0;
		}
		break;
	}
	return -EINVAL;
}
#endif
