#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stability.sh: how stable is an ID from one Debian LTS kernel to the
# next? Source-scan databases (msgid-tools/msgid-db build --source) of Debian's
# linux-source-6.1 (OLD_PKG in env.sh, fetched into out/stability) and of
# the pinned 6.12 base (out/base, make base), compared by
# harness/stability.py: the share of
# 6.1's IDs, file:line places and texts still in 6.12; when make
# distro-check has run, the same for the IDs Debian's 6.12 binaries hold;
# when make selftest has run, the share of the lean 6.12 boot's messages
# that 6.1 already had (with the kernel's printk index, out/build/msgid).
# Cold: 140 MB of download, two tarballs unpacked (30 s each) and two
# source scans (6 min each, measured side by side on 2 busy cores); then
# seconds, as everything is kept in out/stability (rm its *.db to scan
# again). The table goes to out/stability/table.txt.
set -eu
. "$(dirname "$0")/env.sh"

dir=$OUT/stability
mkdir -p "$dir"
"$ROOT/harness/fetch-deb.sh" "$OLD_PKG" "$OLD_VERSION" "$OLD_SUITE" "$dir/old" ||
	die "cannot fetch $OLD_PKG=$OLD_VERSION"

# unpack TARBALL NAME: the tree out/stability/NAME, once.
unpack() {
	[ -f "$dir/$2/Makefile" ] && return 0
	say "unpacking $1 (about 30 s)"
	rm -rf "${dir:?}/$2"
	mkdir -p "$dir/$2"
	tar -xf "$1" -C "$dir/$2" --strip-components=1
}
unpack "$dir/old/root/$OLD_TARBALL" "$OLD_PKG"
unpack "$BASE_TARBALL" "linux-$BASE_UPSTREAM"

tool=$ROOT/msgid-tools/msgid-db
for name in "$OLD_PKG" "linux-$BASE_UPSTREAM"; do
	db=$dir/$name.db
	[ -s "$db" ] && continue  # rm out/stability/*.db to scan again
	say "scanning the C sources of $name"
	start=$(date +%s)
	python3 "$tool" build --source "$dir/$name" -o "$db"
	say "$name: $(( $(date +%s) - start )) s"
done

extra=()
if [ -s "$OUT/distro/msgid.db" ]; then
	extra+=(--shipped "$OUT/distro/msgid.db")
else
	say "no out/distro/msgid.db (make distro-check): no figure for Debian's binaries"
fi
if [ -s "$OUT/boot/boot.log" ] && [ -f "$BUILD/msgid/vmlinux" ]; then
	python3 "$tool" build --kernel "$BUILD/msgid/vmlinux" --modules \
		"$BUILD/msgid" -o "$dir/boot.db"
	extra+=(--boot "$OUT/boot/boot.log" "$dir/boot.db")
else
	say "no out/boot/boot.log and out/build/msgid (make selftest): no boot figures"
fi
python3 "$ROOT/harness/stability.py" "$dir/$OLD_PKG.db" "$dir/linux-$BASE_UPSTREAM.db" \
	"${extra[@]}" | tee "$dir/table.txt"
