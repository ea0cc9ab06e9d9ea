#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# initramfs.sh OUT.cpio.gz [DIR...]: a busybox initramfs. Each DIR is copied
# into the root. /init mounts proc, sys, devtmpfs and debugfs, runs /run.sh
# when a DIR provides one (else prints dmesg), and powers the machine off.
set -eu
. "$(dirname "$0")/env.sh"

out=$1
shift
bb=$(command -v busybox) || die "busybox missing: run harness/deps.sh"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,etc,root,lib/modules}
cp "$bb" "$root/bin/busybox"
for d in "$@"; do
	cp -a "$d/." "$root/"
done
cat > "$root/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp
echo "msgid-init: up"
if [ -x /run.sh ]; then
	/run.sh
	echo "msgid-init: run.sh exit $?"
else
	dmesg
fi
echo "msgid-init: done"
# A kernel without ACPI (the benchmark's) cannot power off and would halt:
# a reboot ends QEMU there (-no-reboot).
[ -d /sys/firmware/acpi ] && poweroff -f
reboot -f
INIT
chmod +x "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out"
