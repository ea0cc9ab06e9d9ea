#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cut the repo's overlay into the patch series described by the manifest.

The repo keeps one <path>.patch per upstream file and new files at their
paths; harness/series/manifest says which patch of the series takes which
file, or which change blocks of a file (the hunks of a zero-context diff,
picked by a regular expression over their lines). This script replays the
series on out/linux's base, one commit per patch, adds the
MAINTAINERS entry with the exporting author's identity, and writes
git format-patch output with a cover letter to out/series/.

usage: series.py TREE OUTDIR
  TREE     out/linux (tags base and overlay); the commits are written to
           its object store as refs/msgid/series, its work tree is untouched
  OUTDIR   where the patches go (recreated)
"""
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, 'harness', 'series', 'manifest')
HUNK = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@')


class SeriesError(Exception):
    """A problem with the manifest or the overlay, said in one line."""


@dataclass
class Take:
    path: str
    regex: Optional[re.Pattern]
    used: bool = False


@dataclass
class Patch:
    subject: str
    body: str = ''
    trailers: List[Tuple[str, str]] = field(default_factory=list)
    takes: List[Take] = field(default_factory=list)
    checkpatch_keep: List[str] = field(default_factory=list)
    maintainers: bool = False


@dataclass
class Block:
    """One hunk of a zero-context diff against the base."""
    start: int              # first base line replaced (1-based), or the line after which to insert
    removed: int
    added: List[str]
    text: str               # the hunk's +/- lines, for matching

    def apply_to(self, lines: List[str], shift: int) -> int:
        at = self.start - 1 if self.removed else self.start
        at += shift
        lines[at:at + self.removed] = self.added
        return shift + len(self.added) - self.removed


def git(tree: str, *args: str, check: bool = True) -> str:
    res = subprocess.run(['git', '-C', tree, *args], capture_output=True, text=True)
    if check and res.returncode:
        raise SeriesError(f'git {" ".join(args)}: {res.stderr.strip()}')
    return res.stdout


def parse_manifest(path: str) -> Tuple[Dict[str, str], List[Patch]]:
    """The cover fields and the patches, in order."""
    cover: Dict[str, str] = {}
    patches: List[Patch] = []
    with open(path, encoding='utf-8') as f:
        chunks = re.split(r'^%%\s*$', f.read(), flags=re.M)
    for n, chunk in enumerate(chunks):
        head, _, body = chunk.partition('\nbody:\n')
        fields: List[Tuple[str, str]] = []
        for line in head.splitlines():
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            key, sep, value = line.partition(':')
            if not sep:
                raise SeriesError(f'manifest section {n}: "{line}" is not "key: value"')
            fields.append((key.strip().lower(), value.strip()))
        if n == 0:
            cover = dict(fields)
            cover['body'] = body.strip('\n')
            continue
        p = Patch(subject='')
        p.body = body.strip('\n')
        for key, value in fields:
            if key == 'subject':
                p.subject = value
            elif key in ('fixes', 'cc', 'link', 'suggested-by'):
                name = {'cc': 'Cc', 'fixes': 'Fixes', 'link': 'Link'}.get(key, 'Suggested-by')
                p.trailers.append((name, value))
            elif key == 'take':
                m = re.fullmatch(r'(\S+)(?:\s+/(.*)/)?', value)
                if not m:
                    raise SeriesError(f'manifest: bad take "{value}"')
                p.takes.append(Take(m.group(1), re.compile(m.group(2)) if m.group(2) else None))
            elif key == 'checkpatch-keep':
                p.checkpatch_keep.append(value)
            elif key == 'maintainers':
                p.maintainers = value.lower() in ('yes', 'y', '1', 'true')
            else:
                raise SeriesError(f'manifest: unknown key "{key}" in "{p.subject or n}"')
        if not p.subject:
            raise SeriesError(f'manifest section {n} has no subject')
        patches.append(p)
    return cover, patches


def blocks_of(tree: str, path: str) -> List[Block]:
    diff = git(tree, 'diff', '-U0', '--no-color', '--no-renames', 'base', 'overlay', '--', path)
    blocks: List[Block] = []
    cur: Optional[Block] = None
    for line in diff.splitlines():
        m = HUNK.match(line)
        if m:
            cur = Block(int(m.group(1)), int(m.group(2) or 1), [], '')
            blocks.append(cur)
        elif cur is not None and line[:1] in '+-' and not line.startswith(('+++', '---')):
            cur.text += line + '\n'
            if line[0] == '+':
                cur.added.append(line[1:] + '\n')
        elif line.startswith('\\'):
            raise SeriesError(f'{path}: no newline at end of file is not supported')
    return blocks


def assign(tree: str, patches: List[Patch]) -> Tuple[Dict[str, List[Tuple[int, Block]]], Dict[str, int]]:
    """Give every change block and every new file to exactly one patch."""
    status = git(tree, 'diff', '--name-status', '--no-renames', 'base', 'overlay')
    modified: Dict[str, List[Tuple[int, Block]]] = {}
    added: Dict[str, int] = {}
    for line in status.splitlines():
        st, path = line.split('\t', 1)
        owners = [(i, t) for i, p in enumerate(patches) for t in p.takes
                  if t.path == path or (t.path.endswith('/') and path.startswith(t.path))]
        if not owners:
            raise SeriesError(f'{path} is changed by the overlay but no patch takes it')
        if st == 'A':
            if len(owners) != 1 or owners[0][1].regex:
                raise SeriesError(f'new file {path} must be taken whole by one patch')
            owners[0][1].used = True
            added[path] = owners[0][0]
            continue
        if st != 'M':
            raise SeriesError(f'{path}: status {st} is not supported')
        default = [(i, t) for i, t in owners if t.regex is None]
        if len(default) > 1:
            raise SeriesError(f'{path} is taken whole by more than one patch')
        modified[path] = []
        for b in blocks_of(tree, path):
            who = next(((i, t) for i, t in owners if t.regex and t.regex.search(b.text)), None)
            who = who or (default[0] if default else None)
            if who is None:
                raise SeriesError(f'{path}: no patch takes the block at base line {b.start}:\n{b.text}')
            who[1].used = True
            modified[path].append((who[0], b))
    for p in patches:
        for t in p.takes:
            if not t.used:
                raise SeriesError(f'"{p.subject}": take {t.path} {t.regex.pattern if t.regex else ""} matches nothing')
    return modified, added


def maintainers_entry(added: Dict[str, int], name: str, email: str) -> str:
    """The MAINTAINERS entry: the exporting author and the new files."""
    dirs = ('scripts/msgid_db/', 'tools/testing/selftests/msgid/')
    listed = {next((d for d in dirs if f.startswith(d)), f) for f in added}
    lines = ['PRINTK MESSAGE IDENTIFIERS', f'M:\t{name} <{email}>',
             'L:\tlinux-kernel@vger.kernel.org', 'S:\tMaintained',
             'T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/printk/linux.git']
    lines += [f'F:\t{f}' for f in sorted(listed)]
    lines.append('K:\tprintk_msgid')
    return '\n'.join(lines) + '\n\n'


def add_maintainers(text: str, entry: str) -> str:
    """MAINTAINERS with @entry after PRINTK INDEXING (before PROC FILESYSTEM)."""
    anchor = text.find('\nPROC FILESYSTEM\n')
    if anchor < 0 or '\nPRINTK INDEXING\n' not in text:
        raise SeriesError('MAINTAINERS: cannot find where PRINTK MESSAGE IDENTIFIERS goes')
    return text[:anchor + 1] + entry + text[anchor + 1:]


def main() -> int:
    tree, outdir = (os.path.abspath(a) for a in sys.argv[1:3])
    cover, patches = parse_manifest(MANIFEST)
    modified, added = assign(tree, patches)

    name = git(ROOT, 'config', 'user.name', check=False).strip()
    email = git(ROOT, 'config', 'user.email', check=False).strip()
    if not name or not email:
        raise SeriesError('set git config user.name and user.email: they sign the series')

    # Build the commits with plumbing in out/linux's object store: no
    # checkout of 80,000 files, and out/linux's work tree is left alone.
    index = os.path.join(tree, '.git', 'msgid-series.index')
    env = dict(os.environ, GIT_INDEX_FILE=index, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email)

    def raw(*args: str, data: Optional[str] = None) -> str:
        res = subprocess.run(['git', '-C', tree, *args], input=data, env=env,
                             capture_output=True, text=True, errors='surrogateescape')
        if res.returncode:
            raise SeriesError(f'git {args[0]}: {res.stderr.strip()}')
        return res.stdout

    def run(*args: str, data: Optional[str] = None) -> str:
        return raw(*args, data=data).strip()

    def mode(rev: str, path: str) -> str:
        return run('ls-tree', rev, '--', path).split()[0]

    run('read-tree', 'base')
    base_text = {p: raw('cat-file', 'blob', f'base:{p}') for p in modified}
    parent = run('rev-parse', 'base')
    for k, p in enumerate(patches):
        for path, blocks in modified.items():
            if not any(i == k for i, _ in blocks):
                continue
            lines = base_text[path].splitlines(keepends=True)
            shift = 0
            for i, b in blocks:
                if i <= k:
                    shift = b.apply_to(lines, shift)
            blob = run('hash-object', '-w', '--stdin', '--path', path, data=''.join(lines))
            run('update-index', '--cacheinfo', f'{mode("base", path)},{blob},{path}')
        for path, i in added.items():
            if i == k:
                blob = run('rev-parse', f'overlay:{path}')
                run('update-index', '--add', '--cacheinfo', f'{mode("overlay", path)},{blob},{path}')
        if p.maintainers:
            text = add_maintainers(raw('cat-file', 'blob', 'base:MAINTAINERS'),
                                   maintainers_entry(added, name, email))
            blob = run('hash-object', '-w', '--stdin', data=text)
            run('update-index', '--cacheinfo', f'{mode("base", "MAINTAINERS")},{blob},MAINTAINERS')
        trailers = ''.join(f'{k2}: {v}\n' for k2, v in p.trailers)
        msg = f'{p.subject}\n\n{p.body}\n\n{trailers}Signed-off-by: {name} <{email}>\n'
        parent = run('commit-tree', run('write-tree'), '-p', parent, '-F', '-', data=msg)
    os.unlink(index)
    run('update-ref', 'refs/msgid/series', parent)

    # The base, named in the cover letter: the tarball's import commit
    # says which Debian package it is, its Makefile which kernel.
    stamp = run('log', '-1', '--format=%s', 'base').removeprefix('base: Debian ').split()
    make = dict(re.findall(r'^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)$',
                           raw('cat-file', 'blob', 'base:Makefile'), re.M))
    kver = '{VERSION}.{PATCHLEVEL}.{SUBLEVEL}'.format(**make)
    base = f'Linux {kver} (Debian {" ".join(stamp)})'
    # The backport (LTS=1) goes to the stable tree of its kernel.
    prefix = ['--subject-prefix', 'PATCH {VERSION}.{PATCHLEVEL}.y'.format(**make)] \
        if os.environ.get('LTS') == '1' else []

    shutil.rmtree(outdir, ignore_errors=True)
    run('format-patch', '-q', '--cover-letter', '--base=base', *prefix, '-o', outdir,
        'base..refs/msgid/series')
    path = os.path.join(outdir, sorted(os.listdir(outdir))[0])
    with open(path, encoding='utf-8') as f:
        text = f.read()
    text = text.replace('*** SUBJECT HERE ***', cover.get('subject', ''))
    text = text.replace('*** BLURB HERE ***', cover.get('body', '').replace('@BASE@', base))
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text)
    with open(os.path.join(outdir, 'checkpatch-keep'), 'w', encoding='utf-8') as f:
        for n, p in enumerate(patches, 1):
            for keep in p.checkpatch_keep:
                f.write(f'{n:04d}\t{keep}\n')
    print(f'series: {len(patches)} patches and a cover letter in {outdir}')
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except SeriesError as e:
        print(f'series: {e}', file=sys.stderr)
        sys.exit(1)
