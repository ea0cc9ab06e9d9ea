/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stable identifiers for printk messages (CONFIG_PRINTK_MSGID).
 *
 * See Documentation/admin-guide/msgid.rst for the rule that turns a
 * printk() call into an identifier and for the user-space tools.
 */
#ifndef _LINUX_PRINTK_MSGID_H
#define _LINUX_PRINTK_MSGID_H

#include <linux/jump_label.h>
#include <linux/stdarg.h>
#include <linux/types.h>

/* Length of the "(%08x): " prefix that starts an identified record. */
#define PRINTK_MSGID_PREFIX_LEN		12

/**
 * enum printk_msgid_class - tag found in a message
 * @PRINTK_MSGID_NONE: no tag
 * @PRINTK_MSGID_HW_ERR: HW_ERR, "[Hardware Error]: "
 * @PRINTK_MSGID_FW_BUG: FW_BUG, "[Firmware Bug]: "
 * @PRINTK_MSGID_FW_WARN: FW_WARN, "[Firmware Warn]: "
 * @PRINTK_MSGID_FW_INFO: FW_INFO, "[Firmware Info]: "
 * @PRINTK_MSGID_DEPRECATED: DEPRECATED, "[Deprecated]: "
 * @PRINTK_MSGID_NR_CLASSES: number of classes
 */
enum printk_msgid_class {
	PRINTK_MSGID_NONE,
	PRINTK_MSGID_HW_ERR,
	PRINTK_MSGID_FW_BUG,
	PRINTK_MSGID_FW_WARN,
	PRINTK_MSGID_FW_INFO,
	PRINTK_MSGID_DEPRECATED,
	PRINTK_MSGID_NR_CLASSES,
};

/**
 * struct printk_msgid - identity of one printk() call
 * @fmt: the caller's format: the format reached by following %pV (left
 *	alone by printk_msgid_vscnprintf() where it is the format given)
 * @id: CRC-32 of the canonical form of @fmt
 * @class: the first tag in @fmt, else in the text its %s printed
 * @pos: where the text of @fmt starts in the text printed
 * @in_text: @class is still to be found in the text, by
 *	printk_msgid_classify()
 *
 * Only @in_text, never set, without CONFIG_PRINTK_MSGID: vprintk_store()
 * keeps no room for it then.
 */
struct printk_msgid {
#ifdef CONFIG_PRINTK_MSGID
	const char *fmt;
	u32 id;
	enum printk_msgid_class class;
	unsigned int pos;
#endif
	bool in_text;
};

/* Declared either way, so that callers can use IS_ENABLED(). */
const char *printk_msgid_canonical(const char *fmt, size_t *len);
u32 printk_msgid_hash(const char *fmt);
__printf(2, 0)
void printk_msgid_get(struct printk_msgid *msgid, const char *fmt, va_list args);
char *printk_msgid_render(char *buf, u32 id);
__printf(3, 0)
int printk_msgid_vscnprintf(char *buf, size_t size, const char *fmt, va_list args,
			    struct printk_msgid *msgid);
void printk_msgid_classify(const char *text, struct printk_msgid *msgid, size_t size,
			   size_t text_len, bool newline);
#if IS_ENABLED(CONFIG_KUNIT)
unsigned long printk_msgid_hashed_here(void);
void printk_msgid_drop_modules(void);
#endif

#ifdef CONFIG_PRINTK_MSGID

DECLARE_STATIC_KEY_FALSE(printk_msgid_key);

/**
 * printk_msgid_wanted - whether a new record carries an identifier
 * @facility: the record's facility; only kernel messages (0) are identified
 *
 * Asked once per record, so that a record never changes its mind while
 * printk.msgid is toggled. When the switch is off this is one static
 * branch.
 *
 * Return: true if the record is to be formatted with
 * printk_msgid_vscnprintf(), after its prefix.
 */
static inline bool printk_msgid_wanted(int facility)
{
	return static_branch_unlikely(&printk_msgid_key) && facility == 0;
}

#else /* !CONFIG_PRINTK_MSGID */

static inline bool printk_msgid_wanted(int facility)
{
	return false;
}

#endif /* CONFIG_PRINTK_MSGID */

#endif /* _LINUX_PRINTK_MSGID_H */
