#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# break-test.sh: does harness/fuzz.sh catch bugs? Each case below breaks a
# COPY of kernel/printk/msgid.c (in $OUT/fuzz-break/<case>/msgid.c; the
# repo's file is never touched) and runs the campaign on it for at most
# BREAK_SECONDS (60). A case passes when the campaign fails. About
# 59 x (15 s build + time to the crash) when all are caught: 30 to 45
# minutes on a loaded machine.
# BREAK_SCRATCH=1 starts from a single empty input instead of the seeds,
# to see what the fuzzer finds by itself.
#
#   harness/fuzz/break-test.sh [case ...]
set -eu
. "$(dirname "$0")/../env.sh"

BREAK_SECONDS=${BREAK_SECONDS:-60}
all="key-no-offset-bound key-bound-doubled hashed-on-hit scan-bit-on-valid
     ro-after-init-put tag-on-valid-bit no-valid-in-key slot-in-entry
     nokey-valid slow-miss-test fast-no-follow-test fast-pos-unset
     prefix-fast-offset in-text-never counts-in-text get-counts
     render-digit render-no-spread
     notifier-wrong-state notifier-not-registered drop-modules-noop
     no-region-bit module-writable-keyed module-init-keyed
     module-offset-absolute put-unchecked going-keyed bracket-off-by-one bracket-pair-and
     bracket-pair-overread tag-stop-short tag-min-long tag-from-no-next
     module-lookup-no-rcu inner-entry-not-read
     no-follow-test conv-no-pa conv-no-h ignore-pos scan-wrappers
     format-tag-not-first lead-plus-one lead-minus-one newline-ignored
     printed-is-size scan-past-text trace-len-unclamped tag-at-end
     tag-overread va-list-consumed all-newlines one-level-skipped
     hash-not-canonical early-counts-percpu early-not-summed
     early-hashed-not-summed percpu-never-on stats-sum-last-cpu last-for-none"
cases=${*:-$all}

# mutate CASE FILE: a perl substitution on the copy.
mutate() {
	case $1 in
	# The cache: formats only, an entry is one word with its own key.
	key-no-offset-bound) perl -0pi -e 's/\tif \(off >= BIT_ULL\(63 - MSGID_CACHE_OFF_SHIFT \+ MSGID_CACHE_BITS\)\)\n\t\treturn MSGID_CACHE_NOKEY;\n//' "$2" ;;
	key-bound-doubled)   perl -0pi -e 's/BIT_ULL\(63 - MSGID_CACHE_OFF_SHIFT \+ MSGID_CACHE_BITS\)/BIT_ULL(64 - MSGID_CACHE_OFF_SHIFT + MSGID_CACHE_BITS)/' "$2" ;;
	ro-after-init-put)   perl -0pi -e 's/: is_kernel_ro_after_init\(addr\)\)/: false)/' "$2" ;;
	# The key of a string that is not kept matches no slot, empty or not;
	# a miss is a wrong key, not only an empty slot.
	nokey-valid)         perl -0pi -e 's/#define MSGID_CACHE_NOKEY\tMSGID_CACHE_MODULE/#define MSGID_CACHE_NOKEY\t0/' "$2" ;;
	slow-miss-test)      perl -0pi -e 's/return \(e \^ key\) >> MSGID_CACHE_VALID_SHIFT \? msgid_hash_format/return !e ? msgid_hash_format/' "$2" ;;
	fast-no-follow-test) perl -0pi -e 's/ \| \(e & MSGID_FMT_FOLLOW\)\)\)/))/' "$2" ;;
	fast-pos-unset)      perl -0pi -e 's/\tmsgid->pos = 0;\n\tmsgid_identified/\tmsgid_identified/' "$2" ;;
	# The record: its prefix before its text, counted once (not by printk_msgid_get()).
	prefix-fast-offset)  perl -0pi -e 's/(\tmsgid_identified\(buf - PRINTK_MSGID_PREFIX_LEN)(, msgid, e, count\);\n\treturn vscnprintf)/$1 + 1$2/' "$2" ;;
	in-text-never)       perl -0pi -e 's/msgid->in_text = e & MSGID_FMT_SCAN;/msgid->in_text = false;/' "$2" ;;
	counts-in-text)      perl -0pi -e 's/if \(count && !msgid->in_text\)/if (count)/' "$2" ;;
	get-counts)          perl -0pi -e 's/msgid_vscnprintf\(text, 256, fmt, ap, msgid, false\)/msgid_vscnprintf(text, 256, fmt, ap, msgid, true)/' "$2" ;;
	# The prefix: eight lower-case digits, the most significant first.
	render-digit)        perl -0pi -e "s/\('a' - '0' - 10\)/('a' - '0' - 9)/" "$2" ;;
	render-no-spread)    perl -0pi -e 's/\tx = \(x \| x << 8\) & 0x00ff00ff00ff00ffULL;\n//' "$2" ;;
	# An entry: the key's valid bit, tag and region over the value; the
	# slot is the index, not in the entry (vmlinux offset 0's key is 0 without
	# the valid bit: not kept). A tag on the valid bit keys twice as far.
	tag-on-valid-bit)    perl -0pi -e 's/#define MSGID_CACHE_OFF_SHIFT\t38/#define MSGID_CACHE_OFF_SHIFT\t37/' "$2" ;;
	no-valid-in-key)     perl -0pi -e 's/return region \| MSGID_CACHE_VALID \|/return region |/' "$2" ;;
	slot-in-entry)       perl -0pi -e 's/\(key & ~\(u64\)\(MSGID_CACHE_SLOTS - 1\)\) \| val/key | val/' "$2" ;;
	# Modules: their .rodata only, by offset from MODULES_VADDR, under RCU,
	# in a region of their own, dropped when one goes.
	notifier-wrong-state) perl -0pi -e 's/if \(state == MODULE_STATE_GOING\)/if (state == MODULE_STATE_UNFORMED)/' "$2" ;;
	notifier-not-registered) perl -0pi -e 's/\tregister_module_notifier\(&msgid_module_nb\);/\t(void)msgid_module_nb;/' "$2" ;;
	drop-modules-noop)   perl -0pi -e 's/(void printk_msgid_drop_modules\(void\)\n\{\n)\t(msgid_cache_drop_modules\(\);)/$1\tif (0)\n\t\t$2/' "$2" ;;
	no-region-bit)       perl -0pi -e 's/MSGID_MODULES_BASE, MSGID_CACHE_MODULE\);/MSGID_MODULES_BASE, 0);/' "$2" ;;
	module-writable-keyed) perl -0pi -e 's/ \&\&\n\t       within_module_mem_type\(addr, mod, MOD_RODATA\);/;/' "$2" ;;
	module-init-keyed)   perl -0pi -e 's/within_module_mem_type\(addr, mod, MOD_RODATA\);/(within_module_mem_type(addr, mod, MOD_RODATA) ||\n\t\twithin_module_mem_type(addr, mod, MOD_INIT_RODATA));/' "$2" ;;
	module-offset-absolute) perl -0pi -e 's/msgid_key\(addr - MSGID_MODULES_BASE,/msgid_key(addr,/' "$2" ;;
	# The entry of a module address is put only after the lookup; a
	# going module is not looked up into the cache.
	put-unchecked)       perl -0pi -e 's/key & MSGID_CACHE_MODULE \? !msgid_module_rodata\(addr\) :/key \& MSGID_CACHE_MODULE ? !(1 || msgid_module_rodata(addr)) :/' "$2" ;;
	going-keyed)         perl -0pi -e 's/ \&\& READ_ONCE\(mod->state\) != MODULE_STATE_GOING//' "$2" ;;
	# The tag search, a word at a time: the first '[' exactly.
	bracket-off-by-one)  perl -0pi -e 's/s \+= find_zero\(create_zero_mask\(prep_zero_mask\(v, data, &constants\)\)\);/s += find_zero(create_zero_mask(prep_zero_mask(v, data, \&constants))) + 1;/' "$2" ;;
	bracket-pair-overread) perl -0pi -e 's/for \(; s \+ sizeof\(v\) < stop; s \+= 2 \* sizeof\(v\)\)/for (; s < stop; s += 2 * sizeof(v))/' "$2" ;;
	tag-stop-short)      perl -0pi -e 's/msgid_bracket\(s, s \+ len - MSGID_TAG_MIN \+ 1\)/msgid_bracket(s, s + len - MSGID_TAG_MIN)/' "$2" ;;
	tag-min-long)        perl -0pi -e 's/len < MSGID_TAG_MIN \? NULL/len <= MSGID_TAG_MIN ? NULL/' "$2" ;;
	tag-from-no-next)    perl -0pi -e 's/\} while \(\(p = msgid_bracket\(p \+ 1, end - MSGID_TAG_MIN \+ 1\)\)\);/} while (0);/' "$2" ;;
	bracket-pair-and)    perl -0pi -e 's/has_zero\(v, &data, &constants\) \| has_zero\(w, &data, &constants\)/has_zero(v, \&data, \&constants) \&\& has_zero(w, \&data, \&constants)/' "$2" ;;
	module-lookup-no-rcu) perl -0pi -e 's/\tguard\(preempt\)\(\);\n//' "$2" ;;
	hashed-on-hit)       perl -0pi -e 's/\? msgid_hash_format\(fmt, key\) : e;/? msgid_hash_format(fmt, key) : (msgid_count_hashed(), e);/' "$2" ;;
	scan-bit-on-valid)   perl -0pi -e 's/#define MSGID_FMT_SCAN\t\tBIT_ULL\(36\)/#define MSGID_FMT_SCAN\t\tBIT_ULL(37)/' "$2" ;;
	# Sizing: a format with %pV/%pA is traced; the caller's entry is read.
	inner-entry-not-read) perl -0pi -e 's/\t\t\te = msgid_entry\(trace\.fmt, key, msgid_cache_slot\(key\)\);\n/\t\t\tif (0)\n\t\t\t\te = msgid_entry(trace.fmt, key, msgid_cache_slot(key));\n/' "$2" ;;
	no-follow-test)      perl -0pi -e 's/if \(!\(e & MSGID_FMT_FOLLOW\)\) \{/if (true) {/' "$2" ;;
	conv-no-pa)          perl -0pi -e "s/\(s\[1\] == 'V' \|\| s\[1\] == 'A'\)/(s[1] == 'V')/" "$2" ;;
	conv-no-h)           perl -0pi -e 's/0123456789\.\*hHlLqjzt/0123456789.*hlLqjzt/' "$2" ;;
	# Classes: the caller's format's tag, else the first tag in its text.
	ignore-pos)          perl -0pi -e 's/msgid->pos = trace\.pos;/msgid->pos = 0;/' "$2" ;;
	scan-wrappers)       perl -0pi -e 's/if \(class \|\| \(conv & MSGID_FMT_FOLLOW\)\)/if (class)/' "$2" ;;
	format-tag-not-first) perl -0pi -e 's/if \(class \|\| \(conv & MSGID_FMT_FOLLOW\)\)/if (conv \& MSGID_FMT_FOLLOW)/' "$2" ;;
	lead-plus-one)       perl -0pi -e 's/lead = printed - newline - text_len;/lead = printed - newline - text_len + 1;/' "$2" ;;
	lead-minus-one)      perl -0pi -e 's/lead = printed - newline - text_len;/lead = printed - newline - text_len - 1;/' "$2" ;;
	newline-ignored)     perl -0pi -e 's/lead = printed - newline - text_len;/lead = printed - text_len;/' "$2" ;;
	printed-is-size)     perl -0pi -e 's/msgid->pos, size \? size - 1 : 0,/msgid->pos, size,/' "$2" ;;
	scan-past-text)      perl -0pi -e 's/\treturn msgid_tag_in\(text \+ pos, text_len - pos\);/\treturn msgid_tag_in(text + pos, text_len - pos + newline);/' "$2" ;;
	trace-len-unclamped) perl -0pi -e 's/\t\tlen = min_t\(size_t, len, size \? size - 1 : 0\);\n//' "$2" ;;
	tag-at-end)          perl -0pi -e 's/end - p >= msgid_classes\[c\]\.len &&/end - p > msgid_classes[c].len \&\&/' "$2" ;;
	tag-overread)        perl -0pi -e 's/end - p >= msgid_classes\[c\]\.len &&\n\s*//' "$2" ;;
	va-list-consumed)    perl -0pi -e 's/msgid_vscnprintf\(text, 256, fmt, ap, msgid, false\)/msgid_vscnprintf(text, 256, fmt, args, msgid, false)/' "$2" ;;
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
	elif ! grep -q -E 'the campaign failed|corpus replay without the (cache|modules) failed' "$d/run.log"; then
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
