// SPDX-License-Identifier: GPL-2.0
/*
 * Extended test of printk message identifiers (CONFIG_PRINTK_MSGID): the
 * harness's companion of tools/testing/selftests/msgid, not part of the
 * series. harness/selftest.sh builds it against the tree's kselftest.h
 * and runs it before the kselftest in every boot of make check.
 *
 * With printk.msgid=1 every new kernel record starts with "(%08x): ", the
 * CRC-32 of the canonical format of the printk() caller: the format
 * reached by following the first %pV of each format, without its leading
 * KERN_SOH level pairs and one trailing newline. The module test_msgid_ext
 * (harness/modules/test_msgid_ext/) prints messages through the paths that
 * matter on request; this program reads their records from /dev/kmsg and
 * checks each identifier against the CRC-32, computed here, of the format
 * written in the module. The table below copies those formats, pr_fmt()
 * prefix included. It also checks the run-time switch, records written by
 * user space, continuations, the per-class counters in debugfs, a reload
 * of the module at another address, the printk index (1-byte reads, each
 * call site's identifier, which wrappers are indexed, the coverage of the
 * boot's records), the records of the boot (devices, DRM, Rust), and
 * records printed on every CPU, in soft and hard irq context and, on x86,
 * in NMI context while the switch flips (stress).
 *
 * Needs root, debugfs, the module test_msgid_ext and, for the reload, the
 * module test_module (CONFIG_TEST_LKM) to keep the old address busy, and
 * CONFIG_KALLSYMS for /sys/module/test_msgid_ext/sections/.text. Boot with
 * printk.msgid=1 for the boot log case. MSGID_STRESS_MS in the environment
 * sets how long the stress prints (the module's stress_ms).
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"

#define KMSG		"/dev/kmsg"
#define PARAM		"/sys/module/printk/parameters/msgid"
#define STATS		"/sys/kernel/debug/printk/msgid"
#define EMIT		"/sys/kernel/debug/test_msgid_ext/emit"
#define CASES		"/sys/kernel/debug/test_msgid_ext/cases"
#define DRM_DEBUG_PARAM	"/sys/module/drm/parameters/debug"
#define DRM_UT_DRIVER	0x2	/* BIT(DRM_UT_DRIVER) of drm.debug */
#define SECTIONS	"/sys/module/test_msgid_ext/sections/"
#define CONSOLE_LEVEL	"/proc/sys/kernel/printk"

#define PREFIX_LEN	12	/* "(%08x): " */
#define RECORD_MAX	1024	/* PRINTKRB_RECORD_MAX, prefix included */
#define LINE_MAX_KMSG	8192	/* CONSOLE_EXT_LOG_MAX, one read of /dev/kmsg */

/*
 * Records of the boot before parse_early_param() switches identifiers on:
 * "Linux version", "Command line", the e820 map. More than this many
 * means the switch came late.
 */
#define BOOT_UNPREFIXED_MAX	40

/* As in include/linux/kern_levels.h and include/linux/printk.h. */
#define KERN_SOH	"\001"
#define KERN_ERR	KERN_SOH "3"
#define KERN_INFO	KERN_SOH "6"
#define KERN_CONT	KERN_SOH "c"
#define FW_BUG		"[Firmware Bug]: "
#define FW_WARN		"[Firmware Warn]: "
#define FW_INFO		"[Firmware Info]: "
#define DEPRECATED	"[Deprecated]: "

/* test_msgid_ext.c: #define pr_fmt(fmt) KBUILD_MODNAME ": " fmt */
#define PR_FMT		"test_msgid_ext: "
#define TEST_MSGID_PLAIN "test_msgid plain printk: level %d\n"

/* CRC-32/ISO-HDLC, as zlib's crc32(): reflected 0xedb88320, ~0 in and out. */
static uint32_t crc_table[256];

static void crc32_init(void)
{
	uint32_t c;
	int n, k;

	for (n = 0; n < 256; n++) {
		c = n;
		for (k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320 ^ (c >> 1) : c >> 1;
		crc_table[n] = c;
	}
}

static uint32_t crc32(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	uint32_t c = 0xffffffff;

	while (len--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffff;
}

/* The identifier of a caller's format. */
static uint32_t msgid_of(const char *fmt)
{
	size_t n;

	while (fmt[0] == '\001' &&
	       ((fmt[1] >= '0' && fmt[1] <= '7') || fmt[1] == 'c'))
		fmt += 2;
	n = strlen(fmt);
	if (n && fmt[n - 1] == '\n')
		n--;
	return crc32(fmt, n);
}

/* One record of /dev/kmsg, its text unescaped. */
struct record {
	unsigned int prio;		/* facility << 3 | level */
	unsigned long long seq;
	char text[LINE_MAX_KMSG];
	size_t len;
	bool has_id;			/* a well-formed "(%08x): " */
	uint32_t id;
	const char *body;		/* the text after the prefix */
};

struct records {
	struct record *r;
	size_t n, cap;
	unsigned long long lost;	/* records overwritten before we read them */
};

static bool parse_prefix(const char *s, size_t len, uint32_t *id)
{
	uint32_t v = 0;
	int i;

	if (len < PREFIX_LEN || s[0] != '(' || s[9] != ')' || s[10] != ':' || s[11] != ' ')
		return false;
	for (i = 1; i <= 8; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			v = v << 4 | (c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v << 4 | (c - 'a' + 10);
		else
			return false;
	}
	*id = v;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "prio,seq,usec,flags[,...];text\n[ KEY=VALUE\n...]" */
static int parse_record(const char *buf, size_t n, struct record *rec)
{
	const char *semi = memchr(buf, ';', n);
	const char *p, *end;
	size_t len = 0;

	if (!semi || sscanf(buf, "%u,%llu,", &rec->prio, &rec->seq) != 2)
		return -1;
	p = semi + 1;
	end = memchr(p, '\n', buf + n - p);
	if (!end)
		end = buf + n;
	while (p < end && len < sizeof(rec->text) - 1) {
		if (p[0] == '\\' && end - p >= 4 && p[1] == 'x' &&
		    hexval(p[2]) >= 0 && hexval(p[3]) >= 0) {
			rec->text[len++] = hexval(p[2]) << 4 | hexval(p[3]);
			p += 4;
		} else {
			rec->text[len++] = *p++;
		}
	}
	rec->text[len] = '\0';
	rec->len = len;
	rec->has_id = parse_prefix(rec->text, len, &rec->id);
	rec->body = rec->has_id ? rec->text + PREFIX_LEN : rec->text;
	return 0;
}

static int kmsg_open(bool at_end)
{
	int fd = open(KMSG, O_RDONLY | O_NONBLOCK);

	if (fd < 0)
		ksft_exit_fail_perror("open " KMSG);
	if (at_end && lseek(fd, 0, SEEK_END) < 0)
		ksft_exit_fail_perror("lseek " KMSG);
	return fd;
}

static void records_free(struct records *rs)
{
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}

/*
 * The next record available on @fd, NUL-terminated in @buf: its length, or
 * 0 when none is left. Records overwritten before they could be read
 * (EPIPE) are counted in @epipe.
 */
static ssize_t kmsg_read_one(int fd, char *buf, size_t size, unsigned long long *epipe)
{
	for (;;) {
		ssize_t n = read(fd, buf, size - 1);

		if (n < 0 && errno == EPIPE) {
			(*epipe)++;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0)
			ksft_exit_fail_perror("read " KMSG);
		buf[n] = '\0';
		return n;
	}
}

/* Read every record available on @fd into @rs. */
static void kmsg_read_all(int fd, struct records *rs)
{
	static char buf[LINE_MAX_KMSG];
	ssize_t n;

	while ((n = kmsg_read_one(fd, buf, sizeof(buf), &rs->lost)) > 0) {
		if (rs->n == rs->cap) {
			size_t i;

			rs->cap = rs->cap ? 2 * rs->cap : 256;
			rs->r = realloc(rs->r, rs->cap * sizeof(*rs->r));
			if (!rs->r)
				ksft_exit_fail_msg("out of memory\n");
			/* ->body points into ->text, which has moved. */
			for (i = 0; i < rs->n; i++)
				rs->r[i].body = rs->r[i].text + (rs->r[i].has_id ? PREFIX_LEN : 0);
		}
		if (parse_record(buf, n, &rs->r[rs->n]) == 0)
			rs->n++;
		else
			ksft_print_msg("unparsable record: %s", buf);
	}
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

static int run(const char *cmd)
{
	int status = system(cmd);

	return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Ask test_msgid_ext for a case and collect the records it printed. */
static int emit(const char *name, struct records *rs)
{
	int fd = kmsg_open(true);
	int ret = write_file(EMIT, name);

	if (ret)
		ksft_print_msg("case %s: %s\n", name, strerror(errno));
	kmsg_read_all(fd, rs);
	close(fd);
	return ret;
}

/* A message of test_msgid, and how to find its record. */
struct expect {
	const char *fmt;	/* the caller's format, as in test_msgid_ext.c */
	const char *match;	/* a part of its text, after the prefix */
	int level;		/* the level of the record, -1: any */
	int min, max;		/* how many records; 0, 0 means exactly one */
};

struct msg_case {
	const char *name;	/* the case of test_msgid_ext */
	const char *desc;
	struct expect exp[5];
	bool (*extra)(const struct records *rs);
};

/* Kernel records whose text (after any prefix) contains @match. */
static size_t find(const struct records *rs, const char *match,
		   const struct record **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < rs->n; i++) {
		const struct record *r = &rs->r[i];

		if (r->prio >> 3 || !strstr(r->body, match))
			continue;
		if (n < max)
			out[n] = r;
		n++;
	}
	return n;
}

static bool check_expect(const struct records *rs, const struct expect *e)
{
	int min = e->min ? e->min : 1, max = e->max ? e->max : 1;
	uint32_t want = msgid_of(e->fmt);
	const struct record *found[32];
	size_t n, i;
	bool ok = true;

	n = find(rs, e->match, found, 32);
	if (n < (size_t)min || n > (size_t)max) {
		ksft_print_msg("\"%s\": %zu records, expected %d..%d; %zu new:\n",
			       e->match, n, min, max, rs->n);
		for (i = 0; i < rs->n && i < 20; i++)
			ksft_print_msg("  %u %.100s\n", rs->r[i].prio, rs->r[i].text);
		return false;
	}
	for (i = 0; i < n && i < 32; i++) {
		const struct record *r = found[i];

		if (!r->has_id) {
			ksft_print_msg("no identifier: %s\n", r->text);
			ok = false;
		} else if (r->id != want) {
			ksft_print_msg("identifier %08x, expected %08x: %s\n",
				       r->id, want, r->text);
			ok = false;
		}
		if (e->level >= 0 && (int)(r->prio & 7) != e->level) {
			ksft_print_msg("level %u, expected %d: %s\n",
				       r->prio & 7, e->level, r->text);
			ok = false;
		}
	}
	return ok;
}

static bool check_msg_case(const struct msg_case *c, const struct records *rs)
{
	bool ok = true;
	int i;

	for (i = 0; i < 5 && c->exp[i].fmt; i++)
		ok &= check_expect(rs, &c->exp[i]);
	if (c->extra)
		ok &= c->extra(rs);
	return ok;
}

static const struct record *find_one(const struct records *rs, const char *match)
{
	const struct record *r;

	return find(rs, match, &r, 1) == 1 ? r : NULL;
}

/* DRM's prefix: the function that called the wrapper, then the message. */
static bool drm_extra(const struct records *rs)
{
	const struct record *r = find_one(rs, "DRM_ERROR without a device: 2");

	if (!r || strncmp(r->body, "[drm:test_msgid_drm", 19)) {
		ksft_print_msg("DRM_ERROR: expected \"[drm:test_msgid_drm...\": %s\n",
			       r ? r->text : "no record");
		return false;
	}
	return true;
}

/* The wrappers print their own text, which is not part of the identity. */
static bool dev_extra(const struct records *rs)
{
	const struct record *r = find_one(rs, "dev_info on a platform device: 1");

	if (r && strncmp(r->body, "platform test_msgid_ext: ", 25)) {
		ksft_print_msg("dev_info without the dev_printk prefix: %s\n", r->text);
		return false;
	}
	return true;
}

static size_t count_prefixes(const char *s)
{
	size_t n = 0;
	uint32_t id;

	for (; *s; s++)
		if (parse_prefix(s, strlen(s), &id))
			n++;
	return n;
}

/* One record for the start and its fragments, with one prefix. */
static bool cont_extra(const struct records *rs)
{
	static const char merged[] = PR_FMT "continuation start: 1 middle fragment end 3";
	const struct record *r = find_one(rs, "continuation start: 1");
	const struct record *frag[1];
	bool ok = true;

	if (!r)
		return false;
	if (strcmp(r->body, merged)) {
		ksft_print_msg("not merged: \"%s\", expected \"%s\"\n", r->body, merged);
		ok = false;
	}
	if (count_prefixes(r->text) != 1) {
		ksft_print_msg("%zu prefixes in %s\n", count_prefixes(r->text), r->text);
		ok = false;
	}
	if (find(rs, " middle fragment", frag, 1) != 1 ||
	    find(rs, " end 3", frag, 1) != 1) {
		ksft_print_msg("a fragment got a record of its own\n");
		ok = false;
	}
	return ok;
}

static bool long_extra(const struct records *rs)
{
	const struct record *r = find_one(rs, "long message of 2000 bytes: ");

	if (!r)
		return false;
	if (r->len > RECORD_MAX || r->len < RECORD_MAX - 24 ||
	    r->text[r->len - 1] != 'x') {
		ksft_print_msg("long record of %zu bytes, expected up to %d, ending in x\n",
			       r->len, RECORD_MAX);
		return false;
	}
	return true;
}

static const struct msg_case msg_cases[] = {
	{ "printk", "printk() with a level", {
		{ KERN_INFO TEST_MSGID_PLAIN, "test_msgid plain printk: level 6", 6 },
		{ KERN_ERR TEST_MSGID_PLAIN, "test_msgid plain printk: level 3", 3 },
	} },
	{ "pr", "pr_*() under pr_fmt()", {
		{ PR_FMT "pr_info under pr_fmt: %s %u\n",
		  PR_FMT "pr_info under pr_fmt: arg 42", 6 },
		{ PR_FMT "pr_warn under pr_fmt: %d%%\n",
		  PR_FMT "pr_warn under pr_fmt: 99%", 4 },
		{ PR_FMT "pr_err under pr_fmt: %08lx %c\n",
		  PR_FMT "pr_err under pr_fmt: deadbeef z", 3 },
	} },
	{ "dev", "dev_printk() on a device, on NULL, dev_err_probe()", {
		{ "dev_info on a platform device: %d\n",
		  "test_msgid_ext: dev_info on a platform device: 1", 6 },
		{ "dev_err on a platform device: %s\n",
		  "test_msgid_ext: dev_err on a platform device: boom", 3 },
		{ "dev_err on a NULL device: %d\n",
		  "(NULL device *): dev_err on a NULL device: 3", 3 },
		{ "dev_err_probe on a platform device: %d\n",
		  ": dev_err_probe on a platform device: 4", 3 },
	}, dev_extra },
	{ "drm", "DRM's wrappers: drm_dev_printk(), __drm_err(), __drm_dev_dbg()", {
		{ "*ERROR* DRM_DEV_ERROR on a platform device: %d\n",
		  "] *ERROR* DRM_DEV_ERROR on a platform device: 1", 3 },
		{ "DRM_ERROR without a device: %d\n",
		  "] *ERROR* DRM_ERROR without a device: 2", 3 },
		{ "drm_dev_dbg on a platform device: %d\n",
		  "] drm_dev_dbg on a platform device: 3", 7 },
		{ "DRM_DEBUG_DRIVER without a device: %d\n",
		  "] DRM_DEBUG_DRIVER without a device: 4", 7 },
	}, drm_extra },
	{ "netdev", "netdev_printk() on a net device and on NULL", {
		{ "netdev_info on a dummy device: %d\n",
		  ": netdev_info on a dummy device: 1", 6 },
		{ "netdev_err on a dummy device: %s\n",
		  ": netdev_err on a dummy device: down", 3 },
		{ "netdev_warn on a NULL net device: %d\n",
		  "(NULL net_device): netdev_warn on a NULL net device: 3", 4 },
	} },
	{ "nested", "three wrappers nesting %pV on dev_printk()", {
		{ "nested three levels deep: %d %s",
		  "TMSGID-fs (tmsgid0): link1: dev1.0: nested three levels deep: 3 deep", 4 },
		/* The first %pV is followed, not the second. */
		{ "the first format: %d",
		  PR_FMT "two wrapped formats: the first format: 1, then the second format: 2", 6 },
	} },
	{ "tag_fmt", "FW_INFO in the format (mce style)", {
		{ PR_FMT FW_INFO
		  "CPU %d: synthetic test event %d (not from firmware) Bank %d: %016llx\n",
		  PR_FMT FW_INFO "CPU ", 6 },
	} },
	{ "tags_str", "FW_INFO and FW_BUG through %s (ghes style)", {
		{ "%sFirmware information from test source: %d\n",
		  "}" FW_INFO "Firmware information from test source: 1", 6 },
		{ "%sFirmware bug from test source: %d\n",
		  "}" FW_BUG "Firmware bug from test source: 2", 4 },
	} },
	{ "fw_tags", "FW_WARN, FW_INFO and DEPRECATED in the format", {
		{ PR_FMT FW_WARN "firmware warning from the test: %d\n",
		  PR_FMT FW_WARN "firmware warning from the test: 1", 4 },
		{ PR_FMT FW_INFO "firmware information from the test: %d\n",
		  PR_FMT FW_INFO "firmware information from the test: 2", 6 },
		{ PR_FMT DEPRECATED "deprecated feature from the test: %d\n",
		  PR_FMT DEPRECATED "deprecated feature from the test: 3", 4 },
	} },
	{ "cont", "KERN_CONT: fragments merged without an identifier", {
		{ PR_FMT "continuation start: %d",
		  PR_FMT "continuation start: 1", 6 },
		{ PR_FMT "before an orphan fragment: %d\n",
		  PR_FMT "before an orphan fragment: 4", 6 },
		/* No record is open: the fragment starts one. */
		{ KERN_CONT "orphan continuation fragment: %d\n",
		  "orphan continuation fragment: 5", -1 },
	}, cont_extra },
	{ "irq", "hard irq context (hrtimer, irq_work)", {
		{ PR_FMT "hrtimer in hard irq context: in_hardirq=%d\n",
		  PR_FMT "hrtimer in hard irq context: in_hardirq=1", 6 },
		{ PR_FMT "irq_work in hard irq context: in_hardirq=%d\n",
		  PR_FMT "irq_work in hard irq context: in_hardirq=1", 6 },
	} },
	{ "ratelimited", "pr_info_ratelimited()", {
		{ PR_FMT "ratelimited message: %d\n",
		  PR_FMT "ratelimited message: ", 6, 1, 20 },
	} },
	{ "long", "a message longer than a record", {
		{ PR_FMT "long message of %d bytes: %s\n",
		  PR_FMT "long message of 2000 bytes: xxxx", 6 },
		{ PR_FMT "after the long message: %d\n",
		  PR_FMT "after the long message: 2000", 6 },
	}, long_extra },
};

/* Whether test_msgid_ext has case @name: "drm" only where DRM is built. */
static bool case_listed(const char *name)
{
	char buf[1024], *line, *save;

	if (read_file(CASES, buf, sizeof(buf)))
		return false;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!strcmp(line, name))
			return true;
	return false;
}

static int drm_debug_get(unsigned long *val)
{
	char buf[32];

	if (read_file(DRM_DEBUG_PARAM, buf, sizeof(buf)))
		return -1;
	*val = strtoul(buf, NULL, 0);
	return 0;
}

static int drm_debug_set(unsigned long val)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu", val);
	return write_file(DRM_DEBUG_PARAM, buf);
}

static void test_msg_cases(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msg_cases); i++) {
		const struct msg_case *c = &msg_cases[i];
		struct records rs = { 0 };
		unsigned long drm_debug;
		bool drm = !strcmp(c->name, "drm"), drm_set = false;
		bool ok;

		if (drm && !case_listed(c->name)) {
			ksft_test_result_skip("%s: %s (test_msgid_ext built without DRM)\n",
					      c->name, c->desc);
			continue;
		}
		/* The debug messages print only while drm.debug asks for them. */
		if (drm && drm_debug_get(&drm_debug) == 0)
			drm_set = drm_debug_set(drm_debug | DRM_UT_DRIVER) == 0;
		ok = emit(c->name, &rs) == 0;
		if (drm_set)
			drm_debug_set(drm_debug);
		ok = ok && check_msg_case(c, &rs);
		ksft_test_result(ok, "%s: %s\n", c->name, c->desc);
		records_free(&rs);
	}
}

/*
 * <debugfs>/printk/msgid: "# class count last_id", then one line a class
 * (last_id only for the tagged classes), then comment lines.
 */
enum { C_NONE, C_HW, C_FW_BUG, C_FW_WARN, C_FW_INFO, C_DEPRECATED, C_NR };

static const char * const class_names[C_NR] = {
	"none", "hardware", "firmware-bug", "firmware-warn", "firmware-info", "deprecated",
};

struct class_stats {
	long count[C_NR];
	long total;
	long hashed;		/* formats hashed: what the cache did not answer */
	bool has_last[C_NR];
	uint32_t last[C_NR];
};

static int read_stats(struct class_stats *st)
{
	char buf[1024], name[32], last[16];
	char *line, *save;
	int c, seen = 0;
	long count;

	memset(st, 0, sizeof(*st));
	if (read_file(STATS, buf, sizeof(buf))) {
		ksft_print_msg("%s: %s\n", STATS, strerror(errno));
		return -1;
	}
	if (strncmp(buf, "# class count last_id\n", 22)) {
		ksft_print_msg("%s: bad header\n", STATS);
		return -1;
	}
	for (line = strtok_r(buf + 22, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "# formats hashed: ", 18)) {
			st->hashed = strtol(line + 18, NULL, 10);
			continue;
		}
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%31s %ld %15s", name, &count, last) != 3)
			goto bad;
		for (c = 0; c < C_NR; c++)
			if (!strcmp(name, class_names[c]))
				break;
		if (c == C_NR)
			goto bad;
		st->count[c] = count;
		st->total += count;
		if (strcmp(last, "-")) {
			char *end;

			st->last[c] = strtoul(last, &end, 16);
			if (strlen(last) != 8 || *end)
				goto bad;
			st->has_last[c] = true;
		} else if (count && c != C_NONE) {
			goto bad;
		}
		seen |= 1 << c;
	}
	if (seen != (1 << C_NR) - 1) {
		ksft_print_msg("%s: classes missing\n", STATS);
		return -1;
	}
	return 0;
bad:
	ksft_print_msg("%s: bad line \"%s\"\n", STATS, line);
	return -1;
}

/* Each tagged message counts once, in its class, and is the last one. */
static void test_classes(void)
{
	static const struct {
		int class;
		const char *fmt;	/* the last one emitted of its class */
		long n;
	} want[] = {
		{ C_FW_BUG, "%sFirmware bug from test source: %d\n", 1 },
		{ C_FW_WARN, PR_FMT FW_WARN "firmware warning from the test: %d\n", 1 },
		{ C_FW_INFO, PR_FMT FW_INFO "firmware information from the test: %d\n", 3 },
		{ C_DEPRECATED, PR_FMT DEPRECATED "deprecated feature from the test: %d\n", 1 },
	};
	struct class_stats before, after;
	struct records rs = { 0 };
	bool ok = true;
	size_t i;

	if (read_stats(&before)) {
		ksft_test_result_fail("classes: counters in " STATS "\n");
		return;
	}
	/*
	 * tag_fmt: 1 firmware-info; tags_str: 1 firmware-info, 1
	 * firmware-bug; fw_tags: 1 each of firmware-warn, firmware-info and
	 * deprecated. No test prints HW_ERR: the hardware class stays as it is.
	 */
	ok &= emit("tag_fmt", &rs) == 0;
	ok &= emit("tags_str", &rs) == 0;
	ok &= emit("fw_tags", &rs) == 0;
	records_free(&rs);
	if (!ok || read_stats(&after)) {
		ksft_test_result_fail("classes: counters in " STATS "\n");
		return;
	}
	if (after.count[C_HW] != before.count[C_HW]) {
		ksft_print_msg("%s: count rose by %ld, expected 0\n", class_names[C_HW],
			       after.count[C_HW] - before.count[C_HW]);
		ok = false;
	}
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		int c = want[i].class;
		long d = after.count[c] - before.count[c];
		uint32_t id = msgid_of(want[i].fmt);

		if (d != want[i].n) {
			ksft_print_msg("%s: count rose by %ld, expected %ld\n",
				       class_names[c], d, want[i].n);
			ok = false;
		}
		if (!after.has_last[c] || after.last[c] != id) {
			ksft_print_msg("%s: last_id %08x, expected %08x\n",
				       class_names[c], after.last[c], id);
			ok = false;
		}
	}
	ksft_test_result(ok, "classes: FW_*/DEPRECATED counters rise by the messages emitted\n");
}

/*
 * The counters add up to the identified kernel records since boot: @before
 * was read before the log, @after after it. Records printed before the
 * per-CPU areas were set up must count once, not once per CPU.
 */
static void test_counts(const struct records *boot, const struct class_stats *before,
			const struct class_stats *after)
{
	long n = 0;
	size_t i;

	if (boot->lost || !boot->n || boot->r[0].seq != 0) {
		ksft_test_result_skip("counts: the log since boot is not complete\n");
		return;
	}
	for (i = 0; i < boot->n; i++)
		n += !(boot->r[i].prio >> 3) && boot->r[i].has_id;
	ksft_print_msg("counts: %ld identified kernel records, counters %ld..%ld\n",
		       n, before->total, after->total);
	ksft_test_result(before->total <= n && n <= after->total,
			 "counts: the counters add up to the identified records\n");
}

/* A record written by user space is not a printk() call: no identifier. */
static void test_user_record(void)
{
	char line[160], want[128];
	struct records rs = { 0 };
	const struct record *r;
	int fd, wfd;
	bool ok = false;

	snprintf(want, sizeof(want), "msgid_test: a line from user space, pid %d, %%s %%d",
		 getpid());
	snprintf(line, sizeof(line), "<5>%s\n", want);
	fd = kmsg_open(true);
	wfd = open(KMSG, O_WRONLY);
	if (wfd >= 0 && write(wfd, line, strlen(line)) == (ssize_t)strlen(line)) {
		kmsg_read_all(fd, &rs);
		for (r = rs.r; r < rs.r + rs.n; r++) {
			if (!strstr(r->text, want))
				continue;
			ok = !strcmp(r->text, want) && r->prio == (1 << 3 | 5);
			if (!ok)
				ksft_print_msg("user record %u: \"%s\"\n", r->prio, r->text);
			break;
		}
		if (r == rs.r + rs.n)
			ksft_print_msg("the user record was not found\n");
	} else {
		ksft_perror("write " KMSG);
	}
	if (wfd >= 0)
		close(wfd);
	close(fd);
	records_free(&rs);
	ksft_test_result(ok, "user: a line written to /dev/kmsg gets no identifier\n");
}

static int param_get(void)
{
	char buf[8];

	if (read_file(PARAM, buf, sizeof(buf)))
		return -1;
	if (!strcmp(buf, "Y\n"))
		return 1;
	if (!strcmp(buf, "N\n"))
		return 0;
	return -1;
}

static int param_set(int on)
{
	if (write_file(PARAM, on ? "1" : "0"))
		return -1;
	return param_get() == on ? 0 : -1;
}

/* printk.msgid=0: no new kernel record has a prefix; =1: they have again. */
static const struct msg_case *msg_case(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msg_cases); i++)
		if (!strcmp(msg_cases[i].name, name))
			return &msg_cases[i];
	ksft_exit_fail_msg("no case %s\n", name);
}

static void test_switch(void)
{
	const struct msg_case *pr = msg_case("pr");
	struct records rs = { 0 };
	bool ok = true;
	size_t i;

	if (param_set(0)) {
		ksft_print_msg("cannot switch " PARAM " off\n");
		ok = false;
	}
	ok &= emit("pr", &rs) == 0;
	ok &= emit("dev", &rs) == 0;
	if (!find_one(&rs, "pr_info under pr_fmt: arg 42")) {
		ksft_print_msg("no records while off\n");
		ok = false;
	}
	for (i = 0; i < rs.n; i++) {
		if (!(rs.r[i].prio >> 3) && rs.r[i].has_id) {
			ksft_print_msg("identifier while off: %s\n", rs.r[i].text);
			ok = false;
		}
	}
	records_free(&rs);

	if (param_set(1)) {
		ksft_print_msg("cannot switch " PARAM " on\n");
		ok = false;
	}
	ok &= emit("pr", &rs) == 0;
	ok &= check_msg_case(pr, &rs);
	records_free(&rs);
	ksft_test_result(ok, "switch: " PARAM " 0 then 1\n");
}

static int section_addr(const char *name, unsigned long long *addr)
{
	char path[128], buf[64], *end;

	snprintf(path, sizeof(path), SECTIONS "%s", name);
	if (read_file(path, buf, sizeof(buf)))
		return -1;
	errno = 0;
	*addr = strtoull(buf, &end, 16);
	return errno || end == buf ? -1 : 0;
}

/* The same messages, the same identifiers, at another address. */
/* Whether test_msgid_ext is built in: a module has an initstate in sysfs. */
static bool builtin(void)
{
	return access("/sys/module/test_msgid_ext/initstate", F_OK) != 0;
}

static void test_reload(void)
{
	static const char * const cases[] = { "pr", "tag_fmt", "nested" };
	unsigned long long text1, text2, str1 = 0, str2 = 0;
	bool ok = true, padded;
	size_t i;

	if (builtin()) {
		ksft_test_result_skip("reload: test_msgid_ext is built in\n");
		return;
	}
	if (section_addr(".text", &text1) || !text1) {
		ksft_test_result_skip("reload: no address in %s.text (CONFIG_KALLSYMS)\n",
				      SECTIONS);
		return;
	}
	section_addr(".rodata.str1.1", &str1);

	if (run("modprobe -r test_msgid_ext")) {
		ksft_test_result_fail("reload: modprobe -r test_msgid_ext\n");
		return;
	}
	/* Keep the old place busy, so that the module lands elsewhere. */
	padded = run("modprobe test_module") == 0;
	if (run("modprobe test_msgid_ext")) {
		ksft_test_result_fail("reload: modprobe test_msgid_ext\n");
		return;
	}
	if (section_addr(".text", &text2))
		ok = false;
	section_addr(".rodata.str1.1", &str2);
	ksft_print_msg("test_msgid_ext .text at %llx, then at %llx%s; strings at %llx, then %llx\n",
		       text1, text2, padded ? " (test_module in between)" : "", str1, str2);
	if (text1 == text2) {
		ksft_print_msg("reloaded at the same address\n");
		ok = false;
	}

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct records rs = { 0 };

		ok &= emit(cases[i], &rs) == 0;
		ok &= check_msg_case(msg_case(cases[i]), &rs);
		records_free(&rs);
	}
	if (padded)
		run("modprobe -r test_module");
	ksft_test_result(ok, "reload: same identifiers after a reload at another address\n");
}

/*
 * Boot records whose format is known: their identifiers must match too.
 * init/main.c has no pr_fmt().
 */
#define INDEX		"/sys/kernel/debug/printk/index/"

/* A whole file, read @chunk bytes at a time; NULL on error. */
static char *read_chunked(const char *path, size_t chunk, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap + 1);
	int fd = open(path, O_RDONLY);
	ssize_t got;

	if (fd < 0 || !buf)
		goto fail;
	for (;;) {
		if (n + chunk > cap) {
			char *nb = realloc(buf, cap * 2 + chunk + 1);

			if (!nb)
				goto fail;
			buf = nb;
			cap = cap * 2 + chunk;
		}
		got = read(fd, buf + n, chunk);
		if (got < 0)
			goto fail;
		if (!got)
			break;
		n += got;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
fail:
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

static size_t count_lines(const char *s, const char *start)
{
	size_t n = 0;

	for (; *s; s = strchr(s, '\n') + 1) {
		if (!strncmp(s, start, strlen(start)))
			n++;
		if (!strchr(s, '\n'))
			break;
	}
	return n;
}

/*
 * The printk index loses no entry whatever the read size (it lost one per
 * read that ended inside the file), and every entry shows an identifier.
 */
static void test_index_reads(void)
{
	static const char * const files[] = { "vmlinux", "test_msgid_ext" };
	bool ok = true;
	size_t i;

	/* Built in, test_msgid's entries are among vmlinux's. */
	for (i = 0; i < (builtin() ? 1 : ARRAY_SIZE(files)); i++) {
		char path[128];
		size_t small_len, big_len, entries, with_id;
		char *small, *big;

		snprintf(path, sizeof(path), INDEX "%s", files[i]);
		small = read_chunked(path, 1, &small_len);
		big = read_chunked(path, 1 << 16, &big_len);
		if (!small || !big) {
			ksft_print_msg("index: cannot read %s\n", path);
			ok = false;
		} else {
			entries = count_lines(big, "<");
			with_id = 0;
			for (const char *l = big; (l = strstr(l, "\" msgid=")); l++)
				with_id++;
			ksft_print_msg("index %s: %zu entries, %zu/%zu bytes by 1 B/64 KiB\n",
				       files[i], entries, small_len, big_len);
			if (small_len != big_len || memcmp(small, big, big_len)) {
				ksft_print_msg("index %s: %zu entries by 1 byte, %zu by 64 KiB\n",
					       files[i], count_lines(small, "<"), entries);
				ok = false;
			}
			if (!entries || with_id != entries) {
				ksft_print_msg("index %s: %zu of %zu entries show msgid=\n",
					       files[i], with_id, entries);
				ok = false;
			}
		}
		free(small);
		free(big);
	}
	ksft_test_result(ok, "index: no entry lost by 1-byte reads, each shows msgid=\n");
}

/*
 * A call site of the index whose format passes a %pV on: a wrapper function
 * (dev_printk("TMSGID-fs (%s): %pV\n") in test_msgid_fs_msg(), say). Its
 * callers' records have their caller's identifier, which the index holds
 * only if a macro in front of the wrapper put it there.
 */
struct wrapper {
	char *func;		/* the function of the call site */
	char *pattern;		/* fnmatch() pattern of its text up to %pV, then '*' */
	size_t literal;		/* characters of literal text before the %pV */
	bool indexed;		/* one of indexed_wrappers[], and the index shows it */
};

/*
 * The wrapper functions whose callers' formats the printk index can get
 * from macros in front of them (dev_printk(), which prints through a
 * function without an index entry, needs none here). Each is indexed only
 * in a kernel that has its subsystem's macro: a wrapper counts as indexed
 * when the index shows an entry outside the wrapper's file that starts
 * with the prefix the macro puts before its callers' formats ("ACPI: %s: "
 * could also come from a pr_fmt() and a format, so without ACPI's macro a
 * kernel may count it indexed). "indexed wrappers:" says which are. A
 * record of an indexed wrapper whose identifier no index holds is a
 * failure.
 */
static const struct {
	const char *func;	/* the wrapper function */
	const char *file;	/* its file */
	const char *prefix;	/* what its macro puts before its callers' formats */
} indexed_wrappers[] = {
	/* dev_err_probe(), dev_warn_probe() */
	{ "__dev_probe_failed", "drivers/base/core.c", "%s %s: error %pe: " },
	/* drm_dev_printk(), __drm_err(), drm_dev_dbg() */
	{ "__drm_dev_vprintk", "drivers/gpu/drm/drm_print.c", "[drm:%ps] " },
	/* netdev_printk(), netdev_<level>() */
	{ "__netdev_printk", "net/core/dev.c", "%s %s %s%s: " },
	/* ext4_msg() */
	{ "__ext4_msg", "fs/ext4/super.c", "EXT4-fs (%s): " },
	/* acpi_handle_<level>() */
	{ "acpi_handle_printk", "drivers/acpi/utils.c", "ACPI: %s: " },
};

/* The identifiers shown by every file of the live printk index. */
struct index_ids {
	uint32_t *id;		/* sorted, without duplicates */
	size_t n, cap;
	size_t files, entries;
	struct wrapper *w;	/* the wrapper call sites */
	size_t nw, capw;
	/* whether an entry shows the macro prefix of indexed_wrappers[i] */
	bool prefixed[ARRAY_SIZE(indexed_wrappers)];
};

/*
 * The fnmatch() pattern of an index format (as the index escapes it): the
 * literal text, each conversion a '*', and a '*' for everything from the
 * first %pV on. NULL when the format has no %pV.
 */
static char *wrapper_pattern(const char *fmt, size_t len, size_t *literal)
{
	char *pat = malloc(2 * len + 2), *o = pat;
	const char *f = fmt, *end = fmt + len;

	if (!pat)
		ksft_exit_fail_msg("out of memory\n");
	*literal = 0;
	while (f < end) {
		if (*f == '%' && f + 1 < end && f[1] != '%') {
			f++;
			while (f < end && strchr("#0- +'123456789.*hlLqjzt", *f))
				f++;
			if (f < end && *f == 'p') {
				if (f + 1 < end && f[1] == 'V') {
					*o++ = '*';
					*o = '\0';
					return pat;
				}
				/* %p and its extension letters */
				while (f + 1 < end && isalnum((unsigned char)f[1]))
					f++;
			}
			f++;
			*o++ = '*';
			continue;
		}
		if (*f == '%')		/* "%%" */
			f++;
		else if (*f == '\\' && f + 1 < end)	/* the index's escapes */
			f++;
		if (strchr("*?[\\", *f))
			*o++ = '\\';
		*o++ = *f++;
		++*literal;
	}
	free(pat);
	return NULL;
}

/* Remember the entry @line of function @func if its format passes a %pV on. */
static void wrapper_add(struct index_ids *ix, const char *line, const char *q_end)
{
	const char *q = strchr(line, '"'), *sp, *func;
	struct wrapper w;

	if (!q || q >= q_end || !strstr(q, "%pV"))
		return;
	/* <level> file:line function "format" */
	sp = q - 1;
	while (sp > line && sp[-1] != ' ')
		sp--;
	func = sp;
	w.pattern = wrapper_pattern(q + 1, q_end - q - 1, &w.literal);
	if (!w.pattern)
		return;
	w.func = strndup(func, q - 1 - func);
	w.indexed = false;
	if (ix->nw == ix->capw) {
		ix->capw = ix->capw ? 2 * ix->capw : 64;
		ix->w = realloc(ix->w, ix->capw * sizeof(*ix->w));
	}
	if (!ix->w || !w.func)
		ksft_exit_fail_msg("out of memory\n");
	ix->w[ix->nw++] = w;
}

/* Remember the function and the format of the entry @line. */
/*
 * Note which of indexed_wrappers[] the entry @line shows indexed: it is
 * outside the wrapper's file and its format is what the wrapper's macro
 * puts before its callers' formats, then a caller's format.
 */
static void entry_prefixes(struct index_ids *ix, const char *line, const char *q_end)
{
	const char *q = strchr(line, '"'), *file = strchr(line, ' '), *colon;
	size_t k, len;

	if (!q || q >= q_end || !file || file > q)
		return;
	file++;
	colon = strchr(file, ':');
	if (!colon || colon > q)
		return;
	for (k = 0; k < ARRAY_SIZE(indexed_wrappers); k++) {
		len = strlen(indexed_wrappers[k].prefix);
		if ((size_t)(colon - file) == strlen(indexed_wrappers[k].file) &&
		    !strncmp(file, indexed_wrappers[k].file, colon - file))
			continue;
		if ((size_t)(q_end - q - 1) > len &&
		    !strncmp(q + 1, indexed_wrappers[k].prefix, len))
			ix->prefixed[k] = true;
	}
}

/* The wrapper call sites of indexed_wrappers[] whose prefix the index shows. */
static void wrappers_mark_indexed(struct index_ids *ix)
{
	size_t i, k;

	for (i = 0; i < ix->nw; i++)
		for (k = 0; k < ARRAY_SIZE(indexed_wrappers); k++)
			if (!strcmp(ix->w[i].func, indexed_wrappers[k].func))
				ix->w[i].indexed = ix->prefixed[k];
}

/* Whether the index shows the callers of wrapper function @func. */
static bool wrapper_indexed(const struct index_ids *ix, const char *func)
{
	size_t i;

	for (i = 0; i < ix->nw; i++)
		if (ix->w[i].indexed && !strcmp(ix->w[i].func, func))
			return true;
	return false;
}

/*
 * The wrapper function through which test_msgid's case @name prints the
 * format @fmt, if that is a wrapper whose callers a subsystem's macro may
 * index (indexed_wrappers[]); NULL when the index holds its callers in
 * every kernel (printk(), pr_*(), dev_printk()).
 */
static const char *via_wrapper(const char *name, const char *fmt)
{
	if (!strcmp(name, "netdev"))
		return "__netdev_printk";
	if (!strcmp(name, "drm"))
		return "__drm_dev_vprintk";
	if (!strcmp(name, "dev") && !strncmp(fmt, "dev_err_probe", 13))
		return "__dev_probe_failed";
	return NULL;
}

/*
 * The live index shows, for each call site of test_msgid, the identifier
 * its records carry: computed here from the caller's format. Those of a
 * wrapper the index shows no callers of (its subsystem's macro is not in
 * this kernel) are not checked, and are listed.
 */
static void test_index_ids(const struct index_ids *ix)
{
	static const char * const indexed[] = {
		"printk", "pr", "dev", "drm", "netdev", "tag_fmt", "tags_str", "fw_tags",
	};
	const char *path = builtin() ? INDEX "vmlinux" : INDEX "test_msgid_ext";
	size_t i, j, len, checked = 0;
	bool ok = true;
	char *idx = read_chunked(path, 1 << 16, &len);

	if (!idx) {
		ksft_test_result_fail("index ids: cannot read %s\n", path);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(indexed); i++) {
		const struct msg_case *c = msg_case(indexed[i]);

		if (!strcmp(indexed[i], "drm") && !case_listed("drm"))
			continue;

		for (j = 0; c && j < ARRAY_SIZE(c->exp) && c->exp[j].fmt; j++) {
			const char *via = via_wrapper(indexed[i], c->exp[j].fmt);
			char want[32];

			if (via && !wrapper_indexed(ix, via)) {
				ksft_print_msg("index ids: not checked: \"%s\" (%s() %s)\n",
					       c->exp[j].fmt, via, "is not indexed in this kernel");
				continue;
			}
			snprintf(want, sizeof(want), "\" msgid=%08x\n", msgid_of(c->exp[j].fmt));
			checked++;
			if (!strstr(idx, want)) {
				ksft_print_msg("index ids: no%s for \"%s\"\n", want, c->exp[j].fmt);
				ok = false;
			}
		}
	}
	free(idx);
	ksft_test_result(ok && checked, "index ids: %zu call sites show their records' id\n",
			 checked);
}

/*
 * Which wrapper printed @text, a record's text after its prefix: the
 * wrapper call site whose pattern matches it with the most literal text.
 * NULL if none matches. *indexed tells whether its callers are indexed;
 * on a tie between an indexed and an unindexed one, unindexed wins.
 */
static const struct wrapper *wrapper_of(const struct index_ids *ix, const char *text,
					bool *indexed)
{
	const struct wrapper *best = NULL;
	size_t i;

	for (i = 0; i < ix->nw; i++) {
		const struct wrapper *w = &ix->w[i];

		if (best && w->literal < best->literal)
			continue;
		if (fnmatch(w->pattern, text, 0))
			continue;
		if (!best || w->literal > best->literal || (best->indexed && !w->indexed))
			best = w;
	}
	*indexed = best && best->indexed;
	return best;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static bool index_has(const struct index_ids *ix, uint32_t id)
{
	return ix->n && bsearch(&id, ix->id, ix->n, sizeof(*ix->id), cmp_u32);
}

/* The identifiers of the entry lines of @buf: 0, or -1 for a bad line. */
static int index_ids_add(struct index_ids *ix, char *buf, const char *name)
{
	char *line, *nl, *q;
	unsigned int id;
	int end = 0;

	for (line = buf; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl) {
			ksft_print_msg("index %s: last line not terminated\n", name);
			return -1;
		}
		if (*line != '<')	/* the header */
			continue;
		*nl = '\0';
		ix->entries++;
		/* ... "format" msgid=%08x: the last quote closes the format. */
		q = strrchr(line, '"');
		if (!q || sscanf(q, "\" msgid=%8x%n", &id, &end) != 1 || end != 16 || q[end]) {
			ksft_print_msg("index %s: no msgid= at the end of: %s\n", name, line);
			return -1;
		}
		if (ix->n == ix->cap) {
			ix->cap = ix->cap ? 2 * ix->cap : 4096;
			ix->id = realloc(ix->id, ix->cap * sizeof(*ix->id));
			if (!ix->id)
				ksft_exit_fail_msg("out of memory\n");
		}
		ix->id[ix->n++] = id;
		wrapper_add(ix, line, q);
		entry_prefixes(ix, line, q);
	}
	return 0;
}

static void index_ids_free(struct index_ids *ix)
{
	size_t i;

	for (i = 0; i < ix->nw; i++) {
		free(ix->w[i].func);
		free(ix->w[i].pattern);
	}
	free(ix->w);
	free(ix->id);
}

/* Read every file of INDEX: vmlinux and one per loaded module. */
static int index_ids_read(struct index_ids *ix)
{
	DIR *d = opendir(INDEX);
	struct dirent *de;
	size_t i, n;
	int ret = 0;

	memset(ix, 0, sizeof(*ix));
	if (!d) {
		ksft_perror("opendir " INDEX);
		return -1;
	}
	while ((de = readdir(d))) {
		char path[512];
		size_t len;
		char *buf;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), INDEX "%s", de->d_name);
		buf = read_chunked(path, 1 << 16, &len);
		if (!buf) {
			ksft_print_msg("index: cannot read %s\n", path);
			ret = -1;
			continue;
		}
		ix->files++;
		if (index_ids_add(ix, buf, de->d_name))
			ret = -1;
		free(buf);
	}
	closedir(d);
	if (!ix->n)
		return -1;
	qsort(ix->id, ix->n, sizeof(*ix->id), cmp_u32);
	for (i = 1, n = 1; i < ix->n; i++)
		if (ix->id[i] != ix->id[n - 1])
			ix->id[n++] = ix->id[i];
	ix->n = n;
	wrappers_mark_indexed(ix);
	for (i = 0; i < ARRAY_SIZE(indexed_wrappers); i++) {
		const char *name = indexed_wrappers[i].func, *what = "not in this kernel";

		for (n = 0; n < ix->nw; n++)
			if (!strcmp(ix->w[n].func, name))
				what = "not indexed in this kernel";
		ksft_print_msg("indexed wrappers: %s() %s\n", name,
			       wrapper_indexed(ix, name) ? "indexed" : what);
	}
	return ret;
}

/*
 * Every kernel record of the boot that carries an identifier comes from a
 * call site the live index holds, with that identifier: printk(), pr_*(),
 * dev_printk(), netdev_printk(), ext4_msg(), acpi_handle_*(),
 * dev_err_probe(), DRM's ... all put their callers' formats into the
 * index. The records checked are those logged before the test started (on
 * the hw boot: with the e1000 NIC up and the ext4 disk mounted).
 *
 * A record is missing when its caller's format reached printk through a
 * wrapper function no macro indexes (iwlwifi's, ath10k's, the nested ones
 * of test_msgid: the index holds the wrapper's own call site, whose format
 * passes a %pV on) or is not a compile-time constant. Each is listed. It is
 * a failure when the wrapper that printed it (the wrapper call site whose
 * text matches it best) is one whose callers are indexed: so the test
 * passes on hardware whose drivers print through wrappers nobody indexed
 * yet, and prints the share. A record no wrapper call site explains (a
 * wrapper that passes its level at run time, like test_msgid's nested one,
 * has no index entry of its own; a format built at run time) is listed;
 * with MSGID_TEST_INDEX_ALL=1 (for a boot whose drivers are all indexed) it is a
 * failure too.
 */
static void test_index_coverage(const struct records *boot,
				const struct index_ids *ix, bool ok)
{
	size_t i, kernel = 0, with_id = 0, found = 0, missing = 0, wrapped = 0;
	const char *all = getenv("MSGID_TEST_INDEX_ALL");
	bool strict = all && !strcmp(all, "1");

	for (i = 0; i < boot->n; i++) {
		const struct record *r = &boot->r[i];
		const struct wrapper *w;
		bool indexed;

		if (r->prio >> 3)
			continue;
		kernel++;
		if (!r->has_id)
			continue;
		with_id++;
		if (index_has(ix, r->id)) {
			found++;
			continue;
		}
		w = wrapper_of(ix, r->body, &indexed);
		if ((w && !indexed) || (!w && !strict)) {
			if (!wrapped++)
				ksft_print_msg("index coverage: not indexed (wrapper):\n");
			ksft_print_msg("  seq %llu, %s%s: %.160s\n", r->seq,
				       w ? w->func : "no wrapper call site matches",
				       w ? "()" : "", r->text);
			continue;
		}
		if (!missing++)
			ksft_print_msg("index coverage: records whose id no index holds:\n");
		ksft_print_msg("  seq %llu%s%s%s: %.160s\n", r->seq,
			       w ? ", from " : ", no wrapper call site matches",
			       w ? w->func : "", w ? "(), whose callers are indexed" : "",
			       r->text);
	}
	ksft_print_msg("index coverage: %zu files, %zu entries, %zu distinct ids, %zu %s\n",
		       ix->files, ix->entries, ix->n, ix->nw, "wrapper call sites");
	ksft_print_msg("index coverage: %zu kernel records, %zu with id: %zu found (%.1f%%), %s\n",
		       kernel, with_id, found, with_id ? 100.0 * found / with_id : 0.0,
		       "then:");
	ksft_print_msg("index coverage: %zu not indexed (wrapper), %zu missing\n",
		       wrapped, missing);
	ksft_test_result(ok && with_id && !missing,
			 "index coverage: %zu of %zu boot records with an id are in the index\n",
			 found, with_id);
}

/*
 * The classification of the coverage case, on test_msgid's own wrappers:
 * the record of the pr_info("two wrapped formats: %pV, then %pV\n") in
 * test_msgid_second() is not in the index and is told to come from that
 * wrapper, which nothing indexes; the one of dev_err_probe() is in the
 * index, and would be told to come from __dev_probe_failed(), whose
 * callers are indexed.
 */
static void test_index_wrappers(const struct index_ids *ix, bool ok)
{
	const struct {
		const char *case_name, *match, *func;
		bool in_index;
	} want[] = {
		{ "nested", "two wrapped formats: the first format: 1",
		  "test_msgid_second", false },
		{ "dev", ": dev_err_probe on a platform device: 4",
		  "__dev_probe_failed", wrapper_indexed(ix, "__dev_probe_failed") },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		struct records rs = { 0 };
		const struct record *r;
		const struct wrapper *w;
		bool indexed;

		r = NULL;
		if (emit(want[i].case_name, &rs) == 0)
			r = find_one(&rs, want[i].match);
		if (!r) {
			ksft_print_msg("index wrappers: no record \"%s\"\n", want[i].match);
			ok = false;
			records_free(&rs);
			continue;
		}
		w = wrapper_of(ix, r->body, &indexed);
		ksft_print_msg("index wrappers: \"%s\": %s the index, from %s()%s\n",
			       want[i].match, index_has(ix, r->id) ? "in" : "not in",
			       w ? w->func : "no wrapper", indexed ? ", indexed" : "");
		if (!r->has_id || index_has(ix, r->id) != want[i].in_index ||
		    !w || strcmp(w->func, want[i].func) || indexed != want[i].in_index)
			ok = false;
		records_free(&rs);
	}
	ksft_test_result(ok, "index wrappers: records of unindexed wrappers are told apart\n");
}

/* A message a device's driver prints at boot, and how to check it. */
struct boot_msg {
	const char *what;
	const char *fmt;	/* the caller's format */
	const char *prefix;	/* the start of the record, from the wrapper */
	const char *match;	/* a part of the text of the format */
	const char *via;	/* the wrapper of indexed_wrappers[] it prints through */
};

/*
 * Each message of @msgs is in the boot log, with the identifier of its
 * format behind its wrapper's prefix, and the index holds that identifier.
 */
static bool check_boot_msgs(const char *name, const struct boot_msg *msgs, size_t n_msgs,
			    const struct records *boot, const struct index_ids *ix)
{
	bool ok = true;
	size_t i;

	for (i = 0; i < n_msgs; i++) {
		uint32_t want = msgid_of(msgs[i].fmt);
		const struct record *r[8];
		size_t n, j;

		bool need = !msgs[i].via || wrapper_indexed(ix, msgs[i].via);

		n = find(boot, msgs[i].match, r, ARRAY_SIZE(r));
		ksft_print_msg("%s: %s \"%s\": id %08x, %zu records, %s%s\n", name,
			       msgs[i].what, msgs[i].match, want, n,
			       index_has(ix, want) ? "in the index" : "NOT in the index",
			       need ? "" : " (its wrapper is not indexed in this kernel)");
		if (!n || n > ARRAY_SIZE(r) || (need && !index_has(ix, want)))
			ok = false;
		for (j = 0; j < n && j < ARRAY_SIZE(r); j++) {
			if (!r[j]->has_id || r[j]->id != want ||
			    strncmp(r[j]->body, msgs[i].prefix, strlen(msgs[i].prefix))) {
				ksft_print_msg("%s: expected (%08x): %s...: %s\n", name, want,
					       msgs[i].prefix, r[j]->text);
				ok = false;
			}
		}
	}
	return ok;
}

/*
 * With DRM and a display device (QEMU's standard VGA, bound by bochs in the
 * lean kernel), booted with drm.debug=0x1: DRM's records through its
 * wrappers carry their callers' identifiers, and the index holds each.
 */
static const struct boot_msg drm_msgs[] = {
	/* drivers/gpu/drm/drm_drv.c, drm_minor_register(): DRM_DEBUG() */
	{ "__drm_dbg", "new minor registered %d\n",
	  "[drm:drm_minor_register] ", "new minor registered ", "__drm_dev_vprintk" },
	/* drivers/gpu/drm/drm_drv.c, drm_dev_register(): DRM_INFO() */
	{ "DRM_INFO", "[drm] Initialized %s %d.%d.%d for %s on minor %d\n",
	  "[drm] ", "Initialized bochs-drm ", "__drm_dev_vprintk" },
};

static void test_drm_device(const struct records *boot, const struct index_ids *ix, bool ok)
{
	if (access("/sys/class/drm/card0", F_OK)) {
		ksft_test_result_skip("drm device: DRM's records (no /sys/class/drm/card0)\n");
		return;
	}
	ok &= check_boot_msgs("drm device", drm_msgs, ARRAY_SIZE(drm_msgs), boot, ix);
	ksft_test_result(ok, "drm device: DRM_DEBUG() and DRM_INFO() of drm_dev_register()\n");
}

/*
 * The Rust call sites of lib/test_msgid_rust.rs, built in (it prints at
 * boot): the literal of each, the line it is on, and a part of the text
 * of its record. The KERN_CONT fragment has no record of its own: it
 * ends the record of the line before it.
 */
static const struct {
	const char *lit;
	int line;
	const char *match;
} rust_msgs[] = {
	{ "rust pr_info: {} apples\n", 28, ": rust pr_info: 3 apples" },
	{ "rust pr_warn: {:?}\n", 29, ": rust pr_warn: \"pears\"" },
	{ "rust line starts: {}", 30, ": rust line starts: 1 and continues: 2" },
	{ " and continues: {}\n", 31, NULL },
	{ "[Firmware Info]: rust synthetic test event {} (not a message from the firmware)\n", 32,
	  "[Firmware Info]: rust synthetic test event 7 (not a message from the firmware)" },
	{ "rust dev_info on a faux device: {}\n", 37, ": rust dev_info on a faux device: 4" },
	{ "rust dev_err on a faux device: {:#x}\n", 38, ": rust dev_err on a faux device: 0x2a" },
};

/*
 * A Rust kernel with lib/test_msgid_rust.rs built in: each of its records
 * carries the identifier of its own format string literal (not one shared
 * by every Rust message, the format of Rust's printing macros), distinct
 * literals have distinct identifiers, and the live index lists each
 * literal at its file:line with that identifier.
 */
static void test_rust(const struct records *boot)
{
	size_t i, j, len;
	bool ok = true;
	char *idx = read_chunked(INDEX "vmlinux", 1 << 16, &len);

	if (!idx || !strstr(idx, "lib/test_msgid_rust.rs:")) {
		ksft_test_result_skip("rust: Rust call sites (no lib/test_msgid_rust.rs in %s)\n",
				      "this kernel");
		free(idx);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(rust_msgs); i++) {
		uint32_t want = msgid_of(rust_msgs[i].lit);
		char where[64], id[24];
		const struct record *r[4];
		const char *line;
		size_t n = 0;

		for (j = 0; j < i; j++)
			if (msgid_of(rust_msgs[j].lit) == want)
				ok = false;
		snprintf(where, sizeof(where), "lib/test_msgid_rust.rs:%d ", rust_msgs[i].line);
		snprintf(id, sizeof(id), " msgid=%08x\n", want);
		/*
		 * file!() as rustc was given it: relative to the source tree
		 * where rustc takes --remap-path-scope, else behind "../" or
		 * the source tree's path.
		 */
		for (line = strstr(idx, where); line && line[-1] != ' ' && line[-1] != '/';
		     line = strstr(line + 1, where))
			;
		if (!line || !strstr(line, id) || strchr(line + 1, '<') < strstr(line, id)) {
			ksft_print_msg("rust: no index entry%sfor %08x\n", where, want);
			ok = false;
		}
		if (rust_msgs[i].match) {
			n = find(boot, rust_msgs[i].match, r, ARRAY_SIZE(r));
			if (n != 1 || !r[0]->has_id || r[0]->id != want) {
				ksft_print_msg("rust: %zu records \"%s\", %s (%08x): %s\n", n,
					       rust_msgs[i].match, "expected one with", want,
					       n ? r[0]->text : "");
				ok = false;
			}
		}
		ksft_print_msg("rust: \"%.*s\" (%08x): %zu record(s), %sin the index at %s\n",
			       (int)strcspn(rust_msgs[i].lit, "\n"), rust_msgs[i].lit, want, n,
			       line ? "" : "NOT ", where);
	}
	free(idx);
	ksft_test_result(ok, "rust: %zu Rust call sites, %s\n", ARRAY_SIZE(rust_msgs),
			 "each record with its literal's id, indexed");
}

/*
 * A boot with an e1000 NIC, brought up, and an ext4 disk on virtio-blk,
 * mounted, before this test runs, says so with MSGID_TEST_HW=1. Their
 * drivers print through the indexed wrappers: each message has the
 * identifier of the format written at its call site (copied here from the
 * kernel source), behind the wrapper's prefix, and the index lists it.
 */
static const struct boot_msg hw_msgs[] = {
	/* drivers/net/ethernet/intel/e1000/e1000_main.c, e1000_probe() */
	{ "netdev_info", "Intel(R) PRO/1000 Network Connection\n",
	  "e1000 ", "Intel(R) PRO/1000 Network Connection", "__netdev_printk" },
	/* fs/ext4/super.c, __ext4_fill_super() */
	{ "ext4_msg", "mounted filesystem %pU %s with%s. Quota mode: %s.",
	  "EXT4-fs (vda): ", "mounted filesystem ", "__ext4_msg" },
	/* drivers/block/virtio_blk.c, virtblk_update_capacity() */
	{ "dev_notice", "[%s] %s%llu %d-byte logical blocks (%s/%s)\n",
	  "virtio_blk virtio", "-byte logical blocks (" },
};

static void test_hw(const struct records *boot, const struct index_ids *ix, bool ok)
{
	const char *hw = getenv("MSGID_TEST_HW");

	if (!hw || strcmp(hw, "1")) {
		ksft_test_result_skip("hw: e1000, ext4, virtio_blk messages (%s)\n",
				      "MSGID_TEST_HW=1 is set by the hw boot only");
		return;
	}
	ok &= check_boot_msgs("hw", hw_msgs, ARRAY_SIZE(hw_msgs), boot, ix);
	ksft_test_result(ok, "hw: netdev_info of e1000, ext4_msg, dev_notice of virtio_blk\n");
}

static struct {
	const char *fmt;
	const char *start;
} boot_known[] = {
	/* init/main.c: print_kernel_cmdline(), without wrapping (7.x) */
	{ "%s%s\n", "Kernel command line: " },
	{ "Run %s as init process\n", "Run /init as init process" },
};

/*
 * Every kernel record since the first one with an identifier has one, well
 * formed. The few records printed before parse_early_param() reads
 * printk.msgid=1 have none: "Linux version", "Command line", the e820 map.
 */
static void test_boot(const struct records *boot)
{
	size_t i, j, first = boot->n, before = 0, after = 0;
	struct utsname u;
	bool ok = true;

	/* 6.12 (make selftest-lts) prints the command line with one format. */
	if (!uname(&u) && !strncmp(u.release, "6.", 2))
		boot_known[0].fmt = "Kernel command line: %s\n";

	for (i = 0; i < boot->n; i++) {
		if (boot->r[i].prio >> 3)
			continue;
		if (boot->r[i].has_id) {
			first = i;
			break;
		}
		before++;
	}
	if (first == boot->n) {
		ksft_test_result_fail("boot: no record with an identifier (%s)\n",
				      "boot with printk.msgid=1");
		return;
	}
	ksft_print_msg("boot: %zu records from seq %llu, %zu kernel records %s:\n",
		       boot->n, boot->n ? boot->r[0].seq : 0, before,
		       "before the first identifier");
	for (i = 0; i < first; i++)
		if (!(boot->r[i].prio >> 3))
			ksft_print_msg("  %.70s\n", boot->r[i].text);
	if (before > BOOT_UNPREFIXED_MAX) {
		ksft_print_msg("boot: more than %d records without\n", BOOT_UNPREFIXED_MAX);
		ok = false;
	}
	for (i = first; i < boot->n; i++) {
		const struct record *r = &boot->r[i];

		if (r->prio >> 3)
			continue;
		after++;
		if (!r->has_id) {
			ksft_print_msg("boot: no identifier: seq %llu \"%s\"\n", r->seq, r->text);
			ok = false;
		}
		for (j = 0; j < ARRAY_SIZE(boot_known); j++) {
			if (strncmp(r->body, boot_known[j].start, strlen(boot_known[j].start)))
				continue;
			if (!r->has_id || r->id != msgid_of(boot_known[j].fmt)) {
				ksft_print_msg("boot: identifier %08x, expected %08x: %s\n",
					       r->id, msgid_of(boot_known[j].fmt), r->text);
				ok = false;
			}
		}
	}
	if (!boot->lost && boot->n && boot->r[0].seq == 0) {
		for (j = 0; j < ARRAY_SIZE(boot_known); j++) {
			const struct record *r = find_one(boot, boot_known[j].start);

			if (!r) {
				ksft_print_msg("boot: no \"%s\" record\n", boot_known[j].start);
				ok = false;
			}
		}
	}
	ksft_test_result(ok, "boot: %zu kernel records with a well-formed identifier\n", after);
}

/*
 * Stress: test_msgid prints from one kthread per CPU and from an hrtimer
 * while a child flips printk.msgid every 2 ms and this process reads
 * /dev/kmsg. Each record decides once whether it has a prefix: it has
 * none, or a whole one with the identifier of its caller's format, never
 * a torn one or one in the middle. The records of a thread stay in the
 * order of its sequence numbers, and the sequence numbers of /dev/kmsg
 * are contiguous except where a read reported EPIPE (records overwritten
 * before we read them, allowed).
 *
 * When prb_reserve() fails, because the records still being written hold
 * the rest of the ring (text patching for the toggle stalls every CPU for
 * a moment), printk cuts the record by the length of "<truncated>" and
 * appends that (truncate_msg()). Such a record keeps its prefix; what is
 * left of its text must begin as one of the stress formats, and its
 * identifier must be that format's.
 */
static const struct {
	const char *fmt;	/* as in test_msgid_ext.c */
	const char *start;	/* the text of the record up to the arguments */
	const char *scan;	/* the arguments after start */
} stress_fmts[] = {
	{ PR_FMT "stress plain: cpu %u seq %lu\n",
	  PR_FMT "stress plain: cpu ", "%u seq %lu%n" },
	{ "stress fs: cpu %u seq %lu",
	  "platform test_msgid_ext: TMSGID-fs (tmsgid0): stress fs: cpu ", "%u seq %lu%n" },
	{ "stress nested: cpu %u seq %lu",
	  "platform test_msgid_ext: TMSGID-fs (tmsgid0): link1: dev1.0: stress nested: cpu ",
	  "%u seq %lu%n" },
	{ PR_FMT "stress hrtimer: in_hardirq=%d seq %lu\n",
	  PR_FMT "stress hrtimer: in_hardirq=", "%u seq %lu%n" },
	{ PR_FMT "stress softirq: in_serving_softirq=%d seq %lu\n",
	  PR_FMT "stress softirq: in_serving_softirq=", "%u seq %lu%n" },
	{ PR_FMT
	  "stress done: %u threads, %lu messages, %lu hrtimer, %lu softirq, %lu nmi, %lu sysrq, %llu ms\n",
	  PR_FMT "stress done: ", NULL },
	/* x86: from an NMI handler on each CPU ("in_nmi=1 cpu N seq N"). */
	{ PR_FMT "stress nmi: in_nmi=%d cpu %u seq %lu\n",
	  PR_FMT "stress nmi: in_nmi=", "%u cpu %u seq %lu%n" },
	/* SysRq 'l' (lib/nmi_backtrace.c), from NMI on the other CPUs. */
	{ "NMI backtrace for cpu %d\n", "NMI backtrace for cpu ", NULL },
	{ "NMI backtrace for cpu %d skipped: idling at %pS\n",
	  "NMI backtrace for cpu ", NULL },
};

#define STRESS_NR	ARRAY_SIZE(stress_fmts)
#define STRESS_CPUS	1024
#define STRESS_TIMER	3
#define STRESS_SOFTIRQ	4
#define STRESS_DONE	5
#define STRESS_NMI	6
#define STRESS_BT	7	/* and 8: SysRq 'l' backtraces */
#define TRUNC_MSG	"<truncated>"	/* trunc_msg in kernel/printk/printk.c */

struct stress_state {
	unsigned long long prev_seq;	/* of /dev/kmsg */
	bool have_prev, epipe;
	unsigned long long lost, records, checked, prefixed, unprefixed, cut, bad;
	unsigned long long per_fmt[STRESS_NR];
	/* Identified kernel records read, of the stress and of anything. */
	unsigned long long ids_stress, ids_all;
	unsigned long long per_cpu[STRESS_CPUS];	/* records of each thread */
	/* Of each thread, then of the hrtimer and of the soft irq timer. */
	long last_seq[STRESS_CPUS + 2];
	long nmi_last_seq[STRESS_CPUS];	/* of the NMI handler on each CPU */
	char done[256];
};

static void stress_bad(struct stress_state *st, const struct record *r, const char *why)
{
	if (st->bad++ < 10)
		ksft_print_msg("stress: %s: seq %llu \"%.160s\"\n", why, r->seq, r->text);
}

static void stress_count(struct stress_state *st, const struct record *r)
{
	st->checked++;
	if (r->has_id) {
		st->prefixed++;
		st->ids_stress++;
	} else {
		st->unprefixed++;
	}
}

/* A record printk cut to @keep bytes of text after the prefix. */
static void stress_check_cut(struct stress_state *st, const struct record *r,
			     size_t keep)
{
	bool begins = false;
	size_t i, len;

	for (i = 0; i < STRESS_NR; i++) {
		len = strlen(stress_fmts[i].start);
		if (strncmp(r->body, stress_fmts[i].start, keep < len ? keep : len))
			continue;
		begins = true;
		/* A short remainder can begin more than one of them. */
		if (!r->has_id || r->id == msgid_of(stress_fmts[i].fmt))
			break;
	}
	if (!begins) {
		if (strstr(r->text, "test_msgid"))
			stress_bad(st, r, "unknown truncated stress record");
		return;
	}
	stress_count(st, r);
	st->cut++;
	if (count_prefixes(r->text) != (r->has_id ? 1 : 0))
		stress_bad(st, r, "a prefix in the middle");
	else if (i == STRESS_NR)
		stress_bad(st, r, "wrong identifier");
	else
		st->per_fmt[i]++;
}

static void stress_check(struct stress_state *st, const struct record *r)
{
	const char *body = r->body;
	size_t blen = strlen(body), tlen = strlen(TRUNC_MSG);
	unsigned int cpu;
	unsigned long seq;
	size_t i, len;
	int end = -1;

	if (r->prio >> 3)
		return;
	st->ids_all += r->has_id;
	if (blen >= tlen && !strcmp(body + blen - tlen, TRUNC_MSG)) {
		stress_check_cut(st, r, blen - tlen);
		return;
	}
	for (i = 0; i < STRESS_NR; i++) {
		/* A torn prefix would not leave the start where it belongs. */
		if (strstr(r->text, stress_fmts[i].start))
			break;
	}
	/* The two backtrace formats share their start. */
	if (i == STRESS_BT && strstr(r->text, " skipped: idling at "))
		i++;
	if (i == STRESS_NR) {
		if (strstr(r->text, "stress ") && strstr(r->text, "test_msgid"))
			stress_bad(st, r, "unknown stress record");
		return;
	}
	stress_count(st, r);
	st->per_fmt[i]++;
	len = strlen(stress_fmts[i].start);
	if (strncmp(body, stress_fmts[i].start, len))
		stress_bad(st, r, r->has_id ? "text after the prefix" : "malformed prefix");
	else if (count_prefixes(r->text) != (r->has_id ? 1 : 0))
		stress_bad(st, r, "a prefix in the middle");
	else if (r->has_id && r->id != msgid_of(stress_fmts[i].fmt))
		stress_bad(st, r, "wrong identifier");

	if (i == STRESS_DONE) {
		snprintf(st->done, sizeof(st->done), "%s", body + len);
		return;
	}
	if (!stress_fmts[i].scan || strncmp(body, stress_fmts[i].start, len))
		return;
	if (i == STRESS_NMI) {
		unsigned int flag;

		if (sscanf(body + len, stress_fmts[i].scan, &flag, &cpu, &seq, &end) != 3 ||
		    body[len + end] != '\0') {
			stress_bad(st, r, "unparsable arguments");
			return;
		}
		if (flag != 1)
			stress_bad(st, r, "NMI handler not in NMI context");
		if (cpu >= STRESS_CPUS) {
			stress_bad(st, r, "cpu out of range");
			return;
		}
		if ((long)seq <= st->nmi_last_seq[cpu])
			stress_bad(st, r, "out of order for its CPU's NMIs");
		st->nmi_last_seq[cpu] = seq;
		return;
	}
	if (sscanf(body + len, stress_fmts[i].scan, &cpu, &seq, &end) != 2 ||
	    body[len + end] != '\0') {
		stress_bad(st, r, "unparsable arguments");
		return;
	}
	if (i == STRESS_TIMER || i == STRESS_SOFTIRQ) {
		if (cpu != 1)
			stress_bad(st, r, i == STRESS_TIMER ? "hrtimer not in hard irq context" :
				   "timer not in soft irq context");
		cpu = STRESS_CPUS + (i == STRESS_SOFTIRQ);
	} else if (cpu >= STRESS_CPUS) {
		stress_bad(st, r, "cpu out of range");
		return;
	}
	if (cpu < STRESS_CPUS)
		st->per_cpu[cpu]++;
	if ((long)seq <= st->last_seq[cpu])
		stress_bad(st, r, "out of order for its thread");
	st->last_seq[cpu] = seq;
}

/* Check the records available on @fd as they come, keeping none. */
static void stress_read(int fd, struct stress_state *st)
{
	static char buf[LINE_MAX_KMSG];
	static struct record rec;
	unsigned long long epipe = 0;
	ssize_t n;

	while ((n = kmsg_read_one(fd, buf, sizeof(buf), &epipe)) > 0) {
		if (epipe)
			st->epipe = true;
		epipe = 0;
		if (parse_record(buf, n, &rec)) {
			ksft_print_msg("unparsable record: %s", buf);
			st->bad++;
			continue;
		}
		st->records++;
		if (st->have_prev && rec.seq != st->prev_seq + 1) {
			if (st->epipe && rec.seq > st->prev_seq) {
				st->lost += rec.seq - st->prev_seq - 1;
			} else {
				ksft_print_msg("stress: seq %llu after %llu without EPIPE\n",
					       rec.seq, st->prev_seq);
				st->bad++;
			}
		}
		st->epipe = false;
		st->have_prev = true;
		st->prev_seq = rec.seq;
		stress_check(st, &rec);
	}
}

/* Whether this machine is x86, where test_msgid prints from NMI. */
static bool on_x86(void)
{
	struct utsname u;

	if (uname(&u))
		return false;
	return !strcmp(u.machine, "x86_64") || !fnmatch("i?86", u.machine, 0);
}

static void test_stress(void)
{
	unsigned long *shared;		/* shared with the toggling child */
	struct class_stats before, after;
	struct stress_state *st;
	char cpus[256] = "";
	unsigned long long bt;
	long delta;
	struct timespec t0, t1;
	pid_t toggler, trigger;
	char level[64] = "";
	int fd, status, i;
	bool ok = true;
	double secs;

	if (getenv("MSGID_STRESS_MS") &&
	    write_file("/sys/module/test_msgid_ext/parameters/stress_ms",
		       getenv("MSGID_STRESS_MS")))
		ksft_print_msg("stress: cannot set stress_ms to %s\n", getenv("MSGID_STRESS_MS"));
	st = calloc(1, sizeof(*st));
	shared = mmap(NULL, 2 * sizeof(*shared), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!st || shared == MAP_FAILED)
		ksft_exit_fail_msg("stress: out of memory\n");
	for (i = 0; i < (int)ARRAY_SIZE(st->last_seq); i++)
		st->last_seq[i] = -1;
	for (i = 0; i < STRESS_CPUS; i++)
		st->nmi_last_seq[i] = -1;
	__atomic_store_n(&shared[0], 0, __ATOMIC_RELAXED);	/* stop */
	__atomic_store_n(&shared[1], 0, __ATOMIC_RELAXED);	/* toggles */

	/* A serial console cannot keep up: keep it to warnings and worse. */
	if (!read_file(CONSOLE_LEVEL, level, sizeof(level)))
		write_file(CONSOLE_LEVEL, "4");

	/*
	 * Every record the counters count from here on is read: /dev/kmsg
	 * is opened at its end first.
	 */
	fd = kmsg_open(true);
	if (read_stats(&before)) {
		ksft_test_result_fail("stress: counters in " STATS "\n");
		close(fd);
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	toggler = fork();
	if (toggler < 0)
		ksft_exit_fail_perror("fork");
	if (!toggler) {
		const struct timespec ts = { 0, 2000000 };
		struct class_stats mid;

		/* The switch flips, and the counters are read meanwhile. */
		while (!__atomic_load_n(&shared[0], __ATOMIC_RELAXED)) {
			if (write_file(PARAM, shared[1] & 1 ? "1" : "0") || read_stats(&mid))
				_exit(1);
			__atomic_fetch_add(&shared[1], 1, __ATOMIC_RELAXED);
			nanosleep(&ts, NULL);
		}
		_exit(0);
	}
	/* The write returns when the run is over; read meanwhile. */
	trigger = fork();
	if (trigger < 0)
		ksft_exit_fail_perror("fork");
	if (!trigger)
		_exit(write_file(EMIT, "stress") ? 1 : 0);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		stress_read(fd, st);
		if (waitpid(trigger, &status, WNOHANG) == trigger)
			break;
		poll(&pfd, 1, 100);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		ksft_print_msg("stress: the write to " EMIT " failed\n");
		ok = false;
	}
	__atomic_store_n(&shared[0], 1, __ATOMIC_RELAXED);
	if (waitpid(toggler, &status, 0) != toggler || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		ksft_print_msg("stress: the toggler failed\n");
		ok = false;
	}
	if (param_set(1)) {
		ksft_print_msg("stress: cannot switch " PARAM " on\n");
		ok = false;
	}
	/*
	 * The last records, the summary among them: each stress record was
	 * counted before it was stored, so before this read of the counters.
	 */
	stress_read(fd, st);
	if (read_stats(&after)) {
		ksft_print_msg("stress: cannot read " STATS "\n");
		ok = false;
	}
	stress_read(fd, st);
	close(fd);
	if (level[0]) {
		char *sp = strchr(level, '\t');

		if (sp)
			*sp = '\0';
		write_file(CONSOLE_LEVEL, level);
	}
	secs = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

	ksft_print_msg("stress: %ld CPUs, %.1f s, %lu toggles, %llu records read\n",
		       sysconf(_SC_NPROCESSORS_ONLN), secs, shared[1], st->records);
	ksft_print_msg("stress: %llu records lost (EPIPE: overwritten before read)\n", st->lost);
	ksft_print_msg("stress: %llu checked: %llu prefixed, %llu unprefixed, %llu cut by printk\n",
		       st->checked, st->prefixed, st->unprefixed, st->cut);
	bt = st->per_fmt[STRESS_BT] + st->per_fmt[STRESS_BT + 1];
	ksft_print_msg("stress: records in task context %llu (plain %llu, fs %llu, nested %llu)\n",
		       st->per_fmt[0] + st->per_fmt[1] + st->per_fmt[2],
		       st->per_fmt[0], st->per_fmt[1], st->per_fmt[2]);
	ksft_print_msg("stress: hardirq %llu, softirq %llu, NMI %llu (handler %llu, SysRq %llu)\n",
		       st->per_fmt[3], st->per_fmt[4], st->per_fmt[STRESS_NMI] + bt,
		       st->per_fmt[STRESS_NMI], bt);
	for (i = 0; i < STRESS_CPUS; i++) {
		size_t len = strlen(cpus);

		if (st->per_cpu[i] && len < sizeof(cpus) - 32)
			snprintf(cpus + len, sizeof(cpus) - len, "%s%d: %llu",
				 len ? ", " : "", i, st->per_cpu[i]);
	}
	ksft_print_msg("stress: records per CPU: %s\n", cpus[0] ? cpus : "none");
	ksft_print_msg("stress: module: %s\n", st->done[0] ? st->done : "(no summary record)");
	{
		const char *p = strstr(st->done, " softirq, ");
		unsigned long nmi, sysrq;

		/* Every NMI the module's handler printed was read. */
		if (p && sscanf(p, " softirq, %lu nmi, %lu sysrq", &nmi, &sysrq) == 2 &&
		    !st->lost && nmi != st->per_fmt[STRESS_NMI]) {
			ksft_print_msg("stress: %lu records from NMI printed, %llu read\n",
				       nmi, st->per_fmt[STRESS_NMI]);
			ok = false;
		}
	}
	/*
	 * The counters moved by at least the identified stress records read
	 * and, when none was lost, by at most every identified record read.
	 * What the cache did not answer was hashed: the rest were hits.
	 */
	delta = after.total - before.total;
	ksft_print_msg("stress: counters +%ld for %llu identified stress records (%llu of all)\n",
		       delta, st->ids_stress, st->ids_all);
	ksft_print_msg("stress: %ld formats hashed, %ld answered by the cache\n",
		       after.hashed - before.hashed, delta - (after.hashed - before.hashed));
	if (delta < (long)st->ids_stress || (!st->lost && delta > (long)st->ids_all)) {
		ksft_print_msg("stress: the counters do not add up to the records\n");
		ok = false;
	}
	for (i = 0; i < (int)STRESS_NR; i++) {
		/*
		 * No NMI but on x86. A backtrace of either kind will do, and
		 * only when no record was lost: SysRq 'l' is asked for a few
		 * times a run, and a small log buffer may lose them all.
		 */
		if (i >= STRESS_NMI && !on_x86())
			continue;
		if (i == STRESS_BT + 1 ||
		    (i == STRESS_BT && (st->per_fmt[STRESS_BT + 1] || st->lost)))
			continue;
		if (!st->per_fmt[i]) {
			ksft_print_msg("stress: no record of \"%s\"\n", stress_fmts[i].start);
			ok = false;
		}
	}
	if (!st->prefixed || !st->unprefixed) {
		ksft_print_msg("stress: the switch did not show in the records\n");
		ok = false;
	}
	ok = ok && !st->bad;
	ksft_test_result(ok,
			 "stress: %llu records on %ld CPUs and in hard irq, %lu toggles, %llu bad\n",
			 st->checked, sysconf(_SC_NPROCESSORS_ONLN), shared[1], st->bad);
	munmap(shared, 2 * sizeof(*shared));
	free(st);
}

static bool is_loaded(const char *mod)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/module/%s", mod);
	return access(path, F_OK) == 0;
}

int main(void)
{
	struct class_stats st0, st1;
	struct records boot = { 0 };
	struct index_ids ix;
	int fd, was_on;
	bool ix_ok;

	ksft_print_header();
	crc32_init();
	if (crc32("123456789", 9) != 0xcbf43926)
		ksft_exit_fail_msg("the CRC-32 of this test is broken\n");
	if (geteuid())
		ksft_exit_skip("needs root\n");
	was_on = param_get();
	if (was_on < 0)
		ksft_exit_skip(PARAM " missing (CONFIG_PRINTK_MSGID)\n");
	if (access(STATS, R_OK))
		ksft_exit_skip(STATS " missing (debugfs not mounted?)\n");

	/* Everything logged so far, before the test adds its own. */
	if (read_stats(&st0))
		ksft_exit_fail_msg("cannot read " STATS "\n");
	fd = kmsg_open(false);
	kmsg_read_all(fd, &boot);
	close(fd);
	if (read_stats(&st1))
		ksft_exit_fail_msg("cannot read " STATS "\n");

	if (!is_loaded("test_msgid_ext") && run("modprobe test_msgid_ext"))
		ksft_exit_skip("cannot load test_msgid_ext (harness/modules/test_msgid_ext)\n");
	if (!was_on && param_set(1))
		ksft_exit_fail_msg("cannot switch " PARAM " on\n");

	ksft_set_plan(ARRAY_SIZE(msg_cases) + 14);
	test_counts(&boot, &st0, &st1);
	test_msg_cases();
	test_classes();
	test_user_record();
	test_switch();
	test_reload();
	test_index_reads();
	/* The live index, read once for the cases that look ids up in it. */
	ix_ok = index_ids_read(&ix) == 0;
	test_index_ids(&ix);
	test_index_coverage(&boot, &ix, ix_ok);
	test_index_wrappers(&ix, ix_ok);
	test_hw(&boot, &ix, ix_ok);
	test_drm_device(&boot, &ix, ix_ok);
	test_rust(&boot);
	index_ids_free(&ix);
	test_stress();
	test_boot(&boot);

	records_free(&boot);
	run("modprobe -r test_msgid_ext");
	if (!was_on)
		param_set(0);
	ksft_finished();
}
