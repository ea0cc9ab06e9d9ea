#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""pipeline.py [rsyslog|syslog-ng]: IDs in a real log pipeline, end to end.

1. Copies the X-Source files of the shipped catalog out of the base
   kernel tarball and builds a database from them (msgid-tools/msgid-db build
   --source): real call sites with real line numbers.
2. Exports it as the daemon's table (msgid-tools/msgid-db export: --format json
   for rsyslog's lookup_table(), --format syslog-ng for
   add-contextual-data()).
3. Writes a kernel log with IDs: one record per catalog entry whose ID the
   database knows (IDs computed here with zlib.crc32 over the X-Format,
   independently of the tool), one with an ID that no call site has, one
   without an ID.
4. Runs the daemon from Debian in the foreground with its own config in
   a temporary directory (rsyslogd: imfile -> re_extract -> lookup() ->
   omfile; syslog-ng: file() -> regexp-parser -> add-contextual-data ->
   file()), never touching the host's syslog, and waits for every line
   (timeout).  syslog-ng is taken from $SYSLOG_NG_ROOT (an extracted
   package, see pipeline-syslog-ng.sh) if set.
5. Checks the enriched lines: each known ID got its X-Source file and the
   catalog's subject, the unknown ID got "unknown" (rsyslog's nomatch) or
   nothing (syslog-ng), the plain line passed unchanged, nothing was lost
   or reordered.

The files of the last run (log, table, config, output) are kept in
out/pipeline/last/.
"""

import ast
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "msgid-tools"))
from msgid_tools import catalog  # noqa: E402

# The pinned base source (harness/env.sh), fetched by make base.
TARBALL = os.environ.get("BASE_TARBALL", "")
OUT = os.environ.get("OUT", os.path.join(ROOT, "out"))
TIMEOUT = 30
CONF = """\
global(workDirectory="{tmp}/work")
module(load="imfile")
lookup_table(name="msgid" file="{tmp}/msgid.json")
template(name="enriched" type="list") {{
  property(name="msg")
  constant(value=" | ")
  property(name="$.site")
  constant(value="\\n")
}}
template(name="plain" type="list") {{
  property(name="msg")
  constant(value="\\n")
}}
ruleset(name="kernel") {{
  set $.id = re_extract($msg, "^(\\\\[[ 0-9.]+\\\\] )?\\\\(([0-9a-f]{{8}})\\\\): ", 0, 2, "");
  if $.id != "" then {{
    set $.site = lookup("msgid", $.id);
    action(type="omfile" file="{tmp}/enriched.log" template="enriched")
  }} else {{
    action(type="omfile" file="{tmp}/enriched.log" template="plain")
  }}
}}
input(type="imfile" file="{tmp}/kern.log" tag="kernel" ruleset="kernel")
"""


SYSLOG_NG_CONF = """\
@version: 3.38
source s_kern {{ file("{tmp}/kern.log" flags(no-parse) follow-freq(0.2)); }};
parser p_msgid {{
  regexp-parser(prefix("kmsg.")
      patterns("^(?:(?:\\\\[[ 0-9.]+\\\\] )?\\\\((?<ID>[0-9a-f]{{8}})\\\\): )?"));
  add-contextual-data(selector("${{kmsg.ID}}")
      database("{tmp}/msgid-syslog-ng.csv") prefix("msgid."));
}};
destination d_out {{
  file("{tmp}/enriched.log"
       template("${{MESSAGE}}$(if (\\"${{msgid.summary}}\\" ne \\"\\") \\" | ${{msgid.summary}}\\" \\"\\")\\n"));
}};
log {{ source(s_kern); parser(p_msgid); destination(d_out); }};
"""


def rsyslog(tmp: str) -> tuple[list[str], dict[str, str]]:
    """Write the rsyslog config; return its command line and env."""
    exe = shutil.which("rsyslogd") or "/usr/sbin/rsyslogd"
    if not os.access(exe, os.X_OK):
        fail("rsyslogd not installed (make deps, or apt-get install rsyslog)")
    tool("--db", os.path.join(tmp, "msgid.db"), "export", "--format", "json",
         "--nomatch", "unknown", "-o", os.path.join(tmp, "msgid.json"))
    with open(os.path.join(tmp, "rsyslog.conf"), "w") as f:
        f.write(CONF.format(tmp=tmp))
    return [exe, "-n", "-f", os.path.join(tmp, "rsyslog.conf"), "-i",
            os.path.join(tmp, "rsyslogd.pid")], dict(os.environ)


def syslog_ng(tmp: str) -> tuple[list[str], dict[str, str]]:
    """Write the syslog-ng config; return its command line and env."""
    root = os.environ.get("SYSLOG_NG_ROOT", "")
    exe = os.path.join(root, "usr/sbin/syslog-ng") if root else \
        (shutil.which("syslog-ng") or "/usr/sbin/syslog-ng")
    if not os.access(exe, os.X_OK):
        fail("syslog-ng not found (harness/pipeline-syslog-ng.sh)")
    tool("--db", os.path.join(tmp, "msgid.db"), "export", "--format",
         "syslog-ng", "-o", os.path.join(tmp, "msgid-syslog-ng.csv"))
    with open(os.path.join(tmp, "syslog-ng.conf"), "w") as f:
        f.write(SYSLOG_NG_CONF.format(tmp=tmp))
    argv = [exe, "-F", "--no-caps", "-f", os.path.join(tmp, "syslog-ng.conf"),
            "-R", os.path.join(tmp, "persist"), "-p",
            os.path.join(tmp, "syslog-ng.pid"), "-c",
            os.path.join(tmp, "syslog-ng.ctl")]
    env = dict(os.environ)
    if root:
        argv.append("--module-path=" + os.path.join(root,
                                                    "usr/lib/syslog-ng/3.38"))
        env["LD_LIBRARY_PATH"] = ":".join(os.path.join(root, d) for d in (
            "usr/lib/x86_64-linux-gnu", "lib/x86_64-linux-gnu",
            "usr/lib/syslog-ng"))
    return argv, env


DAEMONS = {"rsyslog": rsyslog, "syslog-ng": syslog_ng}


def fail(msg: str) -> None:
    print("pipeline: FAIL: %s" % msg, file=sys.stderr)
    sys.exit(1)


def literal(value: str) -> bytes:
    return ast.literal_eval("b" + value)


def sources(entries: list, dest: str) -> None:
    """Extract the X-Source files, and the headers beside them (a local
    "internal.h" may define pr_fmt()), from the base tarball (cached)."""
    wanted = sorted({e.header("X-Source") for e in entries
                     if e.header("X-Source")})
    missing = [p for p in wanted if not os.path.exists(os.path.join(dest, p))]
    if not missing:
        return
    dirs = {os.path.dirname(p) for p in missing}
    if not os.path.isfile(TARBALL):
        fail("no base source %r (make base)" % TARBALL)
    with tarfile.open(TARBALL) as tar:
        for member in tar:
            name = member.name.split("/", 1)[-1]
            if member.isfile() and (name in missing or (
                    name.endswith(".h") and os.path.dirname(name) in dirs)):
                f = tar.extractfile(member)
                os.makedirs(os.path.dirname(os.path.join(dest, name)),
                            exist_ok=True)
                with open(os.path.join(dest, name), "wb") as out:
                    shutil.copyfileobj(f, out)


def tool(*args: str) -> None:
    subprocess.run([sys.executable, os.path.join(ROOT, "msgid-tools",
                                                   "msgid-db")] + list(args),
                   check=True)


def main() -> int:
    start = time.monotonic()
    daemon = sys.argv[1] if len(sys.argv) > 1 else "rsyslog"
    if daemon not in DAEMONS:
        fail("usage: pipeline.py [%s]" % "|".join(DAEMONS))
    entries = [e for e in catalog.load_dir(catalog.DEFAULT_DIR)
               if e.lang == "" and e.header("X-Source")
               and e.header("X-Source") != "lib/test_msgid.c"]
    src = os.path.join(OUT, "pipeline", "src")
    sources(entries, src)
    with tempfile.TemporaryDirectory(prefix="msgid-pipeline.") as tmp:
        os.mkdir(os.path.join(tmp, "work"))
        db = os.path.join(tmp, "msgid.db")
        tool("--db", db, "build", "--source", src)
        import sqlite3
        known = {r[0] for r in sqlite3.connect(db).execute(
            "SELECT id FROM sites")}
        expect = []  # (line, None | (file, subject) | "unknown")
        unseen: list[str] = []
        t = 1.0
        for e in entries:
            msgid = "%08x" % zlib.crc32(literal(e.header("X-Format")))
            if msgid != e.id:
                fail("%s: catalog ID differs from crc32 of X-Format" % e.id)
            if msgid not in known:
                # Called through a wrapper the source scan does not
                # follow (ext4_msg(), xfs_alert() ...); the catalog test
                # finds its format as a literal of X-Source instead.
                unseen.append(e.id)
                continue
            t += 0.5
            # A record of several lines carries its ID on the first.
            text = literal(e.header("X-Format")).decode().split("\n")[0]
            line = "[%12.6f] (%s): %s" % (t, msgid, text)
            expect.append((line, (e.header("X-Source"), e.subject)))
        if len(unseen) > len(expect):
            fail("only %d of %d catalog IDs in the table built from their "
                 "X-Source files" % (len(expect), len(expect) + len(unseen)))
        unknown = "%08x" % zlib.crc32(b"pipeline: no call site has this")
        expect.append(("[%12.6f] (%s): pipeline test, unknown ID"
                       % (t + 1, unknown), "unknown"))
        expect.append(("[%12.6f] a line without an identifier" % (t + 2),
                       None))
        with open(os.path.join(tmp, "kern.log"), "w") as f:
            f.writelines(line + "\n" for line, _ in expect)
        argv, env = DAEMONS[daemon](tmp)
        log = open(os.path.join(tmp, "daemon.log"), "w")
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)
        out_path = os.path.join(tmp, "enriched.log")
        got: list[str] = []
        deadline = time.monotonic() + TIMEOUT
        try:
            while time.monotonic() < deadline and proc.poll() is None:
                if os.path.exists(out_path):
                    with open(out_path) as f:
                        got = f.read().splitlines()
                    if len(got) >= len(expect):
                        break
                time.sleep(0.2)
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
            log.close()
        keep = os.path.join(OUT, "pipeline", "last-" + daemon)
        shutil.rmtree(keep, ignore_errors=True)
        shutil.copytree(tmp, keep, ignore=shutil.ignore_patterns(
            "work", "*.db", "*.pid", "*.ctl", "persist*"))
        if len(got) != len(expect):
            with open(os.path.join(tmp, "daemon.log")) as f:
                sys.stderr.write(f.read())
            fail("%s wrote %d of %d lines (%s)"
                 % (daemon, len(got), len(expect), "in %d s" % TIMEOUT
                    if proc.returncode in (None, -signal.SIGTERM, 0)
                    else "it exited with status %d" % proc.returncode))
        for (line, want), have in zip(expect, got):
            if want is None:
                if have != line:
                    fail("plain line changed: %r" % have)
                continue
            if want == "unknown":
                # rsyslog's lookup() gives the table's nomatch value;
                # syslog-ng adds nothing for a selector it lacks.
                if have != line + {"rsyslog": " | unknown"}.get(daemon, ""):
                    fail("unknown ID was enriched: %r" % have)
                continue
            if not have.startswith(line + " | "):
                fail("line lost or reordered: %r, expected %r" % (have, line))
            site = have[len(line) + 3:]
            if not (site.startswith(want[0] + ":")
                      and site.endswith(" " + want[1])):
                fail("%r: expected %s:<line> ... %s" % (have, want[0],
                                                       want[1]))
        print("pipeline: %s enriched %d lines (%d catalog IDs, 1 "
              "unknown, 1 without ID), %.1f s in all; %d catalog entries "
              "not in the table (printed through wrappers the source scan "
              "does not follow)" % (daemon, len(got), len(expect) - 2,
                                    time.monotonic() - start, len(unseen)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
