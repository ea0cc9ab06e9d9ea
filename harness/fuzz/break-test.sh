#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# break-test.sh: does harness/fuzz.sh catch bugs? Each case below breaks a
# COPY of kernel/printk/msgid.c (in $OUT/fuzz-break/<case>/msgid.c; the
# repo's file is never touched) and runs the campaign on it for at most
# BREAK_SECONDS (60). A case passes when the campaign fails. About
# 29 x (10 s build + time to the crash) when all are caught.
# BREAK_SCRATCH=1 starts from a single empty input instead of the seeds,
# to see what the fuzzer finds by itself.
#
#   harness/fuzz/break-test.sh [case ...]
set -eu
. "$(dirname "$0")/../env.sh"

BREAK_SECONDS=${BREAK_SECONDS:-60}
all="key-no-offset-bound hashed-on-hit str-bit-in-offset inner-entry-not-read
     no-follow-test conv-no-pa conv-no-h ignore-pos scan-wrappers format-tag-not-first
     lead-plus-one lead-minus-one newline-ignored printed-unclamped scan-past-text
     get-len-unclamped tag-at-end tag-overread va-list-consumed
     all-newlines one-level-skipped hash-not-canonical early-counts-percpu
     early-not-summed early-hashed-not-summed percpu-never-on stats-sum-last-cpu
     last-for-none"
cases=${*:-$all}

# mutate CASE FILE: a perl substitution on the copy.
mutate() {
	case $1 in
	# The cache: formats only, an entry is one word with its own key.
	key-no-offset-bound) perl -0pi -e 's/off >= BIT_ULL\(64 - MSGID_CACHE_OFF_SHIFT\) \|\|\n\s*//' "$2" ;;
	hashed-on-hit)       perl -0pi -e 's/return likely\(e\) \? e : msgid_hash_format\(fmt, key\);/if (likely(e)) {\n\t\tmsgid_count_hashed();\n\t\treturn e;\n\t}\n\treturn msgid_hash_format(fmt, key);/' "$2" ;;
	str-bit-in-offset)   perl -0pi -e 's/#define MSGID_FMT_STR\t\tBIT_ULL\(36\)/#define MSGID_FMT_STR\t\tBIT_ULL(37)/' "$2" ;;
	# Sizing: a format with %pV/%pA is traced; the caller's entry is read.
	inner-entry-not-read) perl -0pi -e 's/\t\tif \(msgid->fmt != fmt\)\n\t\t\te = msgid_format\(msgid->fmt\);\n//' "$2" ;;
	no-follow-test)      perl -0pi -e 's/if \(likely\(!\(e & MSGID_FMT_FOLLOW\)\)\)/if (true)/' "$2" ;;
	conv-no-pa)          perl -0pi -e "s/\(s\[1\] == 'V' \|\| s\[1\] == 'A'\)/(s[1] == 'V')/" "$2" ;;
	conv-no-h)           perl -0pi -e 's/0123456789\.\*hHlLqjzt/0123456789.*hlLqjzt/' "$2" ;;
	# Classes: the caller's format's tag, else the first tag in its text.
	ignore-pos)          perl -0pi -e 's/msgid->pos = trace\.pos;/msgid->pos = 0;/' "$2" ;;
	scan-wrappers)       perl -0pi -e 's/\(e & \(MSGID_FMT_STR \| MSGID_FMT_FOLLOW\)\) == MSGID_FMT_STR/(e \& MSGID_FMT_STR)/' "$2" ;;
	format-tag-not-first) perl -0pi -e 's/msgid->scan = !msgid->class && /msgid->scan = /' "$2" ;;
	lead-plus-one)       perl -0pi -e 's/lead = printed - newline - text_len;/lead = printed - newline - text_len + 1;/' "$2" ;;
	lead-minus-one)      perl -0pi -e 's/lead = printed - newline - text_len;/lead = printed - newline - text_len - 1;/' "$2" ;;
	newline-ignored)     perl -0pi -e 's/lead = printed - newline - text_len;/lead = printed - text_len;/' "$2" ;;
	printed-unclamped)   perl -0pi -e 's/printed = min_t\(size_t, msgid->len, size - 1\);/printed = msgid->len;/' "$2" ;;
	scan-past-text)      perl -0pi -e 's/buf \+ PRINTK_MSGID_PREFIX_LEN,\n(\s*)text_len\);/buf + PRINTK_MSGID_PREFIX_LEN,\n$1text_len + newline);/' "$2" ;;
	get-len-unclamped)   perl -0pi -e 's/min_t\(int, len, sizeof\(text\) - 1\)/len/' "$2" ;;
	tag-at-end)          perl -0pi -e 's/end - p >= msgid_classes\[c\]\.len &&/end - p > msgid_classes[c].len \&\&/' "$2" ;;
	tag-overread)        perl -0pi -e 's/end - p >= msgid_classes\[c\]\.len &&\n\s*//' "$2" ;;
	va-list-consumed)    perl -0pi -e 's/printk_msgid_size\(text, sizeof\(text\), fmt, ap, msgid\)/printk_msgid_size(text, sizeof(text), fmt, args, msgid)/' "$2" ;;
	# The identifier: CRC-32 of the canonical form.
	all-newlines)        perl -0pi -e 's/if \(n && fmt\[n - 1\] == .\\n.\)/while (n \&\& fmt[n - 1] == 10)/' "$2" ;;
	one-level-skipped)   perl -0pi -e 's/while \(\(next = printk_skip_level\(fmt\)\) != fmt\)/if ((next = printk_skip_level(fmt)) != fmt)/' "$2" ;;
	hash-not-canonical)  perl -0pi -e 's/\tfmt = printk_msgid_canonical\(fmt, &len\);\n\treturn msgid_crc\(fmt, len\);/\t(void)printk_msgid_canonical(fmt, \&len);\n\treturn msgid_crc(fmt, len);/' "$2" ;;
	# Statistics: global until the early initcall, then per CPU; debugfs sums.
	early-counts-percpu) perl -0pi -e 's/if \(static_branch_likely\(&msgid_percpu\)\)/if (true || static_branch_likely(\&msgid_percpu))/' "$2" ;;
	early-not-summed)    perl -0pi -e 's/n = atomic_long_read\(&msgid_early\.count\[c\]\);/n = 0;/' "$2" ;;
	early-hashed-not-summed) perl -0pi -e 's/hashed = atomic_long_read\(&msgid_early\.hashed\);/hashed = 0;/' "$2" ;;
	percpu-never-on)     perl -0pi -e 's/\tstatic_branch_enable\(&msgid_percpu\);\n\treturn 0;/\treturn 0;/' "$2" ;;
	stats-sum-last-cpu)  perl -0pi -e 's/n \+= data_race\(per_cpu\(msgid_stats\.count\[c\], cpu\)\);/n = data_race(per_cpu(msgid_stats.count[c], cpu));/' "$2" ;;
	last-for-none)       perl -0pi -e 's/if \(c && n\)/if (n)/' "$2" ;;
	*) die "unknown case $1 (cases: $all)" ;;
	esac
}

failed=0
for c in $cases; do
	d=$OUT/fuzz-break/$c
	rm -rf "$d"
	mkdir -p "$d"
	cp "$ROOT/kernel/printk/msgid.c" "$d/msgid.c"
	mutate "$c" "$d/msgid.c"
	if cmp -s "$ROOT/kernel/printk/msgid.c" "$d/msgid.c"; then
		# A stale mutation tests nothing: update it with msgid.c.
		echo "break $c: STALE, the mutation does not apply to this msgid.c"
		failed=$((failed + 1))
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
		# -a: a failed check prints the input's texts, any bytes.
		what=$(grep -a -m1 -E '^fuzz_msgid: |ERROR: (AddressSanitizer|libFuzzer)|runtime error' \
			"$d/fuzz.log" | sed -E 's/^==[0-9]+==//' | tr -c '[:print:]\n' '?' | cut -c1-110)
		echo "break $c: caught, $(grep -a -o 'after .* s;' "$d/run.log" | tr -d ';'): $what"
	fi
done
[ "$failed" = 0 ] || die "$failed break(s) not caught or not applicable"
echo "break-test: all $(echo "$cases" | wc -w) caught"
