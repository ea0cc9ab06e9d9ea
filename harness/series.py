#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cut the repo's overlay into the patch series described by the manifest.

The repo keeps one <path>.patch per upstream file and new files at their
paths; harness/series/manifest says which patch of the series takes which
file, or which change blocks of a file (the hunks of a zero-context diff,
picked by a regular expression over their lines). This script replays the
series on a clone of out/linux's base, one commit per patch, adds the
MAINTAINERS entry with the exporting author's identity, and writes
git format-patch output with a cover letter to out/series/.

usage: series.py TREE WORKDIR OUTDIR
  TREE     out/linux (tags base and overlay)
  WORKDIR  a scratch clone to build the series in (recreated)
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


def maintainers_entry(patches: List[Patch], added: Dict[str, int], name: str, email: str) -> str:
    files = sorted(p for p in added)
    dirs = sorted({os.path.dirname(f) + '/' for f in files if f.startswith(('scripts/msgid_db/', 'tools/'))})
    listed = [f for f in files if not any(f.startswith(d) for d in dirs)] + dirs
    lines = ['PRINTK MESSAGE IDENTIFIERS', f'M:\t{name} <{email}>',
             'L:\tlinux-kernel@vger.kernel.org', 'S:\tMaintained',
             'T:\tgit git://git.kernel.org/pub/scm/linux/kernel/git/printk/linux.git']
    lines += [f'F:\t{f}' for f in sorted(set(listed))]
    lines.append('K:\tprintk_msgid')
    return '\n'.join(lines) + '\n\n'


def add_maintainers(work: str, entry: str) -> None:
    path = os.path.join(work, 'MAINTAINERS')
    with open(path, encoding='utf-8') as f:
        text = f.read()
    anchor = text.find('\nPROC FILESYSTEM\n')
    if anchor < 0 or '\nPRINTK INDEXING\n' not in text:
        raise SeriesError('MAINTAINERS: cannot find where PRINTK MESSAGE IDENTIFIERS goes')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(text[:anchor + 1] + entry + text[anchor + 1:])


def main() -> int:
    tree, work, outdir = sys.argv[1:4]
    cover, patches = parse_manifest(MANIFEST)
    modified, added = assign(tree, patches)

    name = git(ROOT, 'config', 'user.name', check=False).strip()
    email = git(ROOT, 'config', 'user.email', check=False).strip()
    if not name or not email:
        raise SeriesError('set git config user.name and user.email: they sign the series')

    shutil.rmtree(work, ignore_errors=True)
    subprocess.run(['git', 'clone', '-q', '--shared', '--no-checkout', tree, work], check=True)
    git(work, 'checkout', '-q', '--detach', 'base')
    base_lines = {p: open(os.path.join(work, p), encoding='utf-8', errors='surrogateescape').readlines()
                  for p in modified}

    for k, p in enumerate(patches):
        for path, blocks in modified.items():
            if not any(i == k for i, _ in blocks):
                continue
            lines = list(base_lines[path])
            shift = 0
            for i, b in blocks:
                if i <= k:
                    shift = b.apply_to(lines, shift)
            with open(os.path.join(work, path), 'w', encoding='utf-8', errors='surrogateescape') as f:
                f.writelines(lines)
        for path, i in added.items():
            if i == k:
                os.makedirs(os.path.dirname(os.path.join(work, path)) or work, exist_ok=True)
                shutil.copy2(os.path.join(tree, path), os.path.join(work, path))
        if p.maintainers:
            add_maintainers(work, maintainers_entry(patches, added, name, email))
        git(work, 'add', '-A', '-f', '.')
        trailers = ''.join(f'{k2}: {v}\n' for k2, v in p.trailers)
        msg = f'{p.subject}\n\n{p.body}\n\n{trailers}Signed-off-by: {name} <{email}>\n'
        res = subprocess.run(['git', '-C', work, '-c', f'user.name={name}', '-c', f'user.email={email}',
                              'commit', '-q', '-F', '-'], input=msg, text=True, capture_output=True)
        if res.returncode:
            raise SeriesError(f'commit of "{p.subject}" failed: {res.stderr.strip() or res.stdout.strip()}')

    shutil.rmtree(outdir, ignore_errors=True)
    git(work, 'format-patch', '-q', '--cover-letter', '--base=base', '-o', outdir, 'base..HEAD')
    cover_path = sorted(os.listdir(outdir))[0]
    path = os.path.join(outdir, cover_path)
    with open(path, encoding='utf-8') as f:
        text = f.read()
    text = text.replace('*** SUBJECT HERE ***', cover.get('subject', ''))
    text = text.replace('*** BLURB HERE ***', cover.get('body', ''))
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
