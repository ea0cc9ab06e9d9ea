# SPDX-License-Identifier: GPL-2.0
# Orchestrates the jobs of the printk message identifier series. Each job
# is a script in harness/; outputs go to out/. "make help" lists them.

H := harness
X86 := $(H)/configs/x86_64.config
OFF := $(H)/configs/msgid-off.config

.PHONY: help deps tree refresh kernel kernel-off kunit kunit-um kunit-i386 \
	vectors pytest check clean

help:
	@echo "make check       everything CI runs (about 25 min cold on 2 cores)"
	@echo "make tree        out/linux = base + our files and patches (git repo)"
	@echo "make refresh     write edits made in out/linux back to the repo"
	@echo "make kernel      x86_64 bzImage with CONFIG_PRINTK_MSGID=y (out/build/msgid)"
	@echo "make kernel-off  the same kernel with the feature compiled out"
	@echo "make kunit       KUnit suite on UML and on i386 (QEMU)"
	@echo "make pytest      unit tests of scripts/msgid-db.py (host)"

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

kunit: kunit-um kunit-i386

kunit-um: tree
	$(H)/kunit.sh um

kunit-i386: tree
	$(H)/kunit.sh i386

vectors:
	python3 $(H)/check-vectors.py kernel/printk/msgid_kunit.c

pytest:
	$(H)/pytest.sh

check: vectors pytest kernel kernel-off kunit
	@echo "make check: all jobs passed"

clean:
	rm -rf out
