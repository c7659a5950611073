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
"""

import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                          "golden", "ldb")

# Rows loaded as "key ==> value" text. Values may hold " ==> " (load splits
# at the first), '=', '>', spaces; one is empty.
TEXT_ROWS = [
    (b"a", b"1"),
    (b"apple", b"red fruit"),
    (b"b.1", b"x"),
    (b"b.2", b"yy"),
    (b"b.3", b"zzz"),
    (b"banana", b"v => not an arrow"),
    (b"c", b"value with ==> arrow"),
    (b"c.1", b"deleted by deleterange"),
    (b"cherry", b"a=b>c"),
    (b"d", b""),
    (b"key with spaces", b" leading and trailing "),
    (b"z", b"last=>"),
]
# Rows loaded with --hex: NUL and 0xFF bytes, spaces, '=' and '>'. No
# "\n", "\r" or 0x1A, which a Windows console stream would change.
BINARY_ROWS = [
    (b"\x00", b"nul key"),
    (b"\x00\xff", b"=>\x00"),
    (b" \xff  ", b" => "),
    (b"k\x00mid", b"v\x00\xff="),
    (b"\xff", b"\xff\xfe"),
    (b"\xff\xff\x00", b"= > ="),
]
# A third family's: 2000 rows of 100-byte values, several table blocks.
BIG_ROWS = [(b"n%05d" % i, b"%c" % (97 + i % 26) * 100) for i in range(2000)]
# The second column family's rows.
CF2_ROWS = [(b"cf2.a", b"one"), (b"cf2.b", b"two ==> 2"), (b"\x01", b"\x02")]


WINE_NOTE = re.compile(rb"^(wine: |[0-9a-f]{4}:(fixme|err|warn|trace):)")


def to_hex(data):
    return "0x" + data.hex().upper()


def c_string(data):
    """What printing data as a C string shows: up to the first NUL."""
    return data.split(b"\x00", 1)[0]


def load_lines(rows, hex_rows):
    text = b""
    for key, value in rows:
        if hex_rows:
            text += (to_hex(key) + " ==> " + to_hex(value) + "\n").encode()
        else:
            text += key + b" ==> " + value + b"\n"
    return text


class Ldb:
    """Runs one ldb binary in a working directory."""

    def __init__(self, program, work, emulator=""):
        self.command = shlex.split(emulator) + [program]
        self.work = work
        env = dict(os.environ)
        env["WINEDEBUG"] = "-all"
        self.env = env

    def run(self, args, stdin=b""):
        proc = subprocess.run(self.command + args, input=stdin,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              cwd=self.work, env=self.env, timeout=300)
        out = proc.stdout.replace(b"\r\n", b"\n")
        err = proc.stderr.replace(b"\r\n", b"\n")
        if len(self.command) > 1:
            # The emulator's own notes (wine's first start, debug
            # channels) are not ldb's.
            err = b"".join(line for line in err.splitlines(True)
                           if not WINE_NOTE.match(line))
        return proc.returncode, out, err


class Failures:
    def __init__(self):
        self.messages = []

    def check(self, ok, message):
        if not ok:
            self.messages.append(message)
            print("FAIL: " + message, flush=True)

    def finish(self, what):
        if self.messages:
            print("%d failed checks in %s" % (len(self.messages), what))
            return 1
        print("all %s checks passed" % what)
        return 0


def show(data):
    return data.decode("utf-8", "backslashreplace")


def fresh_dir(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)


# ---- golden ----------------------------------------------------------------

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
    check_sizes_and_properties(g, db, model)
    # Reopened, the DB still holds the same: recovery and tables agree.
    out = g.run("sizes", [db, "--hex", "scan"])
    failures.check(out == model_scan(sorted(model["default"].items()), True,
                                     True), "scan after compaction differs")
    write_or_compare(g.transcripts, args.update, failures)
    return failures.finish("golden")


# ---- errors ----------------------------------------------------------------

# (arguments, standard input, what stderr must match). "db" is a DB made
# first; "missing.db" does not exist.
ERROR_CASES = [
    (["--db=missing.db", "get", "a"], b"", r"Failed: .*missing\.db.*"
     r"--create_if_missing creates one"),
    (["--db=missing.db", "scan"], b"", r"Failed: .*missing\.db"),
    (["--db=missing.db", "dump"], b"", r"Failed: .*missing\.db"),
    (["--db=missing.db", "put", "a", "b"], b"", r"Failed: .*missing\.db"),
    (["--db=missing.db", "load"], b"a ==> b\n", r"Failed: .*missing\.db"),
    (["--db=missing.db", "list_column_families"], b"",
     r"Failed: .*missing\.db"),
    (["--db=db", "--column_family=nope", "get", "a"], b"",
     r"Failed: Non-existing column family nope\n"),
    (["--db=db", "--column_family=nope", "put", "a", "b"], b"",
     r"Failed: Non-existing column family nope\n"),
    (["--db=db", "--hex", "get", "0xZZ"], b"",
     r"Failed: Invalid hex input 0xZZ\.  'Z' is not a hex digit\n"),
    (["--db=db", "--hex", "get", "612E31"], b"",
     r"Failed: Invalid hex input 612E31\.  Must start with 0x\n"),
    (["--db=db", "--hex", "get", "0x612"], b"",
     r"Failed: Invalid hex input 0x612\.  Must have an even number"),
    (["--db=db", "--value_hex", "put", "a", "0xG1"], b"",
     r"Failed: Invalid hex input 0xG1\."),
    (["--db=db", "--key_hex", "scan", "--from=0x6"], b"",
     r"Failed: Invalid hex input 0x6\."),
    (["--db=db", "--hex", "load"], b"0x61 ==> 0x62\n0x6 ==> 0x62\n",
     r"Failed: line 2: Invalid hex input 0x6\."),
    (["--db=db", "frobnicate"], b"",
     r"Unknown command frobnicate\n(.|\n)*Data Access Commands:"),
    ([], b"", r"No command given\n(.|\n)*Admin Commands:"),
    (["--db=db", "get", "a", "--bogus"], b"",
     r"Invalid command-line flag bogus\n(.|\n)*Data Access Commands:"),
    (["--db=db", "--bogus=1", "scan"], b"",
     r"Invalid command-line option bogus\n"),
    (["--db=db", "get", "a", "--max_keys=3"], b"",
     r"Invalid command-line option max_keys\n"),
    (["--db", "get", "a"], b"", r"Invalid command-line flag db\n"),
    (["get", "a"], b"", r"Failed: --db=<path_to_db_directory> must be"),
    (["--db=db", "get"], b"",
     r"Failed: <key> must be specified for the get command\n"),
    (["--db=db", "put", "a"], b"",
     r"Failed: <key> and <value> must be specified for the put command\n"),
    (["--db=db", "batchput", "a"], b"",
     r"Failed: At least one <key> <value> pair must be specified"),
    (["--db=db", "delete"], b"", r"Failed: KEY must be specified"),
    (["--db=db", "singledelete"], b"", r"Failed: KEY must be specified"),
    (["--db=db", "deleterange", "a"], b"",
     r"Failed: begin and end keys must be specified"),
    (["--db=db", "approxsize", "--from=a"], b"",
     r"Failed: to must be specified for approxsize command\n"),
    (["--db=db", "approxsize"], b"",
     r"Failed: from must be specified for approxsize command\n"),
    (["--db=db", "scan", "--max_keys=ten"], b"",
     r"Failed: max_keys has an invalid value\n"),
    (["--db=db", "dump", "--max_keys=1x"], b"",
     r"Failed: max_keys has an invalid value\n"),
    (["--db=db", "get_property"], b"",
     r"Failed: property name must be specified\n"),
    (["--db=db", "get_property", "strata.no-such-property"], b"",
     r"Failed: failed to get property: strata\.no-such-property\n"),
    (["--db=db", "create_column_family"], b"",
     r"Failed: new column family name must be specified\n"),
    (["--db=db", "create_column_family", "default"], b"",
     r"Failed: Fail to create new column family: "),
    (["--db=db", "drop_column_family"], b"",
     r"Failed: The name of column family to drop must be specified\n"),
    (["--db=db", "drop_column_family", "nope"], b"",
     r"Failed: Column family: nope doesn't exist in db\.\n"),
    (["--db=db", "drop_column_family", "default"], b"",
     r"Failed: Fail to drop column family: "),
    (["--db=db", "--try_load_options=maybe", "get", "a"], b"",
     r"Failed: try_load_options has an invalid value\n"),
    (["--db=db", "get", "no such key"], b"", r"Failed: Get failed: NotFound"),
]


def errors(args):
    fresh_dir(args.work)
    failures = Failures()
    ldb = Ldb(args.ldb, args.work, args.emulator)
    rc, out, err = ldb.run(["--db=db", "--create_if_missing", "put", "a", "b"])
    failures.check(rc == 0 and out == b"OK\n", "making the DB: " + show(err))
    for argv, stdin, pattern in ERROR_CASES:
        rc, out, err = ldb.run(argv, stdin)
        what = "ldb " + " ".join(argv)
        failures.check(rc == 1, "%s: exit status %d, not 1" % (what, rc))
        failures.check(re.search(pattern.encode(), err) is not None,
                       "%s: stderr does not match %r:\n%s" %
                       (what, pattern, show(err)))
        failures.check(b"Sanitizer" not in err and b"runtime error" not in err,
                       "%s: sanitizer report:\n%s" % (what, show(err)))
        failures.check(b"Failed" not in out and b"Invalid" not in out,
                       "%s: error on stdout:\n%s" % (what, show(out)))
    failures.check(not os.path.exists(os.path.join(args.work, "missing.db")),
                   "a command without --create_if_missing made missing.db")
    # Nothing above changed the DB.
    rc, out, _ = ldb.run(["--db=db", "scan"])
    failures.check(rc == 0 and out == b"a : b\n",
                   "the DB after the errors: " + show(out))
    # --try_load_options finds no OPTIONS file and opens with defaults.
    for flag in ("--try_load_options", "--try_load_options=false",
                 "--ignore_unknown_options"):
        rc, out, err = ldb.run(["--db=db", flag, "get", "a"])
        failures.check(rc == 0 and out == b"b\n",
                       "get with %s: %d %s" % (flag, rc, show(err)))
    rc, out, _ = ldb.run(["--help"])
    failures.check(rc == 0 and b"Data Access Commands:" in out,
                   "ldb --help: exit %d" % rc)
    return failures.finish("error")


# ---- compare with RocksDB's ldb --------------------------------------------

def compare_steps():
    """(arguments, standard input) run against both tools, in order."""
    build = [
        (["--create_if_missing", "load"],
         load_lines(TEXT_ROWS, False) + b"no arrow here\n" +
         b"k\x00nul ==> raw \xff=>\x00bytes\n" + b"Keys in range: 3\n"),
        (["--hex", "load"], load_lines(BINARY_ROWS, True)),
        (["put", "added", "by put"], b""),
        (["--hex", "put", "0x00FE", "0x3D3E"], b""),
        (["batchput", "bp1", "v1", "bp2", "v 2"], b""),
        (["delete", "apple"], b""),
        (["singledelete", "b.3"], b""),
        (["deleterange", "c", "cherry"], b""),
        (["--key_hex", "delete", "0xFF"], b""),
        (["create_column_family", "cf2"], b""),
        (["--column_family=cf2", "--hex", "load"], load_lines(CF2_ROWS, True)),
    ]
    queries = []
    for flags in ([], ["--hex"], ["--key_hex"], ["--value_hex"]):
        queries += [
            flags + ["scan"],
            flags + ["scan", "--no_value"],
            flags + ["scan", "--max_keys=3"],
            flags + ["scan", "--max_keys=0"],
            flags + ["dump"],
            flags + ["dump", "--max_keys=4"],
            flags + ["dump", "--max_keys=0"],
            flags + ["dump", "--count_only"],
            flags + ["dump", "--count_delim"],
            flags + ["--column_family=cf2", "scan"],
            flags + ["--column_family=cf2", "dump"],
        ]
    queries += [
        ["scan", "--from=b", "--to=c"],
        ["scan", "--from=b.2"],
        ["scan", "--to=b"],
        ["dump", "--from=b", "--to=c"],
        ["dump", "--from=b", "--to=c", "--count_only"],
        ["dump", "--to=b", "--count_delim=."],
        ["dump", "--count_delim=1", "--count_only"],
        ["--hex", "scan", "--from=0x00", "--to=0x0100"],
        ["--key_hex", "dump", "--from=0x20", "--to=0x62", "--max_keys=5"],
        ["--hex", "dump", "--from=0xFF", "--count_only"],
        ["get", "banana"],
        ["get", "d"],
        ["get", "key with spaces"],
        ["get", "missing"],
        ["--hex", "get", "0x00FF"],
        ["--key_hex", "get", "0x6B006D6964"],
        ["--value_hex", "get", "z"],
        ["--column_family=cf2", "get", "cf2.b"],
        ["list_column_families"],
    ]
    return build, queries


def compare(args):
    failures = Failures()
    tools = {}
    for name, program in (("rocksdb", args.rocksdb_ldb),
                          ("strata", args.ldb)):
        work = os.path.join(args.work, name)
        fresh_dir(work)
        tools[name] = Ldb(program, work, args.emulator if name == "strata"
                          else "")
    rc, out, _ = tools["rocksdb"].run(["--help"])
    failures.check(b"RocksDB" in out, "%s is not RocksDB's ldb" %
                   args.rocksdb_ldb)
    build, queries = compare_steps()
    steps = [(argv, stdin) for argv, stdin in build] + [
        (argv, b"") for argv in queries]
    for argv, stdin in steps:
        results = {name: tool.run(["--db=db"] + argv, stdin)
                   for name, tool in tools.items()}
        (rrc, rout, _), (src, sout, serr) = results["rocksdb"], \
            results["strata"]
        what = "ldb --db=db " + " ".join(argv)
        failures.check(rrc == src, "%s: exit %d (RocksDB) vs %d (strata): %s"
                       % (what, rrc, src, show(serr)))
        if rout != sout:
            diff = difflib.unified_diff(show(rout).splitlines(),
                                        show(sout).splitlines(), "rocksdb",
                                        "strata", lineterm="")
            failures.check(False, "%s: outputs differ\n%s" %
                           (what, "\n".join(diff)))
    print("%d commands compared" % len(steps))
    return failures.finish("RocksDB comparison")


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
