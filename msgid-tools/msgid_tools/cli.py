# SPDX-License-Identifier: GPL-2.0
"""The command line of msgid-tools (msgid-tools/msgid-db).

It is the kernel tree's msgid-db.py (scripts/msgid_db/cli.py: build from
the printk index or a vmlinux, lookup, annotate of the lines that carry
an ID) with what extend() adds: build from compressed kernels, modules
and sources (--kernel, --modules, --system-map, --source, --release),
lookup --text and annotate of lines without an ID, catalogs (explain,
annotate --catalog, --lang), databases of several releases (merge,
--release), and the commands explain, collisions, list, diff, stats,
export, metrics and catalog-todo.
"""

import argparse
import os
import sys
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Optional, TextIO

from msgid_tools.core import cli as _core
from msgid_tools.core import ids
from msgid_tools.core.cli import (  # noqa: F401 (EXIT_*: the exit statuses)
                          DEFAULT_INDEX_DIR, EXIT_DATABASE, EXIT_INTERRUPTED,
                          EXIT_NOT_FOUND, EXIT_OK, EXIT_USAGE, PROG, Once,
                          UsageError,
                          buffered_stdout, build_meta, check_index,
                          check_inputs, db_path,
                          elf_sites, format_site, index_sites, note,
                          parse_ids, signals_interrupt, site_dict, warn,
                          warn_unknown, write_db)
from msgid_tools.core.ids import CallSite, InputError
from msgid_tools import database, queries

if TYPE_CHECKING:
    from msgid_tools import dmesg, elf, inputs, match, releases, strings

#: Where the message catalogs are installed.
CATALOG_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                           "catalog")
#: export.FORMATS, named here so that building the parser imports nothing.
EXPORT_FORMATS = ("csv", "json", "syslog-ng")
#: logreader.FORMATS, for the same reason.
LOG_FORMATS = ("auto", "dmesg", "syslog", "json", "export", "dmesg-json",
               "kmsg", "logcat", "plain")


# --------------------------------------------------------------- build

def _module_files(directory: str) -> Iterator[str]:
    from msgid_tools import image
    if not os.path.isdir(directory):
        raise UsageError("%s: no such directory" % directory)
    for dirpath, dirnames, filenames in os.walk(directory):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(image.MODULE_SUFFIXES):
                yield os.path.join(dirpath, name)


class _Binaries:
    """What build read from ELF files: its report, and the call sites
    found in read-only strings, held back until the index's are known
    (a row from an index wins over a strings row with the same ID)."""

    def __init__(self) -> None:
        self.kernels = 0
        self.modules = 0
        self.without_index = 0
        self.index_ids: set[str] = set()
        self.strings: list[CallSite] = []
        self.strings_dropped = 0

    def sites(self, image: "elf.ElfFile", module: str,
              kernel: bool = False,
              symbols: "Optional[strings.SystemMap]" = None
              ) -> Iterator[CallSite]:
        """Yield the index rows of @image, or keep its strings rows
        (functions named by @symbols, a vmlinux's System.map)."""
        from msgid_tools import strings
        if kernel:
            self.kernels += 1
        else:
            self.modules += 1
        if image.section(".printk_index") is None:
            self.without_index += 1
            self.strings.extend(strings.sites(image, module, symbols))
            return
        for site in elf_sites(image, module):
            self.index_ids.add(site.id)
            yield site

    def strings_sites(self) -> Iterator[CallSite]:
        """Yield the strings rows whose ID no index row has."""
        for site in self.strings:
            if site.id in self.index_ids:
                self.strings_dropped += 1
            else:
                yield site

    def counts(self) -> str:
        """What was read, e.g. "1139 binaries read (1 kernel, 1138
        modules)", or "" if no ELF file was."""
        if not self.kernels + self.modules:
            return ""
        return "%d binaries read (%d kernel, %d modules)" % (
            self.kernels + self.modules, self.kernels, self.modules)

    def report(self) -> str:
        """One line: counts(), and where the formats came from."""
        text = self.counts()
        if self.without_index:
            text += ("; %d without .printk_index (built without "
                     "CONFIG_PRINTK_INDEX): their formats are taken from "
                     "their read-only strings and printk calls (origin "
                     "'strings', no file:line: --source adds it) and from "
                     "their dynamic debug tables (origin 'dyndbg')"
                     % self.without_index)
        if self.strings_dropped:
            text += "; %d strings rows dropped for an index row" % (
                self.strings_dropped)
        return text


def _modules_sites(directory: str,
                   binaries: _Binaries) -> Iterator[CallSite]:
    from msgid_tools import elf
    from msgid_tools import modules
    before = binaries.modules
    for path in _module_files(directory):
        image = elf.ElfFile.from_path(path)
        yield from binaries.sites(image, modules.module_name(image, path))
    if binaries.modules == before:
        warn("%s: no modules (*.ko, *.ko.gz, *.ko.xz, *.ko.zst) found"
             % directory)


def cmd_build(args: argparse.Namespace) -> int:
    """Build the database from the index, ELF files and/or sources."""
    from msgid_tools import elf
    from msgid_tools import source
    use_index = args.index_dir is not None or not (
        args.kernel or args.modules or args.source)
    index_dir = args.index_dir or DEFAULT_INDEX_DIR
    meta = build_meta()
    sources: list[str] = []
    binaries = _Binaries()
    # Check every input before the (atomic) write starts.
    path = args.output or db_path(args)
    check_inputs(path, (("--kernel", args.kernel),
                        ("--index-dir", index_dir if use_index else None),
                        ("--modules", args.modules),
                        ("--source", args.source)))
    vmlinux = elf.ElfFile.from_path(args.kernel) if args.kernel else None
    symbols = None
    if args.system_map and not args.kernel:
        raise UsageError("--system-map names the functions of --kernel: "
                         "give the kernel too")
    if vmlinux:
        release = vmlinux.kernel_release()
        if release:
            meta["kernel_release"] = release
        symbols = _system_map(args, vmlinux, sources)
    if use_index:
        check_index(index_dir, meta)
    if args.modules and not os.path.isdir(args.modules):
        raise UsageError("%s: no such directory" % args.modules)
    if args.source and not os.path.isdir(args.source):
        raise UsageError("%s: no such directory" % args.source)
    if args.source and "kernel_release" not in meta:
        from msgid_tools import releases
        release = releases.tree_release(args.source)
        if release:
            meta["kernel_release"] = release
    if args.release is not None:
        from msgid_tools import releases
        if releases.series(args.release) is None:
            raise UsageError("--release %r: not a kernel release (give "
                             "MAJOR.MINOR[.PATCH], e.g. 6.12.41)"
                             % args.release)
        meta["kernel_release"] = args.release

    def sites() -> Iterator[CallSite]:
        if use_index:
            for site in index_sites(index_dir, sources, path):
                binaries.index_ids.add(site.id)
                yield site
        if vmlinux:
            yield from binaries.sites(vmlinux, "vmlinux", kernel=True,
                                      symbols=symbols)
            sources.append("kernel:%s" % args.kernel)
        if args.modules:
            yield from _modules_sites(args.modules, binaries)
            sources.append("modules:%s" % args.modules)
        if args.source:
            yield from source.scan_tree(
                args.source, args.jobs,
                _Progress(args.source) if getattr(args, "progress", False)
                else None)
            sources.append("source:%s" % args.source)
        yield from binaries.strings_sites()
        meta["sources"] = " ".join(sources)
        if binaries.counts():
            meta["binaries"] = binaries.counts()

    return write_db(args, path, sites(), meta, sources, binaries.report,
                    database.write)


class _Progress:
    """Says on stderr, every PERIOD seconds, how many files of the tree
    were scanned and how long the rest should take."""

    PERIOD = 10.0

    def __init__(self, tree: str) -> None:
        import time
        self.tree = tree
        self.start = self.last = time.monotonic()

    def __call__(self, done: int, total: int, sites: int) -> None:
        import time
        now = time.monotonic()
        if now - self.last < self.PERIOD and done < total:
            return
        self.last = now
        spent = now - self.start
        # (the files' time, once there is enough of it to go by)
        left = ", about %.0f s to go" % (spent * (total - done) / done) \
            if done * 20 >= total else ""
        sys.stderr.write("msgid-db.py: %s: %d of %d files (%d%%), %d call "
                         "sites, %.0f s%s\n"
                         % (self.tree, done, total, 100 * done // max(total, 1),
                            sites, spent, left))
        sys.stderr.flush()


def _system_map(args: argparse.Namespace, vmlinux: "elf.ElfFile",
                sources: list[str]) -> "Optional[strings.SystemMap]":
    """The System.map of --kernel: --system-map, else System.map-RELEASE
    beside a vmlinuz-RELEASE (as /boot holds them), else None."""
    from msgid_tools import strings
    path = args.system_map
    if path is None:
        base = os.path.basename(args.kernel)
        for prefix in ("vmlinuz-", "vmlinux-"):
            if base.startswith(prefix):
                guess = os.path.join(os.path.dirname(args.kernel),
                                     "System.map-" + base[len(prefix):])
                if os.path.isfile(guess):
                    path = guess
    why = None
    if path is not None:
        try:
            symbols = strings.SystemMap.read(path)
            symbols.check(vmlinux)
            sources.append("system-map:%s" % path)
            return symbols
        except InputError as e:
            if args.system_map:
                raise
            # found beside the image, not asked for: the build goes on
            why = str(e)
    # The image's own names: the functions it does not export (ext4's
    # __ext4_msg()...) and the function of each row.
    found = strings.SystemMap.from_kallsyms(vmlinux)
    if found is not None:
        if why:
            warn("%s; the functions are taken from the kernel's kallsyms "
                 "table instead" % why)
        sources.append("kallsyms:%s" % args.kernel)
        return found
    if why:
        warn("%s; the kernel's rows name no function" % why)
    return None


def _input_texts(inputs: list[tuple[Optional[str], str]]
                 ) -> dict[tuple[str, str, str, str], list[tuple[str, str]]]:
    """The match texts of the sites of the databases @inputs
    (database.site_texts())."""
    out: dict[tuple[str, str, str, str], list[tuple[str, str]]] = {}
    for _, name in inputs:
        db = database.open_db(name)
        try:
            for key, texts in database.site_texts(db).items():
                have = out.setdefault(key, [])
                have += [t for t in texts if t not in have]
        finally:
            db.close()
    return out


def _with_texts(sites: Iterable[tuple[CallSite, str]],
                texts: dict[tuple[str, str, str, str], list[tuple[str, str]]]
                ) -> Iterator[tuple[CallSite, str]]:
    """@sites (merge's) with the match texts their inputs gave them (NUL
    between several), and where they start."""
    from msgid_tools import releases
    for site, rels in sites:
        known = texts.get((site.id, site.file, site.function, site.format))
        if known:
            site = site._replace(text="\0".join(t for t, _ in known),
                                 subsys=releases._unwhere(known[0][1]))
        yield site, rels


def cmd_merge(args: argparse.Namespace) -> int:
    """Merge databases of several releases into one."""
    from msgid_tools import releases
    path = args.output or db_path(args)
    inputs = [releases.parse_input(text) for text in args.inputs]
    out = os.path.realpath(path)
    for _, name in inputs:
        if os.path.realpath(name) == out:
            raise UsageError("%s is the database being written: give "
                             "another -o" % name)
        if not os.path.isfile(name):
            raise UsageError("%s: no such database (build it first: "
                             "msgid-db.py build --source TREE -o %s)"
                             % (name, name))
    if len({os.path.realpath(n) for _, n in inputs}) != len(inputs):
        raise UsageError("a database is given twice: merge each once")
    directory = os.path.dirname(out)
    if not os.path.isdir(directory):
        raise UsageError("%s: no such directory for the database %s "
                         "(create it, or give another -o)"
                         % (directory, path))
    merged = releases.merge(inputs, directory)
    metas = merged.metas
    texts = _input_texts(inputs)
    meta = dict(build_meta(),
                sources=" ".join("merge:%s" % n for _, n in inputs),
                releases=releases.meta_text(metas))
    try:
        with signals_interrupt():
            count = database.write(path, _with_texts(merged.sites(), texts),
                                   meta, releases=True)
    finally:
        merged.close()
    print("%s: %d call sites of releases %s" % (
        path, count, " ".join(sorted(metas, key=releases.order))),
        file=sys.stderr)
    return EXIT_OK


# -------------------------------------------------------------- queries

def _release_of(db: database.Database, given: Optional[str]) -> str:
    """The series of --release @given in the merged database @db ("" if
    none is given or the database is of one release)."""
    from msgid_tools import releases
    if not given:
        return ""
    name = releases.series(given)
    if name is None:
        raise UsageError("--release %r: not a kernel release (give "
                         "MAJOR.MINOR, e.g. 6.12 or 6.12.41+deb13-amd64)"
                         % given)
    if not releases.is_merged(db):
        note("--release %s: %s is a database of one release (%s): "
             "--release changes nothing (msgid-db.py merge builds one "
             "of several)" % (given, db.path, db.meta().get(
                 "kernel_release", "not named")))
        return ""
    have = releases.held(db)
    if name not in have:
        warn("release %s is not in %s (it holds %s): the call sites of "
             "every release are given" % (name, db.path, " ".join(
                 sorted(have, key=releases.order))))
        return ""
    return name


def _sites_of(db: database.Database, msgid: str, release: str
              ) -> list[tuple[CallSite, str]]:
    """The call sites of @msgid with their releases; those of @release
    only, if it has any."""
    from msgid_tools import releases
    sites = releases.lookup(db, msgid)
    if release:
        mine = [x for x in sites if release in x[1].split()]
        if mine:
            return mine
        if sites:
            note("%s: not printed by release %s (the call sites below are "
                 "of other releases)" % (msgid, release))
    return sites


def _show_site(site: CallSite, rels: str) -> str:
    """format_site(), and the releases of a merged database's site."""
    text = format_site(site)
    return text + " releases=%s" % rels.replace(" ", ",") if rels else text


def _site_json(site: CallSite, rels: str, **extra: object) -> str:
    import json
    obj = site_dict(site)
    if rels:
        obj["releases"] = rels.split()
    obj.update(extra)
    return json.dumps(obj)


def cmd_lookup(args: argparse.Namespace) -> int:
    """Print the call sites of each ID."""
    if args.text is not None:
        if args.ids:
            raise UsageError("give IDs or --text, not both")
        return _lookup_text(args)
    if not args.ids:
        raise UsageError("give at least one ID (or --text)")
    wanted = parse_ids(args.ids)
    db = database.open_db(db_path(args))
    release = _release_of(db, args.release)
    status = EXIT_OK
    for msgid in wanted:
        sites = _sites_of(db, msgid, release)
        if not sites:
            print("%s: %s: unknown message ID" % (PROG, msgid),
                  file=sys.stderr)
            status = EXIT_NOT_FOUND
        for site, rels in sites:
            if args.json:
                print(_site_json(site, rels))
            else:
                print(("%s " % msgid if len(wanted) > 1 else "")
                      + _show_site(site, rels))
    return status


def _lookup_text(args: argparse.Namespace) -> int:
    """lookup --text: identify one message text by matching formats."""
    from msgid_tools import match
    from msgid_tools.logreader import ORIGIN_USER, LogReader
    db = database.open_db(db_path(args))
    release = _release_of(db, args.release)
    # A line pasted from a log: its envelope (timestamp, syslog header,
    # JSON) is not part of the message, and a printed ID is the answer.
    rec = LogReader().parse(args.text.encode("utf-8", "surrogateescape"))
    if rec.msgid is not None:
        sites = _sites_of(db, rec.msgid, release)
        if not sites:
            print("%s: %s: unknown message ID (printed in the text)"
                  % (PROG, rec.msgid), file=sys.stderr)
            return EXIT_NOT_FOUND
        for site, rels in sites:
            if args.json:
                print(_site_json(site, rels, id_from="prefix", cont=False))
            else:
                print("%s %s" % (rec.msgid, _show_site(site, rels)))
        return EXIT_OK
    if rec.origin == ORIGIN_USER and rec.sure:
        print("%s: a user-space record (%s), not a kernel message"
              % (PROG, rec.tag or rec.form), file=sys.stderr)
        return EXIT_NOT_FOUND
    matcher = match.load(db)
    if release:
        from msgid_tools import releases
        matcher.set_preferred(releases.release_ids(db, release))
    r = matcher.identify(rec.text)
    ids_found = ([r.id] if r.how == "match" and r.id
                 else r.candidates if r.how == "ambiguous" else [])
    if not ids_found:
        print("%s: no format matches the text" % PROG, file=sys.stderr)
        return EXIT_NOT_FOUND
    if r.how == "ambiguous" and not args.json:
        print("ambiguous: %d formats fit equally" % len(ids_found))
    for msgid in ids_found:
        for site, rels in _sites_of(db, msgid, release):
            if args.json:
                print(_site_json(site, rels, id_from=r.how, cont=r.cont))
            else:
                print("%s~ %s" % (msgid, _show_site(site, rels)))
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    """List the call sites of one class."""
    path = db_path(args)
    sites = queries.by_class(database.open_db(path), args.msg_class)
    for site in sites:
        print("%s %s" % (site.id, format_site(site)))
    if not sites:
        print("%s: no call site of class '%s' in %s" % (
            PROG, args.msg_class, path), file=sys.stderr)
    return EXIT_OK if sites else EXIT_NOT_FOUND


def cmd_collisions(args: argparse.Namespace) -> int:
    """Report CRC collisions and IDs shared by several call sites."""
    db = database.open_db(db_path(args))
    crc, shared = queries.collisions(db)
    print("CRC collisions (one ID, different formats): %d IDs, %d call sites"
          % (len(crc), sum(n for _, _, n in crc)))
    if not args.summary:
        for msgid, nformats, nsites in crc:
            print("  %s: %d formats, %d call sites" % (msgid, nformats, nsites))
            for site in db.lookup(msgid):
                print("    " + format_site(site))
    print("Shared IDs (one format, several call sites): %d IDs, %d call sites"
          % (len(shared), sum(n for _, n in shared)))
    if not args.summary:
        for msgid, nsites in shared:
            site = db.lookup(msgid)[0]
            print('  %s: %d call sites "%s"' % (
                msgid, nsites,
                ids.escape(site.canonical.encode("utf-8", "surrogateescape"))))
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    """Print the catalog entry (and call sites, if known) of an ID."""
    from msgid_tools import catalog as catalog_mod
    msgid = parse_ids([args.id])[0]
    cat = catalog_mod.Catalog.load(args.catalog, args.lang)
    entry = cat.get(msgid)
    if entry is None:
        print("%s: %s: no catalog entry" % (PROG, msgid), file=sys.stderr)
        # What the database knows of it is still an answer.
        path = db_path(args)
        if os.path.isfile(path):
            for site in database.open_db(path).lookup(msgid):
                print("  -> " + format_site(site))
        return EXIT_NOT_FOUND
    if msgid != entry.id:
        for fmt, names in entry.formats():
            if ids.msgid(fmt) == msgid:
                note("%s: the entry of %s, whose format%s was \"%s\""
                     % (msgid, entry.id, " in %s" % " ".join(names)
                        if names else " elsewhere", ids.escape(fmt)))
                break
    wanted = cat.lang if cat.lang not in ("", "en") else ""
    if wanted and entry.lang != wanted:
        note("%s: no '%s' translation yet, showing the English entry"
             % (msgid, wanted))
    print("-- %s" % msgid)
    for name, values in entry.headers.items():
        if name.startswith("X-"):
            continue
        for value in values:
            print("%s: %s" % (name, value))
    print()
    print(entry.body)
    path = db_path(args)
    if os.path.isfile(path):
        sites = database.open_db(path).lookup(msgid)
        if sites:
            print()
            for site in sites:
                print("  -> " + format_site(site))
    return EXIT_OK


def cmd_diff(args: argparse.Namespace) -> int:
    """Compare the IDs of two databases."""
    from msgid_tools import diff
    old_db, new_db = database.open_db(args.old), database.open_db(args.new)
    old = diff.by_id(old_db.all_sites())
    new = diff.by_id(new_db.all_sites())
    result = diff.compare(old, new)
    names = (args.old, args.new)
    if args.json:
        diff.write_json(result, old, new, names, sys.stdout)
    else:
        diff.write_text(result, old, new, names, sys.stdout, args.summary)
    # A monitoring rule of a gone ID matches nothing any more: a script
    # must see it without reading the report.
    return EXIT_NOT_FOUND if result.gone else EXIT_OK


def cmd_stats(args: argparse.Namespace) -> int:
    """Print counts by origin and class, and the build metadata."""
    db = database.open_db(db_path(args))
    for key, value in sorted(db.meta().items()):
        print("%-15s %s" % (key + ":", value))
    for column in ("origin", "class"):
        print("by %s:" % column)
        for value, count in queries.counts(db, column):
            print("  %-15s %d" % (value, count))
    return EXIT_OK


# ------------------------------------------------------------ annotate

def _open_inputs(paths: list[str]) -> "inputs.LogInputs":
    """The lines of the log files @paths (none: standard input)."""
    from msgid_tools import inputs
    return inputs.LogInputs(paths, opener=open)


def cmd_annotate(args: argparse.Namespace) -> int:
    """Annotate kernel log lines carrying message IDs."""
    from msgid_tools import catalog as catalog_mod
    from msgid_tools.dmesg import Annotator
    db = database.open_db(db_path(args))
    cat = catalog_mod.Catalog.load(args.catalog, args.lang)
    matcher = None
    if not args.no_match:
        from msgid_tools import match
        matcher = match.load(db)
    # Call sites and formats are read as the log's IDs and words ask for
    # them: the first line is out at once, whatever the database's size.
    from msgid_tools import releases
    sitemap = releases.SiteMap(db)
    annotator = Annotator(sitemap, cat,  # type: ignore[arg-type]
                          matcher=matcher, form=args.format)
    release = _release_of(db, args.release)
    if releases.is_merged(db):
        _prefer_release(db, release, sitemap, matcher, annotator)
        if matcher is not None and args.release and not release:
            matcher.set_near(_near_ids(db, releases.series(args.release)))
        if not args.release:
            def on_release(name: str) -> None:
                _prefer_release(db, _log_release(db, name), sitemap,
                                matcher, annotator)
                if matcher is not None:
                    matcher.set_near(_near_ids(db, releases.series(name)))
            annotator.on_release = on_release
    logs = _open_inputs(args.files)
    buffered_stdout()
    try:
        db_release = db.meta().get("kernel_release", "")
        if args.json:
            stats = annotator.annotate_json(logs, sys.stdout, logs.idle)
        else:
            sys.stdout.flush()
            stats = annotator.annotate(logs, sys.stdout.buffer, logs.idle)
    finally:
        db.close()
    _annotate_summary(stats, annotator.release, db_release)
    return EXIT_OK


def _log_release(db: database.Database, release: str) -> str:
    """The series of the log's release @release if @db holds it, else ""
    (with a warning: the IDs given are then those of any release)."""
    from msgid_tools import releases
    name = releases.series(release) or ""
    have = releases.held(db)
    if name not in have:
        warn("the log is of kernel %s, which %s does not hold (it holds "
             "%s): formats of every release are matched" % (
                 release, db.path, " ".join(sorted(have,
                                                   key=releases.order))))
        return ""
    return name


def _near_ids(db: database.Database, name: Optional[str]
              ) -> Optional[set[str]]:
    """For a log of release series @name that the merged database @db
    does not hold: the IDs of both held releases around it (of the
    nearest one, if it is older or newer than all), which its kernel
    most likely prints too: they break ties (match.Matcher.near)."""
    from msgid_tools import releases
    have = sorted(releases.held(db), key=releases.order)
    if not name or not have or name in have:
        return None
    key = releases.order(name)
    older = [h for h in have if releases.order(h) < key]
    newer = [h for h in have if releases.order(h) > key]
    sets = [releases.release_ids(db, h) for h in older[-1:] + newer[:1]]
    return set.intersection(*sets) if sets else None


def _prefer_release(db: database.Database, release: str,
                    sitemap: "releases.SiteMap",
                    matcher: "Optional[match.Matcher]",
                    annotator: "dmesg.Annotator") -> None:
    """Give the call sites and formats of @release first ("" none)."""
    sitemap.set_release(release)
    if matcher is not None:
        from msgid_tools import releases
        matcher.set_preferred(releases.release_ids(db, release) if release
                              else None)
    annotator.forget()


def _annotate_summary(stats: "dmesg.Stats", log_release: str,
                      db_release: str) -> None:
    """Say on stderr when the database does not look like the log's
    kernel: printed IDs it does not know, another release."""
    if log_release and db_release and log_release != db_release:
        warn("the log is of kernel %s (its 'Linux version' record), the "
             "database of %s: IDs and call sites may differ"
             % (log_release, db_release))
    warn_unknown(stats)


# ------------------------------------------- fleet: export, metrics, todo

def cmd_export(args: argparse.Namespace) -> int:
    """Write ID -> call site, class, format, subject as a lookup table."""
    from msgid_tools import catalog as catalog_mod
    from msgid_tools import export
    cat = catalog_mod.Catalog.load(args.catalog, args.lang)
    db = database.open_db(db_path(args))
    table = export.rows(db.all_sites(), cat, args.msg_class)
    if args.nomatch is not None and args.format != "json":
        raise UsageError("--nomatch is for --format json")
    nomatch = args.nomatch or ""
    if args.output:
        _write_atomic(args.output, lambda f: export.write(
            args.format, table, f, nomatch))
    else:
        export.write(args.format, table, sys.stdout, nomatch)
    print("%s: %d IDs" % (args.output or "<stdout>", len(table)),
          file=sys.stderr)
    return EXIT_OK


def _write_atomic(path: str, fill: Callable[[TextIO], object]) -> None:
    """Write @path through a temporary file renamed over it: a reader
    (a log shipper, node_exporter) never sees a half-written file, and a
    failure leaves the previous file as it was."""
    import tempfile
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".%s." % os.path.basename(path),
                                   dir=directory)
    except OSError as e:
        # (the error names the temporary file, which the user never named)
        raise UsageError("%s: %s" % (path, e.strerror)) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            fill(f)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def cmd_metrics(args: argparse.Namespace) -> int:
    """Print the class counters in the Prometheus text format."""
    from msgid_tools import metrics
    text = metrics.render(metrics.read(args.file))
    if args.output:
        _write_atomic(args.output, lambda f: f.write(text))
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_catalog_todo(args: argparse.Namespace) -> int:
    """List IDs of a class, or of logs, that have no catalog entry."""
    from msgid_tools import catalog as catalog_mod
    from msgid_tools import todo
    cat = catalog_mod.Catalog.load(args.catalog, "")
    if args.msg_class:
        if args.files:
            raise UsageError("give --class or log files, not both")
        db = database.open_db(db_path(args))
        rows = todo.from_sites(queries.by_class(db, args.msg_class), cat)
        what = "call sites"
    else:
        rows = todo.from_logs(_open_inputs(args.files), cat)
        what = "records"
    for msgid, count, text in rows:
        print('%s %d "%s"' % (msgid, count, todo.limit(text)))
    print("%s: %d IDs without a catalog entry (count: %s)"
          % (PROG, len(rows), what), file=sys.stderr)
    return EXIT_OK


# --------------------------------------------------------------- parser

def _positive(text: str) -> int:
    """argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError("%r is not a number >= 1" % text)
    return value


def extend(parsers: dict[str, argparse.ArgumentParser],
           add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add msgid-tools' options to the commands of @parsers (build,
    lookup, annotate), and its commands with @add(name, function, help)."""
    p = parsers["build"]
    p.set_defaults(func=cmd_build)
    p.add_argument("--kernel", metavar="FILE", dest="kernel", action=Once,
                   help="a vmlinux or compressed kernel image (bzImage): "
                   "its .printk_index, else its format strings (also "
                   "--vmlinux)")
    p.add_argument("--system-map", metavar="FILE", action=Once,
                   help="the System.map of --kernel, to name the functions "
                   "of a kernel without index (default: System.map-"
                   "RELEASE beside a vmlinuz-RELEASE)")
    p.add_argument("--modules", metavar="DIR", action=Once,
                   help="the same for every *.ko, *.ko.gz, *.ko.xz and "
                   "*.ko.zst below DIR")
    p.add_argument("--source", metavar="DIR", action=Once,
                   help="scan C (approximate) and Rust sources below DIR")
    p.add_argument("-j", "--jobs", metavar="N", type=_positive,
                   help="processes that scan --source (default: one per "
                   "CPU)")
    p.add_argument("--progress", action="store_true",
                   help="print how far the scan of --source is, every "
                   "10 seconds (on stderr)")
    p.add_argument("--release", metavar="RELEASE",
                   help="the kernel release the inputs are of (default: "
                   "the kernel's own, or the --source tree's Makefile), "
                   "as merge wants it")

    p = parsers["lookup"]
    p.set_defaults(func=cmd_lookup)
    p.add_argument("--text", metavar="MESSAGE",
                   help="identify a message text without ID by matching "
                   "the formats (ID~ marks a matched ID)")
    p.add_argument("--release", metavar="RELEASE",
                   help="a merged database: the call sites and formats of "
                   "this release (6.12, 6.12.41+deb13-amd64) first")

    p = parsers["annotate"]
    p.set_defaults(func=cmd_annotate)
    p.add_argument("--json", action="store_true",
                   help="one JSON object per input line")
    p.add_argument("--catalog", metavar="DIR",
                   help="catalog directory (default: %s)" % CATALOG_DIR)
    p.add_argument("--lang", help="catalog language (default: from $LANG)")
    p.add_argument("--no-match", action="store_true",
                   help="do not identify lines without ID by their text")
    p.add_argument("--release", metavar="RELEASE",
                   help="a merged database: the release of the log's "
                   "kernel (default: from its 'Linux version' record)")
    p.add_argument("--format", default="auto", choices=LOG_FORMATS,
                   help="the log's form (default: auto, recognised line "
                   "by line): dmesg (also -r, -x, -T, iso, serial "
                   "consoles), syslog (kern.log, journalctl -o short*), "
                   "json (journalctl -o json), export (journalctl -o "
                   "export), dmesg-json, kmsg "
                   "(/dev/kmsg), logcat (Android's logcat -b kernel), "
                   "plain (the message alone)")

    p = add("explain", cmd_explain, "print the catalog entry and the call "
            "sites of an ID", "\n\nMessage catalogs are read from %s, or "
            "from --catalog DIR;\n--lang, else $LC_ALL, $LC_MESSAGES or $LANG, "
            "picks their language." % CATALOG_DIR)
    p.add_argument("id", metavar="ID")
    p.add_argument("--lang", help="language (default: from $LANG, "
                   "falling back to English)")
    p.add_argument("--catalog", metavar="DIR",
                   help="catalog directory (default: %s)" % CATALOG_DIR)

    p = add("merge", cmd_merge, "merge the databases of several kernel "
            "releases into one (every call site keeps its releases)")
    p.add_argument("inputs", nargs="+", metavar="[RELEASE=]DB",
                   help="a database built by build (its release from its "
                   "kernel or tree, or given as 6.12=DB) or by merge")
    p.add_argument("-o", "--output", metavar="DB",
                   help="database to write (default: --db)")

    p = add("collisions", cmd_collisions, "report IDs shared by different "
            "formats or by several call sites")
    p.add_argument("--summary", action="store_true",
                   help="print the counts only")

    p = add("list", cmd_list, "list the call sites of a message class")
    p.add_argument("--class", dest="msg_class", required=True,
                   choices=ids.CLASSES)

    p = add("diff", cmd_diff, "compare the IDs of two databases: kept, "
            "gone, new, moved")
    p.add_argument("old", metavar="OLD.db")
    p.add_argument("new", metavar="NEW.db")
    p.add_argument("--json", action="store_true",
                   help="one JSON object: counts and the IDs of each set")
    p.add_argument("--summary", action="store_true",
                   help="print the counts only")

    add("stats", cmd_stats, "print counts by origin and class")

    p = add("export", cmd_export, "write a lookup table for log pipelines "
            "(Vector, Fluent Bit, syslog-ng, rsyslog)")
    p.add_argument("--format", choices=EXPORT_FORMATS, default="csv",
                   help="csv: Vector, Fluent Bit; syslog-ng: "
                   "add-contextual-data(); json: rsyslog lookup_table()")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write FILE (atomically) instead of standard output")
    p.add_argument("--class", dest="msg_class", choices=ids.CLASSES,
                   help="only IDs of this class")
    p.add_argument("--nomatch", metavar="TEXT", help="json: what rsyslog's "
                   "lookup() returns for an ID not in the table (default: "
                   "empty)")
    p.add_argument("--lang", help="language of the subjects (default: "
                   "from $LANG, falling back to English)")
    p.add_argument("--catalog", metavar="DIR",
                   help="catalog directory (default: %s)" % CATALOG_DIR)

    p = add("metrics", cmd_metrics, "print <debugfs>/printk/msgid in the "
            "Prometheus text format")
    p.add_argument("--file", default="/sys/kernel/debug/printk/msgid",
                   help="counter file (default %(default)s)")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="write FILE (atomically), e.g. for node_exporter's "
                   "textfile collector")

    p = add("catalog-todo", cmd_catalog_todo, "list the IDs of a class, or "
            "of logs, that have no catalog entry")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="log files (default: standard input)")
    p.add_argument("--class", dest="msg_class", choices=ids.CLASSES,
                   help="IDs of this class in the database")
    p.add_argument("--catalog", metavar="DIR",
                   help="catalog directory (default: %s)" % CATALOG_DIR)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of msgid-tools' msgid-db."""
    return _core.build_parser(extend)


def main(argv: Optional[list[str]] = None) -> int:
    """Run msgid-tools' msgid-db; returns the exit status."""
    return _core.main(argv, extend)
