// SPDX-License-Identifier: GPL-2.0
/*
 * insn_profile.c: a QEMU TCG plugin that counts the guest instructions
 * executed at each translation block's address, only between the guest's
 * entry into the function at begin=ADDR and its entry into the one at
 * end=ADDR (the benchmark's markers, by their System.map addresses), and
 * writes "vaddr instructions-per-execution executions" lines to out=FILE
 * when QEMU exits. harness/profile.sh builds and uses it.
 *
 * Written against the plugin API of QEMU 7.2 (version 1); the few
 * declarations it uses are repeated here because Debian ships QEMU
 * without its qemu-plugin.h.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_info_t;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
	void (*cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb));
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
	void (*cb)(unsigned int vcpu, void *udata),
	enum qemu_plugin_cb_flags flags, void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
	void (*cb)(qemu_plugin_id_t id, void *udata), void *udata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

struct block {
	uint64_t vaddr;
	uint64_t insns;
	uint64_t count;
};

#define MAX_BLOCKS (1 << 22)
static struct block *blocks;
static unsigned int nblocks;
static uint64_t begin_addr, end_addr;
static bool active;
static const char *out = "insn-profile.txt";

static void on_exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;

	if (b->vaddr == begin_addr)
		active = true;
	else if (b->vaddr == end_addr)
		active = false;
	if (active)
		b->count++;
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block *b;

	if (nblocks == MAX_BLOCKS)
		return;
	b = &blocks[nblocks++];
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->insns = qemu_plugin_tb_n_insns(tb);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	FILE *f = fopen(out, "w");
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < nblocks; i++)
		if (blocks[i].count)
			fprintf(f, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n",
				blocks[i].vaddr, blocks[i].insns, blocks[i].count);
	fprintf(f, "# blocks %u%s\n", nblocks, nblocks == MAX_BLOCKS ? " (table full)" : "");
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "begin=", 6))
			begin_addr = strtoull(argv[i] + 6, NULL, 16);
		else if (!strncmp(argv[i], "end=", 4))
			end_addr = strtoull(argv[i] + 4, NULL, 16);
		else if (!strncmp(argv[i], "out=", 4))
			out = argv[i] + 4;
	}
	if (!begin_addr || !end_addr)
		return -1;
	blocks = calloc(MAX_BLOCKS, sizeof(*blocks));
	if (!blocks)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
