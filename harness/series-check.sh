#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# series-check.sh: the checks a maintainer would run on out/series/:
#  - each series applies with git am to a pristine base, alone or on the
#    series it depends on (NN-NAME/depends, and what that depends on),
#    and all of them, in the order of out/series/order, apply one after
#    the other: the tree the rest of the checks build, patch by patch;
#  - checkpatch.pl --strict: no error, warning or check, but those the
#    manifest keeps with a reason (NN-NAME/checkpatch-keep);
#  - after every patch the x86_64 kernel (vmlinux and modules) builds,
#    incrementally in out/build/series, with CONFIG_PRINTK_MSGID=y; a
#    patch whose tree is the overlay's, or differs from it only in files
#    no kernel build reads (the last wrapper patch, before msgid-db.py and
#    the documentation), is the kernel make kernel built with the same
#    fragments, and a patch that only adds files no kernel build reads
#    (the selftest, scripts/msgid-db.py) leaves the previous patch's build
#    standing: neither is built again. A patch whose tree differs from
#    the overlay's only in the subsystems wrappers.config adds (its
#    "# series-check:" line) builds with make kernel's configuration, so
#    ccache answers every other file; the patches before build without
#    those subsystems, which they do not touch, but with series.config
#    (ext4, the KUnit suites): their first full build is the cold cost of
#    this check. Every .c file a built patch changes must have been
#    compiled. The first patch, when it only changes .c files, is
#    compiled, not linked: the first full build is the next patch's,
#    which links its objects too. The
#    configuration is made again after a patch that changes a Kconfig
#    file (else it cannot differ);
#  - sparse (C=2) and W=1 add no warning to kernel/printk/,
#    lib/vsprintf.o and lib/test_msgid.o compared with the base, and kernel-doc is clean;
#  - the last tree builds with the feature compiled out (msgid-off.config),
#    incrementally on the same build, with no warning in our files: what
#    make kernel-off checks, without building every file again;
#  - the series end in exactly the tree `make tree` lays but for the
#    files the manifest keeps out of them (out/series/kept-out): no drift
#    between the repo's overlay and the exported series.
#
# series-check.sh [all|small|full]: all (the default) does everything;
# make check runs it in two jobs, so that the first half does not wait
# for make kernel: "small" applies the series, runs checkpatch and
# kernel-doc, and builds the patches before the wrapper patches (none of
# which needs make kernel's build); "full", after "small" and make
# kernel, builds the rest, lints the last tree and builds it with the
# option off.
set -eu
. "$(dirname "$0")/env.sh"

stage=${1:-all}
case $stage in all|small|full) ;; *) die "usage: series-check.sh [all|small|full]" ;; esac
series=$SERIES
am=$OUT/series-am
# What the small stage leaves for the full one: the commit it stopped
# at and the series it applied.
state=$OUT/series-check.state
# The test kernel's configuration (make kernel), and for the patches
# before the wrapper patches one without the wrapper subsystems and the
# debug options but with what compiles every file those patches change
# (series.config).
frags=("$ROOT/harness/configs/x86_64.config" "$ROOT/harness/configs/distro.config"
	"$ROOT/harness/configs/wrappers.config"
	"$ROOT/harness/configs/hw-debug.config")
small=("$ROOT/harness/configs/x86_64.config" "$ROOT/harness/configs/series.config")
mapfile -t wrapper_dirs < <(sed -n 's/^# series-check: //p' "$ROOT/harness/configs/wrappers.config" | tr ' ' '\n')
[ ${#wrapper_dirs[@]} -gt 0 ] || die "wrappers.config has no '# series-check:' line"
log=$OUT/series-check.log

[ -f "$series/order" ] || die "no series: run 'make series' first"
mapfile -t dirs < "$series/order"
# patches_of DIR: the patch files of one series, in order.
patches_of() {
	ls "$series/$1"/[0-9][0-9][0-9][0-9]-*.patch | grep -v /0000-cover-letter
}
patches=()
for d in "${dirs[@]}"; do
	mapfile -t -O ${#patches[@]} patches < <(patches_of "$d")
done
sum=$(cat "${patches[@]}" | md5sum | cut -d' ' -f1)
if [ "$stage" = full ]; then
	[ -f "$state" ] && [ "$(sed -n 2p "$state")" = "$sum" ] ||
		die "series-check.sh full: the small stage has not checked this series (run series-check.sh small, or make series-check)"
fi

# out/series-am/build-series: the same relative paths as make kernel's
# build of out/linux, so ccache answers every file the two trees share.
bdir=$BUILD/series

# gam PATCH...: git am in out/series-am.
gam() {
	git -C "$am" -c user.name=check -c user.email=check@localhost am -q --whitespace=error-all "$@" ||
		{ git -C "$am" am --abort 2>/dev/null; return 1; }
}

# chain DIR: the series DIR depends on, directly or not, in the order
# that applies them to the base.
chain() {
	local dep
	dep=$(cat "$series/$1/depends")
	[ -z "$dep" ] || { chain "$dep"; echo "$dep"; }
}

# review: apply the series to a pristine base with git am, and check it
# with checkpatch and kernel-doc.
review() {
	local p n out line keep kn kmsg bad docs
	local d dep c
	rm -rf "$am"
	git clone -q --shared --no-checkout "$TREE" "$am"
	# checkout.workers: about 18 s instead of 29 for the base's 90,000 files.
	git -C "$am" -c checkout.workers=0 checkout -q --detach base
	objdir series "$am" > /dev/null
	for d in "${dirs[@]}"; do
		git -C "$am" checkout -q --detach base
		dep=$(cat "$series/$d/depends")
		for c in $(chain "$d"); do
			mapfile -t pp < <(patches_of "$c")
			gam "${pp[@]}" || die "$c (under $d) does not apply to the base with git am"
		done
		mapfile -t pp < <(patches_of "$d")
		gam "${pp[@]}" || die "series $d does not apply ${dep:+on $dep }to the base with git am"
		say "$d: ${#pp[@]} patch(es) apply to the base${dep:+ on $dep} with git am"
	done
	say "git am of all ${#dirs[@]} series, ${#patches[@]} patches, one after the other onto the base"
	git -C "$am" checkout -q --detach base
	gam "${patches[@]}" || die "the series do not apply one after the other (out/series/order)"

	say "checkpatch.pl --strict on every patch"
	bad=0
	for p in "${patches[@]}"; do
		n=$(basename "$p" | cut -c1-4)
		d=$(basename "$(dirname "$p")")
		out=$("$am/scripts/checkpatch.pl" --strict --no-tree --no-signoff --terse --showfile "$p" 2>&1 || true)
		while IFS= read -r line; do
			case "$line" in *": ERROR:"*|*": WARNING:"*|*": CHECK:"*) ;; *) continue ;; esac
			keep=no
			while IFS=$'\t' read -r kn kmsg; do
				[ "$kn" = "$n" ] || continue
				case "$line" in *"${kmsg%% -- *}"*) keep=yes ;; esac
			done < "$series/$d/checkpatch-keep"
			if [ $keep = no ]; then
				echo "$d/$(basename "$p"): $line" >&2
				bad=1
			fi
		done <<< "$out"
	done
	[ $bad = 0 ] || die "checkpatch found problems (see above)"

	say "kernel-doc on our C files"
	docs=$(cd "$am" && scripts/kernel-doc -none -Wall include/linux/printk_msgid.h kernel/printk/msgid.c include/linux/sprintf.h 2>&1 || true)
	[ -z "$docs" ] || { echo "$docs" >&2; die "kernel-doc warnings"; }
}

if [ "$stage" = full ]; then
	tip=$(sed -n 1p "$state")
else
	: > "$log"
	rm -f "$state"
	review
	tip=$(git -C "$am" rev-parse HEAD)
fi

# The tree compared with the overlay: MAINTAINERS aside (the entry is made
# at export time from git config, so it may differ).
tree_spec=(. ':(exclude)MAINTAINERS')
while IFS= read -r f; do
	tree_spec+=(":(exclude)$f")
done < "$series/kept-out"

# Whether commit $1 has the overlay's tree.
is_overlay() {
	git -C "$am" diff --quiet overlay "$1" -- "${tree_spec[@]}"
}

# Whether commits $1 and $2 differ only in files no kernel build reads:
# the selftests, scripts/msgid-db.py and its package, the .rst and .txt
# documents (Documentation/Kconfig is read: not excluded).
build_spec=("${tree_spec[@]}"
	':(exclude,glob)Documentation/**/*.rst' ':(exclude,glob)Documentation/**/*.txt'
	':(exclude)tools/testing/selftests/'
	':(exclude)scripts/msgid-db.py' ':(exclude)scripts/msgid_db/')
same_build() {
	git -C "$am" diff --quiet "$1" "$2" -- "${build_spec[@]}"
}

say "no drift: the series ends in the tree make tree lays"
if ! is_overlay "$tip"; then
	git -C "$am" diff --stat overlay "$tip" -- "${tree_spec[@]}" >&2
	die "the exported series and the repo's overlay differ: run make series again (or keep the files out in the manifest)"
fi

if [ "${SERIES_BUILD:-1}" = 0 ]; then
	say "SERIES_BUILD=0: not building after every patch"
	exit 0
fi

# W=1 and sparse warnings of the files we touch, without line numbers.
lint() {
	make -s -C "$am" O="$bdir" CC="$(kcc)" C=2 W=1 kernel/printk/ $1 2>&1 |
		grep -E 'warning|error' | sed -E 's/:[0-9]+:[0-9]+:/:/' | sort -u
}

# Whether commit $1 differs from the overlay, in files a kernel build
# reads, only under the wrapper subsystems' paths.
wrappers_left() {
	local f d
	while IFS= read -r f; do
		for d in "${wrapper_dirs[@]}"; do
			case "$f" in "$d"/*|"$d") continue 2 ;; esac
		done
		return 1
	done < <(git -C "$am" diff --name-only "$1" overlay -- "${build_spec[@]}")
}

# check_compiled N SUBJECT: every .c file of the kernel that patch N
# changed ($changed) has its object in the build: a patch whose file no
# configuration here compiles would pass unbuilt.
check_compiled() {
	local f missing=
	while IFS= read -r f; do
		case "$f" in
		tools/*|scripts/*|samples/*|Documentation/*) continue ;;
		*.c) [ -f "$bdir/${f%.c}.o" ] || missing="$missing $f" ;;
		esac
	done <<< "$changed"
	[ -z "$missing" ] ||
		die "patch $1 changes files its build did not compile:$missing (configure them in harness/configs/series.config): $2"
}

# configure [FRAGMENT...]: out/build/series/.config for the tree checked
# out, by default with the fragments of the current stage ($cur).
cur=small
configure() {
	if [ $# -eq 0 ]; then
		if [ $cur = full ]; then set -- "${frags[@]}"; else set -- "${small[@]}"; fi
	fi
	CONFIG_CHECK=0 TREE=$am "$ROOT/harness/config.sh" series "$@" >> "$log" 2>&1
}

# build TARGET...: build in out/build/series; the log of this make alone
# goes to $log.last, and is appended to $log.
build() {
	local rc=0
	make -C "$am" O="$bdir" CC="$(kcc)" -j"$(nproc)" "$@" > "$log.last" 2>&1 || rc=$?
	cat "$log.last" >> "$log"
	return $rc
}

if [ "$stage" = full ]; then
	say "building the wrapper patches and the rest after every patch in out/build/series (make kernel's configuration: ccache answers all but the wrapper subsystems)"
else
	say "building after every patch in out/build/series (about 1 minute a patch with a warm ccache; the first full build is 3-4 minutes cold alone, 10 beside make kernel)"
	git -C "$am" checkout -q --detach base
	configure
	lint lib/vsprintf.o > "$OUT/series-lint.base"
fi
i=0
built= built_i= prev=base reconf=no
for c in $(git -C "$am" rev-list --reverse "base..$tip"); do
	i=$((i + 1))
	if [ $cur = small ] && wrappers_left "$c"; then
		if [ "$stage" = small ]; then
			printf '%s\n%s\n' "$tip" "$sum" > "$state"
			say "patches 1-$((i - 1)) build; patch $i on build with make kernel's configuration: series-check.sh full, after make kernel"
			exit 0
		fi
		cur=full reconf=yes
		say "patch $i: from here on make kernel's configuration (x86_64.config + distro.config + wrappers.config + hw-debug.config)"
	fi
	if [ $cur = small ] && [ "$stage" = full ]; then
		prev=$c
		continue
	fi
	git -C "$am" checkout -q --detach "$c"
	changed=$(git -C "$am" diff --name-only "$prev" "$c")
	prev=$c
	# The overlay's tree, or a tree that differs from it only in files
	# no kernel build reads: what make kernel built (out/build/msgid).
	# Such a tree has no wrapper patch left, so the stage is full here.
	if same_build "$c" overlay; then
		[ -f "$BUILD/msgid/arch/x86/boot/bzImage" ] && [ -f "$BUILD/msgid/modules.order" ] ||
			die "patch $i builds the overlay's kernel, but make kernel has not built it (out/build/msgid)"
		say "patch $i builds the overlay's kernel: built by make kernel (out/build/msgid): $(git -C "$am" log -1 --format=%s "$c")"
		built=$c built_i=$i
		continue
	fi
	if [ -n "$built" ] && same_build "$built" "$c"; then
		say "patch $i changes no file the kernel build reads: the build of patch $built_i stands: $(git -C "$am" log -1 --format=%s "$c")"
		continue
	fi
	t0=$(date +%s)
	subject=$(git -C "$am" log -1 --format=%s "$c")
	if [ $i = 1 ] && ! grep -qv '\.c$' <<< "$changed"; then
		# The base's configuration and prepared build (lint) stand.
		objs=$(sed 's/\.c$/.o/' <<< "$changed")
		# shellcheck disable=SC2086 # one object a word
		build $objs || { tail -20 "$log.last" >&2; die "patch 1 does not compile: $subject"; }
		say "patch 1 compiles ($(( $(date +%s) - t0 )) s; linked with patch 2): $subject"
		continue
	fi
	if [ $reconf = yes ] || grep -q 'Kconfig' <<< "$changed"; then
		configure
		reconf=no
	fi
	if ! build vmlinux modules; then
		tail -20 "$log.last" >&2
		die "the kernel does not build after patch $i: $subject"
	fi
	check_compiled "$i" "$subject"
	say "patch $i builds ($(( $(date +%s) - t0 )) s): $subject"
	built=$c built_i=$i
done
grep -q '^CONFIG_PRINTK_MSGID=y' "$bdir/.config" || die "the last build did not have CONFIG_PRINTK_MSGID=y"
same_build "$built" overlay || die "the last patch built (patch $built_i) is not the overlay's tree"

extra=lib/vsprintf.o
[ -f "$am/lib/test_msgid.c" ] && extra="$extra lib/test_msgid.o"
lint "$extra" > "$OUT/series-lint.final"
new=$(comm -13 "$OUT/series-lint.base" "$OUT/series-lint.final")
[ -z "$new" ] || { echo "$new" >&2; die "sparse or W=1 warnings added by the series"; }

say "the last tree with the feature compiled out (msgid-off.config), on the same build"
t0=$(date +%s)
configure "${frags[@]}" "$ROOT/harness/configs/msgid-off.config"
grep -q '^CONFIG_PRINTK_MSGID=y' "$bdir/.config" && die "msgid-off.config did not turn CONFIG_PRINTK_MSGID off"
build vmlinux modules || { tail -20 "$log.last" >&2; die "the kernel does not build with CONFIG_PRINTK_MSGID=n"; }
if grep -E "$OUR_WARNING_RE" "$log.last" >&2; then
	die "warnings in our files with CONFIG_PRINTK_MSGID=n ($log)"
fi
say "CONFIG_PRINTK_MSGID=n builds without a warning ($(( $(date +%s) - t0 )) s)"
say "series: ${#dirs[@]} series, ${#patches[@]} patches apply, build one by one and pass checkpatch, kernel-doc, sparse and W=1"
