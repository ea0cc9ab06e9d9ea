/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): static keys as plain booleans. */
#ifndef _SHIM_LINUX_JUMP_LABEL_H
#define _SHIM_LINUX_JUMP_LABEL_H
#include "../shim_base.h"

struct static_key_false {
	bool enabled;
};

extern bool static_key_initialized;

#define DEFINE_STATIC_KEY_FALSE(name)	struct static_key_false name = { false }
#define DECLARE_STATIC_KEY_FALSE(name)	extern struct static_key_false name
#define static_branch_unlikely(key)	(READ_ONCE((key)->enabled))
#define static_branch_likely(key)	(READ_ONCE((key)->enabled))
#define static_key_enabled(key)		(READ_ONCE((key)->enabled))
#define static_branch_enable(key)	WRITE_ONCE((key)->enabled, true)
#define static_branch_disable(key)	WRITE_ONCE((key)->enabled, false)
#endif
