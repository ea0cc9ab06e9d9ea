#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# boot-rust.sh [NAME]: boot the Rust kernel (make kernel-rust, out/build/rust;
# or out/build/NAME)
# once under QEMU TCG (boot.sh: -cpu max, a timeout) with printk.msgid=1,
# and report what its Rust print sample (samples/rust/rust_print_main.rs,
# built in) printed: the records, their identifiers against the CRC-32
# of the formats rust/kernel/print.rs hands printk ("%s: %pA", and "%pA"
# for pr_cont!), and the printk index entries of .rs files, of rust_print
# and with a %pA format. Not a test
# yet: it fails only when the guest does not finish or the sample
# printed nothing. Console in out/boot-NAME/console.log, the summary in
# out/boot-NAME/summary.txt.
set -eu
. "$(dirname "$0")/env.sh"

name=${1:-rust}
dir=$BUILD/$name
work=$OUT/boot-$name
kernel=$dir/arch/x86/boot/bzImage
[ -f "$kernel" ] || die "no kernel in out/build/$name: make kernel-rust"
rm -rf "$work"
mkdir -p "$work/overlay"
cat > "$work/overlay/run.sh" <<'RUN'
#!/bin/sh
idx=/sys/kernel/debug/printk/index/vmlinux
echo "### index: $(grep -vc '^#' $idx) entries in vmlinux"
echo "### index entries of .rs files:"
grep '\.rs:' $idx || echo "(none)"
echo "### index entries naming rust_print:"
grep -i 'rust_print' $idx || echo "(none)"
echo "### index entries whose format has %pA:"
grep -F '%pA' $idx || echo "(none)"
echo "### end"
RUN
chmod +x "$work/overlay/run.sh"
"$ROOT/harness/initramfs.sh" "$work/initrd.cpio.gz" "$work/overlay"
"$ROOT/harness/boot.sh" "$kernel" "$work/initrd.cpio.gz" "$work/console.log" \
	"printk.msgid=1" "${BOOT_LIMIT:-300}"

python3 - "$work/console.log" > "$work/summary.txt" <<'PY'
import re, sys, zlib
log = open(sys.argv[1], errors="replace").read().splitlines()
formats = {"%08x" % zlib.crc32(f.encode()): f for f in ("%s: %pA", "%pA")}
recs = [l for l in log if re.search(r"\] (\([0-9a-f]{8}\): )?rust_print: ", l)]
ids = {}
for l in recs:
    m = re.search(r"\] \(([0-9a-f]{8})\): rust_print: ", l)
    ids.setdefault(m.group(1) if m else "none", []).append(l)
print("rust_print records: %d, distinct identifiers: %d" % (len(recs), len(ids)))
for i, ls in ids.items():
    print("  %s x%d  %s" % (i, len(ls), "= crc32(%r)" % formats[i] if i in formats else "(not a format of print.rs)"))
print()
print("\n".join(recs))
print()
out = False
for l in log:
    if l.startswith("### index"):
        out = True
    if l.startswith("### end"):
        break
    # run.sh's output, without the kernel's records printed between.
    if out and not re.match(r"\[\s*\d+\.\d+\] ", l):
        print(l)
PY
cat "$work/summary.txt" >&2
grep -q '^rust_print records: [1-9]' "$work/summary.txt" ||
	die "the Rust sample printed nothing (out/boot-$name/console.log)"
