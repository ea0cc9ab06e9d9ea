# SPDX-License-Identifier: GPL-2.0
# Orchestrates the jobs of the printk message identifier series. Each job
# is a script in harness/; outputs go to out/. "make help" lists them.

H := harness
X86 := $(H)/configs/x86_64.config
# The test kernel and the series' per-patch builds: the subsystems whose
# wrappers the series indexes (DRM, btrfs, qla2xxx, rtlwifi).
WRAPPERS := $(H)/configs/wrappers.config
OFF := $(H)/configs/msgid-off.config
# The test kernel's devices (e1000, ext4 on virtio-blk), its debug options
# (lockdep, KASAN, UBSAN) and the KUnit suites built in.
DEBUG := $(H)/configs/hw-debug.config
SMP := $(H)/configs/smp-kcsan.config
# What a distribution kernel enables that changes printk's paths: the
# architecture's CRC, SysRq's NMI backtraces, machine checks, dynamic
# preemption (the test kernel and the KCSAN kernel).
DISTRO := $(H)/configs/distro.config
RT := $(H)/configs/rt.config
# The kernel of make demo: lean, on its own on top of tinyconfig (no
# KASAN, lockdep or wrapper subsystems), built in a few minutes.
DEMO := $(H)/configs/demo.config
# Every job runs under jobs.sh, which logs its wall time (out/jobs.log).
J = $(H)/jobs.sh run $@

.PHONY: help deps base tree refresh kernel kernel-demo kernel-off kernel-base la57-boots kernel-smp kernel-rt check-rt kernel-arm64 kunit kunit-um \
	rust-root kernel-rust check-rust \
	kunit-i386 vectors pytest selftest check-debug check-smp demo series series-check series-check-small \
	docs docs-html bench bench-icount profile bench-db object-cost check-crc-nmi fuzz pipeline pipeline-syslog-ng \
	distro-check stability db-releases check check-jobs check-start clean \
	tree-lts series-lts kernel-lts selftest-lts lts-check lts-am

help:
	@echo "make demo        build a lean patched kernel, boot it, look its identifiers up (first"
	@echo "                 command; about 6 min on a fresh idle 2-core machine, 464 s of CPU)"
	@echo "make kernel-demo its kernel (out/build/demo, harness/configs/demo.config)"
	@echo "make check       everything CI runs (8-18 min on a new clone with a warm ccache, 22-52 cold before check-rt)"
	@echo "make tree        out/linux = base + our files and patches (git repo)"
	@echo "make refresh     write edits made in out/linux back to the repo"
	@echo "make kernel      the x86_64 test kernel, CONFIG_PRINTK_MSGID=y, the wrapper subsystems,"
	@echo "                 e1000, ext4, lockdep, KASAN, UBSAN, KUnit (out/build/msgid)"
	@echo "make kernel-off  the same kernel with the feature compiled out"
	@echo "make kernel-base the same kernel built from the base without the series (out/build/base)"
	@echo "make la57-boots  the base and the series (printk.msgid=0, =1) booted on 5-level paging,"
	@echo "                 KASAN reports counted (issue 47; LA57_BOOTS=30 each, about 30 min)"
	@echo "make kernel-arm64  a small arm64 kernel, cross-built (out/build/arm64)"
	@echo "make rust-root   a Debian 13 build root with rustc, bindgen, clang (out/rust-root; not on the host)"
	@echo "make kernel-rust a lean x86_64 kernel with CONFIG_RUST=y and the Rust print sample,"
	@echo "                 LLVM=1, built in out/rust-root (out/build/rust)"
	@echo "make check-rust  the kselftest and the Rust KUnit suite on it: Rust messages' identifiers"
	@echo "make kunit       KUnit suite on UML and on i386 (QEMU)"
	@echo "make selftest    kselftest msgid in QEMU, boot log to out/boot/boot.log"
	@echo "make check-debug KUnit and the kselftest on the same kernel with an e1000 NIC and an ext4 disk"
	@echo "make check-smp   the kselftest on a KCSAN kernel, 4 vCPUs running at once"
	@echo "make check-rt    the kselftest on a PREEMPT_RT kernel with lockdep (out/build/rt)"
	@echo "make pytest      unit tests of scripts/msgid-db.py and msgid-tools (host)"
	@echo "make series      export the patch series to out/series/"
	@echo "make series-check  git am, checkpatch, kernel-doc, sparse, W=1, build per patch and =n"
	@echo "make series-lts  the series for the 6.12 LTS backport, out/series-6.12/"
	@echo "make lts-check   the backport applies (git am), builds and passes the kselftest"
	@echo "make lts-am      the backport applies (git am) to 6.12.118 and passes checkpatch"
	@echo "make docs        check the documentation (docutils); docs-html: Sphinx"
	@echo "make bench       cost of identifiers in printk, on UML (about 20 min)"
	@echo "make bench-icount  the same in instructions, x86_64 under QEMU -icount (about 15 min)"
	@echo "make profile     where those instructions go, per function (KINDS=\"short dev\"; after bench-icount)"
	@echo "make check-crc-nmi  NMI backtraces warn-free on -cpu max, and warn with the lib/crc fix reverted"
	@echo "make object-cost lib/vsprintf.o's text and vprintk_store()'s stack: base, option off, on"
	@echo "make bench-db    speed of msgid-tools/msgid-db lookup/annotate/build vs git grep"
	@echo "make fuzz        libFuzzer+ASan+UBSan on msgid.c in user space (FUZZ_SECONDS=60)"
	@echo "make pipeline    IDs enriched by rsyslogd with msgid-tools/msgid-db export's table"
	@echo "make pipeline-syslog-ng  the same with syslog-ng (downloaded, not installed)"
	@echo "make distro-check  msgid-tools/msgid-db on Debian's own kernel package of the base (15 s; skips offline)"
	@echo "make stability   share of IDs kept from Debian's 6.1 to the base (about 10 min cold)"
	@echo "make db-releases msgid-tools/msgid-db database of Debian's 5.10, 6.1, 6.12, 7.2 and 7.3 sources (out/releases)"

deps:
	$(J) $(H)/deps.sh

base: deps
	$(J) $(H)/base.sh

tree: base
	$(J) $(H)/tree.sh

refresh:
	$(J) $(H)/refresh.sh

kernel: tree
	$(J) $(H)/build.sh msgid $(X86) $(DISTRO) $(WRAPPERS) $(DEBUG)

kernel-off: tree
	$(J) $(H)/build.sh nomsgid $(X86) $(DISTRO) $(WRAPPERS) $(DEBUG) $(OFF)

# The test kernel's configuration built from the base without the series
# (a git worktree of out/linux at tag base, out/linux-base): the
# comparison of make la57-boots. Not part of make check.
kernel-base: tree
	$(J) $(H)/build-base.sh base $(X86) $(DISTRO) $(WRAPPERS) $(DEBUG)

# Whose is the KASAN report on 5-level paging (harness/la57-boots.sh)?
la57-boots: kernel kernel-base
	$(J) $(H)/la57-boots.sh

kernel-smp: tree
	$(J) $(H)/build.sh smp $(X86) $(DISTRO) $(SMP)

kernel-rt: tree
	$(J) $(H)/build.sh rt $(X86) $(DISTRO) $(RT)

kernel-arm64: tree
	ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- $(J) $(H)/build.sh arm64 $(H)/configs/arm64.config

# Rust (CONFIG_RUST=y) needs rustc 1.85, bindgen 0.71.1 and LLVM=1: built
# in a Debian 13 build root (harness/rust-root.sh), not on the host.
rust-root: deps
	$(J) $(H)/rust-root.sh

kernel-rust: tree rust-root
	$(J) $(H)/build-rust.sh rust $(X86) $(DISTRO) $(H)/configs/rust.config $(H)/configs/rust-msgid.config

# The kselftest, with its rust case, and the Rust KUnit suite on it.
check-rust: kernel-rust
	$(J) $(H)/check-rust.sh

kunit: kunit-um kunit-i386

kunit-um: tree
	$(J) $(H)/kunit.sh um

kunit-i386: tree
	$(J) $(H)/kunit.sh i386

vectors:
	$(J) python3 $(H)/check-vectors.py kernel/printk/msgid_kunit.c \
		harness/modules/msgid_kunit_ext/msgid_kunit_ext.c

pytest:
	$(J) $(H)/pytest.sh

selftest: kernel
	SELFTEST_ALL_WRAPPERS=1 $(J) $(H)/selftest.sh

check-debug: kernel
	$(J) $(H)/selftest-hw.sh

check-smp: kernel-smp
	$(J) $(H)/check-smp.sh

check-rt: kernel-rt
	$(J) $(H)/check-rt.sh

kernel-demo: tree
	$(J) $(H)/build.sh demo $(DEMO)

demo: kernel-demo
	$(J) $(H)/demo.sh

series: tree
	$(J) python3 $(H)/series.py out/linux out/series

# make series-check does it all in one job; make check in two (below).
SERIES_STAGE ?= all
series-check: series kernel
	$(J) $(H)/series-check.sh $(SERIES_STAGE)

series-check-small: series
	$(J) $(H)/series-check.sh small

# The 6.12 LTS backport: the same overlay with harness/lts/ laid over it,
# in out/lts/ (LTS=1 in harness/env.sh).
tree-lts: deps
	LTS=1 $(J) $(H)/tree.sh

series-lts: tree-lts
	LTS=1 $(J) python3 $(H)/series.py out/lts/linux out/series-6.12

kernel-lts: tree-lts
	LTS=1 $(J) $(H)/build.sh msgid $(X86)

# The backport's kernel is the lean one, without DRM (no $(WRAPPERS)):
# its DRM cases skip.
selftest-lts: kernel-lts
	LTS=1 SELFTEST_SKIP='hw|rust|drm|drm device' $(J) $(H)/selftest.sh

lts-check: series-lts selftest-lts
	LTS=1 SERIES_BUILD=0 $(J) $(H)/series-check.sh

# The backport applies with git am to 6.12.118 and passes checkpatch (no
# build: make lts-check builds and boots it).
lts-am: series-lts
	LTS=1 SERIES_BUILD=0 $(J) $(H)/series-check.sh

docs: tree
	$(J) $(H)/docs.sh

docs-html: tree
	$(J) $(H)/docs.sh --sphinx

bench: tree
	$(J) $(H)/bench.sh

bench-icount: tree
	ICOUNT=1 $(J) $(H)/bench.sh

# KINDS="short dev" make profile: per function, after make bench-icount.
profile:
	$(J) $(H)/profile.sh $(KINDS)

bench-db: kernel
	$(J) $(H)/bench-db.sh

object-cost: kernel
	$(J) $(H)/object-cost.sh

check-crc-nmi: kernel
	$(J) $(H)/crc-nmi.sh $(X86) $(DISTRO) $(WRAPPERS) $(DEBUG)

fuzz: deps
	$(J) $(H)/fuzz.sh

# Message IDs through a real log daemon (rsyslogd), see harness/pipeline.py.
pipeline: base
	$(J) $(H)/pipeline.sh

pipeline-syslog-ng: base
	$(J) $(H)/pipeline-syslog-ng.sh
distro-check:
	$(J) $(H)/distro-check.sh

stability: base
	$(J) $(H)/stability.sh

db-releases:
	$(J) $(H)/db-releases.sh

# make check runs two jobs at a time (CHECK_JOBS): a kernel build keeps
# both cores busy, but its links, a QEMU boot (single-threaded TCG) or the
# fuzzer use one, and the other job fills the second. Every line is tagged
# with its job. The longest chain (kernel, series-check, check-debug) comes
# first, the i386 KUnit kernel builds beside it, and the orders below let
# a build take from ccache what an earlier one compiled, pytest read the
# boot log of make selftest (out/boot/boot.log) instead of skipping those
# tests, and distro-check find the literals it checks in the base tree.
# One x86_64 kernel serves every boot: make selftest boots it without
# devices and with KUnit off, check-debug with an e1000 NIC and an ext4
# disk, and checks the 64-bit KUnit suites built into it (what make
# kunit-um checks). series-check also builds the feature compiled out
# (what make kernel-off checks): neither configuration is built on its own.
CHECK_JOBS ?= 2
CHECKS := kernel kunit-i386 series-check-small series-check \
	selftest check-debug check-crc-nmi check-rt fuzz pytest pipeline distro-check docs vectors lts-am
ifneq ($(filter check-jobs,$(MAKECMDGOALS)),)
# series-check in two jobs: the patches before the wrapper patches do not
# need make kernel's build, so they build as soon as a slot is free (when
# the i386 KUnit kernel is done), beside make kernel; the rest follows
# make kernel, beside the boots and pytest, whose single thread leaves a
# core to its links.
SERIES_STAGE := full
series-check: series-check-small
pytest: selftest
# check-debug boots beside series-check, as make selftest does: their
# TCG guests take one core, and series-check's links and checks leave
# one idle (both boots raise the RCU stall timeout for a busy host).
check-debug: kunit-i386 selftest
# The kernel with the lib/crc fix reverted builds from ccache (but
# lib/crc) once the boots of the test kernel are done.
check-crc-nmi: check-debug
# The PREEMPT_RT kernel builds once series-check has built its last
# patch, beside the single-threaded boots and pytest.
check-rt: series-check
distro-check: tree
# The backport's tree and git am (single-threaded unpacking and git)
# after the i386 KUnit kernel, beside the builds, not before make kernel.
tree-lts: kunit-i386
endif

# SERIES_CHECK=1: without a sender's identity, make series writes its
# patches for the checks only (harness/series.py, NOT-FOR-SENDING).
check: check-start
	@SERIES_CHECK=1 JOBS_TAG=1 $(MAKE) --no-print-directory -j$(CHECK_JOBS) check-jobs
	@$(H)/jobs.sh report
	@echo "check: $(words $(CHECKS)) passed, 0 failed"

check-jobs: $(CHECKS)

check-start:
	@$(H)/jobs.sh start

clean:
	rm -rf out
