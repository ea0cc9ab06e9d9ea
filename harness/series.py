#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cut the repo's overlay into the patch series described by the manifest.

The repo keeps one <path>.patch per upstream file and new files at their
paths; harness/series/manifest says which series goes to which tree, which
patch of it takes which file, or which change blocks of a file (the hunks
of a zero-context diff, picked by a regular expression over their lines).
Each series is replayed on out/linux's base (or on the series it depends
on), one commit per patch, and written with git format-patch, a cover letter, and
To/Cc headers from the tree's own scripts/get_maintainer.pl to
OUTDIR/NN-NAME/. OUTDIR/order lists the series in the order that applies
them all to one tree; that tree is the overlay (series-check.sh checks
it), but for the files the manifest keeps out of every series.

The sender is whoever runs it: From:, Signed-off-by: and the M: line of
the MAINTAINERS entry are GIT_AUTHOR_NAME/GIT_AUTHOR_EMAIL, or else git
config user.name/user.email; without them, or with a placeholder address
(example.*, .invalid, no-reply ...), nothing is written, but with
SERIES_CHECK=1 (make check), which writes them for its checks only as
"Series Check (not for sending)" and says so in OUTDIR/NOT-FOR-SENDING.

With LTS=1 (the 6.12 backport for distributions) every series is one:
the patches in that order, with the backport's cover letter.

usage: series.py TREE OUTDIR
  TREE     out/linux (tags base and overlay); the commits are written to
           its object store as refs/msgid/NAME, its work tree is untouched
  OUTDIR   where the patches go (recreated)
"""
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

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
    series: int = 0


@dataclass
class Series:
    """One submission: a cover letter and its patches, for one tree."""
    name: str
    subject: str = ''
    body: str = ''
    tree: str = ''
    depends: str = ''
    prefix: str = 'PATCH'
    patches: List[int] = field(default_factory=list)


@dataclass
class Manifest:
    series: List[Series]
    patches: List[Patch]
    keep_out: List[str]         # new files below these paths go to no series...
    keep_in: Set[str]           # ...but those listed in these files
    lts_cover: Dict[str, str]


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


def parse_manifest(path: str) -> Manifest:
    """The series and the patches, in order, and what stays out."""
    m = Manifest([], [], [], set(), {})
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
        keys = {k for k, _ in fields}
        if not fields:
            continue
        if 'keep-out' in keys or 'keep-in' in keys:
            for key, value in fields:
                if key == 'keep-out':
                    m.keep_out.append(value)
                elif key == 'keep-in':
                    if not os.path.isfile(os.path.join(ROOT, value)):
                        raise SeriesError(f'manifest: keep-in file {value} is missing')
                    with open(os.path.join(ROOT, value), encoding='utf-8') as f:
                        m.keep_in |= {x.strip() for x in f
                                      if x.strip() and not x.startswith('#')}
                else:
                    raise SeriesError(f'manifest: unknown key "{key}" beside keep-out')
            continue
        if 'lts-cover' in keys:
            m.lts_cover = dict(fields)
            m.lts_cover['body'] = body.strip('\n')
            continue
        if 'series' in keys:
            s = Series(name='')
            for key, value in fields:
                if key in ('series', 'subject', 'tree', 'depends', 'prefix'):
                    setattr(s, 'name' if key == 'series' else key, value)
                else:
                    raise SeriesError(f'manifest: unknown key "{key}" in series section {n}')
            if s.depends and s.depends not in (x.name for x in m.series):
                raise SeriesError(f'series {s.name} depends on {s.depends}, which comes later or not at all')
            s.body = body.strip('\n')
            m.series.append(s)
            continue
        if not m.series:
            raise SeriesError(f'manifest section {n}: a patch before the first "series:" section')
        p = Patch(subject='', series=len(m.series) - 1)
        p.body = body.strip('\n')
        for key, value in fields:
            if key == 'subject':
                p.subject = value
            elif key in ('fixes', 'cc', 'link', 'suggested-by', 'reported-by'):
                name = {'cc': 'Cc', 'fixes': 'Fixes', 'link': 'Link',
                        'reported-by': 'Reported-by'}.get(key, 'Suggested-by')
                p.trailers.append((name, value))
            elif key == 'take':
                t = re.fullmatch(r'(\S+)(?:\s+/(.*)/)?', value)
                if not t:
                    raise SeriesError(f'manifest: bad take "{value}"')
                p.takes.append(Take(t.group(1), re.compile(t.group(2)) if t.group(2) else None))
            elif key == 'checkpatch-keep':
                p.checkpatch_keep.append(value)
            elif key == 'maintainers':
                p.maintainers = value.lower() in ('yes', 'y', '1', 'true')
            else:
                raise SeriesError(f'manifest: unknown key "{key}" in "{p.subject or n}"')
        if not p.subject:
            raise SeriesError(f'manifest section {n} has no subject')
        m.series[-1].patches.append(len(m.patches))
        m.patches.append(p)
    return m


def in_base(tree: str, path: str) -> bool:
    """Whether the base has the file or directory @path."""
    return subprocess.run(['git', '-C', tree, 'cat-file', '-e', f'base:{path.rstrip("/")}'],
                          capture_output=True).returncode == 0


def kept_out(m: Manifest, path: str) -> bool:
    """Whether the new file @path stays in the repo, out of every series."""
    return path not in m.keep_in and any(path.startswith(d) for d in m.keep_out)


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


def assign(tree: str, m: Manifest) -> Tuple[Dict[str, List[Tuple[int, Block]]], Dict[str, int],
                                           List[str]]:
    """Give every change block and every new file to exactly one patch, but
    the new files the manifest keeps out of every series (the third list)."""
    patches = m.patches
    status = git(tree, 'diff', '--name-status', '--no-renames', 'base', 'overlay')
    modified: Dict[str, List[Tuple[int, Block]]] = {}
    added: Dict[str, int] = {}
    kept: List[str] = []
    for line in status.splitlines():
        st, path = line.split('\t', 1)
        if st == 'A' and kept_out(m, path):
            kept.append(path)
            continue
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
            # A take of a path this base does not have names the file of
            # another base (the backport's lib/crc32.c for 7.3's
            # lib/crc/crc32-main.c); the backport's glue (harness/lts/)
            # may leave a change out.
            if not t.used and in_base(tree, t.path) and os.environ.get('LTS') != '1':
                raise SeriesError(f'"{p.subject}": take {t.path} {t.regex.pattern if t.regex else ""} matches nothing')
    return modified, added, kept


def maintainers_entry(added: Dict[str, int], name: str, email: str) -> str:
    """The MAINTAINERS entry: the sender and the new files."""
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


def get_maintainers(tree: str, mpath: str, patch: str) -> Tuple[List[str], List[str]]:
    """To (maintainers) and Cc (reviewers, lists) of a patch file, from the
    tree's scripts/get_maintainer.pl over the MAINTAINERS at @mpath: the
    entries of the files it touches. Not the K: keyword matches, which hit
    words of the commit messages ("pstore" among the consoles that see a
    record, "riscv" among the CRC implementations) that are not changes
    to those subsystems."""
    res = subprocess.run(['perl', 'scripts/get_maintainer.pl', '--no-git', '--no-git-fallback',
                          '--no-keywords', '--roles', '--no-rolestats', '--mpath', mpath, patch],
                         cwd=tree, capture_output=True, text=True)
    if res.returncode:
        raise SeriesError(f'get_maintainer.pl {os.path.basename(patch)}: {res.stderr.strip()}')
    to: List[str] = []
    cc: List[str] = []
    for line in res.stdout.splitlines():
        # "Name (Org) <addr> (role:SUBSYSTEM (detail))" or "addr (role)":
        # the address ends at its '>', or at the first blank.
        m = re.match(r'(.*?>|\S+)\s+\((.*)\)$', line.strip())
        if not m:
            continue
        addr, role = m.groups()
        (to if role.startswith('maintainer:') else cc).append(addr.strip())
    return to, cc


def add_headers(path: str, to: List[str], cc: List[str]) -> None:
    """Put To: and Cc: into the mail headers of a format-patch file."""
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        text = f.read()
    head, sep, rest = text.partition('\n\n')
    extra = ''
    if to:
        extra += '\nTo: ' + ',\n    '.join(to)
    if cc:
        extra += '\nCc: ' + ',\n    '.join(cc)
    with open(path, 'w', encoding='utf-8', errors='surrogateescape') as f:
        f.write(head + extra + sep + rest)


# Domains that name no mailbox: RFC 2606's and RFC 6761's reserved names.
PLACEHOLDER_TLDS = ('example', 'invalid', 'test', 'localhost', 'local')
PLACEHOLDER_DOMAINS = ('example.com', 'example.net', 'example.org', 'localhost')


# The identity of patches written only to be checked (SERIES_CHECK=1,
# make check) by a machine with no sender's identity: never sent.
CHECK_SENDER = ('Series Check (not for sending)', 'series-check@localhost.invalid')


def sender() -> Tuple[str, str]:
    """Who sends the series: the name and address of its From: lines, its
    Signed-off-by: lines and the MAINTAINERS entry's M: line. Taken as git
    takes an author: GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL if set, else
    git config user.name and user.email as this repo sees them. An address
    that cannot receive the review (a reserved domain, a no-reply
    mailbox) is refused rather than written into a patch."""
    how = ('set the identity that sends the series: '
           f'git -C {ROOT} config user.name "Your Name" and '
           f'git -C {ROOT} config user.email you@your.domain '
           '(or export GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL)')
    name = (os.environ.get('GIT_AUTHOR_NAME', '').strip()
            or git(ROOT, 'config', 'user.name', check=False).strip())
    email = (os.environ.get('GIT_AUTHOR_EMAIL', '').strip()
             or git(ROOT, 'config', 'user.email', check=False).strip())
    if not name or not email:
        unset = [w for w, v in (('no name (GIT_AUTHOR_NAME, user.name)', name),
                                ('no address (GIT_AUTHOR_EMAIL, user.email)', email)) if not v]
        raise SeriesError(f'no sender: {" and ".join(unset)} set; {how}')
    local, at, domain = email.rpartition('@')
    domain = domain.lower().rstrip('.')
    if not at or not local or '.' not in domain or re.search(r'[\s<>]', email):
        raise SeriesError(f'sender address "{email}" is not an e-mail address; {how}')
    if (domain in PLACEHOLDER_DOMAINS or domain.rsplit('.', 1)[1] in PLACEHOLDER_TLDS
            or re.search(r'no-?reply', email, re.I)):
        raise SeriesError(f'sender "{name} <{email}>" is a placeholder: its address can '
                          f'receive no review; {how}')
    return name, email


def main() -> int:
    tree, outdir = (os.path.abspath(a) for a in sys.argv[1:3])
    m = parse_manifest(MANIFEST)
    modified, added, kept_paths = assign(tree, m)
    lts = os.environ.get('LTS') == '1'

    try:
        name, email = sender()
    except SeriesError as e:
        # make check exports SERIES_CHECK=1: its checks (git am,
        # checkpatch, builds) need some identity, and a CI machine may
        # have none that can be sent from. The patches are then marked.
        if os.environ.get('SERIES_CHECK') != '1':
            raise
        name, email = CHECK_SENDER
        print(f'series.py: {e}\nseries.py: SERIES_CHECK=1: written as "{name} <{email}>" '
              f'for the checks only; {outdir}/NOT-FOR-SENDING says so', file=sys.stderr)

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

    series = m.series
    if lts:
        # The backport is one series, every patch in manifest order but
        # those it leaves out whole (every take of theirs left out).
        cover = m.lts_cover
        kept = [k for k, p in enumerate(m.patches)
                if p.maintainers or any(t.used for t in p.takes)]
        series = [Series(name='backport', subject=cover.get('subject', ''),
                         body=cover.get('body', ''), prefix=cover.get('prefix', 'PATCH'),
                         patches=kept)]
        for p in m.patches:
            p.trailers = [t for t in p.trailers if t != ('Cc', 'stable@vger.kernel.org')]
    base_text = {p: raw('cat-file', 'blob', f'base:{p}') for p in modified}
    base_maint = raw('cat-file', 'blob', 'base:MAINTAINERS')
    tips: Dict[str, str] = {}
    applied_by: Dict[str, Set[int]] = {}
    mfile = os.path.join(tree, '.git', 'msgid-series.MAINTAINERS')
    for s in series:
        parent = tips[s.depends] if s.depends else run('rev-parse', 'base')
        applied = set(applied_by[s.depends]) if s.depends else set()
        run('read-tree', parent)
        for k in s.patches:
            p = m.patches[k]
            applied.add(k)
            for path, blocks in modified.items():
                if not any(i == k for i, _ in blocks):
                    continue
                lines = base_text[path].splitlines(keepends=True)
                shift = 0
                for i, b in blocks:
                    if i in applied:
                        shift = b.apply_to(lines, shift)
                blob = run('hash-object', '-w', '--stdin', '--path', path, data=''.join(lines))
                run('update-index', '--cacheinfo', f'{mode("base", path)},{blob},{path}')
            for path, i in added.items():
                if i == k:
                    blob = run('rev-parse', f'overlay:{path}')
                    run('update-index', '--add', '--cacheinfo', f'{mode("overlay", path)},{blob},{path}')
            if p.maintainers:
                mine = {f: i for f, i in added.items() if i in applied}
                text = add_maintainers(base_maint, maintainers_entry(mine, name, email))
                blob = run('hash-object', '-w', '--stdin', data=text)
                run('update-index', '--cacheinfo', f'{mode("base", "MAINTAINERS")},{blob},MAINTAINERS')
            trailers = ''.join(f'{k2}: {v}\n' for k2, v in p.trailers)
            msg = f'{p.subject}\n\n{p.body}\n\n{trailers}Signed-off-by: {name} <{email}>\n'
            parent = run('commit-tree', run('write-tree'), '-p', parent, '-F', '-', data=msg)
        tips[s.name] = parent
        applied_by[s.name] = applied
        run('update-ref', f'refs/msgid/{s.name}', parent)
    os.unlink(index)

    def is_sender(addr: str) -> bool:
        return addr.lower() in (email.lower(), f'<{email.lower()}>') or \
            addr.lower().endswith(f'<{email.lower()}>')

    # The base, named in the cover letters: its Makefile says which kernel.
    make = dict(re.findall(r'^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)$',
                           raw('cat-file', 'blob', 'base:Makefile'), re.M))
    kver = '{VERSION}.{PATCHLEVEL}.{SUBLEVEL}'.format(**make)
    stamp = run('log', '-1', '--format=%s', 'base').removeprefix('base: ')
    base = f'v{kver}' if stamp.startswith('upstream') else f'v{kver} (here: {stamp})'

    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    order = []
    number = {x.name: i for i, x in enumerate(series)}
    for n, s in enumerate(series, 1):
        sub = os.path.join(outdir, f'{n:02d}-{s.name}')
        order.append(os.path.basename(sub))
        start = tips[s.depends] if s.depends else 'base'
        run('format-patch', '-q', '--cover-letter', f'--base={run("rev-parse", "base")}',
            '--subject-prefix', s.prefix, '-o', sub, f'{start}..refs/msgid/{s.name}')
        # MAINTAINERS as it is after the series, for its own entry.
        with open(mfile, 'w', encoding='utf-8') as f:
            f.write(raw('cat-file', 'blob', f'refs/msgid/{s.name}:MAINTAINERS'))
        all_to: List[str] = []
        all_cc: List[str] = []
        files = sorted(os.listdir(sub))
        # The backport goes to distributions' kernel teams, not to the
        # upstream maintainers: no To/Cc of theirs.
        for fn in [] if lts else files[1:]:
            to, cc = get_maintainers(tree, mfile, os.path.join(sub, fn))
            # The sender is M: of the entry the series adds: not a recipient.
            to, cc = ([a for a in x if not is_sender(a)] for x in (to, cc))
            add_headers(os.path.join(sub, fn), to, cc)
            all_to += [a for a in to if a not in all_to]
            all_cc += [a for a in cc if a not in all_cc and a not in to]
        all_cc = [a for a in all_cc if a not in all_to]
        cover_path = os.path.join(sub, files[0])
        with open(cover_path, encoding='utf-8') as f:
            text = f.read()
        text = text.replace('*** SUBJECT HERE ***', s.subject)
        body = s.body.replace('@BASE@', base)
        if s.depends:
            body = body.replace('@DEPENDS@', series[number[s.depends]].subject)
        text = text.replace('*** BLURB HERE ***', body)
        with open(cover_path, 'w', encoding='utf-8') as f:
            f.write(text)
        add_headers(cover_path, all_to, all_cc)
        with open(os.path.join(sub, 'checkpatch-keep'), 'w', encoding='utf-8') as f:
            for j, k in enumerate(s.patches, 1):
                for keep in m.patches[k].checkpatch_keep:
                    f.write(f'{j:04d}\t{keep}\n')
        with open(os.path.join(sub, 'depends'), 'w', encoding='utf-8') as f:
            if s.depends:
                f.write(order[number[s.depends]] + '\n')
        print(f'series: {sub}: {len(s.patches)} patch(es) for {s.tree or "its tree"}'
              f'{", on " + s.depends if s.depends else ""}; To: {", ".join(all_to) or "-"}')
    os.unlink(mfile)
    with open(os.path.join(outdir, 'order'), 'w', encoding='utf-8') as f:
        f.write(''.join(o + '\n' for o in order))
    # The new files that go to no series (series-check leaves them out of
    # its comparison with the overlay).
    with open(os.path.join(outdir, 'kept-out'), 'w', encoding='utf-8') as f:
        f.write(''.join(p + '\n' for p in kept_paths))
    if (name, email) == CHECK_SENDER:
        with open(os.path.join(outdir, 'NOT-FOR-SENDING'), 'w', encoding='utf-8') as f:
            f.write(f'Written by make check as "{name} <{email}>": no sender\'s identity was set.\n'
                    'Set git config user.name/user.email and run make series to write patches to send.\n')
    print(f'series: {len(series)} series, {sum(len(s.patches) for s in series)} patches in {outdir}')
    return 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except SeriesError as e:
        print(f'series: {e}', file=sys.stderr)
        sys.exit(1)
