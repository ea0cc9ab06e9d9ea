#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# break-test.sh: does harness/fuzz.sh catch bugs? Each case below breaks a
# COPY of kernel/printk/msgid.c (in $OUT/fuzz-break/<case>/msgid.c; the
# repo's file is never touched) and runs the campaign on it for at most
# BREAK_SECONDS (60). A case passes when the campaign fails. About
# 14 x (10 s build + time to the crash) when all are caught.
# BREAK_SCRATCH=1 starts from a single empty input instead of the seeds,
# to see what the fuzzer finds by itself.
#
#   harness/fuzz/break-test.sh [case ...]
set -eu
. "$(dirname "$0")/../env.sh"

BREAK_SECONDS=${BREAK_SECONDS:-60}
all="no-depth-limit no-page-size-check tag-overread precision-ignored star-width-skipped
     all-newlines cache-no-key-check tag-at-end replay-no-scan replay-precision-arg
     string-cache-no-put-class wrapper-str-kept wrapper-str-replayed id-in-plan-word"
cases=${*:-$all}

# mutate CASE FILE: a perl substitution on the copy.
mutate() {
	case $1 in
	no-depth-limit)      perl -0pi -e 's/depth == PRINTK_MSGID_MAX_DEPTH \|\|//' "$2" ;;
	no-page-size-check)  perl -0pi -e 's/\(unsigned long\)s < PAGE_SIZE \|\| //' "$2" ;;
	tag-overread)        perl -0pi -e 's/strnlen\(p, MSGID_TAG_MAX\)/MSGID_TAG_MAX/g' "$2" ;;
	precision-ignored)   perl -0pi -e 's/msgid_tag_in_arg\(s, precision\)/msgid_tag_in_arg(s, -1)/' "$2" ;;
	all-newlines)        perl -0pi -e 's/if \(n && fmt\[n - 1\] == .\\n.\)/while (n \&\& fmt[n - 1] == 10)/' "$2" ;;
	cache-no-key-check)  perl -0pi -e 's/return \(e >> MSGID_CACHE_OFF_SHIFT\) == \(key >> MSGID_CACHE_OFF_SHIFT\) \? e : 0;/return e;/' "$2" ;;
	star-width-skipped)  perl -0pi -e "s/if \(\*p == '\*'\) \{\n\t\t\t\(void\)va_arg\(\*ap, int\);\n/if (*p == '*') {\n/" "$2" ;;
	tag-at-end)          perl -0pi -e 's/if \(len >= msgid_classes\[c\].len &&/if (len > msgid_classes[c].len \&\&/' "$2" ;;
	replay-no-scan)      perl -0pi -e 's/\*class = msgid_str_class\(s\);/(void)msgid_str_class(s);/' "$2" ;;
	replay-precision-arg) perl -0pi -e 's/ \|\| precision_arg\)/ || (precision_arg \&\& false))/' "$2" ;;
	string-cache-no-put-class) perl -0pi -e 's/msgid_entry_put\(entry, key, \(u64\)c << MSGID_CACHE_CLASS_SHIFT\)/msgid_entry_put(entry, key, 0)/' "$2" ;;
	wrapper-str-kept)    perl -0pi -e 's/\tplan->str = PRINTK_MSGID_NONE;\n//' "$2" ;;
	wrapper-str-replayed) perl -0pi -e 's/\t\t\tplan->args \^= \(MSGID_ARG_STR \^ MSGID_ARG_PTR\) << \(i \* MSGID_ARG_BITS\);/\t\t\tplan->args ^= 0;/' "$2" ;;
	id-in-plan-word)     perl -0pi -e 's/return msgid_entry_get\(&msgid_cache\[msgid_cache_slot\(key\)\]\[1\], key\);/return msgid_entry_get(&msgid_cache[msgid_cache_slot(key)][0], key);/' "$2" ;;
	*) die "unknown case $1 (cases: $all)" ;;
	esac
}

failed=0 skipped=0
for c in $cases; do
	d=$OUT/fuzz-break/$c
	rm -rf "$d"
	mkdir -p "$d"
	cp "$ROOT/kernel/printk/msgid.c" "$d/msgid.c"
	mutate "$c" "$d/msgid.c"
	if cmp -s "$ROOT/kernel/printk/msgid.c" "$d/msgid.c"; then
		echo "break $c: n/a, the mutation does not apply to this msgid.c"
		skipped=$((skipped + 1))
		continue
	fi
	seeds=$ROOT/harness/fuzz/corpus
	if [ "${BREAK_SCRATCH:-0}" = 1 ]; then
		seeds=$d/seed
		mkdir -p "$seeds"
		: > "$seeds/empty"
	fi
	if FUZZ_SEEDS=$seeds FUZZ_SECONDS=$BREAK_SECONDS FUZZ_MSGID_C=$d/msgid.c FUZZ_DIR=$d \
		"$ROOT/harness/fuzz.sh" > "$d/run.log" 2>&1; then
		echo "break $c: NOT caught in $BREAK_SECONDS s ($(tail -1 "$d/run.log"))"
		failed=$((failed + 1))
	elif ! grep -q -E 'the campaign failed|corpus replay without the cache failed' "$d/run.log"; then
		# Not a finding: the copy did not build, or fuzz.sh broke.
		echo "break $c: BROKEN, the mutated copy did not run ($(grep -m1 -E 'error' "$d/run.log" | cut -c1-110))"
		failed=$((failed + 1))
	else
		what=$(grep -m1 -E '^fuzz_msgid: |ERROR: (AddressSanitizer|libFuzzer)|runtime error' "$d/fuzz.log" |
			sed -E 's/^==[0-9]+==//' | cut -c1-110)
		echo "break $c: caught, $(grep -o 'after .* s;' "$d/run.log" | tr -d ';'): $what"
	fi
done
[ "$failed" = 0 ] || die "$failed break(s) not caught"
echo "break-test: $(( $(echo "$cases" | wc -w) - skipped )) caught, $skipped not applicable"
