#!/usr/bin/env python3
"""Tests of tools/ldb, run by ctest (cmake/StrataTests.cmake).

  ldb_test.py golden  --ldb=LDB --work=DIR [--emulator=CMD] [--update]
  ldb_test.py errors  --ldb=LDB --work=DIR [--emulator=CMD]
  ldb_test.py compare --ldb=LDB --rocksdb_ldb=ROCKSDB_LDB --work=DIR

golden: builds a DB through ldb's own commands (load, put, batchput,
  delete, deleterange, singledelete, a second column family) from the rows
  below, then checks every command's output against a model of the DB
  kept here, and against the files in test/tools/golden/ldb/ (--update
  rewrites them).
errors: bad command lines and bad DBs: each exits with status 1 and a
  message naming what is wrong, with no crash or sanitizer report.
compare: builds a RocksDB DB with RocksDB's ldb and a strata DB with
  strata's from the same rows and commands, and requires scan, get, dump
  (and list_column_families) to print the same bytes and exit alike.

DB paths are relative to the working directory (DIR), so that a Windows
ldb.exe under an emulator (wine) finds them too; "\\r\\n" is read as "\\n".
The errors and compare modes are in ldb_test_errors.py and
ldb_test_compare.py, what the modes share in ldb_test_common.py.
"""

import argparse
import difflib
import os
import re
import shlex
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree

from ldb_test_common import (BIG_ROWS, BINARY_ROWS, CF2_ROWS, TEXT_ROWS,
                             Failures, Ldb, c_string, fresh_dir, load_lines,
                             show, to_hex)
from ldb_test_compare import compare
from ldb_test_errors import errors

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "golden", "ldb")

class GoldenRun:
    """Runs commands, checks each succeeds, and keeps a transcript per file."""

    def __init__(self, ldb, failures):
        self.ldb = ldb
        self.failures = failures
        self.transcripts = {}

    def run(self, section, args, stdin=b"", mask=None):
        rc, out, err = self.ldb.run(args, stdin)
        self.failures.check(
            rc == 0 and not err,
            "ldb %s: exit %d, stderr %s" % (" ".join(args), rc, show(err)))
        shown = out if mask is None else mask(out)
        entry = ("$ ldb " + " ".join(shlex.quote(a) for a in args) +
                 "\n").encode() + shown
        entry += ("[exit %d]\n\n" % rc).encode()
        self.transcripts[section] = self.transcripts.get(section, b"") + entry
        return out


def model_scan(rows, key_hex, value_hex, no_value=False):
    out = b""
    for key, value in rows:
        out += to_hex(key).encode() if key_hex else c_string(key)
        if not no_value:
            out += b" : "
            out += to_hex(value).encode() if value_hex else c_string(value)
        out += b"\n"
    return out


def model_dump(rows, key_hex, value_hex):
    out = b""
    for key, value in rows:
        line = (to_hex(key).encode() if key_hex else key) + b" ==> "
        line += to_hex(value).encode() if value_hex else value
        out += c_string(line) + b"\n"
    return out + b"Keys in range: %d\n" % len(rows)


def build_golden_db(g, db):
    """Builds the DB; returns the model: {family: {key: value}}."""
    default = {}
    bad_line = b"this line has no arrow\n"
    g.run("build", [db, "--create_if_missing", "load"],
          load_lines(TEXT_ROWS, False) + bad_line + b"Keys in range: 12\n")
    default.update(TEXT_ROWS)
    g.run("build", [db, "--hex", "load"], load_lines(BINARY_ROWS, True))
    default.update(BINARY_ROWS)
    g.run("build", [db, "put", "added", "by put"])
    default[b"added"] = b"by put"
    g.run("build", [db, "--hex", "put", "0x00FE", "0x3D3E"])
    default[b"\x00\xfe"] = b"=>"
    g.run("build", [db, "batchput", "bp1", "v1", "bp2", "v 2"])
    default.update({b"bp1": b"v1", b"bp2": b"v 2"})
    g.run("build", [db, "delete", "apple"])
    del default[b"apple"]
    g.run("build", [db, "singledelete", "b.3"])
    del default[b"b.3"]
    g.run("build", [db, "deleterange", "c", "cherry"])  # c and c.1
    del default[b"c"], default[b"c.1"]
    g.run("build", [db, "--key_hex", "delete", "0xFF"])
    del default[b"\xff"]
    g.run("build", [db, "create_column_family", "cf2"])
    # A family with enough data for several blocks, for approxsize.
    g.run("build", [db, "create_column_family", "big"])
    g.run("build", [db, "--column_family=big", "load", "--disable_wal"],
          load_lines(BIG_ROWS, False))
    g.run("build", [db, "--column_family=cf2", "--hex", "load"],
          load_lines(CF2_ROWS, True))
    return {"default": default, "cf2": dict(CF2_ROWS)}


def check_against_model(g, db, model):
    rows = sorted(model["default"].items())
    for key_hex, value_hex in ((False, False), (True, True), (True, False),
                               (False, True)):
        flags = (["--key_hex"] if key_hex else []) + (
            ["--value_hex"] if value_hex else [])
        out = g.run("scan", [db] + flags + ["scan"])
        g.failures.check(out == model_scan(rows, key_hex, value_hex),
                         "scan %s differs from the model:\n%s" %
                         (flags, show(out)))
        out = g.run("dump", [db] + flags + ["dump"])
        g.failures.check(out == model_dump(rows, key_hex, value_hex),
                         "dump %s differs from the model:\n%s" %
                         (flags, show(out)))
    out = g.run("scan", [db, "scan", "--no_value"])
    g.failures.check(out == model_scan(rows, False, False, no_value=True),
                     "scan --no_value differs from the model")
    in_range = [r for r in rows if b"b" <= r[0] < b"c"]
    out = g.run("scan", [db, "scan", "--from=b", "--to=c"])
    g.failures.check(out == model_scan(in_range, False, False),
                     "scan --from=b --to=c differs from the model")
    out = g.run("scan", [db, "--hex", "scan", "--from=0x00", "--to=0x0100",
                         "--max_keys=3"])
    g.failures.check(out == model_scan(rows[:3], True, True),
                     "scan --from=0x00 --max_keys=3 differs from the model")
    out = g.run("dump", [db, "dump", "--from=b", "--to=c"])
    g.failures.check(out == model_dump(in_range, False, False),
                     "dump --from=b --to=c differs from the model")
    out = g.run("dump", [db, "--hex", "dump", "--max_keys=2"])
    g.failures.check(out == model_dump(rows[:2], True, True),
                     "dump --max_keys=2 differs from the model")
    out = g.run("dump", [db, "dump", "--count_only"])
    g.failures.check(out.startswith(b"Keys in range: %d\n" % len(rows)),
                     "dump --count_only counts wrong:\n" + show(out))
    g.run("dump", [db, "dump", "--count_only", "--from=b", "--to=c"])
    g.run("dump", [db, "dump", "--count_delim"])
    g.run("dump", [db, "dump", "--count_delim= ", "--from=a"])
    for key, value in rows:
        out = g.run("get", [db, "--hex", "get", to_hex(key)])
        g.failures.check(out == (to_hex(value) + "\n").encode(),
                         "get %s: %s" % (to_hex(key), show(out)))
    g.run("get", [db, "get", "banana"])
    g.run("get", [db, "--value_hex", "get", "b.1"])
    g.run("get", [db, "--key_hex", "get", "0x6B006D6964"])
    cf2 = sorted(model["cf2"].items())
    out = g.run("families", [db, "--column_family=cf2", "--hex", "scan"])
    g.failures.check(out == model_scan(cf2, True, True),
                     "scan of cf2 differs from the model")
    g.run("families", [db, "--column_family=cf2", "dump"])
    g.run("families", [db, "--column_family=cf2", "get", "cf2.b"])
    g.run("families", [db, "list_column_families"])


def check_sizes_and_properties(g, db, model):
    # compact flushes the memtables first: afterwards every key is in a
    # table, which approxsize measures.
    g.run("sizes", [db, "compact"])
    g.run("sizes", [db, "--column_family=cf2", "compact", "--from=cf2.a"])
    g.run("sizes", [db, "checkconsistency"])
    g.run("sizes", [db, "--column_family=big", "compact"])
    sizes = {}
    for name, args in (("all", ["--from=0x00", "--to=0xFF"]),
                       ("part", ["--from=0x6E3030313030",
                                 "--to=0x6E3030323030"]),
                       ("none", ["--from=0x7A7A", "--to=0x7A7B"])):
        out = g.run("sizes", [db, "--column_family=big", "--key_hex",
                              "approxsize"] + args,
                    mask=lambda out: re.sub(rb"^\d+\n$", b"<bytes>\n", out))
        match = re.fullmatch(rb"(\d+)\n", out)
        g.failures.check(match is not None, "approxsize printed " + show(out))
        sizes[name] = int(match.group(1)) if match else -1
    # Sizes come from the table files' layout (and compression), so only
    # their order is checked: the empty range has none, a part less than
    # the whole.
    # (The part holds 100 of the 2000 keys.)
    g.failures.check(sizes["none"] == 0 and
                     0 < sizes["part"] < sizes["all"] / 4,
                     "approxsize: %s" % sizes)
    keys = len(model["default"])
    out = g.run("properties", [db, "get_property", "strata.estimate-num-keys"])
    g.failures.check(out == b"strata.estimate-num-keys: %d\n" % keys,
                     "estimate-num-keys after compaction: " + show(out))
    g.run("properties", [db, "get_property", "rocksdb.estimate-num-keys"])
    g.run("properties", [db, "--column_family=cf2", "get_property",
                         "strata.estimate-num-keys"])
    g.run("properties", [db, "get_property", "strata.num-files-at-level0"])
    out = g.run("properties", [db, "get_property", "strata.cfstats"],
                mask=lambda out: b"<map>\n")
    g.failures.check(re.match(rb"(strata\.cfstats\.[\w.-]+: \S+\n)+$", out)
                     is not None, "cfstats map: " + show(out))
    out = g.run("properties", [db, "dump", "--stats", "--max_keys=1"],
                mask=lambda out: b"<stats>\n" + out.split(b"\n")[-3] + b"\n" +
                out.split(b"\n")[-2] + b"\n")
    g.failures.check(out.endswith(b"Keys in range: 1\n") and
                     b"Level" in out, "dump --stats: " + show(out))


def check_checkpoint(g, db, model):
    # The checkpoint opens as a DB of its own with every family's data.
    g.run("checkpoint", [db, "checkpoint", "--checkpoint_dir=golden.ckpt"])
    for family in ("default", "cf2"):
        out = g.run("checkpoint", ["--db=golden.ckpt",
                                   "--column_family=" + family, "--hex",
                                   "scan"])
        g.failures.check(
            out == model_scan(sorted(model[family].items()), True, True),
            "scan of the checkpoint's %s differs from the model" % family)


def check_backup(g, db, model):
    # Two backups; the newest restores as a DB with every family's data.
    g.run("backup", [db, "backup", "--backup_dir=golden.backups"])
    g.run("backup", [db, "put", "after", "the first backup"])
    g.run("backup", [db, "backup", "--backup_dir=golden.backups",
                     "--num_threads=2"])
    g.run("backup", ["--db=golden.restored", "restore",
                     "--backup_dir=golden.backups"])
    expected = {"default": dict(model["default"]), "cf2": model["cf2"]}
    expected["default"][b"after"] = b"the first backup"
    for family in ("default", "cf2"):
        out = g.run("backup", ["--db=golden.restored",
                               "--column_family=" + family, "--hex", "scan"])
        g.failures.check(
            out == model_scan(sorted(expected[family].items()), True, True),
            "scan of the restored %s differs from the model" % family)
    g.run("backup", [db, "delete", "after"])


def write_or_compare(transcripts, update, failures):
    for section, text in sorted(transcripts.items()):
        path = os.path.join(GOLDEN_DIR, section + ".txt")
        if update:
            os.makedirs(GOLDEN_DIR, exist_ok=True)
            with open(path, "wb") as f:
                f.write(text)
            print("wrote " + path)
            continue
        with open(path, "rb") as f:
            expected = f.read().replace(b"\r\n", b"\n")
        if expected != text:
            diff = difflib.unified_diff(
                show(expected).splitlines(), show(text).splitlines(),
                "golden/" + section + ".txt", "ldb output", lineterm="")
            failures.check(False, "golden %s differs:\n%s" %
                           (section, "\n".join(diff)))
    expected = {f[:-4] for f in os.listdir(GOLDEN_DIR) if f.endswith(".txt")}
    failures.check(update or expected == set(transcripts),
                   "golden files without a section: %s" %
                   (expected - set(transcripts)))


def golden(args):
    fresh_dir(args.work)
    failures = Failures()
    g = GoldenRun(Ldb(args.ldb, args.work, args.emulator), failures)
    db = "--db=golden.db"
    model = build_golden_db(g, db)
    check_against_model(g, db, model)
    check_checkpoint(g, db, model)
    check_backup(g, db, model)
    check_sizes_and_properties(g, db, model)
    # Reopened, the DB still holds the same: recovery and tables agree.
    out = g.run("sizes", [db, "--hex", "scan"])
    failures.check(out == model_scan(sorted(model["default"].items()), True,
                                     True), "scan after compaction differs")
    write_or_compare(g.transcripts, args.update, failures)
    return failures.finish("golden")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["golden", "errors", "compare"])
    parser.add_argument("--ldb", required=True)
    parser.add_argument("--rocksdb_ldb", default="")
    parser.add_argument("--emulator", default="")
    parser.add_argument("--work", required=True)
    parser.add_argument("--update", action="store_true",
                        help="rewrite the golden files")
    args = parser.parse_args()
    args.work = os.path.abspath(args.work)
    args.ldb = os.path.abspath(args.ldb)
    if args.mode == "compare" and not args.rocksdb_ldb:
        parser.error("compare needs --rocksdb_ldb")
    return {"golden": golden, "errors": errors, "compare": compare}[
        args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
