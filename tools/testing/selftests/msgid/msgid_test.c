// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest for printk message identifiers (CONFIG_PRINTK_MSGID): reads the
 * formats of lib/test_msgid.c's call sites from the printk index, computes
 * their identifiers, and checks the index (also read 1 byte at a time),
 * the records the module prints, the run-time switch both ways, and that a
 * line written by user space carries no identifier.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest.h"

#define PARAM		"/sys/module/printk/parameters/msgid"
#define EMIT		"/sys/kernel/debug/test_msgid/emit"
#define INDEX		"/sys/kernel/debug/printk/index/"
#define SOURCE		"test_msgid.c:"	/* the module's call sites in the index */
#define DEV_PREFIX	"%s %s: "	/* dev_printk()'s, before its caller's format */
#define MAX_SITES	32
#define FMT_MAX		256

static struct site {
	char fmt[FMT_MAX];	/* the caller's format, unescaped */
	uint32_t id;		/* computed here */
	int seen;		/* records that carried id */
} sites[MAX_SITES];
static int nsites;

/* CRC-32 as zlib's crc32(): reflected 0xedb88320, ~0 in and out. */
static uint32_t crc32(const char *p, size_t len)
{
	uint32_t c = 0xffffffff;
	int k;

	while (len--) {
		c ^= (unsigned char)*p++;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
	}
	return ~c;
}

/* The identifier: leading KERN_SOH pairs and one trailing newline dropped. */
static uint32_t msgid_of(const char *fmt)
{
	size_t n;

	while (fmt[0] == '\001' && fmt[1])
		fmt += 2;
	n = strlen(fmt);
	if (n && fmt[n - 1] == '\n')
		n--;
	return crc32(fmt, n);
}

/* Undo the index's escaping of the module's formats (\n, \" and \\). */
static void unescape(const char *s, const char *end, char *out, size_t size)
{
	size_t n = 0;

	for (; s < end && n + 1 < size; s++) {
		if (*s == '\\' && s + 1 < end)
			out[n++] = *++s == 'n' ? '\n' : *s;
		else
			out[n++] = *s;
	}
	out[n] = '\0';
}

/* Read a whole file, @chunk bytes per read(). */
static char *slurp(const char *path, size_t chunk)
{
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY);
	ssize_t n;

	while (buf && fd >= 0 &&
	       (n = read(fd, buf + len, chunk < cap - len ? chunk : cap - len)) > 0) {
		len += n;
		if (len == cap)
			buf = realloc(buf, (cap *= 2) + 1);
	}
	if (fd >= 0)
		close(fd);
	if (fd < 0 || !buf) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/*
 * The module's index entries, in <debugfs>/printk/index/test_msgid (or
 * vmlinux's, where it is built in): <level> file:line function "format"
 * msgid=%08x.
 */
static void test_index(void)
{
	const char *path = INDEX "test_msgid";
	char *all, *one, *line, *q, *e;
	bool ok = true;

	if (access(path, R_OK))
		path = INDEX "vmlinux";
	all = slurp(path, 1 << 20);
	one = slurp(path, 1);
	if (!all || !one)
		ksft_exit_fail_msg("cannot read %s\n", path);
	if (strcmp(all, one)) {
		ksft_print_msg("%s: 1-byte reads differ from one read\n", path);
		ok = false;
	}
	for (line = strtok(all, "\n"); line; line = strtok(NULL, "\n")) {
		struct site *s = &sites[nsites];

		if (!strstr(line, SOURCE) || nsites == MAX_SITES)
			continue;
		q = strchr(line, '"');
		e = strstr(line, "\" msgid=");
		if (!q || !e) {
			ksft_print_msg("no format or msgid: %s\n", line);
			ok = false;
			continue;
		}
		/* dev_printk(): the index shows its prefix before the format. */
		if (!strncmp(q + 1, DEV_PREFIX, strlen(DEV_PREFIX)))
			q += strlen(DEV_PREFIX);
		unescape(q + 1, e, s->fmt, FMT_MAX);
		s->id = msgid_of(s->fmt);
		if (strtoul(e + 8, NULL, 16) != s->id) {
			ksft_print_msg("index shows %.8s, expected %08x: %s\n",
				       e + 8, s->id, line);
			ok = false;
		}
		ksft_print_msg("call site %08x \"%.*s\"\n", s->id,
			       (int)strcspn(s->fmt, "\n"), s->fmt);
		nsites++;
	}
	free(all);
	free(one);
	ksft_test_result(ok && nsites >= 5,
			 "index: %d call sites of test_msgid, each with its identifier\n", nsites);
}

/* The id of a "(%08x): " prefix at the start of @text, or -1. */
static long long prefix_id(const char *text)
{
	char *end;
	unsigned long id;

	if (text[0] != '(')
		return -1;
	id = strtoul(text + 1, &end, 16);
	if (end != text + 9 || strncmp(end, "): ", 3))
		return -1;
	return id;
}

/*
 * Emit the module's messages (or write @user to /dev/kmsg) and read the new
 * records. Returns the number of records with a prefix; counts each
 * site's in ->seen; @bad counts records of the module without a known id.
 */
static int emit_and_read(const char *user, int *records, int *bad)
{
	char buf[8192], *text;
	int fd, i, prefixed = 0;
	long long id;
	ssize_t n;

	*records = *bad = 0;
	for (i = 0; i < nsites; i++)
		sites[i].seen = 0;
	fd = open("/dev/kmsg", O_RDWR | O_NONBLOCK);
	if (fd < 0 || lseek(fd, 0, SEEK_END) < 0)
		ksft_exit_fail_msg("/dev/kmsg: %s\n", strerror(errno));
	if (user ? write(fd, user, strlen(user)) < 0 : write_str(EMIT, "1"))
		ksft_exit_fail_msg("cannot print: %s\n", strerror(errno));
	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n < 0)
			continue;
		buf[n] = '\0';
		text = strchr(buf, ';');
		if (!text)
			continue;
		text[strcspn(text, "\n")] = '\0';
		if (!strstr(++text, user ? "msgid_test:" : "test_msgid"))
			continue;
		(*records)++;
		id = prefix_id(text);
		if (id < 0)
			continue;
		prefixed++;
		for (i = 0; i < nsites && sites[i].id != id; i++)
			;
		if (i < nsites)
			sites[i].seen++;
		else
			(*bad)++;
		if (i == nsites || user)
			ksft_print_msg("unexpected identifier: %s\n", text);
	}
	close(fd);
	return prefixed;
}

/* Each call site printed once, its record with the site's identifier. */
static void test_records(const char *what)
{
	int records, bad, i, prefixed;
	bool ok;

	prefixed = emit_and_read(NULL, &records, &bad);
	ok = records == nsites && prefixed == nsites && !bad;
	for (i = 0; i < nsites; i++) {
		if (sites[i].seen != 1) {
			ksft_print_msg("%08x \"%.*s\": %d records\n", sites[i].id,
				       (int)strcspn(sites[i].fmt, "\n"), sites[i].fmt,
				       sites[i].seen);
			ok = false;
		}
	}
	ksft_test_result(ok, "%s: %d of %d records carry their call site's identifier\n",
			 what, prefixed - bad, records);
}

/* With the switch off, or for a line of user space: no identifier. */
static void test_none(const char *what, const char *user, int want)
{
	int records, bad, prefixed;

	prefixed = emit_and_read(user, &records, &bad);
	ksft_test_result(records == want && !prefixed,
			 "%s: %d of %d records carry an identifier\n", what, prefixed, records);
}

int main(void)
{
	char was[4] = "";
	int fd;

	ksft_print_header();
	if (crc32("123456789", 9) != 0xcbf43926)
		ksft_exit_fail_msg("the CRC-32 of this test is broken\n");
	if (geteuid())
		ksft_exit_skip("needs root\n");
	fd = open(PARAM, O_RDONLY);
	if (fd < 0 || read(fd, was, sizeof(was) - 1) <= 0)
		ksft_exit_skip(PARAM " missing (CONFIG_PRINTK_MSGID)\n");
	close(fd);
	if (access(EMIT, W_OK) && system("modprobe test_msgid"))
		ksft_exit_skip("cannot load test_msgid (CONFIG_TEST_MSGID)\n");
	if (access(EMIT, W_OK))
		ksft_exit_skip(EMIT " missing (debugfs not mounted?)\n");
	if (write_str(PARAM, "1"))
		ksft_exit_fail_msg("cannot switch " PARAM " on\n");

	ksft_set_plan(5);
	test_index();
	test_records("switch on");
	if (write_str(PARAM, "0"))
		ksft_exit_fail_msg("cannot switch " PARAM " off\n");
	test_none("switch off", NULL, nsites);
	if (write_str(PARAM, "1"))
		ksft_exit_fail_msg("cannot switch " PARAM " on\n");
	test_records("switch on again");
	test_none("user space", "msgid_test: a line from user space\n", 1);

	write_str(PARAM, was[0] == 'Y' || was[0] == '1' ? "1" : "0");
	if (system("modprobe -r test_msgid 2>/dev/null"))
		ksft_print_msg("test_msgid stays loaded\n");
	ksft_finished();
}
