/* SPDX-License-Identifier: GPL-2.0 */
/* Fuzz shim (harness/fuzz): seq_file into a caller's buffer. */
#ifndef _SHIM_LINUX_SEQ_FILE_H
#define _SHIM_LINUX_SEQ_FILE_H
#include "../shim_base.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct seq_file {
	char *buf;
	size_t size;
	size_t count;
};

static inline void seq_vprintf(struct seq_file *m, const char *f, va_list ap)
{
	int n = (vsnprintf)(m->buf + m->count, m->size - m->count, f, ap);	/* libc's */

	if (n > 0)
		m->count = m->count + n < m->size ? m->count + n : m->size - 1;
}

static inline __attribute__((format(printf, 2, 3)))
void seq_printf(struct seq_file *m, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	seq_vprintf(m, f, ap);
	va_end(ap);
}

static inline void seq_puts(struct seq_file *m, const char *s)
{
	seq_printf(m, "%s", s);
}

struct file_operations {
	int (*show)(struct seq_file *m, void *unused);
};

#define DEFINE_SHOW_ATTRIBUTE(__name)					\
static const struct file_operations __name ## _fops = {			\
	.show = __name ## _show,					\
}
#endif
