#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# config.sh NAME FRAGMENT...: write out/build/NAME/.config from tinyconfig
# plus the fragments, and fail if any requested option did not take.
set -eu
. "$(dirname "$0")/env.sh"

name=$1
shift
frags=()
for f in "$@"; do frags+=("$(realpath "$f")"); done
set -- "${frags[@]}"
dir=$(objdir "$name")
mkdir -p "$dir"
cd "$TREE"
make -s O="$dir" CC="$(kcc)" tinyconfig >/dev/null
scripts/kconfig/merge_config.sh -m -O "$dir" "$dir/.config" "$@" >/dev/null
make -s O="$dir" CC="$(kcc)" olddefconfig >/dev/null

# CONFIG_CHECK=0: options the tree does not know yet are fine (the
# series check configures every step of the series with one fragment).
[ "${CONFIG_CHECK:-1}" = 1 ] || exit 0

# Later fragments override earlier ones, as in merge_config.sh.
declare -A want
for frag in "$@"; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) want[${line%%=*}]=${line#*=} ;;
		esac
	done < "$frag"
done
bad=0
for opt in "${!want[@]}"; do
	if [ "${want[$opt]}" = n ]; then
		if grep -q "^$opt=" "$dir/.config"; then
			echo "config: $opt should be off" >&2
			bad=1
		fi
	elif ! grep -qxF "$opt=${want[$opt]}" "$dir/.config"; then
		echo "config: $opt=${want[$opt]} did not take (missing dependency?)" >&2
		bad=1
	fi
done
[ "$bad" = 0 ] || die "out/build/$name/.config does not match $*"
