#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# object-cost.sh: what the series costs in the objects it changes, in the
# test kernel's configuration (make kernel first: its .config is reused):
# the text of lib/vsprintf.o and kernel/printk/printk.o (size(1)) and
# the stack frames of vprintk_store() and the functions
# printk_msgid_vscnprintf() calls
# (scripts/checkstack.pl), on the base, with the series and
# CONFIG_PRINTK_MSGID=n, and with it =y. Each is built in an object
# directory of its own: about a minute each for the first "make
# prepare", seconds after.
set -eu
. "$(dirname "$0")/env.sh"

cfg=$BUILD/msgid/.config
[ -f "$cfg" ] || die "no $cfg: run make kernel first"
wt=$OUT/cost/base
if [ ! -d "$wt" ]; then
	mkdir -p "$OUT/cost"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q -f --detach "$wt" base >/dev/null
fi

# build TREE NAME CONFIG-EDIT: lib/vsprintf.o and kernel/printk/ in
# out/build/cost-NAME; prints the directory
build() {
	local tree=$1 name=$2 edit=$3 dir
	dir=$(objdir "cost-$name" "$tree")
	cp "$cfg" "$dir/.config"
	[ -z "$edit" ] || "$tree/scripts/config" --file "$dir/.config" $edit
	say "$name: make prepare, lib/vsprintf.o and kernel/printk/ (about a minute cold)"
	make -s -C "$tree" O="$dir" CC="$(kcc)" olddefconfig >/dev/null
	make -s -C "$tree" O="$dir" CC="$(kcc)" -j"$(nproc)" lib/vsprintf.o kernel/printk/ >/dev/null
	echo "$dir"
}

stack() {
	objdump -d "$1"/kernel/printk/*.o |
		perl "$TREE/scripts/checkstack.pl" x86_64 0 |
		grep -E 'vprintk_store|printk_msgid|msgid_vscnprintf' || true
}

for name in base off on; do
	case $name in
	base) dir=$(build "$wt" base "") ;;
	off) dir=$(build "$TREE" off "-d PRINTK_MSGID") ;;
	on) dir=$(build "$TREE" on "") ;;
	esac
	text=$(size "$dir/lib/vsprintf.o" | awk 'NR == 2 { print $1 }')
	ptext=$(size "$dir/kernel/printk/printk.o" | awk 'NR == 2 { print $1 }')
	echo "$name: lib/vsprintf.o text $text bytes, kernel/printk/printk.o text $ptext bytes"
	stack "$dir" | sed "s/^/$name: /"
	eval "text_$name=$text ptext_$name=$ptext"
done
echo "lib/vsprintf.o text: option off $((text_off - text_base)) bytes against the base, option on $((text_on - text_base))"
echo "kernel/printk/printk.o text: option off $((ptext_off - ptext_base)) bytes against the base, option on $((ptext_on - ptext_base))"
