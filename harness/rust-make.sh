#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# rust-make.sh ARGS...: make ARGS in the Debian 13 build root (rust-root.sh)
# with LLVM=1, out/ bound at its own path: for a kernel built there
# (build-rust.sh), whose configuration the host's compilers would change.
# selftest.sh calls it for the Rust kernel (SELFTEST_MAKE).
set -eu
. "$(dirname "$0")/env.sh"
. "$(dirname "$0")/rust-lib.sh"

rust_lock shared
rust_chroot make "$@"
