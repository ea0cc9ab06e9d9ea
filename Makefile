# SPDX-License-Identifier: GPL-2.0
# Orchestrates the jobs of the printk message identifier series. Each job
# is a script in harness/; outputs go to out/. "make help" lists them.

H := harness
X86 := $(H)/configs/x86_64.config
OFF := $(H)/configs/msgid-off.config
DEBUG := $(H)/configs/hw-debug.config

.PHONY: help deps tree refresh kernel kernel-off kernel-debug kunit kunit-um \
	kunit-i386 vectors pytest selftest check-debug demo series series-check \
	docs docs-html bench bench-icount bench-db fuzz check clean

help:
	@echo "make demo        boot the patched kernel, look its identifiers up (first command)"
	@echo "make check       everything CI runs (50-70 min cold on 2 cores)"
	@echo "make tree        out/linux = base + our files and patches (git repo)"
	@echo "make refresh     write edits made in out/linux back to the repo"
	@echo "make kernel      x86_64 bzImage with CONFIG_PRINTK_MSGID=y (out/build/msgid)"
	@echo "make kernel-off  the same kernel with the feature compiled out"
	@echo "make kernel-debug  the same kernel + e1000, ext4, lockdep, KASAN, UBSAN (out/build/debug)"
	@echo "make kunit       KUnit suite on UML and on i386 (QEMU)"
	@echo "make selftest    kselftest msgid in QEMU, boot log to out/boot/boot.log"
	@echo "make check-debug the kselftest on a lockdep/KASAN/UBSAN kernel with e1000 + ext4"
	@echo "make pytest      unit tests of scripts/msgid-db.py (host)"
	@echo "make series      export the patch series to out/series/"
	@echo "make series-check  git am, checkpatch, kernel-doc, sparse, W=1, build per patch"
	@echo "make docs        check the documentation (docutils); docs-html: Sphinx"
	@echo "make bench       cost of identifiers in printk, on UML (about 20 min)"
	@echo "make bench-icount  the same in instructions, x86_64 under QEMU -icount (about 15 min)"
	@echo "make bench-db    speed of msgid-db.py lookup/annotate/build vs git grep"
	@echo "make fuzz        libFuzzer+ASan+UBSan on msgid.c in user space (FUZZ_SECONDS=60)"

deps:
	$(H)/deps.sh

tree: deps
	$(H)/tree.sh

refresh:
	$(H)/refresh.sh

kernel: tree
	$(H)/build.sh msgid $(X86)

kernel-off: tree
	$(H)/build.sh nomsgid $(X86) $(OFF)

kernel-debug: tree
	$(H)/build.sh debug $(X86) $(DEBUG)

kunit: kunit-um kunit-i386

kunit-um: tree
	$(H)/kunit.sh um

kunit-i386: tree
	$(H)/kunit.sh i386

vectors:
	python3 $(H)/check-vectors.py kernel/printk/msgid_kunit.c

pytest:
	$(H)/pytest.sh

selftest: kernel
	$(H)/selftest.sh

check-debug: kernel-debug
	$(H)/selftest-hw.sh

demo: kernel
	$(H)/demo.sh

series: tree
	python3 $(H)/series.py out/linux out/series

series-check: series
	$(H)/series-check.sh

docs: tree
	$(H)/docs.sh

docs-html: tree
	$(H)/docs.sh --sphinx

bench: tree
	$(H)/bench.sh

bench-icount: tree
	ICOUNT=1 $(H)/bench.sh

bench-db: kernel
	$(H)/bench-db.sh

fuzz: deps
	$(H)/fuzz.sh

# pytest runs after selftest so that its tests against the boot log of the
# booted kernel (out/boot/boot.log) run instead of being skipped.
CHECKS := vectors docs fuzz kernel kernel-off kunit-um kunit-i386 selftest pytest \
	check-debug series-check
check: $(CHECKS)
	@echo "check: $(words $(CHECKS)) passed, 0 failed"

clean:
	rm -rf out
