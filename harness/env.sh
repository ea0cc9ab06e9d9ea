# SPDX-License-Identifier: GPL-2.0
# Shared settings for the harness scripts. Sourced, never run.
#
# The base kernel is pinned here and only here: upstream Linux 7.3.4, as
# the upstream tarball that Debian's source package carries
# (linux_7.3.4.orig.tar.xz: the release minus the few files Debian drops
# for its free-software rules, none of which the series touches). Moving
# it is a deliberate commit that also refreshes every <path>.patch in the
# repo (make tree && make refresh). harness/base.sh fetches it from
# BASE_SUITE's deb-src index into out/base/ without installing anything
# on the host. The 6.12 backport (make series-lts) is pinned the same
# way, on upstream 6.12.118; its glue lives in harness/lts/.
# Where the mirror does not serve the upstream tarball, base.sh takes
# Debian's patched source of the same upload (BASE_PKG, a binary package
# every mirror carries) and says so; out/base/base.txt and the base
# commit of out/linux name the one taken.
BASE_SRC=linux
BASE_UPSTREAM=7.3.4
BASE_VERSION=7.3.4-1~bpo13+1
BASE_SUITE=trixie-backports
BASE_PKG=linux-source-7.3
LTS_SRC=linux-6.12
LTS_UPSTREAM=6.12.118
LTS_VERSION=6.12.118-1~deb12u1
LTS_SUITE=bookworm-security
LTS_PKG=linux-source-6.12
# The Debian mirror is the one the host's apt already uses: the first
# source whose URI ends in /debian (one-line or deb822 format), without
# that suffix. DEBIAN_MIRROR in the environment overrides it.
apt_mirror() {
	local f
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		sed -n -E 's#^[[:space:]]*(deb(-src)?[[:space:]]+(\[[^]]*\][[:space:]]+)?|URIs:[[:space:]]*)([a-z+]+://[^[:space:]]+)/debian/?([[:space:]].*)?$#\4#p' "$f"
	done | head -1
}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-$(apt_mirror)}

# private_apt DIR TYPE SUITE: an apt state of its own in DIR, whose
# sources.list has the one line "TYPE [signed-by=Debian's keyring]
# ARCHIVE SUITE main" (TYPE deb or deb-src), so that apt-get fetches from
# the host's Debian mirror without reading or changing the host's apt;
# sets APT_OPTS (apt-get's options for it) and APT_ARCHIVE. Returns 3,
# having said why, when there is no mirror or no keyring.
private_apt() {
	local dir=$1 type=$2 suite=$3
	local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -n "$DEBIAN_MIRROR" ] || {
		echo "no Debian mirror in the host's apt sources (/etc/apt): set DEBIAN_MIRROR" >&2
		return 3
	}
	case "$suite" in
	*-security) APT_ARCHIVE=$DEBIAN_MIRROR/debian-security ;;
	*) APT_ARCHIVE=$DEBIAN_MIRROR/debian ;;
	esac
	[ -f "$keyring" ] || { echo "$keyring missing (not a Debian host?)" >&2; return 3; }
	mkdir -p "$dir/lists/partial" "$dir/archives/partial"
	: > "$dir/status"
	echo "$type [signed-by=$keyring] $APT_ARCHIVE $suite main" > "$dir/sources.list"
	APT_OPTS=(-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State=$dir" -o "Dir::State::Lists=$dir/lists"
		-o "Dir::State::status=$dir/status" -o "Dir::Cache=$dir"
		-o "Dir::Cache::Archives=$dir/archives" -o APT::Sandbox::User=root)
}

# Debian's own kernel package built from that base (make distro-check):
# what msgid-tools/msgid-db meets on a distribution, a bzImage and *.ko.xz modules
# built without CONFIG_PRINTK_INDEX. Moves with BASE_VERSION.
DISTRO_PKG="linux-binary-7.3.4+deb13-cloud-amd64 linux-modules-7.3.4+deb13-cloud-amd64"
DISTRO_VERSION=$BASE_VERSION
DISTRO_SUITE=$BASE_SUITE
# Debian's 6.12 cloud kernel of the backport's version (one package: the
# image and its modules), whose ext4 formats come only from the kernel's
# kallsyms (msgid_tools.kallsyms; test_kallsyms fetches it).
LTS_DISTRO_PKG="linux-image-${LTS_UPSTREAM}+deb12-cloud-amd64-unsigned"

# The previous Debian LTS kernel's source, the "old" side of make stability.
OLD_PKG=linux-source-6.1
OLD_VERSION=6.1.192-3
OLD_SUITE=bookworm-security
OLD_TARBALL=usr/src/linux-source-6.1.tar.xz

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# LTS=1: the same jobs on the backport, in out/lts/ (base LTS_*, with the
# glue of harness/lts/ laid over the overlay: harness/tree.sh).
LTS_GLUE=$ROOT/harness/lts
if [ "${LTS:-0}" = 1 ]; then
	BASE_SRC=$LTS_SRC BASE_UPSTREAM=$LTS_UPSTREAM BASE_VERSION=$LTS_VERSION
	BASE_SUITE=$LTS_SUITE BASE_PKG=$LTS_PKG
	OUT=${OUT:-$ROOT/out/lts}
	SERIES=${SERIES:-$ROOT/out/series-6.12}
fi
OUT=${OUT:-$ROOT/out}
# Where make series writes the patches.
SERIES=${SERIES:-$OUT/series}
TREE=${TREE:-$OUT/linux}
BUILD=$OUT/build
# Where harness/base.sh puts the base (a link to the tarball it took) and
# what it is (one line, "upstream ..." or "debian ...").
BASE_TARBALL=$OUT/base/linux-$BASE_UPSTREAM.tar.xz
BASE_WHAT=$OUT/base/linux-$BASE_UPSTREAM.txt

# Files of the repo that are not part of the kernel overlay.
overlay_files() {
	git -C "$ROOT" ls-files --cached --others --exclude-standard |
		grep -v -E '^(harness/|msgid-tools/|\.ci/|\.gitignore$|Makefile$|README\.md$)' |
		grep -v -E '(^|/)__pycache__/' |
		sort
}

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# objdir NAME [SRC]: make the build directory out/build/NAME and print its
# path. The objects live in SRC/build-NAME (SRC defaults to out/linux) and
# out/build/NAME is a symlink to it. Kbuild, building in a direct
# subdirectory of its source, takes srctree=".." instead of an absolute
# path, so no compiler command line, preprocessed file or __FILE__ holds
# the path of the clone: ccache then hits for a clone at any path, and
# for two trees (out/linux, out/series-am) whose sources are the same.
# make tree and make refresh leave build-*/ alone.
objdir() {
	local name=$1 src=${2:-$TREE}
	mkdir -p "$src/build-$name" "$BUILD"
	ln -sfn "$(realpath --relative-to="$BUILD" "$src/build-$name")" "$BUILD/$name"
	echo "$BUILD/$name"
}

# ccache: results are keyed by content, so a hit never stands in for a
# file whose source or flags changed. No absolute path reaches the
# compiler (objdir), and the working directory is left out of the key
# (it only matters for debug info, which no configuration here asks for).
# The size covers every configuration make check and make bench build.
export CCACHE_NOHASHDIR=1
# Depend mode: on a miss, no preprocessor run before the compiler (the
# included files come from the compiler's own -MMD list). Measured on 5
# kernel files with an empty cache: 4-8% less CPU per miss. Any value
# turns it on, "0" too (ccache reads every set value as true).
export CCACHE_DEPEND=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-25G}

# A compiler warning in a file of the series (build.sh, and series-check's
# build with the option off, fail on one): an extended regular expression.
OUR_WARNING_RE='(msgid|printk/(printk|index)\.c|lib/vsprintf\.c|linux/sprintf\.h|linux/dev_printk\.h|drm/drm_print\.[ch]|btrfs/messages\.[ch]).*warning:'

# Use ccache when it is installed; it makes rebuilds of the same tree cheap.
# ARCH and CROSS_COMPILE in the environment (make kernel-arm64) reach
# Kbuild as they are; the compiler named here follows CROSS_COMPILE.
# LLVM=1 (make kernel-rust, in out/rust-root): clang, as Kbuild's own.
kcc() {
	local cc=${CROSS_COMPILE:-}gcc
	[ "${LLVM:-}" != 1 ] || cc=clang
	if command -v ccache >/dev/null 2>&1; then
		echo "ccache $cc"
	else
		echo "$cc"
	fi
}
