#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# docs.sh [--sphinx] [FILE.rst...]: check the documentation of the series in
# out/linux (run after tree.sh; OUT selects another output directory).
#
# Without FILE arguments it checks every Documentation/ file that differs
# from the base (tag "base") or is new:
#  - each .rst file is parsed with docutils. The Sphinx and kernel-only
#    directives and roles (toctree, kernel-doc, :doc:, :c:func: ...) are
#    registered as no-ops, so anything docutils still reports at level
#    ERROR or above (unknown directive or role, broken markup or table,
#    dangling `reference`_) fails, as does any WARNING (title underline too
#    short, unterminated inline markup ...) that the base version of the
#    file did not already have;
#  - a new .rst file must be listed in a toctree of its directory;
#  - Documentation/ paths named in the changed files must exist;
#  - the printk.* entries of kernel-parameters.txt must stay sorted;
#  - added lines must be free of whitespace errors (git diff --check; for
#    new files, no trailing whitespace).
# Lines longer than 80 columns are listed but do not fail.
#
# --sphinx additionally runs "make htmldocs" for the Sphinx directories of
# the changed files with O=$OUT/docs (needs python3-sphinx; minutes).
set -eu
. "$(dirname "$0")/env.sh"

sphinx=0
if [ "${1:-}" = --sphinx ]; then
	sphinx=1
	shift
fi

[ -d "$TREE/.git" ] || die "no $TREE: run harness/tree.sh first"
python3 -c 'import docutils' 2>/dev/null ||
	die "python3-docutils missing: apt-get install python3-docutils"
cd "$TREE"

if [ $# -gt 0 ]; then
	files=("$@")
else
	# Changed files, and new files not yet known to git. Not with
	# --exclude-standard: the top-level .gitignore of the Debian source
	# ignores "/*", so only the .gitignore files below Documentation/
	# (generated netlink_spec/*.rst, output/) are applied.
	mapfile -t files < <({ git diff --name-only --no-renames base -- Documentation/
			      git ls-files --others -- Documentation/ | python3 -c '
import fnmatch, os, sys
def ignored(path):
    parts = path.split("/")
    for i in range(1, len(parts)):
        gi = os.path.join(*parts[:i], ".gitignore")
        if not os.path.exists(gi):
            continue
        for pat in open(gi).read().split("\n"):
            pat = pat.strip()
            if not pat or pat[0] in "#!":
                continue
            if any(fnmatch.fnmatch(p, pat.strip("/")) for p in parts[i:]):
                return True
    return False
for line in sys.stdin:
    if not ignored(line.strip()):
        print(line.strip())
'; } | sort -u)
fi
[ ${#files[@]} -gt 0 ] || { say "no documentation changes"; exit 0; }

python3 - "${files[@]}" <<'PY'
import io
import os
import re
import subprocess
import sys

from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives, roles

# Sphinx and kernel extension directives (Documentation/sphinx/*.py and
# Sphinx itself) that docutils does not know. Their content is ignored.
SPHINX_DIRECTIVES = """
    toctree only index glossary seealso centered hlist tabularcolumns
    highlight code-block sourcecode literalinclude versionadded
    versionchanged deprecated sectionauthor codeauthor productionlist
    rst-class cssclass acks todo
    kernel-doc kernel-include kernel-feat kernel-abi kernel-figure
    kernel-image kernel-render maintainers-include
    c:function c:macro c:struct c:union c:enum c:enumerator c:type c:var
    c:member c:namespace c:namespace-push c:namespace-pop
    cpp:function cpp:class cpp:type cpp:member
    py:function py:class py:module py:data
""".split()
SPHINX_ROLES = """
    doc ref numref any term abbr command dfn envvar file guilabel kbd
    mailheader makevar manpage menuselection mimetype newsgroup option
    program regexp samp pep rfc download
    c:func c:type c:macro c:data c:member c:enum c:enumerator c:struct
    c:union c:var c:expr c:texpr c:id
    cpp:func cpp:class cpp:type cpp:member cpp:expr
    py:func py:class py:mod py:data py:meth py:attr py:obj
""".split()


class NoOp(Directive):
    """Accept any arguments, options and content; produce nothing."""

    required_arguments = 0
    optional_arguments = 100
    final_argument_whitespace = True
    has_content = True

    class _AnyOptions(dict):
        def __contains__(self, key):
            return True

        def __getitem__(self, key):
            return directives.unchanged

        def get(self, key, default=None):
            return directives.unchanged

    option_spec = _AnyOptions()

    def run(self):
        return []


def noop_role(name, rawtext, text, lineno, inliner, options=None,
              content=None):
    return [nodes.literal(rawtext, text)], []


for name in SPHINX_DIRECTIVES:
    directives.register_directive(name, NoOp)
for name in SPHINX_ROLES:
    roles.register_local_role(name, noop_role)

MSG_RE = re.compile(r"^(?P<src>[^\n]*?):(?P<line>\d+)?:? ?"
                    r"\((?P<name>[A-Z]+)/(?P<level>\d)\) (?P<text>.*)$")


def check_rst(text, path):
    """Return [(level, line, message)] of docutils for @text."""
    stream = io.StringIO()
    publish_doctree(text, source_path=path, settings_overrides={
        "report_level": 2, "halt_level": 5, "warning_stream": stream,
        "input_encoding": "utf-8", "file_insertion_enabled": True,
        "raw_enabled": True, "syntax_highlight": "none",
        "_disable_config": True})
    out = []
    for line in stream.getvalue().splitlines():
        m = MSG_RE.match(line)
        if m:
            out.append((int(m.group("level")), m.group("line") or "?",
                        m.group("text")))
    return out


def base_text(path):
    r = subprocess.run(["git", "show", "base:" + path], capture_output=True)
    return r.stdout.decode("utf-8", "replace") if r.returncode == 0 else None


failed = 0


def fail(msg):
    global failed
    failed += 1
    print("docs: FAIL: " + msg, file=sys.stderr)


def literal_lines(text):
    """Line numbers (1-based) inside literal blocks and directives."""
    inside, indent_of_block, result = False, None, set()
    lines = text.splitlines()
    for i, line in enumerate(lines, 1):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if inside:
            if stripped and indent <= indent_of_block:
                inside = False
            else:
                result.add(i)
                continue
        if stripped.endswith("::") or stripped.startswith(".. "):
            inside, indent_of_block = True, indent
    return result


files = sys.argv[1:]
checked = 0
for path in files:
    if not os.path.exists(path):
        continue  # deleted upstream file: nothing to check
    with open(path, encoding="utf-8") as f:
        text = f.read()

    if path.endswith(".rst"):
        checked += 1
        msgs = check_rst(text, path)
        old = base_text(path)
        known = {(lvl, m) for lvl, _, m in check_rst(old, path)} if old else set()
        for level, line, msg in msgs:
            where = "%s:%s" % (path, line)
            if level >= 3:
                fail("%s: %s" % (where, msg))
            elif (level, msg) not in known:
                fail("%s: (warning) %s" % (where, msg))
        if old is None:
            d, name = os.path.split(path)
            stem = name[:-len(".rst")]
            listed = text.lstrip().startswith(":orphan:")
            for other in sorted(os.listdir(d or ".")):
                if other.endswith(".rst") and other != name:
                    with open(os.path.join(d, other), encoding="utf-8") as f:
                        if re.search(r"^\s+%s\s*$" % re.escape(stem),
                                     f.read(), re.M):
                            listed = True
            if not listed:
                fail("%s: new document is not in any toctree of %s/"
                     % (path, d))
        lit = literal_lines(text)
        for i, line in enumerate(text.splitlines(), 1):
            if old is None and line != line.rstrip():
                fail("%s:%d: trailing whitespace" % (path, i))
            if len(line.expandtabs()) > 80 and old is None:
                print("docs: note: %s:%d: %d columns%s"
                      % (path, i, len(line.expandtabs()),
                         " (literal block)" if i in lit else ""),
                      file=sys.stderr)

    for ref in sorted(set(re.findall(r"Documentation/[\w/.-]+\.(?:rst|txt)",
                                     text))):
        if not os.path.exists(ref) and (base_text(path) or "").find(ref) < 0:
            fail("%s: names %s, which does not exist" % (path, ref))

    if path.endswith("admin-guide/kernel-parameters.txt"):
        names = re.findall(r"^\t(printk\.[\w.-]+)", text, re.M)
        if names != sorted(names):
            fail("%s: printk.* entries out of order: %s"
                 % (path, " ".join(names)))

r = subprocess.run(["git", "diff", "--check", "base", "--"] +
                   [p for p in files if os.path.exists(p)],
                   capture_output=True, text=True)
# A title underlined with exactly seven '=' looks like a conflict marker.
def real_error(line):
    m = re.match(r"(\S+\.rst):(\d+): leftover conflict marker$", line)
    if not m:
        return True
    with open(m.group(1), encoding="utf-8") as f:
        return f.read().splitlines()[int(m.group(2)) - 1] != "======="
out = "\n".join(l for l in r.stdout.splitlines() if real_error(l))
if out.strip():
    fail("whitespace errors:\n" + out.rstrip())

print("docs: %d rst file(s), %d other file(s) checked, %d failure(s)"
      % (checked, len(files) - checked, failed), file=sys.stderr)
sys.exit(1 if failed else 0)
PY

[ "$sphinx" = 1 ] || exit 0

command -v sphinx-build >/dev/null 2>&1 ||
	die "sphinx-build missing: apt-get install python3-sphinx"
dirs=$(printf '%s\n' "${files[@]}" | sed -n 's|^Documentation/\([^/]*\)/.*\.rst$|\1|p' | sort -u | tr '\n' ' ')
[ -n "$dirs" ] || { say "no Sphinx directory to build"; exit 0; }
log=$OUT/docs/htmldocs.log
mkdir -p "$OUT/docs"
say "make htmldocs SPHINXDIRS=\"$dirs\" (log in $log)"
t0=$(date +%s)
rc=0
make -s O="$OUT/docs" SPHINXDIRS="$dirs" htmldocs > "$log" 2>&1 || rc=$?
say "htmldocs: exit $rc in $(( $(date +%s) - t0 )) s"
# Warnings that name one of the changed files.
pat=$(printf '%s\n' "${files[@]}" | sed 's/[.]/[.]/g' | paste -sd'|')
if grep -E "($pat).*(WARNING|ERROR)" "$log"; then
	die "Sphinx warnings in the changed files (see $log)"
fi
[ "$rc" = 0 ] || die "make htmldocs failed (see $log)"
say "htmldocs: no warnings for the changed files"
