#!/usr/bin/env python3
"""ldb and sst_dump on a DB written by db_bench, the tools checked against
each other.

db_bench's fillseq writes N distinct keys, with a small write buffer so
that they end up in several tables and the WAL. Then every view of the
data must agree: ldb scan, dump, get and idump list the same N keys and
values; sst_dump (scan, --show_properties) and ldb dump --path on each
table, and dump_wal on each WAL, account for every key exactly once;
manifest_dump and list_live_files_metadata name exactly the tables in the
directory; ldb repair rebuilds the MANIFEST once it is deleted, with
every key back. Every program runs from the working directory on relative
paths, behind --emulator if given (the Windows build runs the .exe files
under Wine).
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

NUM = 3000


class Tools:
    def __init__(self, args):
        self.emulator = shlex.split(args.emulator) if args.emulator else []
        self.args = args

    def run(self, program, argv):
        cmd = self.emulator + [program] + argv
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=300)
        out = proc.stdout.decode("latin-1").replace("\r\n", "\n")
        if proc.returncode != 0:
            sys.exit("FAILED (exit %d): %s\n--- stdout:\n%s--- stderr:\n%s" %
                     (proc.returncode, " ".join(argv), out,
                      proc.stderr.decode("latin-1")))
        return out

    def ldb(self, *argv):
        return self.run(self.args.ldb, ["--db=db"] + list(argv))

    def sst_dump(self, *argv):
        return self.run(self.args.sst_dump, list(argv))


def check(cond, what):
    if not cond:
        sys.exit("FAILED: " + what)


def pairs(text, sep):
    """(key, value) of each 'key<sep>value' line, in order."""
    result = []
    for line in text.splitlines():
        if sep in line:
            key, value = line.split(sep, 1)
            result.append((key, value))
    return result


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--db_bench", required=True)
    p.add_argument("--ldb", required=True)
    p.add_argument("--sst_dump", required=True)
    p.add_argument("--emulator", default="")
    p.add_argument("--work", required=True)
    args = p.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    os.chdir(args.work)
    tools = Tools(args)

    tools.run(args.db_bench, ["--benchmarks=fillseq", "--num=%d" % NUM,
                              "--value_size=20", "--write_buffer_size=32768",
                              "--db=db"])
    # The file-level views read a copy taken now: opening the DB (ldb's
    # commands do) replays its WAL into a table and deletes the WAL.
    shutil.copytree("db", "files")
    files = sorted(os.listdir("files"))
    tables = [f for f in files if f.endswith(".sst")]
    wals = [f for f in files if f.endswith(".log")]
    check(len(tables) >= 2, "db_bench left several tables: %s" % files)

    # scan, dump and get agree, in key order, on NUM distinct keys.
    scan = pairs(tools.ldb("--hex", "scan"), " : ")
    dump_text = tools.ldb("--hex", "dump")
    dump = pairs(dump_text, " ==> ")
    check(len(scan) == NUM, "scan lists %d keys, not %d" % (len(scan), NUM))
    check(dump == scan, "dump and scan differ")
    check(dump_text.endswith("Keys in range: %d\n" % NUM),
          "dump's count line: " + dump_text[-40:])
    keys = [k for k, _ in scan]
    check(keys == sorted(keys) and len(set(keys)) == NUM,
          "scan's keys are distinct and in order")
    for key, value in (scan[0], scan[NUM // 2], scan[-1]):
        got = tools.ldb("--hex", "get", key).strip()
        check(got == value, "get %s: %s, scan says %s" % (key, got, value))

    # idump: one entry per key (fillseq overwrites nothing), same values.
    idump = tools.ldb("--hex", "idump")
    entries = re.findall(r"^'([0-9A-F]+)' seq:(\d+), type:1 => ([0-9A-F]+)$",
                         idump, re.M)
    check(len(entries) == NUM and idump.endswith(
        "Internal keys in range: %d\n" % NUM), "idump's entries")
    check([("0x" + k, "0x" + v) for k, _, v in entries] == scan,
          "idump's keys and values are scan's")

    # Each table (sst_dump and ldb dump --path) and each WAL (dump_wal)
    # accounts for its keys; together they hold every key once.
    seen = {}
    for table in tables:
        path = "files/" + table
        out = tools.sst_dump("--file=" + path, "--command=scan",
                             "--show_properties", "--output_hex")
        rows = re.findall(r"^'([0-9A-F]+)' seq:\d+, type:1 => ([0-9A-F]+)$",
                          out, re.M)
        m = re.search(r"^  # entries: (\d+)$", out, re.M)
        check(m is not None and int(m.group(1)) == len(rows),
              "%s: # entries is the number of entries scanned" % table)
        check(re.search(r"^  # data blocks: [1-9]\d*$", out, re.M)
              is not None, "%s: # data blocks" % table)
        via_ldb = tools.ldb("--hex", "dump", "--path=" + path)
        check(via_ldb.count(" => ") == len(rows) and
              "# entries=%d\n" % len(rows) in via_ldb,
              "%s: ldb dump --path agrees with sst_dump" % table)
        for key, value in rows:
            check(key not in seen, "key %s in two places" % key)
            seen[key] = value
    for wal in wals:
        out = tools.ldb("dump_wal", "--walfile=files/" + wal, "--header",
                        "--print_value")
        check(out.startswith("Sequence,Count,ByteSize,Physical Offset,Key(s)"),
              "dump_wal's header")
        for key, value in re.findall(r"PUT\(0\) : 0x([0-9A-F]+) : 0x([0-9A-F]+)",
                                     out):
            check(key not in seen, "key %s in two places" % key)
            seen[key] = value
    check(sorted(("0x" + k, "0x" + v) for k, v in seen.items()) == scan,
          "the tables and the WALs hold exactly the keys scan lists")

    # The MANIFEST and the live-file list name exactly the tables in the
    # DB's directory now (the reopens have added the WAL's).
    manifest = tools.ldb("manifest_dump", "--hex")
    listed = sorted("%06d.sst" % int(n) for n in
                    re.findall(r"^ (\d+):\d+\[", manifest, re.M))
    live = tools.ldb("list_live_files_metadata", "--sort_by_filename")
    live_tables = sorted(os.path.basename(f) for f in
                         re.findall(r"^(\S+\.sst) : level \d+", live, re.M))
    now = sorted(f for f in os.listdir("db") if f.endswith(".sst"))
    check(listed == now, "manifest_dump lists %s, the directory %s" %
          (listed, now))
    check(live_tables == now, "list_live_files_metadata lists %s, not %s" %
          (live_tables, now))

    # Without its MANIFEST and CURRENT the DB does not open; ldb repair
    # rebuilds them from the tables, and every key is back.
    for f in os.listdir("db"):
        if f == "CURRENT" or f.startswith("MANIFEST-"):
            os.remove(os.path.join("db", f))
    check(subprocess.run(tools.emulator + [args.ldb, "--db=db", "scan"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         timeout=300).returncode != 0,
          "scan of the DB without its MANIFEST fails")
    check(tools.ldb("repair").strip() == "OK", "ldb repair says OK")
    check(pairs(tools.ldb("--hex", "scan"), " : ") == scan,
          "after repair, scan lists the same keys and values")
    print("ok: %d keys in %d tables and %d WALs" % (NUM, len(tables),
                                                     len(wals)))


if __name__ == "__main__":
    main()
